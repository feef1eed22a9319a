"""Rumble in the Dungeon through the camera: the character markers on the room tiles; one
change between two settled scenes is a ``move``, ``fight`` or ``escape`` of the seat whose
turn it is. The board as first seen is where the pieces stand."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from companion.bundles.rumble.pieces import CHARACTER_BASE_ID, CHEST_ID, RoomTiles
from companion.games.base import Game
from companion.i18n import _
from companion.vision.events import SceneError
from companion.vision.scene import TableScene


@dataclass(frozen=True)
class RoomLayout:
    """Room tiles on the table: room id -> outline (table mm), plus the entry room."""

    rooms: dict[str, np.ndarray]
    entry_room: str

    @classmethod
    def grid(cls, rooms: list[str], columns: int, entry_room: str,
             origin_mm: tuple[float, float] = (100.0, 60.0), tile_mm: float = 100.0
             ) -> RoomLayout:
        """Rooms laid row by row, ``columns`` to a row, as the default map is printed."""
        outlines = {}
        for n, room in enumerate(rooms):
            x = origin_mm[0] + (n % columns) * tile_mm
            y = origin_mm[1] + (n // columns) * tile_mm
            outlines[room] = np.float32([[x, y], [x + tile_mm, y], [x + tile_mm, y + tile_mm],
                                         [x, y + tile_mm]])
        return cls(outlines, entry_room)

    @classmethod
    def from_scene(cls, scene: TableScene, rooms: list[str], entry_room: str) -> RoomLayout:
        """Rooms located by enrolment: the outlines of the recognised room tiles.

        Every room must be seen exactly once (photograph the board with no hand over it).
        """
        outlines: dict[str, np.ndarray] = {}
        for piece in scene.pieces:
            if piece.item_id not in rooms:
                continue
            if piece.item_id in outlines:
                raise SceneError(_("room tile {room} seen twice").format(room=piece.item_id))
            outlines[piece.item_id] = np.float32(piece.corners_mm)
        missing = [room for room in rooms if room not in outlines]
        if missing:
            raise SceneError(_("room tiles not seen: {rooms}").format(rooms=", ".join(missing)))
        return cls(outlines, entry_room)

    def room_of(self, point: tuple[float, float]) -> str | None:
        for room, outline in self.rooms.items():
            if cv2.pointPolygonTest(outline.reshape(-1, 1, 2), point, False) >= 0:
                return room
        return None


@dataclass(frozen=True)
class RumblePositions:
    """Which character is in which room, and where the chest lies (None: not on the board)."""

    characters: dict[str, str]
    chest: str | None


def rumble_positions(scene: TableScene, layout: RoomLayout, characters: list[str]
                     ) -> RumblePositions:
    """Read the character markers (marker 10 + i is the i-th character) and the chest."""
    placed: dict[str, str] = {}
    chest = None
    for marker_id, point in scene.markers:
        room = layout.room_of(point)
        if room is None:
            continue  # off the board: a removed character set aside
        if marker_id == CHEST_ID:
            chest = room
        elif 0 <= marker_id - CHARACTER_BASE_ID < len(characters):
            placed[characters[marker_id - CHARACTER_BASE_ID]] = room
    return RumblePositions(placed, chest)


def rumble_events(before: RumblePositions, after: RumblePositions, seat: int,
                  entry_room: str) -> list[dict]:
    """The one action that turns ``before`` into ``after``: ``move``, ``fight`` or ``escape``.

    >>> b = RumblePositions({"elf": "A1", "orc": "A2"}, "A1")
    >>> rumble_events(b, RumblePositions({"orc": "A2"}, None), seat=1, entry_room="A1")
    [{'type': 'escape', 'seat': 1, 'character': 'elf'}]
    """
    gone = [c for c in before.characters if c not in after.characters]
    moved = [c for c, room in after.characters.items()
             if c in before.characters and before.characters[c] != room]
    arrived = [c for c in after.characters if c not in before.characters]
    if arrived:
        raise SceneError(_("characters came back onto the board: {characters}").format(
            characters=", ".join(arrived)))
    if len(gone) + len(moved) != 1:
        if not gone and not moved:
            return []
        raise SceneError(_("more than one thing changed: {changes}").format(changes=", ".join(
            [_("{character} left").format(character=c) for c in gone]
            + [_("{character} moved").format(character=c) for c in moved])))
    if moved:
        who = moved[0]
        chest = (before.chest == before.characters[who]
                 and after.chest == after.characters[who])
        return [{"type": "move", "seat": seat, "character": who,
                 "to": after.characters[who], "chest": chest}]
    who = gone[0]
    if (before.characters[who] == entry_room and before.chest == entry_room
            and after.chest is None):
        return [{"type": "escape", "seat": seat, "character": who}]
    return [{"type": "fight", "seat": seat, "victim": who}]


class Mapper:
    settles_first = True  # the first scene is the board as set up, not a move

    def __init__(self, game: Game, geometry: Any) -> None:
        board = game.options.get("map") or {}
        rooms = list(board.get("rooms") or [f"{r}{c}" for r in "ABC" for c in "1234"])
        # The rooms as laid: rows of ``room_columns`` tiles from ``origin_mm``.
        tiles = geometry.settings(RoomTiles)
        self.layout = RoomLayout.grid(rooms, tiles.room_columns, board.get("entry", rooms[0]),
                                      tiles.origin_mm, tiles.room_tile_mm)
        self.characters = list(game.options.get("characters") or [])

    def events(self, before: TableScene, after: TableScene, public: dict[str, Any]
               ) -> list[dict[str, Any]]:
        turn = public.get("turn")
        if not isinstance(turn, int):
            return []
        return rumble_events(rumble_positions(before, self.layout, self.characters),
                             rumble_positions(after, self.layout, self.characters), turn,
                             self.layout.entry_room)


def mapper(game: Game, geometry: Any) -> Mapper:
    return Mapper(game, geometry)
