"""The durable table store: SQLite in WAL mode, one row per accepted event.

An event counts as accepted only once its transaction has committed with
``synchronous=FULL``, so a power cut after "accepted" loses nothing. The store never
holds an event the engine refused: ``StoredSession.append`` applies first, writes second;
nor a header its own reader refuses (``Header.to_line``).

>>> store = TableStore(":memory:")
>>> table = store.new_session(Header("traps", ("Ann", "Bob"), seed=7))
>>> table.append({"type": "expose", "seat": 0, "square": "T1", "clicks": 3})
1
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from companion.errors import CompanionError, LogError
from companion.table.log import Header, dump_event
from companion.table.session import TableSession

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


class StoreError(CompanionError):
    """The store cannot be opened or read (path, permissions, not a table store)."""


@dataclass(frozen=True)
class SessionInfo:
    id: int
    header: Header
    created: str
    finished: bool
    events: int


class TableStore:
    """Several table sessions in one SQLite file."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        try:
            self.db = sqlite3.connect(self.path, isolation_level=None, timeout=30)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=FULL")
            self.db.executescript(SCHEMA)
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"cannot open the table store {self.path}: {exc}") from None

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
        now = datetime.now(UTC).isoformat(timespec="seconds")
        with self._transaction():
            cursor = self.db.execute(
                "INSERT INTO sessions (header, created, finished) VALUES (?, ?, ?)",
                (line, now, int(session.game.finished)))
            session_id = int(cursor.lastrowid or 0)
            self.db.executemany(
                "INSERT INTO events (session_id, seq, body) VALUES (?, ?, ?)",
                [(session_id, seq, dump_event(e)) for seq, e in enumerate(session.entries, 1)])
        return StoredSession(self, session_id, session)

    def sessions(self) -> list[SessionInfo]:
        rows = self.db.execute(
            "SELECT s.id, s.header, s.created, s.finished, COUNT(e.seq) FROM sessions s "
            "LEFT JOIN events e ON e.session_id = s.id GROUP BY s.id ORDER BY s.id").fetchall()
        return [SessionInfo(r[0], Header.from_json(json.loads(r[1])), r[2], bool(r[3]), r[4])
                for r in rows]

    def latest(self, unfinished: bool = False) -> int | None:
        """The most recent session id (only unfinished ones if asked), or None."""
        query = "SELECT MAX(id) FROM sessions" + (" WHERE finished = 0" if unfinished else "")
        row = self.db.execute(query).fetchone()
        return row[0] if row and row[0] is not None else None

    def load(self, session_id: int) -> tuple[Header, list[Any]]:
        """The header and the stored entries of a session, in order."""
        row = self.db.execute("SELECT header FROM sessions WHERE id = ?", (session_id,)).fetchone()
        if row is None:
            raise StoreError(f"no session {session_id} in {self.path}")
        header = Header.from_json(json.loads(row[0]))
        bodies = self.db.execute(
            "SELECT body FROM events WHERE session_id = ? ORDER BY seq", (session_id,))
        return header, [json.loads(body) for (body,) in bodies]

    def open_session(self, session_id: int) -> StoredSession:
        """A stored session, replayed into memory and ready to take more events."""
        header, entries = self.load(session_id)
        session = TableSession(header)
        for number, event in enumerate(entries, start=2):
            try:
                session.apply(event)
            except CompanionError as exc:
                message = f"stored session {session_id} no longer replays: {exc}"
                raise LogError(number, message) from None
        return StoredSession(self, session_id, session)

    # --- writing ---------------------------------------------------------------------

    def _transaction(self) -> _Transaction:
        return _Transaction(self.db)

    def _append(self, session_id: int, seq: int, event: Any, finished: bool) -> None:
        with self._transaction():
            self.db.execute("INSERT INTO events (session_id, seq, body) VALUES (?, ?, ?)",
                            (session_id, seq, dump_event(event)))
            self.db.execute("UPDATE sessions SET finished = ? WHERE id = ?",
                            (int(finished), session_id))


class _Transaction:
    """BEGIN IMMEDIATE ... COMMIT, or ROLLBACK on any error."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def __enter__(self) -> None:
        self.db.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind: object, *rest: object) -> None:
        self.db.execute("ROLLBACK" if kind else "COMMIT")


class StoredSession:
    """A table session whose every accepted entry is durable in the store."""

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
        """Check, then store durably; return the entry's sequence number (1-based).

        Raises the engine's error (nothing stored) or a store error (memory rolled back).
        """
        before_in_force = list(self.session.in_force)
        before_entries = len(self.session.entries)
        self.session.apply(event)
        seq = len(self.session.entries)
        try:
            self.store._append(self.id, seq, self.session.entries[-1], self.session.game.finished)
        except BaseException:
            self.session.in_force = before_in_force
            del self.session.entries[before_entries:]
            self.session.game = self.session._rebuild(before_in_force)
            raise
        return seq

    def export_lines(self) -> list[str]:
        """The session as a table log: the header line, then every stored entry."""
        return [dump_event(self.header.to_json())] + [dump_event(e) for e in self.session.entries]

