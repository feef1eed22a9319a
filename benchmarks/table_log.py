"""Table log speed: durable appends per second (fsync per event) and replay events per second.

Run: python benchmarks/table_log.py [--events N]

Baselines measured in the same run: a bare SQLite insert+commit per row with the same
durability settings (no engine, no JSON), and an append+fsync to a plain file. Replay runs
each game's random full game (companion/games/*_sim.py) through its engine.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from companion.table import Header, TableSession, TableStore  # noqa: E402


def rate(count: int, seconds: float) -> str:
    return f"{count / seconds:>10,.0f}/s"


def bench_store(folder: Path, count: int) -> float:
    import tally_game
    tally_game.register()
    with TableStore(folder / "store.db") as store:
        header = Header("tally", ("A", "B"), 1, {"goal": 1000})
        start = time.perf_counter()
        for index in range(count):
            if index % 1000 == 0:  # a fresh game before the goal is reached
                stored_game = store.new_session(header)
            stored_game.append({"type": "add", "seat": index % 2, "points": 1})
        return time.perf_counter() - start


def bench_sqlite(folder: Path, count: int) -> float:
    db = sqlite3.connect(folder / "bare.db", isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=FULL")
    db.execute("CREATE TABLE e (seq INTEGER PRIMARY KEY, body TEXT)")
    start = time.perf_counter()
    for index in range(count):
        db.execute("BEGIN IMMEDIATE")
        db.execute("INSERT INTO e VALUES (?, ?)", (index, '{"type": "add"}'))
        db.execute("COMMIT")
    elapsed = time.perf_counter() - start
    db.close()
    return elapsed


def bench_file(folder: Path, count: int) -> float:
    with open(folder / "plain.jsonl", "ab") as handle:
        start = time.perf_counter()
        for _ in range(count):
            handle.write(b'{"type": "add"}\n')
            handle.flush()
            os.fsync(handle.fileno())
        return time.perf_counter() - start


def bench_replay(game: str, games: int) -> tuple[int, float] | None:
    try:
        sim = importlib.import_module(f"companion.bundles.{game}.rules.sim")
    except ModuleNotFoundError:
        return None
    logs = []
    for seed in range(games):
        header, events = sim.random_game(seed, 4)
        logs.append((Header.from_json(header), events))
    start = time.perf_counter()
    applied = 0
    for header, events in logs:
        session = TableSession(header)
        for event in events:
            session.apply(event)
        applied += len(events)
    return applied, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=1000, help="appends to time")
    parser.add_argument("--games", type=int, default=20, help="random games to replay per game")
    args = parser.parse_args()
    print(f"command: python benchmarks/{Path(__file__).name} --events {args.events} "
          f"--games {args.games}", flush=True)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder)
        store = bench_store(path, args.events)
        bare = bench_sqlite(path, args.events)
        plain = bench_file(path, args.events)
    appended = args.events
    print(f"durable appends, table store (check + SQLite WAL, synchronous=FULL): "
          f"{rate(appended, store)}")
    print(f"baseline: bare SQLite insert+commit, same settings:                 "
          f"{rate(args.events, bare)}")
    print(f"baseline: append + fsync to a plain file:                           "
          f"{rate(args.events, plain)}")
    for game in ("deathtrap", "rumble", "traps", "tricky"):
        measured = bench_replay(game, args.games)
        if measured is None:
            print(f"replay {game:<9}: engine simulator not available")
            continue
        applied, seconds = measured
        print(f"replay {game:<9}: {rate(applied, seconds)} events ({applied} events)")


if __name__ == "__main__":
    main()
