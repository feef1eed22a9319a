"""A live Tricky table with its camera on rendered frames and its web pages: the real daemon
loop in its own thread, the real camera part (``companion.daemon.camera.Camera``) reading a
frame source the test changes, the vision pipeline, the store, the web part on a free port.

What the camera sees is ``LiveTable.show(cards)``: cards put down at seats; every frame is
rendered anew (fresh sensor noise), as a live camera gives them.
"""

from __future__ import annotations

import threading
import time
from copy import deepcopy
from pathlib import Path
from typing import Any

import numpy as np
from camera_table import library_with, tricky_deck
from helpers import wait_for
from web_table import LiveTable

from companion.commands.seats import seat_links
from companion.daemon.camera import Camera, pile_cards
from companion.daemon.daemon import Daemon
from companion.daemon.displays import MemoryScreen
from companion.daemon.library import TableLibrary
from companion.daemon.stage import Stage
from companion.games import registry
from companion.i18n.choice import LanguageChoice
from companion.table import Header, TableStore
from companion.vision.placing import Placement
from companion.vision.synthetic import Conditions
from companion.vision.watch import TableWatcher

SEATS = 4


class Frames:
    """The camera's frame source: the table as the test has laid it, rendered at each read."""

    def __init__(self, stage: Stage) -> None:
        self.stage = stage
        self.placed: list[Placement] = []
        self.lock = threading.Lock()
        self.rng = np.random.default_rng(5)

    def open(self) -> None:
        pass

    def read(self) -> tuple[float, np.ndarray]:
        with self.lock:
            placed = list(self.placed)
        frame = self.stage.renderer.render(placed, self.rng, Conditions(noise=2),
                                           self.stage.camera).image
        return time.monotonic(), frame

    def close(self) -> None:
        pass


def placements(stage: Stage, cards: dict[int, list[str]]) -> list[Placement]:
    """Cards put down at seats, side by side in each seat's zone (as ``Stage.play``)."""
    items = stage.items
    placed = []
    for seat, ids in cards.items():
        x, y = stage.layout.seat_position(seat)
        cx, cy = stage.layout.centre_mm
        zx, zy = x + (cx - x) * 0.3, y + (cy - y) * 0.3
        along = np.array([-(cy - y), cx - x], float)
        along /= float(np.hypot(*along)) or 1.0
        angle = float(np.degrees(np.arctan2(along[1], along[0])))
        first = -(len(ids) - 1) / 2
        placed += [Placement(items[card], (zx + (first + i) * 70 * along[0],
                                           zy + (first + i) * 70 * along[1]), angle)
                   for i, card in enumerate(ids)]
    return placed


class LiveCameraTable(LiveTable):
    """``with LiveCameraTable(folder, header, events) as table:`` the game of ``header`` with
    ``events`` stored already, the camera watching the rendered table."""

    def __init__(self, folder: Path, header: Header, events: list[dict[str, Any]],
                 confirm_below: float = 0.6, learns: bool = False, **library: Any) -> None:
        """``learns``: the camera's library is the table's (``cards.npz`` in ``folder``,
        ``TableLibrary``), taught by corrections (``cards.samples.npz``)."""
        super().__init__(folder, header)
        self.events = events
        self.stage = Stage("tricky", SEATS, 1)
        self.frames = Frames(self.stage)
        self.library = library  # how the camera gets cards wrong (``library_with``)
        self.confirm_below = confirm_below
        self.camera: Camera | None = None
        self.table_library: TableLibrary | None = None
        if learns:
            library_with(deepcopy(tricky_deck()), **library).save(folder / "cards.npz")
            self.table_library = TableLibrary(folder / "cards.npz", True, ("tricky",), folder)

    def _watcher(self) -> TableWatcher:
        library = self.table_library.load() if self.table_library is not None else \
            library_with(deepcopy(tricky_deck()), **self.library)
        return TableWatcher(library, self.stage.layout, settle_seconds=0.3, piles=pile_cards())

    def _daemon(self, store: TableStore, screens: list[MemoryScreen]) -> Daemon:
        self.camera = Camera(lambda: self.frames, self._watcher(), fps=8,
                             library=self.table_library)
        return Daemon(store, screens=screens, parts=[self.web, self.camera],
                      watchers=[self.web.watch],
                      confirm_below=self.confirm_below, watching=True,
                      library=self.table_library, language=LanguageChoice(None, "en"))

    def _stored(self) -> list[dict[str, Any]]:
        return self.events

    def __enter__(self) -> LiveCameraTable:
        super().__enter__()
        wait_for(lambda: self.looks() >= 1, "the camera's first look at the table")
        return self

    def links(self) -> list[dict[str, Any]]:  # type: ignore[override] - the links whole
        return seat_links(self.db)

    def table_link(self) -> str:
        from companion.commands.seats import table_link

        return table_link(self.db)

    def looks(self) -> int:
        daemon = self.daemon
        look = daemon.display.camera if daemon is not None else None
        return look.number if look is not None else 0

    def show(self, cards: dict[int, list[str]]) -> int:
        """The table as the camera will see it from now on; returns the number of the look
        at it, once the daemon has read it."""
        before = self.looks()
        with self.frames.lock:
            self.frames.placed = placements(self.stage, cards)
        wait_for(lambda: self.looks() > before, "the camera to read the table")
        return self.looks()

    def stored_events(self) -> list[dict[str, Any]]:
        daemon = self.daemon
        assert daemon is not None and daemon.stored_game is not None
        return list(daemon.stored_game.session.events)


def tricky_before_first_play(seed: int = 3) -> tuple[Header, list[dict[str, Any]],
                                                      list[dict[str, Any]]]:
    """A 4-seat Tricky game: its header, the events before its first card played face up,
    and the rest."""
    header, events = registry.get("tricky").random_game(seed, SEATS)
    first = next(n for n, e in enumerate(events)
                 if e["type"] == "play" and not e.get("face_down"))
    return Header.from_json(header), events[:first], events[first:]
