"""A writer process for the kill test: appends N tally events, printing "ack I" after each.

Run as: python table_writer.py DB N. It resumes the unfinished session if there is one.
"""

from __future__ import annotations

import sys

import tally_game

from companion.table import Header, TableStore


def event(index: int) -> dict:
    return {"type": "add", "seat": index % 2, "points": index % 6 + 1, "t": f"e{index}"}


def main() -> None:
    tally_game.register()
    db, total = sys.argv[1], int(sys.argv[2])
    store = TableStore(db)
    session_id = store.latest(unfinished=True)
    if session_id is None:
        stored_game = store.new_session(Header("tally", ("Ann", "Bob"), 1, {"goal": 1000}))
    else:
        stored_game = store.open_session(session_id)
    for index in range(len(stored_game.session.events), total):
        stored_game.append(event(index))
        print(f"ack {index}", flush=True)


if __name__ == "__main__":
    main()
