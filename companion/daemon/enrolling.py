"""Enrolling the deck of the game on the table with the camera (``Enrol``, in the loop).

Asked from the table's controls page, the camera takes each card laid as the table
settles: every settled scene goes to the enrolment instead of the game (nothing laid for it
becomes an event), the cards new since the scene before are cut out (``vision.laid``) and
each named, the next card of the game's list when it is laid alone, else by a tap on the
page (``vision.enrol_table``). The game's list is its bundle's ``cards``, so a game of your
own is enrolled the same way. Once every card has its face the deck is written over the
table's library, atomically, where the camera reads it (``library.TableLibrary``): only
then does the page hear the deck is ready. The camera reads with it from its next frame;
the scenes it settles on until then, and the first one it reads with the new faces, are
where the table stands, never plays.

The crops are kept in memory while the deck is enrolled: a restart of the daemon starts the
enrolment again.
"""

from __future__ import annotations

import base64
import logging
import threading
from dataclasses import dataclass, field
from typing import Any

from companion.daemon.camera import SceneSettled
from companion.daemon.library import TableLibrary, small_jpeg
from companion.daemon.recorder import CurrentGame
from companion.errors import CompanionError
from companion.games import registry
from companion.i18n import pgettext

log = logging.getLogger("companion.daemon")

#: What a page may ask of an enrolment.
ACTIONS = ("start", "name", "drop", "stop")


class EnrolRefused(CompanionError):
    """An enrolment request that cannot be carried out; nothing changed. ``field``: the
    request's field at fault, else the table is not ready for it."""

    def __init__(self, message: str, field_name: str = "") -> None:
        self.field = field_name
        super().__init__(f"{field_name}: {message}" if field_name else message)


@dataclass
class Enrol:
    """From the controls page: ``start`` enrolling the deck of the game on the table,
    ``name`` the face ``crop`` as ``card``, ``drop`` the face ``crop``, ``stop``. ``done``
    is set once it is carried out (the deck written, when it completes it) or refused
    (``error``)."""

    action: str
    crop: int | None = None
    card: str | None = None
    done: threading.Event = field(default_factory=threading.Event)
    error: CompanionError | None = None


@dataclass(frozen=True)
class Written:
    """A deck enrolled and written: its game, how many cards, where."""

    session: int
    game: str
    cards: int
    path: str


def thumbnail(face: Any) -> str:
    """A face as a small JPEG data URL, for the page."""
    jpeg = small_jpeg(face)
    return "data:image/jpeg;base64," + base64.b64encode(jpeg).decode() if jpeg else ""


class Enrolling:
    """The deck being enrolled at the table, if one is (see the module)."""

    def __init__(self, playing: CurrentGame, library: TableLibrary | None) -> None:
        self.playing = playing
        self.library = library
        self.deck: Any = None  # vision.enrol_table.DeckEnrolment, while enrolling
        self.session: int | None = None  # the session whose game is enrolled
        self.crops: dict[int, str] = {}  # face number -> its thumbnail
        self.written: Written | None = None  # the last deck written by this run
        self.problem = ""  # why the deck, complete, could not be written yet
        self._laid: Any = None  # vision.laid.LaidCards
        self._settling = 0  # scenes are where the table stands until read with this version

    # --- what the page shows ----------------------------------------------------------------

    def possible(self) -> bool:
        """Whether the game on the table can be enrolled here: a camera reads its cards
        (not markers alone) and the library has a place to be written."""
        stored_game, reader = self.playing.stored_game, self.playing.reader
        if self.library is None or stored_game is None or reader is None:
            return False
        camera = registry.get(stored_game.header.game).camera
        return camera is not None and not camera.markers_only

    @property
    def active(self) -> bool:
        stored_game = self.playing.stored_game
        return self.deck is not None and stored_game is not None and stored_game.id == self.session

    # --- from the page ------------------------------------------------------------------------

    def handle(self, item: Enrol) -> None:
        from companion.vision.enrol_table import EnrolError

        try:
            if item.action == "start":
                self.start()
            elif not self.active:
                raise EnrolRefused(pgettext("web", "no deck is being enrolled"), "action")
            elif item.action == "stop":
                log.info("enrolment at the table stopped")
                self._end()
            elif item.action == "drop":
                self.deck.drop(self._number(item))
                self.crops.pop(self._number(item), None)
                self.complete()  # a crop too many dropped: every card may be in
            elif item.action == "name":
                self.deck.name(self._number(item), item.card or "")
                self.complete()
        except (EnrolRefused, EnrolError) as error:
            log.info("enrolment request refused: %s", error)
            item.error = error

    @staticmethod
    def _number(item: Enrol) -> int:
        if item.crop is None:
            raise EnrolRefused(pgettext("web", "which face: its number"), "crop")
        return item.crop

    def start(self) -> None:
        from companion.vision.enrol_table import DeckEnrolment
        from companion.vision.laid import LaidCards

        if not self.possible():
            raise EnrolRefused(pgettext("web", "no camera reads this game's cards here"))
        stored_game, reader = self.playing.stored_game, self.playing.reader
        assert stored_game is not None and reader is not None
        self.deck = DeckEnrolment(registry.get(stored_game.header.game).cards(stored_game.game))
        self.session, self.crops, self.problem, self.written = stored_game.id, {}, "", None
        self._laid = LaidCards(reader.table)
        log.info("enrolling the cards of %s at the table: %d cards", stored_game.header.game,
                 len(self.deck.cards))

    def _end(self) -> None:
        self.deck = self._laid = None
        self.crops = {}
        self.problem = ""

    # --- from the camera ----------------------------------------------------------------------

    def settled(self, scene_settled: SceneSettled) -> bool:
        """A settled scene: True if it is the enrolment's (the game must not read it)."""
        if scene_settled.library < self._settling:
            self._table_stands(scene_settled)
            return True
        if self._settling:  # the first scene read with the deck just enrolled
            self._settling = 0
            self._table_stands(scene_settled)
            return True
        if not self.active:
            return False
        if scene_settled.frame is None:  # the camera gave no full frame of it: nothing to cut
            return True
        from companion.vision.laid import reading_order

        laid = reading_order(self._laid.settled(scene_settled.frame, scene_settled.view))
        for taken in self.deck.laid([card.face for card in laid]):
            self.crops[taken.number] = thumbnail(taken.face)
            log.info("enrolment: a card taken (%s)", taken.card or "to be named")
        self.complete()
        return True

    def _table_stands(self, scene_settled: SceneSettled) -> None:
        reader = self.playing.reader
        if reader is not None:
            reader.read_from(scene_settled.scene)

    def complete(self) -> None:
        """Every card in: the deck written over the table's library, then handed to the
        camera. A library that cannot be written is said, and the deck kept to try again
        (at the next naming or scene)."""
        from companion.vision.library import LibraryError

        if not self.active or not self.deck.ready or self.library is None:
            return
        stored_game = self.playing.stored_game
        assert stored_game is not None
        try:
            library = self.deck.library(self.library.load())
            self.library.write(library)
        except LibraryError as error:
            self.problem = str(error)
            log.warning("the deck enrolled at the table is not written: %s", error)
            return
        self.written = Written(stored_game.id, stored_game.header.game, len(self.deck.cards),
                               str(self.library.path))
        self._settling = self.library.version
        log.info("the cards of %s enrolled at the table, written to %s", stored_game.header.game,
                 self.library.path)
        self._end()
