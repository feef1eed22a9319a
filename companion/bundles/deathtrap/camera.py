"""Deathtrap Dungeon through the camera: the set a seat puts down is its ``play``."""

from __future__ import annotations

from typing import Any

from companion.games.base import Game
from companion.vision.events import TurnMapper, new_pieces, seat_of
from companion.vision.scene import TableScene


def deathtrap_events(before: TableScene, after: TableScene,
                     centre_seat: int | None = None) -> list[dict]:
    """One ``play`` per seat whose zone gained cards: the set that seat played.

    Cards that appear in the centre are credited to ``centre_seat`` (the daemon passes the
    seat whose turn it is, or whose arm it saw reach in); without one they raise SceneError.
    """
    by_seat: dict[int, list[str]] = {}
    for piece in new_pieces(before, after):
        by_seat.setdefault(seat_of(piece, centre_seat), []).append(piece.item_id)
    return [{"type": "play", "seat": seat, "cards": sorted(cards)}
            for seat, cards in sorted(by_seat.items())]


def mapper(game: Game, geometry: Any) -> TurnMapper:
    return TurnMapper(deathtrap_events)
