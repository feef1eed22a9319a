"""Deathtrap Dungeon through the camera: the set a seat puts down is its ``play``."""

from __future__ import annotations

from typing import Any

from companion.games.base import Game
from companion.vision.events import deathtrap_events
from companion.vision.scene import TableScene


class Mapper:
    """Cards put down in the centre are credited to the seat whose turn it is."""

    settles_first = False

    def __init__(self, game: Game, geometry: Any) -> None:
        pass

    def events(self, before: TableScene, after: TableScene, public: dict[str, Any]
               ) -> list[dict[str, Any]]:
        return deathtrap_events(before, after, public.get("turn"))
