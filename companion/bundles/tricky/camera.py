"""Tricky Dungeon through the camera: each card a seat puts down is a ``play``.

>>> from companion.vision.scene import Piece
>>> before = TableScene(())
>>> after = TableScene((Piece("green-4", (400, 520), 0),))
>>> tricky_events(before, after)
[{'type': 'play', 'seat': 0, 'card': 'green-4'}]
"""

from __future__ import annotations

from typing import Any

from companion.games.base import Game
from companion.vision.events import TurnMapper, new_pieces, seat_of
from companion.vision.scene import TableScene


def tricky_events(before: TableScene, after: TableScene,
                  centre_seat: int | None = None) -> list[dict]:
    """One ``play`` per card that appeared, seat from its zone (or ``centre_seat``)."""
    fresh = new_pieces(before, after)
    return [{"type": "play", "seat": seat_of(p, centre_seat), "card": p.item_id}
            for p in sorted(fresh, key=lambda p: (p.zone is None, p.zone or 0))]


def mapper(game: Game, geometry: Any) -> TurnMapper:
    return TurnMapper(tricky_events)
