"""A simulated table in front of a simulated camera: what the demo and the end-to-end tests
show the vision pipeline instead of real cards.

``Stage.play`` renders the cards a seat puts down in its zone, ``Stage.clear`` the table swept
clear, ``Stage.picture`` any placements and marker tokens (a game's bundle draws its own board
with it, e.g. a board's tiles and the markers its pieces wear).
``InlineVision`` runs pictures through the real pipeline (markers, rectification,
recognition, settle gate) into the ``SceneSettled`` items the camera part would queue; each
picture is held still for two frames, as a real table is between plays.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from companion.daemon.camera import (
    SceneSettled,
    library_for,
    lowest_confidence,
    picture_of,
    pile_cards,
)
from companion.daemon.library import TableLibrary
from companion.games import registry
from companion.vision.art import ArtItem
from companion.vision.layout import TableLayout
from companion.vision.library import CardLibrary
from companion.vision.synthetic import Conditions, Placement, SceneRenderer, Token
from companion.vision.watch import TableWatcher

#: Where a seat's cards lie: this fraction of the way from its table edge to the centre.
ZONE_DEPTH = 0.3


class Stage:
    """One game's table seen by a camera: pictures of what lies on it."""

    def __init__(self, game: str, seats: int, seed: int = 0,
                 size: tuple[int, int] | None = None) -> None:
        bundle = registry.get(game)
        # Small markers need a sharper picture than cards do: the bundle says what it needs.
        size = size or (bundle.camera.size if bundle.camera else (640, 480))
        self.layout = TableLayout(seats=seats)
        self.items: dict[str, ArtItem] = {item.item_id: item for item in bundle.art_items()}
        self.renderer = SceneRenderer(self.layout, size)
        self.rng = np.random.default_rng(seed)
        self.camera = self.renderer.camera()

    def picture(self, placements: Sequence[Placement], tokens: Sequence[Token] = ()
                ) -> np.ndarray:
        """The table with ``placements`` (cards, tiles) and marker ``tokens`` on it."""
        return self.renderer.render(placements, self.rng, Conditions(), self.camera,
                                    tokens=tokens).image

    def clear(self) -> np.ndarray:
        """The table swept clear (between plays, so that every play is a fresh scene)."""
        return self.picture([])

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
        return self.picture(placements)

    def put_down(self, seat: int, cards: Sequence[str]) -> list[np.ndarray]:
        """A play as the camera sees it: the table swept clear, then ``cards`` at ``seat``
        (every play a fresh scene)."""
        return [self.clear(), self.play(seat, cards)]


class InlineVision:
    """The vision pipeline in the caller's thread (the demo): pictures in, scenes out."""

    def __init__(self, game: str, layout: TableLayout, library: TableLibrary | None = None,
                 cards: CardLibrary | None = None) -> None:
        """``library``: the table's card library (``TableLibrary``): what corrections teach
        it is read with from the next picture on. ``cards``: the deck read until then (by
        default the game's demo art, enrolled now)."""
        # A game read from its markers alone (its tiles lie where its map says) needs no card
        # library: its tiles need not be recognised in every picture.
        camera = registry.get(game).camera
        markers_only = camera is not None and camera.markers_only
        if cards is None:
            cards = CardLibrary() if markers_only else library_for((game,))
        tokens = tuple(camera.marker_labels()) if camera is not None else ()
        self.watcher = TableWatcher(cards, layout, settle_seconds=0.0, tokens=tokens,
                                    piles=pile_cards())
        self.clock = 0.0
        self.library = library

    def watch(self, picture: np.ndarray) -> list[SceneSettled]:
        settled = []
        if self.library is not None:
            self.library.learn(self.watcher)
        # The first frame after a change moves (not read), the next is read, the one after
        # confirms it: the gate lets a scene through once it held for two read frames.
        for _ in range(3):
            self.clock += 0.5
            scene = self.watcher.watch_frame(self.clock, picture)
            if scene is not None:
                last = self.watcher.last
                settled.append(SceneSettled(
                    scene, lowest_confidence(last.detections if last else []),
                    picture_of(self.watcher, picture), picture, self.watcher.rectifier.last_view))
        return settled
