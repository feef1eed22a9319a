"""Seat links: a random token per seat and game, the only credential of a seat's page.

The tokens live in the table store beside the sessions, in a side table of their own
(``web_links``), so that the daemon and ``companion seats`` share them; the table log and its
export never see them. A token is 192 random bits (``secrets.token_urlsafe(24)``), new for
every session; re-issuing a seat's token replaces the row, which revokes the old link. Each
seat also has a join code (``web_joins``: 130 random bits in 26 upper-case base32 letters),
the short link ``/J/CODE`` its QR code on a 128x64 screen carries; it is made and re-issued
with the seat's token.
``seat_of`` compares a given token with every seat's in constant time (``hmac.compare_digest``).

>>> book = TokenBook(":memory:")
>>> tokens = book.issue(1, 3)
>>> book.seat_of(tokens[2]) is None   # no session is being served yet
True
>>> book.serve(1); book.seat_of(tokens[2]), book.seat_of("x" * 32)
(2, None)
"""

from __future__ import annotations

import asyncio
import base64
import hmac
import logging
import secrets
import sqlite3
import time
from ipaddress import IPv6Address, ip_address, ip_network

from companion.table.opening import BUSY_TIMEOUT, connect_for_reading

log = logging.getLogger("companion.web")

#: 24 random bytes: 192 bits, in 32 URL-safe characters.
TOKEN_BYTES = 24
#: A join code: the first 26 base32 letters of 17 random bytes, 130 random bits.
JOIN_BYTES, JOIN_LETTERS = 17, 26

SCHEMA = """
CREATE TABLE IF NOT EXISTS web_links (
    session_id INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    token TEXT NOT NULL,
    PRIMARY KEY (session_id, seat)
);
CREATE TABLE IF NOT EXISTS web_joins (
    session_id INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    code TEXT NOT NULL,
    PRIMARY KEY (session_id, seat)
);
CREATE TABLE IF NOT EXISTS web_languages (
    session_id INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    lang TEXT NOT NULL,
    PRIMARY KEY (session_id, seat)
);
CREATE TABLE IF NOT EXISTS web_address (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    url TEXT NOT NULL
);
"""


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def new_join_code() -> str:
    """A seat's join code: 26 upper-case base32 letters, 130 random bits (QR alphanumeric)."""
    return base64.b32encode(secrets.token_bytes(JOIN_BYTES)).decode()[:JOIN_LETTERS]


def stored_joins(db: sqlite3.Connection, session_id: int) -> dict[int, str]:
    return dict(db.execute("SELECT seat, code FROM web_joins WHERE session_id = ?",
                           (session_id,)).fetchall())


def open_links(path: str, read_only: bool = False) -> sqlite3.Connection | None:
    """A connection to the store's side tables (None: read-only and no store there)."""
    if read_only:
        db = connect_for_reading(path)
        if db is not None and not has_links(db):
            db.close()
            return None
        return db
    db = sqlite3.connect(path, isolation_level=None, timeout=BUSY_TIMEOUT,
                         check_same_thread=False)
    if path != ":memory:":
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
    db.executescript(SCHEMA)
    return db


def has_links(db: sqlite3.Connection) -> bool:
    row = db.execute("SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' "
                     "AND name = 'web_links'").fetchone()
    return bool(row[0])


def stored_tokens(db: sqlite3.Connection, session_id: int) -> dict[int, str]:
    return dict(db.execute("SELECT seat, token FROM web_links WHERE session_id = ?",
                           (session_id,)).fetchall())


#: The row of the table's controls link: not a session's, not a seat's.
TABLE_ROW = (0, -1)


def table_token(db: sqlite3.Connection) -> str | None:
    row = db.execute("SELECT token FROM web_links WHERE session_id = ? AND seat = ?",
                     TABLE_ROW).fetchone()
    return row[0] if row else None


def stored_url(db: sqlite3.Connection) -> str | None:
    row = db.execute("SELECT url FROM web_address WHERE id = 1").fetchone()
    return row[0] if row else None


def reissue(db: sqlite3.Connection, session_id: int, seat: int) -> str:
    """A new token for ``seat`` of ``session_id`` (``TABLE_ROW``: the table's controls);
    the old one stops working."""
    token = new_token()
    with db:
        db.execute("BEGIN IMMEDIATE")
        db.execute("INSERT OR REPLACE INTO web_links (session_id, seat, token) "
                   "VALUES (?, ?, ?)", (session_id, seat, token))
        if (session_id, seat) != TABLE_ROW:  # the seat's join code goes with its link
            db.execute("INSERT OR REPLACE INTO web_joins (session_id, seat, code) "
                       "VALUES (?, ?, ?)", (session_id, seat, new_join_code()))
    return token


class TokenBook:
    """The seat tokens of the session being served, kept in step with the store.

    ``refresh`` re-reads them when another connection changed the store (a re-issue by
    ``companion seats --reissue``), which SQLite's ``data_version`` tells cheaply.
    """

    def __init__(self, path: str) -> None:
        self.path = path
        db = open_links(path)
        assert db is not None
        self.db = db
        self.session: int | None = None
        self.tokens: dict[int, str] = {}
        self.joins: dict[int, str] = {}  # seat -> its join code (the short link of its QR)
        self.table = table_token(self.db) or self._new_table_token()
        self._version = self._data_version()

    def _new_table_token(self) -> str:
        token = new_token()
        self.db.execute("INSERT OR IGNORE INTO web_links (session_id, seat, token) "
                        "VALUES (?, ?, ?)", (*TABLE_ROW, token))
        return table_token(self.db) or token

    def _data_version(self) -> int:
        return int(self.db.execute("PRAGMA data_version").fetchone()[0])

    def issue(self, session_id: int, seats: int) -> dict[int, str]:
        """The tokens of ``session_id``'s seats, made for the seats that have none yet."""
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            have = stored_tokens(self.db, session_id)
            joins = stored_joins(self.db, session_id)
            for seat in range(seats):
                if seat not in have:
                    self.db.execute("INSERT INTO web_links (session_id, seat, token) "
                                    "VALUES (?, ?, ?)", (session_id, seat, new_token()))
                if seat not in have or seat not in joins:
                    self.db.execute("INSERT OR REPLACE INTO web_joins (session_id, seat, "
                                    "code) VALUES (?, ?, ?)",
                                    (session_id, seat, new_join_code()))
        self.joins = stored_joins(self.db, session_id)
        return stored_tokens(self.db, session_id)

    def set_url(self, url: str) -> None:
        self.db.execute("INSERT OR REPLACE INTO web_address (id, url) VALUES (1, ?)", (url,))

    def serve(self, session_id: int | None, seats: int = 0) -> None:
        """From now on, the tokens of ``session_id`` open its seats (None: no seat opens)."""
        self.session = session_id
        self.joins = {}
        self.tokens = self.issue(session_id, seats) if session_id is not None else {}

    def refresh(self) -> list[int]:
        """Re-read the tokens if the store changed; the seats whose token changed."""
        version = self._data_version()
        if version == self._version:
            return []
        self._version = version
        changed = []
        table = table_token(self.db) or self.table
        if table != self.table:
            self.table = table
            changed.append(-1)
        if self.session is not None:
            fresh = stored_tokens(self.db, self.session)
            changed += [seat for seat, token in fresh.items() if self.tokens.get(seat) != token]
            self.tokens = fresh
            self.joins = stored_joins(self.db, self.session)
        return changed

    def is_table(self, given: str) -> bool:
        """Whether ``given`` is the table's controls token (constant time)."""
        return hmac.compare_digest(given.encode("utf-8", "replace"), self.table.encode())

    def seat_of(self, given: str) -> int | None:
        """The seat whose token ``given`` is, or None; every seat is compared, in constant
        time, whatever matches."""
        found = None
        supplied = given.encode("utf-8", "replace")
        for seat, token in sorted(self.tokens.items()):
            if hmac.compare_digest(supplied, token.encode()):
                found = seat
        return found

    def languages(self) -> dict[int, str]:
        """The languages the seats of the session served chose for their pages."""
        if self.session is None:
            return {}
        return dict(self.db.execute("SELECT seat, lang FROM web_languages WHERE session_id = ?",
                                    (self.session,)).fetchall())

    def choose_language(self, seat: int, lang: str) -> None:
        """Seat ``seat`` of the session served reads its page in ``lang`` (kept: durable)."""
        if self.session is not None:
            self.db.execute("INSERT OR REPLACE INTO web_languages (session_id, seat, lang) "
                            "VALUES (?, ?, ?)", (self.session, seat, lang))

    def seat_of_join(self, given: str) -> int | None:
        """The seat whose join code ``given`` is (any case), or None; constant time, every
        seat compared, as ``seat_of``."""
        found = None
        supplied = given.upper().encode("utf-8", "replace")
        for seat, code in sorted(self.joins.items()):
            if hmac.compare_digest(supplied, code.encode()):
                found = seat
        return found

    def close(self) -> None:
        self.db.close()


class Throttle:
    """Wrong links (a seat's token, a join code, the table's link) are answered ever more slowly,
    and only a few at a time, from an address that keeps trying.

    The first ``free`` failures of an address within ``window`` seconds cost nothing; each later
    one waits twice as long as the one before, from ``base`` seconds up to ``cap`` (however many
    there were: the delay never overflows). While ``per_address`` failures of an address are
    waiting, or ``limit`` of all addresses (and this one has already failed more than ``free``
    times), its next request is refused at once, before its link is even looked at
    (``busy``): an address gets at most ``per_address`` links checked every ``cap`` seconds,
    however many requests it opens side by side. An IPv6 address counts by its /64 (one
    machine's). Each burst of one address is logged once, when it starts to be slowed.

    >>> throttle = Throttle(free=1, base=1.0, cap=8.0, clock=lambda: 0.0)
    >>> [throttle.delay("10.0.0.9") for _ in range(6)]
    [0.0, 1.0, 2.0, 4.0, 8.0, 8.0]
    >>> {throttle.delay("10.0.0.9") for _ in range(5000)}
    {8.0}
    """

    def __init__(self, free: int = 5, base: float = 0.05, cap: float = 3.0,
                 window: float = 60.0, clock=time.monotonic,  # noqa: ANN001
                 per_address: int = 4, limit: int = 64) -> None:
        self.free, self.base, self.cap, self.window, self.clock = free, base, cap, window, clock
        self.per_address, self.limit = per_address, limit
        self.failures: dict[str, tuple[int, float]] = {}
        self.waiting: dict[str, int] = {}  # address -> its failures being answered slowly
        self.total = 0  # all addresses' failures being answered slowly
        self.sleep = asyncio.sleep  # how a failure waits (a test holds it)

    def delay(self, address: str) -> float:
        """Record one failure from ``address``; how long to wait before answering it."""
        key = address_key(address)
        now = self.clock()
        count, last = self.failures.get(key, (0, now))
        count = 1 if now - last > self.window else count + 1
        self.failures[key] = (count, now)
        if len(self.failures) > 4096:  # forget the oldest addresses, not the memory
            for stale in sorted(self.failures, key=lambda a: self.failures[a][1])[:2048]:
                del self.failures[stale]
        if count <= self.free:
            return 0.0
        if count == self.free + 1:
            log.warning("wrong links from %s: answered ever more slowly, a few at a time", key)
        doublings = min(count - self.free - 1, 64)  # 2**64 * base is past any cap
        return min(self.cap, self.base * 2.0 ** doublings)

    def busy(self, address: str) -> bool:
        """Whether a request from ``address`` is refused before its link is looked at: too
        many of its wrong links are being answered already."""
        key = address_key(address)
        if self.waiting.get(key, 0) >= self.per_address:
            return True
        if self.total < self.limit:
            return False
        count, last = self.failures.get(key, (0, 0.0))
        return count > self.free and self.clock() - last <= self.window

    async def refuse(self, address: str, checked: bool = True) -> None:
        """One failure from ``address``: returns when it may be answered. ``checked``: its link
        was looked at (else it was refused as ``busy``, and is answered at once)."""
        seconds = self.delay(address)
        key = address_key(address)
        if not checked or seconds <= 0 or self.waiting.get(key, 0) >= self.per_address:
            return
        self.waiting[key] = self.waiting.get(key, 0) + 1
        self.total += 1
        try:
            await self.sleep(seconds)
        finally:
            self.total -= 1
            left = self.waiting[key] - 1
            if left:
                self.waiting[key] = left
            else:
                del self.waiting[key]


def address_key(address: str) -> str:
    """What the throttle counts by: the address, or an IPv6 address's /64."""
    try:
        ip = ip_address(address)
    except ValueError:
        return address
    if not isinstance(ip, IPv6Address):
        return str(ip)
    if ip.ipv4_mapped is not None:
        return str(ip.ipv4_mapped)
    return str(ip) if ip.is_loopback else str(ip_network(f"{ip}/64", strict=False))
