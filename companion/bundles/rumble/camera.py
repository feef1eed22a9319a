"""Rumble in the Dungeon through the camera: the character markers on the room tiles; one
change between two settled scenes is a ``move``, ``fight`` or ``escape`` of the seat whose
turn it is. The board as first seen is where the pieces stand."""

from __future__ import annotations

from typing import Any

from companion.games.base import Game
from companion.vision.events import RoomLayout, rumble_events, rumble_positions
from companion.vision.scene import TableScene


class Mapper:
    settles_first = True  # the first scene is the board as set up, not a move

    def __init__(self, game: Game, geometry: Any) -> None:
        board = game.options.get("map") or {}
        rooms = list(board.get("rooms") or [f"{r}{c}" for r in "ABC" for c in "1234"])
        # The rooms as laid: rows of ``room_columns`` tiles from ``rooms_origin_mm``.
        self.layout = RoomLayout.grid(rooms, geometry.room_columns, board.get("entry", rooms[0]),
                                      geometry.rooms_origin_mm, geometry.room_tile_mm)
        self.characters = list(game.options.get("characters") or [])

    def events(self, before: TableScene, after: TableScene, public: dict[str, Any]
               ) -> list[dict[str, Any]]:
        turn = public.get("turn")
        if not isinstance(turn, int):
            return []
        return rumble_events(rumble_positions(before, self.layout, self.characters),
                             rumble_positions(after, self.layout, self.characters), turn,
                             self.layout.entry)
