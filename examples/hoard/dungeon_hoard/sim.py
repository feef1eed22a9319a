"""Random games of Dragon's Hoard, for ``companion demo`` (``random_game``, as every
game's simulator)."""

from __future__ import annotations

import random
from typing import Any

from dungeon_hoard.engine import Hoard

NAMES = ("Ann", "Bob", "Cy", "Di", "Ed", "Flo")


def random_game(seed: int, seats: int, **options: Any) -> tuple[dict[str, Any], list[dict]]:
    """A table-log header and the events of one complete random game."""
    rnd = random.Random(seed)
    names = list(NAMES[:seats])
    game = Hoard(names, seed, options)
    events: list[dict[str, Any]] = []
    while not game.finished:
        event = {"type": "grab", "seat": game.turn, "die": rnd.randint(1, 6)}
        game.apply(event)
        events.append(event)
    return {"game": "hoard", "seats": names, "seed": seed, "options": options}, events
