"""What the camera saw, kept: each settled scene the daemon read (a ``Look``), with the
picture it was read from, and the pictures of the events it made, stored with the session.

A look holds the scene settled before it and the scene itself (as read, then as corrected on
the controls page), every reading drawn on its picture and how it stands (sure, asked, left
out, corrected, not a card), and the sequence numbers of the events stored from it. Each
event the camera makes keeps its look's picture in the store (``companion.table.pictures``),
right after the event itself is stored: a picture never stands for an event the store lacks.

The daemon's own thread only (the loop, and ``TableDisplay`` for the pages).
"""

from __future__ import annotations

import logging
import sqlite3
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from companion.table import StoredSession
from companion.table.faults import StoreError

if TYPE_CHECKING:  # types only: a table without a camera loads no numpy or vision
    import numpy as np

    from companion.daemon.items import CameraProposal
    from companion.vision.evidence import Picture, Reading
    from companion.vision.scene import TableScene
    from companion.vision.table_view import TableView

log = logging.getLogger("companion.daemon")

#: How many looks are kept in memory (the latest is the one shown and corrected; older ones
#: only for their sightings still waiting at the confirm step).
KEPT = 8
#: How a reading stands.
SURE, ASKED, LEFT_OUT, CORRECTED, NOT_A_CARD = "sure", "asked", "left out", "corrected", \
    "not a card"


@dataclass(frozen=True)
class Before:
    """What a correction replaced, to take it back exactly: the look's scene, readings and
    states, its events then in force (as stored) and its sightings then waiting to be
    confirmed (an unsure reading is asked again, never stored)."""

    scene: TableScene
    readings: list[Reading]
    states: list[str]
    events: list[dict[str, Any]]
    sightings: list[CameraProposal]
    #: The sample the correction taught (its face), dropped again if it is taken back.
    lesson: np.ndarray | None = None


@dataclass
class Look:
    """One settled scene read by the daemon (see the module docstring).

    ``before`` and ``scene``: the scenes settled before it and read (zones set; ``before``
    None for the first); ``picture``: what it was read from; ``readings``: the picture's
    readings as they stand now, ``states`` how each stands; ``seqs``: the events stored from
    this look (as read or as corrected); ``earlier``: what a correction replaced, to take it
    back.
    """

    number: int
    session: int
    before: TableScene | None
    scene: TableScene
    picture: Picture
    readings: list[Reading]
    states: list[str]
    seqs: list[int] = field(default_factory=list)
    earlier: list[Before] = field(default_factory=list)
    #: The frame it was read from and where the table lies in it: a correction's crop is cut
    #: from it. The latest look's only (a frame is megabytes; only the latest look is
    #: corrected).
    frame: np.ndarray | None = None
    view: TableView | None = None

    def about(self) -> dict[str, Any]:
        """The picture's size and its readings as they stand, as the store keeps them."""
        return {"width": self.picture.width, "height": self.picture.height,
                "px_per_mm": round(self.picture.px_per_mm, 6),
                "readings": [{**reading.as_json(), "state": state}
                             for reading, state in zip(self.readings, self.states, strict=True)]}


def states_of(readings: list[Reading], confirm_below: float) -> list[str]:
    """How each reading stands as read: sure, asked (under the confirm step's bar), or left
    out (an outline the camera found and could not name)."""
    return [LEFT_OUT if r.item_id is None else SURE if r.confidence >= confirm_below else ASKED
            for r in readings]


class Looks:
    """The latest looks, and their pictures kept for the events they made."""

    def __init__(self, confirm_below: float) -> None:
        self.confirm_below = confirm_below
        self.recent: OrderedDict[int, Look] = OrderedDict()
        self.count = 0
        self.kept = 0  # pictures stored by this run (for tests and benchmarks)
        #: The session whose pictured events are listed, and that list (read from the store
        #: once per session, then kept up as pictures are stored).
        self._listed: tuple[int, list[int]] | None = None

    @property
    def latest(self) -> Look | None:
        return next(reversed(self.recent.values()), None)

    def get(self, number: int | None, session: int | None) -> Look | None:
        look = self.recent.get(number) if number is not None else None
        return look if look is not None and look.session == session else None

    def add(self, session: int, before: TableScene | None, scene: TableScene,
            picture: Picture | None, frame: np.ndarray | None = None,
            view: TableView | None = None) -> Look | None:
        """A settled scene just read (None without a picture: nothing to keep)."""
        if picture is None:
            return None
        self.count += 1
        readings = list(picture.readings)
        for earlier in self.recent.values():
            earlier.frame = earlier.view = None
        look = Look(self.count, session, before, scene, picture, readings,
                    states_of(readings, self.confirm_below), frame=frame, view=view)
        self.recent[look.number] = look
        while len(self.recent) > KEPT:
            self.recent.popitem(last=False)
        return look

    def kept_seqs(self, stored_game: StoredSession) -> list[int]:
        """The events of the session that keep a picture (read from the store once per
        session, then kept up by ``stored``: not at every redraw)."""
        from companion.table.pictures import seqs

        if self._listed is None or self._listed[0] != stored_game.id:
            try:
                self._listed = (stored_game.id, seqs(stored_game.store.db, stored_game.id))
            except sqlite3.Error as error:  # a list on a page: it never stops the table
                log.warning("the camera's pictures not listed: %s", error)
                return []
        return self._listed[1]

    def forget(self) -> None:
        """A new game: the looks of the one before are not its."""
        self.recent.clear()

    def stored(self, stored_game: StoredSession, look: Look | None, seq: int | None) -> None:
        """Event ``seq`` was stored from ``look``: its picture is kept with it. A picture the
        store cannot take (a full disk) is said in the log; the event stands."""
        if look is None or seq is None or look.session != stored_game.id:
            return
        from companion.table.pictures import keep

        look.seqs.append(seq)
        try:
            keep(stored_game.store, stored_game.id, seq, look.picture.jpeg, look.about())
        except StoreError as error:
            log.warning("the picture of event #%d not kept: %s", seq, error)
            return
        self.kept += 1
        if self._listed is not None and self._listed[0] == stored_game.id \
                and seq not in self._listed[1][-1:]:
            self._listed[1].append(seq)
