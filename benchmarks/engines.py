"""Rules engine costs: replay µs/event and one undo at 100 / 1,000 / 10,000 events, random
games/s and actions/s, beside RLCard's Dou Dizhu and bridge measured in the same run.

Run: python benchmarks/engines.py [--quick] [--lengths 100,1000,10000] [--seconds S]

Long logs come from the games' random simulators (``companion/bundles/<game>/rules/sim.py``) with
the options that make a game long (Tricky 50 rounds per player, Deathtrap 20 rounds, Rumble
10 adventures, Traps 20 trap squares); a log longer than one game is several games one after
another, each in its own session, as a table plays them.

* replay µs/event: CPU time of ``TableSession.apply`` for the first N events, divided by N.
  Flat from 100 to 10,000 means replay is O(n).
* undo µs: CPU time of one ``{"type": "undo"}`` right after event N, in the session holding
  event N ("in force": the events of that session then); ``/event`` is that cost over one
  event's replay cost (goal: at most 5).
* random games/s, actions/s: whole random games, the simulated players' choices included,
  each event applied by the engine (``Game.apply``: checked, then applied to a copy), at the
  usual sizes (default options, 4 seats). The Deathtrap simulator plays by itself, so its
  games are then played through the engine as well.
  RLCard (pip install -e ".[bench]") plays Dou Dizhu and bridge with random agents in the same
  run; an action is one ``env.step``. The last line: each game's actions/s over bridge's.

CPU time (``time.process_time``) is measured, so a busy machine slows the figures less.
"""

from __future__ import annotations

import argparse
import importlib
import shlex
import sys
import time
from typing import Any

from companion.games.registry import engine
from companion.table.log import Header
from companion.table.session import TableSession

GAMES = ("deathtrap", "rumble", "traps", "tricky")
#: Options that make one game long, so that long logs are few sessions.
LONG = {"tricky": {"rounds_per_player": 50}, "deathtrap": {"rounds": 20},
        "rumble": {"adventures": 10}, "traps": {"squares": [f"T{n}" for n in range(1, 21)]}}
#: Simulators that deal and play by themselves, not through the engine: their games are
#: then played through the engine too, so that every game's figure includes its rules.
SIMULATED_APART = ("deathtrap",)
clock = time.process_time

Log = tuple[dict[str, Any], list[dict[str, Any]]]


def simulator(game: str) -> Any:
    return importlib.import_module(f"companion.bundles.{game}.rules.sim")


def seats_for(game: str, wanted: int) -> int:
    engine_class = engine(game)
    return min(max(wanted, engine_class.min_seats), engine_class.max_seats)


def long_logs(game: str, events: int) -> list[Log]:
    """Random games with long options, one after another, until they hold ``events`` events."""
    sim, logs, total, seed = simulator(game), [], 0, 0
    while total < events:
        header, played = sim.random_game(seed, seats_for(game, 4), **LONG[game])
        logs.append((header, played))
        total += len(played)
        seed += 1
    return logs


def session_of(header: dict[str, Any]) -> TableSession:
    return TableSession(Header.from_json(header))


def replay_cost(logs: list[Log], count: int) -> float:
    """CPU seconds to replay the first ``count`` events through table sessions."""
    left, spent = count, 0.0
    for header, events in logs:
        session = session_of(header)
        start = clock()
        for event in events[:left]:
            session.apply(event)
        spent += clock() - start
        left -= min(left, len(events))
        if not left:
            break
    return spent


def undo_cost(logs: list[Log], count: int, repeats: int) -> tuple[float, int]:
    """CPU seconds of one undo right after event ``count``, and the events then in force."""
    left, index = count, 0
    while left > len(logs[index][1]):
        left -= len(logs[index][1])
        index += 1
    header, events = logs[index]
    session = session_of(header)
    for event in events[:left]:
        session.apply(event)
    last = events[left - 1]
    spent = 0.0
    for _ in range(repeats):
        start = clock()
        session.apply({"type": "undo"})
        spent += clock() - start
        session.apply(last)
    return spent / repeats, left


def random_games(game: str, seconds: float) -> tuple[float, float, int]:
    """Random whole games for about ``seconds``: games/s, actions/s, seats."""
    sim, seats, engine_class = simulator(game), seats_for(game, 4), engine(game)
    played = actions = 0
    start = clock()
    while clock() - start < seconds:
        header, events = sim.random_game(played, seats)
        if game in SIMULATED_APART:
            table = engine_class(header["seats"], header["seed"], header["options"])
            for event in events:
                table.apply(event)
        played += 1
        actions += len(events)
    spent = clock() - start
    return played / spent, actions / spent, seats


def rlcard_games(name: str, seconds: float) -> tuple[str, float | None]:
    """Random games of an RLCard environment: the line to print and its actions/s (None
    when RLCard is not installed)."""
    try:
        import rlcard
        from rlcard.agents import RandomAgent
    except ImportError as exc:
        return (f"  {name:<10} RLCard not installed ({exc}): pip install -e \".[bench]\" "
                "to measure it", None)
    env = rlcard.make(name, config={"seed": 1})
    agents = [RandomAgent(num_actions=env.num_actions) for _ in range(env.num_players)]
    played = actions = 0
    start = clock()
    while clock() - start < seconds:
        state, player = env.reset()
        while not env.is_over():
            state, player = env.step(agents[player].step(state))
            actions += 1
        played += 1
    spent = clock() - start
    return (f"  {name:<10} {env.num_players:>5} {played / spent:>10.1f} {actions / spent:>12,.0f}"
            f"   (RLCard {rlcard.__version__}, random agents)", actions / spent)


def bench_costs(game: str, lengths: list[int], repeats: int) -> list[str]:
    logs = long_logs(game, max(lengths))
    lines = []
    for count in lengths:
        per_event = replay_cost(logs, count) / count
        undo, in_force = undo_cost(logs, count, repeats)
        lines.append(f"  {game:<10} {count:>7,} {per_event * 1e6:>10.1f} {in_force:>9,} "
                     f"{undo * 1e6:>11.1f} {undo / per_event:>7.1f}")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="a short run (100 and 1,000)")
    parser.add_argument("--lengths", help="log lengths, comma-separated (default "
                                          "100,1000,10000)")
    parser.add_argument("--seconds", type=float, help="seconds of random games per game "
                                                      "(default 3, quick 0.5)")
    parser.add_argument("--repeats", type=int, default=5, help="undos timed per length")
    args = parser.parse_args(argv)
    default = "100,1000" if args.quick else "100,1000,10000"
    lengths = [int(text) for text in (args.lengths or default).split(",")]
    seconds = args.seconds or (0.5 if args.quick else 3.0)
    command = "python " + " ".join(shlex.quote(a) for a in [sys.argv[0], *(argv or sys.argv[1:])])
    print(f"command: {command}")
    print("replay and undo (CPU time):")
    print(f"  {'game':<10} {'events':>7} {'µs/event':>10} {'in force':>9} {'undo µs':>11} "
          f"{'/event':>7}")
    for game in GAMES:
        for line in bench_costs(game, lengths, args.repeats):
            print(line, flush=True)
    print("random games (CPU time, the players' choices included):")
    print(f"  {'game':<10} {'seats':>5} {'games/s':>10} {'actions/s':>12}")
    ours = {}
    for game in GAMES:
        per_game, ours[game], seats = random_games(game, seconds)
        print(f"  {game:<10} {seats:>5} {per_game:>10.1f} {ours[game]:>12,.0f}", flush=True)
    bridge = None
    for name in ("doudizhu", "bridge"):
        line, bridge = rlcard_games(name, seconds)
        print(line, flush=True)
    if bridge:
        print("actions/s over RLCard bridge's (this run): " + ", ".join(
            f"{game} {per_action / bridge:.2f}x" for game, per_action in ours.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
