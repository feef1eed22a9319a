"""A simulated table in front of a simulated camera: what the demo and the end-to-end tests
show the vision pipeline instead of real cards.

``Stage.play`` renders the cards a seat puts down in its zone, ``Stage.board`` the Rumble
board (room tiles, a marker per character, the chest), ``Stage.clear`` the table swept clear.
``Eyes`` runs pictures through the real pipeline (markers, rectification, recognition, settle
gate) into the ``SceneSeen`` items the camera part would queue; each picture is held still
for two frames, as a real table is between plays.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from companion.daemon.camera import SceneSeen, TableGeometry, library_for, lowest_confidence
from companion.vision.art import ArtItem, game_items
from companion.vision.library import CardLibrary
from companion.vision.markers import CHEST_ID, character_marker
from companion.vision.synthetic import Conditions, Placement, SceneRenderer, Token
from companion.vision.table import TableLayout
from companion.vision.watch import TableWatcher

#: Where a seat's cards lie: this fraction of the way from its table edge to the centre.
ZONE_DEPTH = 0.3
#: Rumble room tiles as the daemon's default geometry expects them laid.
ROOMS = TableGeometry()
#: Character markers inside a room, offsets from its centre (mm): up to nine share a tile.
SLOTS = [(dx, dy) for dy in (-27, 0, 27) for dx in (-27, 0, 27)]


class Stage:
    """One game's table seen by a camera: pictures of what lies on it."""

    def __init__(self, game: str, seats: int, seed: int = 0,
                 size: tuple[int, int] | None = None) -> None:
        # Rumble's markers are small: they need a sharper picture than cards do.
        size = size or ((960, 720) if game == "rumble" else (640, 480))
        self.layout = TableLayout(seats=seats)
        self.items: dict[str, ArtItem] = {item.item_id: item for item in game_items(game)}
        self.renderer = SceneRenderer(self.layout, size)
        self.rng = np.random.default_rng(seed)
        self.camera = self.renderer.camera()

    def _picture(self, placements: Sequence[Placement], tokens: Sequence[Token] = ()
                 ) -> np.ndarray:
        return self.renderer.render(placements, self.rng, Conditions(), self.camera,
                                    tokens=tokens).image

    def clear(self) -> np.ndarray:
        """The table swept clear (between plays, so that every play is a fresh scene)."""
        return self._picture([])

    def play(self, seat: int, cards: Sequence[str]) -> np.ndarray:
        """``seat`` puts ``cards`` down side by side in its zone."""
        x, y = self.layout.seat_position(seat)
        cx, cy = self.layout.centre_mm
        zx, zy = x + (cx - x) * ZONE_DEPTH, y + (cy - y) * ZONE_DEPTH
        # Cards side by side along the table edge the seat sits at.
        along = np.array([-(cy - y), cx - x], dtype=float)
        along /= float(np.hypot(*along)) or 1.0
        angle = float(np.degrees(np.arctan2(along[1], along[0])))
        pitch = 70.0
        first = -(len(cards) - 1) / 2
        placements = [Placement(self.items[card], (zx + (first + i) * pitch * along[0],
                                                   zy + (first + i) * pitch * along[1]), angle)
                      for i, card in enumerate(cards)]
        return self._picture(placements)

    def board(self, rooms: Sequence[str], positions: Mapping[str, str], chest: str | None,
              characters: Sequence[str]) -> np.ndarray:
        """The Rumble board: room tiles, each character's marker in its room, the chest."""
        (x0, y0), pitch, columns = ROOMS.rooms_origin_mm, ROOMS.room_tile_mm, ROOMS.room_columns
        centres = {room: (x0 + (n % columns + 0.5) * pitch, y0 + (n // columns + 0.5) * pitch)
                   for n, room in enumerate(rooms)}
        tiles = [Placement(self.items[room], centres[room]) for room in rooms
                 if room in self.items]
        tokens: list[Any] = []
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
            tokens.append(Token(CHEST_ID, (centres[chest][0] + slot[0],
                                           centres[chest][1] + slot[1])))
        return self._picture(tiles, tokens)


class Eyes:
    """The vision pipeline in the caller's thread (the demo): pictures in, scenes out."""

    def __init__(self, game: str, layout: TableLayout) -> None:
        # Rumble is read from the markers alone (the rooms lie where the map says), so its
        # tiles need not be recognised in every picture.
        library = CardLibrary() if game == "rumble" else library_for((game,))
        self.watcher = TableWatcher(library, layout, settle_seconds=0.0,
                                    tokens=game == "rumble")
        self.clock = 0.0

    def look(self, picture: np.ndarray) -> list[SceneSeen]:
        seen = []
        # The first frame after a change moves (not read), the next is read, the one after
        # confirms it: the gate lets a scene through once it held for two read frames.
        for _ in range(3):
            self.clock += 0.5
            scene = self.watcher.look(self.clock, picture)
            if scene is not None:
                last = self.watcher.last
                seen.append(SceneSeen(scene, lowest_confidence(last.detections if last else [])))
        return seen
