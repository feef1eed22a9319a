"""From settled scenes to table-log events (CONTRACT.md), for deathtrap, tricky and rumble.

Each mapper compares the scene settled before a play with the one settled after it. What
cannot be read without guessing (cards appearing in the shared centre with no seat given,
several Rumble pieces changing at once) raises a ``SceneError`` saying so; no event is made.

>>> before = TableScene(())
>>> after = TableScene((Piece("green-4", (400, 520), 0),))
>>> tricky_events(before, after)
[{'type': 'play', 'seat': 0, 'card': 'green-4'}]
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import cv2
import numpy as np

from companion.errors import CompanionError
from companion.i18n import _
from companion.vision.markers import CHARACTER_BASE_ID, CHEST_ID
from companion.vision.scene import Piece, TableScene


class SceneError(CompanionError):
    """A change on the table that does not read as exactly one legal kind of event."""


def _new_pieces(before: TableScene, after: TableScene) -> list[Piece]:
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


def _seat_of(piece: Piece, centre_seat: int | None) -> int:
    if piece.zone is not None:
        return piece.zone
    if centre_seat is None:
        raise SceneError(_("{item} appeared in the centre and no seat was given for it")
                         .format(item=piece.item_id))
    return centre_seat


def deathtrap_events(before: TableScene, after: TableScene,
                     centre_seat: int | None = None) -> list[dict]:
    """One ``play`` per seat whose zone gained cards: the set that seat played.

    Cards that appear in the centre are credited to ``centre_seat`` (the daemon passes the
    seat whose turn it is, or whose arm it saw reach in); without one they raise SceneError.
    """
    by_seat: dict[int, list[str]] = {}
    for piece in _new_pieces(before, after):
        by_seat.setdefault(_seat_of(piece, centre_seat), []).append(piece.item_id)
    return [{"type": "play", "seat": seat, "cards": sorted(cards)}
            for seat, cards in sorted(by_seat.items())]


def tricky_events(before: TableScene, after: TableScene,
                  centre_seat: int | None = None) -> list[dict]:
    """One ``play`` per card that appeared, seat from its zone (or ``centre_seat``)."""
    fresh = _new_pieces(before, after)
    return [{"type": "play", "seat": _seat_of(p, centre_seat), "card": p.item_id}
            for p in sorted(fresh, key=lambda p: (p.zone is None, p.zone or 0))]


@dataclass(frozen=True)
class RoomLayout:
    """Room tiles on the table: room id -> outline (table mm), plus the entry room."""

    rooms: dict[str, np.ndarray]
    entry: str

    @classmethod
    def grid(cls, rooms: list[str], columns: int, entry: str,
             origin_mm: tuple[float, float] = (100.0, 60.0), tile_mm: float = 100.0
             ) -> RoomLayout:
        """Rooms laid row by row, ``columns`` to a row, as the default map is printed."""
        outlines = {}
        for n, room in enumerate(rooms):
            x = origin_mm[0] + (n % columns) * tile_mm
            y = origin_mm[1] + (n // columns) * tile_mm
            outlines[room] = np.float32([[x, y], [x + tile_mm, y], [x + tile_mm, y + tile_mm],
                                         [x, y + tile_mm]])
        return cls(outlines, entry)

    @classmethod
    def from_scene(cls, scene: TableScene, rooms: list[str], entry: str) -> RoomLayout:
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
        return cls(outlines, entry)

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
                  entry: str) -> list[dict]:
    """The one action that turns ``before`` into ``after``: ``move``, ``fight`` or ``escape``.

    >>> b = RumblePositions({"elf": "A1", "orc": "A2"}, "A1")
    >>> rumble_events(b, RumblePositions({"orc": "A2"}, None), seat=1, entry="A1")
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
    if before.characters[who] == entry and before.chest == entry and after.chest is None:
        return [{"type": "escape", "seat": seat, "character": who}]
    return [{"type": "fight", "seat": seat, "victim": who}]
