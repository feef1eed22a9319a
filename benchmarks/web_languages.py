"""Seat pages in another language than the table's: the cost of building the pages' channels.

Run:  python benchmarks/web_languages.py [--seed N]
For a whole random game of each game, the web part's ``Snapshot.build`` after every event
(what the daemon runs after each redraw), with every seat page in the table's language (the
baseline, measured in the same run) and with every seat page in French at an English table
(the game read again in French for them: one more ``apply`` per event, one more view per
seat). Prints mean and p99 per build, in milliseconds.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from typing import Any

from companion.games import registry
from companion.table import Header
from companion.table.session import TableSession
from companion.web.snapshot import Snapshot

SEATS = {"deathtrap": 4, "rumble": 4, "traps": 4, "tricky": 4}


class Daemon:
    """What ``Snapshot.build`` reads of the daemon, around a real session."""

    def __init__(self, session: TableSession) -> None:
        self.stored_game = type("StoredGame", (), {"id": 1, "header": session.header,
                                                   "session": session, "game": None})()
        self.table_notice, self.menu = "", None

    def dial_state(self) -> Any:
        return None

    def seat_error(self, seat: int) -> Any:
        return None


def builds(game: str, seed: int, lang: str | None) -> list[float]:
    header, events = registry.get(game).random_game(seed, SEATS[game])
    header = Header(header["game"], tuple(header["seats"]), header["seed"],
                    header.get("options", {}))
    session = TableSession(header)
    daemon = Daemon(session)
    languages = {(1, seat): lang for seat in range(SEATS[game])} if lang else {}
    snapshot, took = Snapshot(languages=languages), []
    for event in events:
        session.apply(event)
        daemon.stored_game.game = session.game
        start = time.perf_counter()
        snapshot.build(daemon, {})
        took.append((time.perf_counter() - start) * 1000)
    return took


def p99(values: list[float]) -> float:
    return sorted(values)[min(len(values) - 1, int(len(values) * 0.99))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    print(f"command: python benchmarks/web_languages.py --seed {args.seed}")
    for game in sorted(SEATS):
        for label, lang in (("seats in the table's language (baseline)", None),
                            ("seats in French, table in English", "fr")):
            took = builds(game, args.seed, lang)
            print(f"{game:9} {label:42} {len(took):4} builds: mean "
                  f"{statistics.fmean(took):6.2f} ms, p99 {p99(took):6.2f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
