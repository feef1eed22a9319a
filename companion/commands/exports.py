"""``companion export --bgstats`` and ``--csv``: finished games for the apps people use."""

from __future__ import annotations

import argparse
import sys

from companion.errors import CompanionError
from companion.history import bgstats, spreadsheet
from companion.history.records import Play, load_plays
from companion.table.store import TableStore
from companion.terminal import json_escaped


def _finished(store: TableStore, session: int | None, plays: list[Play]) -> Play:
    """The finished game SESSION (default: the newest); CompanionError naming SESSION."""
    if session is None:
        if not plays:
            raise CompanionError(f"no finished games in {store.path}")
        return plays[-1]
    for play in plays:
        if play.session == session:
            return play
    store.load(session)  # a session that does not exist is named as export names it
    raise CompanionError(f"SESSION: session {session} is not finished: only finished games "
                         "are exported for BG Stats or a spreadsheet")


def run_play_export(args: argparse.Namespace) -> int:
    from companion.table.store import open_store

    with open_store(args.db, read_only=True) as store:
        plays = load_plays(store)
        if args.csv:
            chosen = plays if args.session is None else [_finished(store, args.session, plays)]
            sys.stdout.write(spreadsheet.rows(chosen))
            return 0
        play = _finished(store, args.session, plays)
    from companion.games import registry

    print(json_escaped(bgstats.play_file(play, registry.get(play.game).engine.title), indent=1))
    return 0
