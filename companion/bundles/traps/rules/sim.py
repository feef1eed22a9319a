"""Random complete legal ``traps`` games, for property tests, benchmarks and the demo.

The simulated heroes roll their own dice with ``random.Random(seed)`` and play until every
trap square is settled (disarmed, clear, or gone off for good). The simulator peeks at the
dials only to pick legal events, as players holding the red filter would.

>>> header, events = random_game(5, 3)
>>> header["game"], len(header["seats"]), events == random_game(5, 3)[1]
('traps', 3, True)
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from companion.bundles.traps.rules.engine import EXPOSED, HIDDEN, TRIGGERED, Traps
from companion.errors import RuleViolation
from companion.games.sim import seat_names

#: After this many events per square the heroes play it safe (slow disarms, good dice),
#: so a game ends even with an unlucky seed.
PATIENCE = 12


def _die(rnd: random.Random) -> int:
    return rnd.randint(1, 6)


def _clicks(rnd: random.Random) -> int:
    # Mostly the d6; now and then a player insists on turning further.
    return rnd.randint(7, 30) if rnd.random() < 0.05 else _die(rnd)


def _next_event(game: Traps, rnd: random.Random, patient: bool) -> dict[str, Any]:
    open_squares = [square for square in game.squares if not game.settled(square)]
    square = rnd.choice(open_squares)
    state = game.squares[square]
    seat = rnd.randrange(len(game.seats))
    rolls = game.options["companion_rolls"]
    leave_out = rolls and rnd.random() < 0.5
    status = state["status"]
    reading = game.dials[square][state["position"]] if status != HIDDEN else None
    is_trap = isinstance(reading, Mapping)
    once = is_trap and game.options["catalog"]["traps"][reading["trap"]]["triggers_once"]
    choice = rnd.random()
    if status == HIDDEN:
        kind = "expose" if choice < 0.6 else "trigger"
        event = {"type": kind, "seat": seat, "square": square}
        if not leave_out:
            event["clicks"] = _clicks(rnd)
        return event
    if status == EXPOSED and (not is_trap or choice < 0.3) and not patient:
        if choice < 0.15:
            event = {"type": "expose", "seat": seat, "square": square}
            if not leave_out:
                event["clicks"] = _clicks(rnd)
            return event
        return {"type": "trigger", "seat": seat, "square": square}
    if status == EXPOSED and not is_trap:
        return {"type": "trigger", "seat": seat, "square": square}
    if status == TRIGGERED and not once and choice < 0.2 and not patient:
        return {"type": "trigger", "seat": seat, "square": square}
    if status == EXPOSED and not game.options["blind_disarm"]:
        # Only a seat that read the dial where it is now knows what it is disarming.
        readers = [int(reader) for reader, at in sorted(state["read_by"].items())
                   if at == state["position"]]
        seat = rnd.choice(readers)
    mode = "slow" if patient or rnd.random() < 0.5 else "quick"
    event = {"type": "disarm", "seat": seat, "square": square, "mode": mode}
    if not leave_out:
        event["dice"] = [6, 6] if patient else [_die(rnd), _die(rnd)]
    return event


def random_game(seed: int, seats: int, **options: Any) -> tuple[dict[str, Any], list[dict]]:
    """A table-log header and the events of one complete random legal game.

    A game can only stay unfinished if a table's own dials hold a trap no roll can
    disarm (a disarm number above 12 + ``slow_disarm_bonus``); it then stops after
    ``PATIENCE`` * 2 events per square.
    """
    rnd = random.Random(seed)
    names = seat_names(seats)
    header = {"game": "traps", "seats": names, "seed": seed, "options": options}
    game = Traps(names, seed, options)
    events: list[dict[str, Any]] = []
    limit = PATIENCE * len(game.squares)
    while not game.finished and len(events) < 2 * limit:
        event = _next_event(game, rnd, patient=len(events) >= limit)
        try:
            game.apply(event)
        except RuleViolation as refused:
            # The first attempt at an n+ trap also rolls the die that fixes its number.
            if refused.rule != "variable-die" or "variable_die" in event:
                raise
            event["variable_die"] = _die(rnd)
            game.apply(event)
        events.append(event)
    return header, events
