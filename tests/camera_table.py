"""A Tricky table of four seats before a rendered camera, in the test's own thread: the real
daemon loop, store, vision pipeline and rules; people play through ``TablePlayer`` as the
demo's do (``companion.daemon.demo.DirectReach``).

The camera can be made to get cards wrong (``library_with``): misread them, read them
unsure, leave them out.
"""

from __future__ import annotations

import time
from copy import deepcopy
from functools import cache
from pathlib import Path
from typing import Any

import cv2

from companion.daemon.camera import library_for
from companion.daemon.daemon import Daemon
from companion.daemon.demo import DirectReach
from companion.daemon.displays import MemoryScreen
from companion.daemon.player import TablePlayer
from companion.daemon.stage import InlineVision, Stage
from companion.games import registry
from companion.table import Header, TableStore
from companion.vision.art import draw_face
from companion.vision.library import CardLibrary

SEATS = 4


def another_print(face: Any) -> Any:
    """A card's face from another print run than the one on the table: its colours turned
    and a publisher's panel over its middle (the camera cannot name the card on the table
    from it)."""
    import numpy as np

    copy = cv2.cvtColor(face, cv2.COLOR_BGR2HSV)
    copy[..., 0] = (copy[..., 0].astype(np.int32) + 40) % 180
    copy = cv2.cvtColor(copy, cv2.COLOR_HSV2BGR)
    h, w = copy.shape[:2]
    cv2.rectangle(copy, (w // 8, h // 3), (w * 7 // 8, h * 2 // 3), (30, 30, 30), cv2.FILLED)
    return copy


def library_with(library: Any, misread: dict[str, str] | None = None,
                 unknown: tuple[str, ...] = (), near: dict[str, str] | None = None,
                 twins: dict[str, str] | None = None, other_print: tuple[str, ...] = ()
                 ) -> Any:
    """The library changed, for a camera that gets cards wrong:

    - ``misread`` {card: other}: card's face enrolled as ``other`` (other's own face gone)
      and not as itself: the camera reads it as ``other``, sure of it;
    - ``near`` {card: other}: the same, and card's face, blurred, kept as itself: the
      camera reads ``other``, unsure, and ``card`` is among the faces it looked most like;
    - ``twins`` {card: other}: card's face enrolled as ``other`` too: the camera cannot tell
      the two apart and leaves the card out (both among the faces it looked most like);
    - ``unknown``: cards whose faces are not enrolled at all (left out);
    - ``other_print``: cards enrolled from another print run than the one on the table
      (``another_print``: left out, until a correction teaches the camera).
    """
    items = {item.item_id: item for item in registry.get("tricky").art_items()}
    for card, read_as in (misread or {}).items():
        library.enroll(read_as, draw_face(items[card]))  # read_as's own face replaced
        library.remove(card)
    for card, read_as in (near or {}).items():
        face = draw_face(items[card])
        library.enroll(read_as, face)
        library.enroll(card, cv2.GaussianBlur(face, (0, 0), 6))  # read unsure, never left out
    for card, read_as in (twins or {}).items():
        library.enroll(read_as, draw_face(items[card]))
    for card in unknown:
        library.remove(card)
    for card in other_print:
        library.enroll(card, another_print(draw_face(items[card])))
    return library


@cache
def tricky_deck() -> CardLibrary:
    """Tricky's demo deck, enrolled and made ready to compare once a process (seconds each
    time): every table reads with a copy of its own, whose faces its test may change."""
    deck = library_for(("tricky",))
    deck.prepare()
    _ = (deck.sift, deck.indices, deck.marks)
    return deck


class CameraTable:
    """``with CameraTable(folder) as table:`` a new 4-seat Tricky game, its events to play."""

    def __init__(self, folder: Path, seed: int = 3, confirm_below: float = 0.6,
                 learns: bool = False, **library: Any) -> None:
        """``learns``: the camera's library is the table's (``cards.npz`` in ``folder``),
        taught by corrections."""
        from companion.daemon.library import TableLibrary

        self.db = folder / "table.db"
        header, self.events = registry.get("tricky").random_game(seed, SEATS)
        self.header = Header.from_json(header)
        self.store = TableStore(self.db)
        screens = [MemoryScreen("table")] + [MemoryScreen(f"seat:{n}") for n in range(SEATS)]
        self.library = (TableLibrary(folder / "cards.npz", False, ("tricky",), folder)
                        if learns else None)
        self.daemon = Daemon(self.store, screens=screens, confirm_below=confirm_below,
                             watching=True, library=self.library)
        self.daemon.supervisor.start_all(time.monotonic())
        self.daemon.use_stored_game(self.store.new_session(self.header))
        self.daemon.display.refresh()
        self.stage = Stage("tricky", SEATS, seed)
        self.eyes = InlineVision("tricky", self.stage.layout, self.library,
                                 deepcopy(tricky_deck()))
        library_with(self.eyes.watcher.recognizer.library, **library)
        self.hands = DirectReach(self.daemon, self.eyes)
        self.player = TablePlayer(self.daemon, self.hands, self.stage)
        self.next = 0  # the next event of ``events`` to play

    def __enter__(self) -> CameraTable:
        return self

    def __exit__(self, *exc: object) -> None:
        self.daemon.supervisor.stop_all()
        self.store.close()

    @property
    def stored_game(self) -> Any:
        assert self.daemon.stored_game is not None
        return self.daemon.stored_game

    def play_until_a_card(self) -> dict[str, Any]:
        """Play the events before the next card played face up; return that play (not
        played)."""
        while True:
            event = self.events[self.next]
            if event["type"] == "play" and not event.get("face_down"):
                return event
            self.player.play(event)
            self.next += 1

    def put_down(self, seat: int, cards: list[str]) -> None:
        """``cards`` put down at ``seat`` before the camera, as a play is."""
        for picture in self.stage.put_down(seat, cards):
            self.hands.show(picture, lambda: True)

    def play(self, event: dict[str, Any]) -> None:
        """The event played at the table (the player puts right what the camera misread)."""
        self.player.play(event)
        self.next += 1
