"""The durable table store: SQLite in WAL mode, one row per accepted event.

An event counts as accepted only once its transaction has committed with
``synchronous=FULL``, so a power cut after "accepted" loses nothing. The store never
holds an event the engine refused: ``StoredSession.append`` applies first, writes second;
nor a header its own reader refuses (``Header.to_line``). A write that fails (a full disk)
changes nothing, in memory or on disk, and raises a StoreError (``faults.py``).

>>> store = TableStore(":memory:")
>>> table = store.new_session(Header("traps", ("Ann", "Bob"), seed=7))
>>> table.append({"type": "expose", "seat": 0, "square": "T1", "clicks": 3})
1
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from companion import paths
from companion.errors import CompanionError, LogError
from companion.table import players, results
from companion.table.faults import StorageFull, StoreDamaged, StoreError, damaged, guard
from companion.table.log import Header, dump_event
from companion.table.opening import connect_for_reading, connect_for_writing
from companion.table.session import TableSession

__all__ = ["SessionInfo", "StoreError", "StoredSession", "TableStore"]

#: PRAGMA user_version of a store with players, seats and results (0: events only).
SCHEMA_VERSION = 1
#: Session ids are SQLite integers; a larger number names no session.
ID_LIMIT = 2**63

SCHEMA = """
CREATE TABLE IF NOT EXISTS sessions (
    id INTEGER PRIMARY KEY,
    header TEXT NOT NULL,
    created TEXT NOT NULL,
    finished INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS events (
    session_id INTEGER NOT NULL REFERENCES sessions(id),
    seq INTEGER NOT NULL,
    body TEXT NOT NULL,
    PRIMARY KEY (session_id, seq)
);
"""


#: What ``schema_problem`` says of a file with none of a table store's tables yet.
NEW_STORE = "no table store yet"


def schema_problem(db: sqlite3.Connection) -> str:
    """What is missing from the store's tables for its version, or "" if nothing is: the
    one notion of a whole schema, for ``companion check`` and for every command that writes.

    A store of version 0 (events only) needs sessions and events; from version 1 on it has
    players, seats and results too, and a table dropped from one is damage, not an old store.
    """
    tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    needed = ["sessions", "events"]
    version = int(db.execute("PRAGMA user_version").fetchone()[0])
    if version >= SCHEMA_VERSION:
        needed += ["players", "seats", "results"]
    if version == 0 and not tables & {"sessions", "events", "players", "seats", "results"}:
        return NEW_STORE  # nothing of a table store yet (other parts' tables aside)
    missing = [name for name in needed if name not in tables]
    if not missing:
        return ""
    return f"no {', '.join(missing)} table{'s' if len(missing) > 1 else ''}"


@dataclass(frozen=True)
class SessionInfo:
    id: int
    header: Header
    created: str
    finished: bool
    events: int


class TableStore:
    """Several table sessions in one SQLite file.

    ``read_only`` opens it for commands that only read: nothing is created or written, a
    store on a read-only file or mount can be read, and a missing one reads as empty.

    Every opening runs SQLite's quick check of the pages: a damaged store is refused in one
    line (StoreDamaged: nothing is added to it, and nothing is read from it as if it were
    sound), unless ``damaged_ok`` (reading what is sound is the point: ``export``,
    ``check``), where ``damage`` says what the check found.
    """

    def __init__(self, path: str | Path, read_only: bool = False,
                 damaged_ok: bool = False) -> None:
        self.path = str(path)
        self.read_only = read_only
        self._results_table: bool | None = None  # whether the store keeps results (v1 on)
        #: What SQLite's quick check found wrong with the pages ("" if nothing).
        self.damage = ""
        if read_only:
            self.db = connect_for_reading(self.path) or sqlite3.connect(":memory:")
            with guard(self.path):
                self._check_tables()
            self.damage = self._quick_check()
            if self.damage and not damaged_ok:
                self.db.close()
                raise damaged(self.path, self.damage)
            return
        self.db = connect_for_writing(self.path)
        try:
            with guard(self.path):
                # Nothing is added to a damaged store: it would be lost with the rest.
                problem = self._quick_check()
                if problem:
                    raise damaged(self.path, problem)
                # A new store has none of its tables yet; one with any must have them all.
                missing = schema_problem(self.db)
                if missing and not missing.startswith(NEW_STORE):
                    raise damaged(self.path, missing)
                self.db.executescript(SCHEMA)
        except StoreError:
            self.db.close()
            raise
        # On a full disk the games go on without players or results until there is room.
        with contextlib.suppress(StorageFull):
            self._migrate()

    def _quick_check(self) -> str:
        """What SQLite's quick check finds wrong with the store's pages ("" if nothing)."""
        try:
            with guard(self.path):
                problem = self.db.execute("PRAGMA quick_check(1)").fetchone()[0]
        except StoreDamaged as error:  # pages so damaged the check itself cannot go on
            return error.detail.removeprefix("damaged (").removesuffix(")")
        return "" if problem == "ok" else problem.splitlines()[-1]

    @property
    def keeps_players(self) -> bool:
        """Whether this store links seats to players and keeps results (version 1 on)."""
        with guard(self.path):
            return players.has_tables(self.db) and self._version() >= SCHEMA_VERSION

    def player_names(self) -> list[str]:
        """The players of earlier games, the most recently seen first (none before version 1)."""
        if not self.keeps_players:
            return []
        with guard(self.path):
            return [info.name for info in players.players(self.db)]

    def _version(self) -> int:
        return int(self.db.execute("PRAGMA user_version").fetchone()[0])

    def _migrate(self) -> None:
        """Bring a store of an older version up to this one, keeping every session readable:
        only tables are added, and an older companion reads the store as before."""
        self._results_table = None  # asked again after a migration
        with guard(self.path):
            if self._version() < SCHEMA_VERSION:
                with self.transaction():
                    for statement in (players.SCHEMA + results.SCHEMA).split(";"):
                        if statement.strip():
                            self.db.execute(statement)
                    players.backfill(self.db)
                    self.db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            stale = [row[0] for row in self.db.execute(
                "SELECT s.id FROM sessions s LEFT JOIN results r ON r.session_id = s.id "
                "WHERE s.finished = 1 AND (r.version IS NOT ?  OR r.last_seq IS NOT "
                "(SELECT MAX(seq) FROM events e WHERE e.session_id = s.id))",
                (results.VERSION,))]
        for session_id in stale:
            try:
                self.open_session(session_id).save_result()
            except StorageFull:
                raise
            except CompanionError:
                continue  # a session that no longer replays: `companion check` says why

    def _check_tables(self) -> None:
        tables = {row[0] for row in self.db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")}
        if not tables:  # an empty or missing file: a store with no sessions
            self.db.close()
            self.db = sqlite3.connect(":memory:")
            self.db.executescript(SCHEMA)
        elif not {"sessions", "events"} <= tables:
            raise StoreDamaged(f"{self.path} is not a table store (no sessions or events table)")

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> TableStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- sessions --------------------------------------------------------------------

    def new_session(self, header: Header, events: Iterable[Any] = ()) -> StoredSession:
        """Start a session; ``events`` (already in a log) are checked and stored with it."""
        line = header.to_line()  # refused here, not when it is read back
        session = TableSession(header)
        for event in events:
            session.apply(event)
        return self._store_session(line, session)

    def add_session(self, session: TableSession) -> StoredSession:
        """Store a session already played in memory (``companion import``: replayed once)."""
        return self._store_session(session.header.to_line(), session)

    def _store_session(self, line: str, session: TableSession) -> StoredSession:
        now = datetime.now(UTC).isoformat(timespec="seconds")
        with guard(self.path), self.transaction():
            cursor = self.db.execute(
                "INSERT INTO sessions (header, created, finished) VALUES (?, ?, ?)",
                (line, now, int(session.game.finished)))
            session_id = int(cursor.lastrowid or 0)
            self.db.executemany(
                "INSERT INTO events (session_id, seq, body) VALUES (?, ?, ?)",
                [(session_id, seq, dump_event(e)) for seq, e in enumerate(session.events, 1)])
            if players.has_tables(self.db):
                players.link_seats(self.db, session_id, session.header.seats)
        stored = StoredSession(self, session_id, session)
        if session.game.finished:
            stored.save_result(now)
        return stored

    def sessions(self) -> list[SessionInfo]:
        with guard(self.path):
            rows = self.db.execute(
                "SELECT s.id, s.header, s.created, s.finished, COUNT(e.seq) FROM sessions s "
                "LEFT JOIN events e ON e.session_id = s.id GROUP BY s.id ORDER BY s.id"
            ).fetchall()
        return [SessionInfo(r[0], self.read_header(r[0], r[1]), r[2], bool(r[3]), r[4])
                for r in rows]

    def latest(self, unfinished: bool = False) -> int | None:
        """The most recent session id (only unfinished ones if asked), or None."""
        query = "SELECT MAX(id) FROM sessions" + (" WHERE finished = 0" if unfinished else "")
        with guard(self.path):
            row = self.db.execute(query).fetchone()
        return row[0] if row and row[0] is not None else None

    def load(self, session_id: int) -> tuple[Header, list[Any]]:
        """The header and the stored events of a session, in order."""
        if not 0 < session_id < ID_LIMIT:
            raise StoreError(f"no session {session_id} in {self.path} (sessions are numbered "
                             "from 1: `companion sessions` lists them)")
        with guard(self.path):
            row = self.db.execute("SELECT header FROM sessions WHERE id = ?",
                                  (session_id,)).fetchone()
            if row is None:
                raise StoreError(f"no session {session_id} in {self.path}")
            bodies = self.db.execute(
                "SELECT seq, body FROM events WHERE session_id = ? ORDER BY seq",
                (session_id,)).fetchall()
        header = self.read_header(session_id, row[0])
        return header, [self._body(session_id, seq, body) for seq, body in bodies]

    def read_header(self, session_id: int, text: str) -> Header:
        """A stored header read back, or StoreDamaged naming the session (``companion
        check`` says the rest)."""
        try:
            return Header.from_json(json.loads(text))
        except (ValueError, TypeError, LogError) as exc:
            raise StoreDamaged(f"stored session {session_id} of {self.path} has a header that "
                               f"cannot be read ({exc}): `companion check --db {self.path}` "
                               "says which sessions can still be exported",
                               f"its header cannot be read ({exc})") from None

    def _body(self, session_id: int, seq: int, text: str) -> Any:
        try:
            return json.loads(text)
        except (ValueError, TypeError) as exc:
            raise StoreDamaged(f"stored session {session_id} of {self.path}: event {seq} "
                               f"cannot be read ({exc})",
                               f"event {seq} cannot be read ({exc})") from None

    def seat_names(self, session_id: int, header: Header) -> tuple[str, ...]:
        """The names of the session's seats now (the header's where the store keeps no
        players)."""
        if not self.keeps_players:
            return header.seats
        with guard(self.path):
            return players.session_names(self.db, session_id, header.seats)

    def name_seat(self, session_id: int, seat: int, name: str) -> str:
        """Seat ``seat`` of the session takes the name ``name`` (its player's page), durably;
        PlayerError naming the field if it cannot (nothing changed). Returns the name kept."""
        if not self.keeps_players:
            raise StoreError(f"{self.path} keeps no players yet: the names stay the header's")
        with guard(self.path):
            row = self.db.execute("SELECT header FROM sessions WHERE id = ?",
                                  (session_id,)).fetchone()
        if row is None:
            raise StoreError(f"no session {session_id} in {self.path}")
        header = self.read_header(session_id, row[0])
        with guard(self.path), self.transaction():
            return players.name_seat(self.db, session_id, seat, name, header.seats)

    def open_session(self, session_id: int, seated: bool = False) -> StoredSession:
        """A stored session, replayed into memory and ready to take more events.

        ``seated``: with the names its seats have now (``name_seat``, a player renamed or
        merged) instead of its header's; the table log and its export keep the header's.
        """
        header, events = self.load(session_id)
        if seated:
            header = replace(header, seats=self.seat_names(session_id, header))
        session = TableSession(header)
        for number, event in enumerate(events, start=2):
            try:
                session.apply(event)
            except CompanionError as exc:
                message = f"stored session {session_id} no longer replays: {exc}"
                raise LogError(number, message) from None
        return StoredSession(self, session_id, session)

    # --- writing ---------------------------------------------------------------------

    def transaction(self) -> _Transaction:
        """``with store.transaction():`` the writes inside are kept all together or not at
        all (e.g. renaming a player everywhere)."""
        return _Transaction(self.db)

    def _append(self, session_id: int, seq: int, events: list[Any], finished: bool,
                result: str | None = None) -> None:
        """Entries ``seq``, ``seq + 1``... (all of them or none), the session's finished flag
        and its result (None: not finished)."""
        with guard(self.path), self.transaction():
            self.db.executemany("INSERT INTO events (session_id, seq, body) VALUES (?, ?, ?)",
                                [(session_id, seq + n, dump_event(event))
                                 for n, event in enumerate(events)])
            self.db.execute("UPDATE sessions SET finished = ? WHERE id = ?",
                            (int(finished), session_id))
            if self._keeps_results():
                self._write_result(session_id, seq + len(events) - 1, result)

    def _keeps_results(self) -> bool:
        # Asked once per connection, not once per stored event: the schema only changes when
        # the store is opened for writing (migrated), before any event is stored.
        if self._results_table is None:
            self._results_table = bool(self.db.execute(
                "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' "
                "AND name = 'results'").fetchone()[0])
        return self._results_table

    def _write_result(self, session_id: int, seq: int, result: str | None) -> None:
        if result is None:
            self.db.execute("DELETE FROM results WHERE session_id = ?", (session_id,))
        else:
            self.db.execute("INSERT OR REPLACE INTO results (session_id, version, last_seq, "
                            "body) VALUES (?, ?, ?, ?)",
                            (session_id, results.VERSION, seq, result))

    def created(self, session_id: int) -> str:
        with guard(self.path):
            row = self.db.execute("SELECT created FROM sessions WHERE id = ?",
                                  (session_id,)).fetchone()
        return row[0] if row else ""


class _Transaction:
    """BEGIN IMMEDIATE ... COMMIT, or ROLLBACK on any error (a failed COMMIT included)."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def __enter__(self) -> None:
        self.db.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind: object, error: object, *rest: object) -> None:
        if kind is None:
            try:
                self.db.execute("COMMIT")
                return
            except sqlite3.Error as failure:
                self._roll_back()
                self._after(failure)
                raise
        self._roll_back()
        self._after(error)

    def _roll_back(self) -> None:
        # A full disk may fail the COMMIT and leave the transaction open, or end it itself.
        if self.db.in_transaction:
            self.db.execute("ROLLBACK")

    def _after(self, error: object) -> None:
        """After a full disk, copy the write-ahead log into the store if there is room for
        that now: the log then starts over in the space it has, instead of needing more,
        and the write tried again (the feed's retry, the next event) can go through."""
        code = getattr(error, "sqlite_errorcode", 0) or 0
        if code & 0xFF == sqlite3.SQLITE_FULL:
            with contextlib.suppress(sqlite3.Error):
                self.db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()


class StoredSession:
    """A table session whose every accepted event is durable in the store."""

    def __init__(self, store: TableStore, session_id: int, session: TableSession) -> None:
        self.store = store
        self.id = session_id
        self.session = session

    @property
    def header(self) -> Header:
        return self.session.header

    @property
    def game(self):  # noqa: ANN201 - the engine's own class
        return self.session.game

    def append(self, event: Any) -> int:
        """Check, then store durably; return the event's sequence number (1-based).

        Raises the engine's error (nothing changed) or a store error (the session put back
        where it was: ``TableSession.mark`` and ``restore``).
        """
        return self.append_all([event])[0]

    def append_all(self, events: list[Any]) -> list[int]:
        """Check each event after the ones before it, then store them all in one transaction
        (a correction: undos and the events that replace them): all of them durable, or none
        and nothing changed. Their sequence numbers, in order."""
        if not events:
            return []
        marks = []
        try:
            for event in events:
                step = self.session.prepare(event)
                marks.append(self.session.mark())
                self.session.commit(step)
            first = len(self.session.events) - len(events) + 1
            game = self.session.game
            result = self.result_line(results.now_iso()) if game.finished else None
            self.store._append(self.id, first, self.session.events[first - 1:],
                               game.finished, result)
        except BaseException:
            for mark in reversed(marks):  # each takes back the one event committed after it
                self.session.restore(mark)
            raise
        return list(range(first, first + len(events)))

    def result_line(self, now: str | None = None) -> str:
        """The session's result as stored (a finished session only)."""
        return results.dump(results.summary(self.game, self.session.events,
                                            self.store.created(self.id), now))

    def save_result(self, now: str | None = None) -> None:
        """Store the result of this finished session (a session stored before results were)."""
        line = self.result_line(now)
        with guard(self.store.path), self.store.transaction():
            self.store._write_result(self.id, len(self.session.events), line)

    def export_lines(self) -> list[str]:
        """The session as a table log: the header line, then every stored event."""
        return [dump_event(self.header.to_json())] + [dump_event(e) for e in self.session.events]


def open_store(path: str | None, read_only: bool = False,
               damaged_ok: bool = False) -> TableStore:
    """The store of ``--db`` (default: the state directory's); read-only for commands that
    only read, so that they never create or change it and work on a read-only mount. A
    store named with ``--db`` that is not there is a mistyped name, not an empty store. A
    damaged store is one line (StoreDamaged) unless ``damaged_ok``."""
    if path and read_only and not Path(path).exists():
        raise CompanionError(f"--db: no table store at {path} (a store is made by companion "
                             "run or companion import)")
    return TableStore(Path(path) if path else paths.default_db(), read_only=read_only,
                      damaged_ok=damaged_ok)
