"""``companion check [--db FILE]``: is the table store sound, and what can still be exported.

Read-only: it never changes the store. Exit 0 when the store is sound, 2 when it is damaged
(the report says which sessions `companion export` can still write).
"""

from __future__ import annotations

import argparse
import stat
from pathlib import Path
from typing import TYPE_CHECKING

from companion.commands import db_option
from companion.paths import default_db
from companion.terminal import escaped

if TYPE_CHECKING:  # the store is loaded when the check runs
    from companion.table.check import StoreCheck


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    check = subparsers.add_parser(
        "check", help="check the table store and say which sessions can still be exported",
        description="Run SQLite's integrity check on the table store (read-only), then read "
                    "every session on its own and say which ones `companion export` can still "
                    "write. Exit 0 if the store is sound, 2 if it is damaged.")
    db_option(check)
    check.set_defaults(func=run_check)


def report(path: str, result: StoreCheck) -> list[str]:
    """The check's findings as lines for a person."""
    state = "sound" if result.sound else "DAMAGED"
    lines = [f"table store {path}: {state} ({len(result.sessions)} sessions)"]
    if result.integrity == ["ok"]:
        lines.append("SQLite's integrity check: ok")
    else:
        lines.append("SQLite's integrity check found:")
        lines += [f"  {problem}" for problem in result.integrity]
    if result.schema_problem:
        lines.append(f"its tables are incomplete: {result.schema_problem} (`companion run` "
                     "refuses the store; export what can be exported)")
    if result.listing_problem:
        lines.append(f"the list of sessions stops early: {result.listing_problem}")
    readable = [s for s in result.sessions if s.exportable]
    if readable:
        lines.append(f"can be exported (companion export --db {path} SESSION):")
    for session in readable:
        note = f"; replay stops at {session.replay_problem}" if session.replay_problem else ""
        lines.append(f"  {session.id:>4}  {session.summary}{note}")
    lost = [s for s in result.sessions if not s.exportable]
    if lost:
        lines.append("cannot be exported:")
    lines += [f"  {session.id:>4}  {session.problem}" for session in lost]
    return lines


def permissions_note(path: Path) -> str:
    """A warning if others may read the store (it holds every game's secrets), else ''."""
    mode = stat.S_IMODE(path.stat().st_mode)
    if mode & 0o077:
        return (f"note: other users may read it (mode {mode:04o}), and it holds every "
                f"secret: chmod 600 {path}")
    return ""


def run_check(args: argparse.Namespace) -> int:
    from companion.table.check import check_store
    from companion.table.faults import StoreError
    from companion.table.store import TableStore

    path = Path(args.db) if args.db else default_db()
    if not path.is_file():
        raise StoreError(f"no table store at {path}")
    with TableStore(path, read_only=True, damaged_ok=True) as store:
        result = check_store(store)
    lines = report(str(path), result)
    note = permissions_note(path)
    print("\n".join(escaped(line) for line in [*lines, *([note] if note else [])]))
    return 0 if result.sound else 2
