"""Rules engine speed: random full games per second for each game, beside RLCard's Dou Dizhu.

Run: python benchmarks/engines.py [--quick] [--games N] [--seats N]

For each of deathtrap, rumble, traps and tricky, ``companion.games.<game>_sim.random_game``
makes N complete random legal games (timed as "simulate"); then each game is replayed
through its engine, ``engine(game)(seats, seed, options)`` and ``apply`` per event, and that
replay is what "games/s" measures. The reference, measured in the same run on the same
machine, is RLCard's Dou Dizhu environment (a climbing game of Deathtrap's family) playing
full games with random agents. RLCard chooses its moves while it plays, so compare it with
"simulate + replay"; the replay column alone is what the companion does at the table.
"""

from __future__ import annotations

import argparse
import importlib
import shlex
import sys
import time
from typing import Any

from companion.games import engine

GAMES = ("deathtrap", "rumble", "traps", "tricky")


def make_games(game: str, count: int, seats: int) -> tuple[list[tuple[dict, list[dict]]], float]:
    sim = importlib.import_module(f"companion.games.{game}_sim")
    start = time.perf_counter()
    logs = [sim.random_game(seed, seats) for seed in range(count)]
    return logs, time.perf_counter() - start


def replay(game: str, logs: list[tuple[dict[str, Any], list[dict[str, Any]]]]) -> float:
    engine_class = engine(game)
    start = time.perf_counter()
    for header, events in logs:
        table = engine_class(header["seats"], header["seed"], header["options"])
        for event in events:
            table.apply(event)
        if not table.finished:
            raise RuntimeError(f"{game}: a simulated game did not finish")
    return time.perf_counter() - start


def seats_for(game: str, wanted: int) -> int:
    engine_class = engine(game)
    return min(max(wanted, engine_class.min_seats), engine_class.max_seats)


def bench_game(game: str, count: int, wanted_seats: int) -> str:
    try:
        seats = seats_for(game, wanted_seats)
        logs, simulated = make_games(game, count, seats)
    except (ModuleNotFoundError, ImportError) as exc:
        return f"  {game:<10} not available ({exc})"
    except Exception as exc:  # a sibling's simulator in progress must not stop the others
        return f"  {game:<10} failed while simulating: {type(exc).__name__}: {exc}"
    try:
        replayed = replay(game, logs)
    except Exception as exc:
        return f"  {game:<10} failed while replaying: {type(exc).__name__}: {exc}"
    events = sum(len(log[1]) for log in logs)
    return (f"  {game:<10} {seats:>5} {count:>6} {events / count:>8.0f} "
            f"{count / replayed:>10.1f} {events / replayed:>10,.0f} "
            f"{count / (simulated + replayed):>12.1f}")


def bench_doudizhu(seconds: float) -> str:
    try:
        import rlcard
        from rlcard.agents import RandomAgent
    except ImportError as exc:
        return f"  doudizhu   not available ({exc}; pip install rlcard==1.2.0)"
    env = rlcard.make("doudizhu", config={"seed": 1})
    env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(env.num_players)])
    played = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        env.run(is_training=False)
        played += 1
    elapsed = time.perf_counter() - start
    return (f"  {'doudizhu':<10} {env.num_players:>5} {played:>6} {'':>8} {'':>10} {'':>10} "
            f"{played / elapsed:>12.1f}   (RLCard {rlcard.__version__}, random agents)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="a few-second run")
    parser.add_argument("--games", type=int, help="random games per engine (default 100, quick 6)")
    parser.add_argument("--seats", type=int, default=4,
                        help="seats per game, clamped to each game's range (default 4)")
    args = parser.parse_args(argv)
    count = args.games or (6 if args.quick else 100)
    command = "python " + " ".join(shlex.quote(a) for a in [sys.argv[0], *(argv or sys.argv[1:])])
    print(f"command: {command}")
    print(f"  {'game':<10} {'seats':>5} {'games':>6} {'events':>8} {'games/s':>10} "
          f"{'events/s':>10} {'sim+replay/s':>12}")
    for game in GAMES:
        print(bench_game(game, count, args.seats), flush=True)
    print(bench_doudizhu(1.0 if args.quick else 5.0))
    print("games/s, events/s: replay through the engine only.\n"
          "sim+replay/s: whole games including the simulated players' choices, the figure "
          "to hold against RLCard's.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
