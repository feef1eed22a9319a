"""Rumble in the Dungeon at a simulated table: moves, fights and escapes are shown to the
camera as the board after them (room tiles, a marker per character, the chest)."""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from companion.bundles.rumble.pieces import CHEST_ID, RoomTiles, character_marker
from companion.games.base import Game

if TYPE_CHECKING:  # types only: the simulated table's pictures need numpy and OpenCV
    import numpy as np

    from companion.vision.synthetic import TableStage, Token

#: Room tiles as the daemon's default geometry expects them laid.
ROOMS = RoomTiles()
#: Character markers inside a room, offsets from its centre (mm): up to nine share a tile.
SLOTS = [(dx, dy) for dy in (-27, 0, 27) for dx in (-27, 0, 27)]


def route(game: Game, event: dict[str, Any], camera: bool) -> str:
    return "camera" if camera and event["type"] in ("move", "fight", "escape") else "by hand"


def pictures(stage: TableStage, game: Game, event: dict[str, Any], first: bool
             ) -> list[np.ndarray]:
    """The board before the first move (where the pieces stand), then after ``event``."""
    rooms, characters = game.options["map"]["rooms"], game.options["characters"]
    boards = []
    now = game.view(None)
    if first:
        boards.append(board(stage, rooms, now["positions"], now["chest"], characters))
    after = copy.deepcopy(game)
    after.apply(event)
    view = after.view(None)
    if view.get("adventure") != now.get("adventure"):
        # The adventure ended: the board is set up afresh, seen before the next move.
        boards.append(board(stage, rooms, {}, None, characters))
    else:
        boards.append(board(stage, rooms, view["positions"], view["chest"], characters))
    return boards


def board(stage: TableStage, rooms: Sequence[str], positions: Mapping[str, str],
          chest: str | None, characters: Sequence[str]) -> np.ndarray:
    """The Rumble board: room tiles, each character's marker in its room, the chest."""
    from companion.vision.synthetic import Placement, Token

    (x0, y0), pitch, columns = ROOMS.origin_mm, ROOMS.room_tile_mm, ROOMS.room_columns
    centres = {room: (x0 + (n % columns + 0.5) * pitch, y0 + (n // columns + 0.5) * pitch)
               for n, room in enumerate(rooms)}
    tiles = [Placement(stage.items[room], centres[room]) for room in rooms
             if room in stage.items]
    tokens: list[Token] = []
    filled: dict[str, int] = {}
    for character in characters:
        room = positions.get(character)
        if room is None:
            continue
        slot = SLOTS[filled.get(room, 0) % len(SLOTS)]
        filled[room] = filled.get(room, 0) + 1
        tokens.append(Token(character_marker(characters.index(character)),
                            (centres[room][0] + slot[0], centres[room][1] + slot[1])))
    if chest is not None:
        slot = SLOTS[filled.get(chest, 0) % len(SLOTS)]
        tokens.append(Token(CHEST_ID, (centres[chest][0] + slot[0], centres[chest][1] + slot[1])))
    return stage.picture(tiles, tokens)
