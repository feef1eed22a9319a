"""From settled scenes to table-log events (docs/table-log.md): what every game's scene
mapper shares.

A game's mapper (its bundle's ``camera``: the ``camera.py`` of its bundle) compares
the scene settled before a play with the one settled after it. What cannot be read without
guessing (cards appearing in the shared centre with no seat given, several pieces changing
at once) raises a ``SceneError`` saying so; no event is made.

>>> before = TableScene((Piece("green-4", (400, 520), 0),))
>>> after = TableScene((Piece("green-4", (400, 520), 0), Piece("red-1", (300, 100), 2)))
>>> [piece.item_id for piece in new_pieces(before, after)]
['red-1']
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

import numpy as np

from companion.errors import CompanionError
from companion.i18n import _
from companion.vision.scene import Piece, TableScene


class SceneError(CompanionError):
    """A change on the table that does not read as exactly one legal kind of event."""


def new_pieces(before: TableScene, after: TableScene) -> list[Piece]:
    """Pieces of ``after`` that were not in ``before``: per id, the ones farthest from any
    piece of that id already there (a card left where it was is the same card)."""
    old = Counter(p.item_id for p in before.pieces)
    fresh = []
    for item_id in dict.fromkeys(p.item_id for p in after.pieces):
        now = [p for p in after.pieces if p.item_id == item_id]
        extra = len(now) - old[item_id]
        if extra <= 0:
            continue
        known = [p.centre_mm for p in before.pieces if p.item_id == item_id]
        if known:
            now.sort(key=lambda p: -min(np.hypot(p.centre_mm[0] - k[0], p.centre_mm[1] - k[1])
                                        for k in known))
        fresh.extend(now[:extra])
    return fresh


def seat_of(piece: Piece, centre_seat: int | None) -> int:
    if piece.zone is not None:
        return piece.zone
    if centre_seat is None:
        raise SceneError(_("{item} appeared in the centre and no seat was given for it")
                         .format(item=piece.item_id))
    return centre_seat


class TurnMapper:
    """The scene mapper of a card game: ``read(before, after, centre_seat)`` with the cards put
    down in the centre credited to the seat whose turn it is (from the public view)."""

    settles_first = False

    def __init__(self, read: Callable[[TableScene, TableScene, int | None], list[dict]]) -> None:
        self.read = read

    def events(self, before: TableScene, after: TableScene, public: dict[str, Any]
               ) -> list[dict]:
        return self.read(before, after, public.get("turn"))
