"""How sound a table store is, and which of its sessions can still be exported.

SQLite's own integrity check looks at every page; then each session is read on its own, so
one damaged page costs only the sessions whose rows it held.

>>> from companion.table.log import Header
>>> store = TableStore(":memory:")
>>> _ = store.new_session(Header("traps", ("Ann", "Bob"), seed=7))
>>> report = check_store(store)
>>> report.sound, [s.exportable for s in report.sessions]
(True, [True])
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

from companion.counts import counted
from companion.errors import CompanionError
from companion.table.faults import StoreDamaged, guard, store_error
from companion.table.session import TableSession
from companion.table.store import TableStore, schema_problem

#: SQLite's integrity check stops after this many problems.
MAX_PROBLEMS = 20


@dataclass(frozen=True)
class SessionCheck:
    """One stored session: what it is, and why it cannot be exported (empty if it can)."""

    id: int
    summary: str = ""
    problem: str = ""
    replay_problem: str = ""  # read whole, but it stops at an event its engine now refuses

    @property
    def exportable(self) -> bool:
        return not self.problem


@dataclass(frozen=True)
class StoreCheck:
    integrity: list[str]  # SQLite's integrity check: ["ok"] if every page is sound
    sessions: list[SessionCheck]
    listing_problem: str = ""  # why the list of sessions stops early
    schema_problem: str = ""  # tables missing for the store's version (`run` refuses it too)

    @property
    def sound(self) -> bool:
        return (self.integrity == ["ok"] and not self.listing_problem
                and not self.schema_problem
                and all(s.exportable and not s.replay_problem for s in self.sessions))


def integrity(db: sqlite3.Connection) -> list[str]:
    """SQLite's integrity check, one problem a line: ["ok"] if every page is sound."""
    try:
        rows = [row[0] for row in db.execute(f"PRAGMA integrity_check({MAX_PROBLEMS})")]
    except sqlite3.DatabaseError as error:
        # Past its first finding the check may itself stop on the damage: ask for one only.
        rows = [row[0] for row in db.execute("PRAGMA integrity_check(1)")]
        rows.append(f"(the check stopped there: {error})")
    lines = [line for row in rows for line in row.splitlines()]
    return [line for line in lines if not line.startswith("*** in database")]


def _session_ids(store: TableStore) -> tuple[list[int], str]:
    """The session ids as far as they can be read, and the problem that stopped them."""
    ids: list[int] = []
    try:
        for (session_id,) in store.db.execute("SELECT id FROM sessions ORDER BY id"):
            ids.append(session_id)
    except sqlite3.DatabaseError as error:
        problem = store_error(error, store.path)
        return ids, problem.detail if isinstance(problem, StoreDamaged) else str(problem)
    return ids, ""


def check_session(store: TableStore, session_id: int) -> SessionCheck:
    try:
        header, events = store.load(session_id)
    except StoreDamaged as error:
        return SessionCheck(session_id, problem=error.detail)
    except CompanionError as error:
        return SessionCheck(session_id, problem=str(error))
    summary = f"{header.game}, {counted(len(events), 'event')}, {', '.join(header.seats)}"
    try:
        session = TableSession(header)
        for number, event in enumerate(events, start=2):
            try:
                session.apply(event)
            except CompanionError as error:
                return SessionCheck(session_id, summary, replay_problem=f"line {number}: {error}")
    except CompanionError as error:
        return SessionCheck(session_id, summary, replay_problem=f"header: {error}")
    return SessionCheck(session_id, summary)


def check_store(store: TableStore) -> StoreCheck:
    """SQLite's integrity check of the whole file, then every session read on its own."""
    with guard(store.path):
        problems = integrity(store.db)
        missing = schema_problem(store.db) if problems == ["ok"] else ""
    ids, listing_problem = _session_ids(store)
    return StoreCheck(problems, [check_session(store, i) for i in ids], listing_problem,
                      missing)
