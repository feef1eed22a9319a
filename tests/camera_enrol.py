"""A Deathtrap table being set up, its camera on rendered frames, its web pages: the real
daemon loop in its own thread, the real camera part and vision pipeline, the table's card
library in a temporary folder (``TableLibrary``: the demo art of another game only, so the
camera knows none of this game's cards until they are enrolled).

What the camera sees is ``EnrolTable.lay(cards)``: cards at spots of the play area (a spot
is a number: ``spot``), every frame rendered anew, as a live camera gives them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
from camera_web import Frames
from helpers import wait_for
from web_table import LiveTable

from companion.commands.seats import table_link
from companion.daemon.camera import Camera, pile_cards
from companion.daemon.daemon import Daemon
from companion.daemon.library import TableLibrary
from companion.daemon.stage import Stage
from companion.i18n.choice import LanguageChoice
from companion.table import Header, TableStore
from companion.vision.art import ArtItem
from companion.vision.synthetic import Placement
from companion.vision.watch import TableWatcher

SEATS = 4
GAME = "deathtrap"
#: The game whose demo faces the library holds before the deck is enrolled.
KNOWN = ("tricky",)


def spot(n: int) -> tuple[float, float]:
    """Where card ``n`` of a row of six goes (table mm), two rows."""
    return 150.0 + 100.0 * (n % 6), 200.0 + 170.0 * ((n // 6) % 2)


class EnrolTable(LiveTable):
    """``with EnrolTable(folder) as table:`` a new Deathtrap game (``options``: its table's
    options, e.g. a smaller deck), the camera watching an empty table."""

    def __init__(self, folder: Path, options: dict[str, Any] | None = None) -> None:
        header = Header(GAME, ("Ann", "Bob", "Cy", "Dee"), 1, options or {})
        super().__init__(folder, header)
        self.stage = Stage(GAME, SEATS, 1)
        self.frames = Frames(self.stage)
        self.library = TableLibrary(folder / "cards.npz", False, KNOWN, folder)
        self.camera: Camera | None = None
        self.angles = np.random.default_rng(7)
        self.turned: dict[tuple[int, str], float] = {}

    def _watcher(self, _still: Any) -> TableWatcher:
        return TableWatcher(self.library.load(), self.stage.layout, settle_seconds=0.3,
                            piles=pile_cards())

    def _daemon(self, store: TableStore, screens: list[Any]) -> Daemon:
        self.camera = Camera(lambda: self.frames, None, fps=8, make_watcher=self._watcher,
                             library=self.library)
        return Daemon(store, screens=screens, parts=[self.web, self.camera],
                      watchers=[self.web.watch], watching=True, library=self.library,
                      language=LanguageChoice(None, "en"))

    def __enter__(self) -> EnrolTable:
        super().__enter__()
        wait_for(lambda: self.camera is not None and self.camera.scenes_sent >= 1,
                 "the camera's first look at the table")
        return self

    def control(self) -> str:
        return table_link(self.db)

    def item(self, card: str) -> ArtItem:
        return self.stage.items[card]

    def lay(self, cards: dict[int, str]) -> None:
        """The table as the camera sees it from now on: ``cards`` at their spots."""
        placed = [Placement(self.item(card), spot(n), self.angle(n, card))
                  for n, card in cards.items()]
        with self.frames.lock:
            self.frames.placed = placed

    def angle(self, n: int, card: str) -> float:
        """How ``card`` lies at spot ``n``: turned a little, the same while it lies there."""
        if (n, card) not in self.turned:
            self.turned[(n, card)] = float(self.angles.uniform(-35, 35))
        return self.turned[(n, card)]

    def frame(self) -> np.ndarray:
        """A frame of the table as it lies now."""
        return self.frames.read()[1]

    def stored_events(self) -> list[dict[str, Any]]:
        daemon = self.daemon
        assert daemon is not None and daemon.stored_game is not None
        return list(daemon.stored_game.session.events)
