"""A reading of the camera put right from the table's controls page (``Correct``, in the loop).

A correction changes the latest look's scene (a card named otherwise, an outline left out
named, a card that is not one taken away) and reads it again with the game's own mapper,
against the scene before it and the game as it stood before the look's events: what comes
out goes through the rules like any event. Where the look's events are still the latest in
force, each is withdrawn with an ``undo``; where none were stored (refused, never made, or
undone since), the corrected events are simply added. Everything is checked on a copy of the
game, then the undos and the corrected events are stored in one transaction: all of them or
none (a kill or a full disk never leaves a card withdrawn with nothing in its place).

A correction is itself taken back the same way (``undo`` on the look), to exactly what stood
before it: the events then stored are stored again, and the sightings then waiting to be
confirmed (an unsure reading) are asked again, never stored. A correction that changes
nothing (the reading is that card already) stores nothing; one carried out already (the same
``request`` id: a page sending it twice) answers as it did, storing nothing again.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from companion.daemon.items import CameraProposal
from companion.daemon.looks import CORRECTED, NOT_A_CARD, SURE, Before, Look, Looks
from companion.daemon.open_dialogue import CONFIRM, OpenDialogue
from companion.daemon.questions import NO, YES, Answer, AnswerRefused, Questions
from companion.daemon.recorder import (
    CurrentGame,
    Recorder,
    event_in_words,
    now_iso,
    storage_notice,
)
from companion.errors import CompanionError
from companion.games import registry
from companion.games.base import Game
from companion.i18n import _, pgettext
from companion.table import StoredSession
from companion.table.session import TableSession

if TYPE_CHECKING:  # types only: a table without a camera loads no numpy or vision
    import numpy as np

    from companion.daemon.library import TableLibrary
    from companion.games.spec import SceneMapper
    from companion.vision.evidence import Reading
    from companion.vision.scene import TableScene

#: Whose zone a point of the table (mm) lies in: a seat, or None for the centre
#: (``TableLayout.zone_of``).
ZoneOf = Callable[[tuple[float, float]], int | None]

#: The id a sample of "not a card" is taught under (``companion.vision.library``'s, which
#: is loaded only with the camera).
LIBRARY_NOT_A_CARD = "(not a card)"

#: How many request ids of corrections carried out are remembered (a page's repeats come
#: within seconds).
REQUESTS_KEPT = 256

log = logging.getLogger("companion.daemon")


class CorrectionRefused(CompanionError):
    """A correction that cannot be made; nothing changed. ``field``: the request's field at
    fault (the page shows it), ``conflict``: the table has moved on (not the request's
    fault)."""

    def __init__(self, message: str, field_name: str = "", conflict: bool = False) -> None:
        self.field = field_name
        self.conflict = conflict
        super().__init__(f"{field_name}: {message}" if field_name else message)


@dataclass
class Correct:
    """From the controls page: reading ``reading`` of look ``look`` is ``item_id`` (None:
    not a card); or, with ``undo``, the look's latest correction taken back. ``request``:
    the page's id for it (a repeat is answered as the first, nothing stored again). ``done``
    is set once it is stored (``seqs``: the events stored) or refused (``error``)."""

    look: int
    reading: int | None = None
    item_id: str | None = None
    undo: bool = False
    request: str | None = None
    done: threading.Event = field(default_factory=threading.Event)
    error: CompanionError | None = None
    seqs: list[int] = field(default_factory=list)


def deck_ids(game: Game) -> set[str]:
    """The ids the camera can read for a game (what a reading may be corrected to): its
    bundle's cards, as its table plays it."""
    return set(registry.get(game.name).cards(game))


def corrected(look: Look, index: int, item_id: str | None, zone_of: ZoneOf
              ) -> tuple[TableScene, list[Reading], list[str]]:
    """The look's scene, readings and states with reading ``index`` made ``item_id``
    (None: not a card)."""
    from companion.vision.scene import Piece, TableScene

    readings, states = list(look.readings), list(look.states)
    pieces = list(look.scene.pieces)
    reading = readings[index]
    if item_id is None:
        if reading.piece is not None:
            del pieces[reading.piece]
            readings = [replace(r, piece=r.piece - 1) if r.piece is not None
                        and r.piece > reading.piece else r for r in readings]
            readings[index] = replace(reading, piece=None)
        states[index] = NOT_A_CARD
    else:
        if reading.piece is not None:
            pieces[reading.piece] = replace(pieces[reading.piece], item_id=item_id)
        else:
            centre = reading.centre_mm
            pieces.append(Piece(item_id, centre, zone_of(centre), reading.outline))
            reading = replace(reading, piece=len(pieces) - 1)
        readings[index] = replace(reading, item_id=item_id)
        states[index] = CORRECTED
    return TableScene(tuple(pieces), look.scene.markers), readings, states


class Corrector:
    """Carries out ``Correct`` items in the daemon's loop. ``close`` closes the open dialogue
    (what it decided, completed); ``ask`` asks the table about a sighting (again)."""

    def __init__(self, playing: CurrentGame, asking: OpenDialogue, recorder: Recorder,
                 looks: Looks, close: Callable[[Any, bool], None],
                 ask: Callable[[CameraProposal], None], library: TableLibrary | None = None
                 ) -> None:
        """``library``: the table's card library (``TableLibrary``): a correction's crop is
        taught to it as a sample of the card named (None: nothing is taught)."""
        self.playing = playing
        self.asking = asking
        self.recorder = recorder
        self.looks = looks
        self.close = close
        self.ask = ask
        self.library = library
        #: request id -> the events its correction stored (the latest ones kept).
        self.carried_out: OrderedDict[str, list[int]] = OrderedDict()

    def handle(self, item: Correct) -> None:
        try:
            item.seqs = self.correct(item)
        except CompanionError as error:
            log.info("correction refused: %s", error)
            item.error = error

    def answer(self, item: Answer, questions: Questions) -> None:
        """An answer to the camera's question from a page (the first answer wins)."""
        stored_game = self.playing.stored_game
        try:
            question = questions.check(item, stored_game.id if stored_game else None)
            assert stored_game is not None
            before = len(stored_game.session.events)
            if item.choice == YES:
                refusal = self.recorder.refusal_of(question.event)
                if refusal is not None:  # nothing changes: answer no, or another card
                    raise AnswerRefused(str(refusal), conflict=True)
                self.close(True, True)
            elif item.choice == NO:
                self.close(False, True)
            else:
                assert question.look is not None
                self.correct(Correct(question.look, question.readings[0], item.choice))
            item.stored = len(stored_game.session.events) - before
            log.info("the camera's question %d answered from a page", item.number)
        except CompanionError as error:
            log.info("answer refused: %s", error)
            item.error = error

    def correct(self, item: Correct) -> list[int]:
        """The events ``item`` stored (none: it changed nothing, or was carried out
        already), or CorrectionRefused with nothing changed."""
        if item.request is not None and item.request in self.carried_out:
            log.info("a correction sent again: nothing stored again")
            return self.carried_out[item.request]
        seqs = self._correct(item)
        if item.request is not None:
            self.carried_out[item.request] = seqs
            while len(self.carried_out) > REQUESTS_KEPT:
                self.carried_out.popitem(last=False)
        return seqs

    def _correct(self, item: Correct) -> list[int]:
        stored_game, reader = self.playing.stored_game, self.playing.reader
        look = self.looks.get(item.look, stored_game.id if stored_game else None)
        if stored_game is None or reader is None or look is None:
            raise CorrectionRefused(pgettext("web", "no such picture of this game"), "look")
        if look is not self.looks.latest:
            raise CorrectionRefused(
                pgettext("web", "the camera has taken a newer picture: correct that one"),
                "look", conflict=True)
        standing = self.standing(stored_game, look)
        if item.undo:
            if not look.earlier:
                raise CorrectionRefused(
                    pgettext("web", "no correction of this picture to take back"), "undo")
            before = look.earlier[-1]
            scene, readings, states = before.scene, before.readings, before.states
            events = [{k: v for k, v in e.items() if k != "t"} for e in before.events]
            self.check(stored_game, len(standing), events)
        else:
            index = item.reading
            if not isinstance(index, int) or not 0 <= index < len(look.readings):
                raise CorrectionRefused(
                    pgettext("web", "no reading {n} on this picture").format(n=index), "reading")
            if item.item_id is not None and item.item_id not in deck_ids(stored_game.game):
                raise CorrectionRefused(pgettext("web", "{id} is not a card of this game").format(
                    id=item.item_id), "id")
            if already(look, index, item.item_id):
                return []
            scene, readings, states = corrected(look, index, item.item_id, reader.table.zone_of)
            events = self.events_of(stored_game, look, scene, reader.mapper, len(standing))
            before = Before(look.scene, look.readings, look.states, standing,
                            [seen for seen in self.asking.sightings if seen.look == look.number],
                            self.crop(look, index))
        seqs = self.carry_out(stored_game, look, len(standing), events)
        if self.library is not None and before.lesson is not None:
            # The camera learns its table: this card under this light, from the next frame.
            if item.undo:
                self.library.unteach(before.lesson)
            else:
                self.library.teach(item.item_id or LIBRARY_NOT_A_CARD, before.lesson)
        if item.undo:
            look.earlier.pop()
        else:
            look.earlier.append(before)
        look.scene, look.readings, look.states = scene, readings, states
        look.seqs = []
        for seq, event in zip(seqs[len(standing):], events, strict=True):
            log.info("corrected from the controls page: %s", event_in_words(event))
            self.looks.stored(stored_game, look, seq)
        if item.undo:
            for sighting in before.sightings:  # unsure as it was: asked again, not stored
                self.ask(sighting)
        reader.read_from(scene)  # the next scene: against the table as it really was
        return seqs

    def crop(self, look: Look, index: int) -> np.ndarray | None:
        """Reading ``index`` of the look cut from the frame it was read from, as a sample
        (``companion.vision.library.sample_of``); None without the frame or a library."""
        if self.library is None or look.frame is None or look.view is None:
            return None
        import numpy as np

        from companion.vision.library import sample_of

        outline = look.view.to_image(np.array(look.readings[index].outline, np.float32))
        try:
            return sample_of(look.frame, outline)
        except Exception as error:  # noqa: BLE001 - a sample is a bonus: the correction stands
            log.info("no sample of the correction: %s", error)
            return None

    def standing(self, stored_game: StoredSession, look: Look) -> list[dict[str, Any]]:
        """The look's events still in force: the latest ones, or CorrectionRefused (later
        events stand on them)."""
        session = stored_game.session
        in_force = session.in_force
        mine = [session.events[seq - 1] for seq in look.seqs]
        standing = [event for event in mine if any(event is f for f in in_force)]
        count = len(standing)
        if count and not all(a is b for a, b in zip(in_force[-count:], standing, strict=True)):
            raise CorrectionRefused(
                pgettext("web", "later events stand on this reading: undo them first"),
                "look", conflict=True)
        return standing

    def events_of(self, stored_game: StoredSession, look: Look, scene: TableScene,
                  mapper: SceneMapper | None, withdrawn: int) -> list[dict[str, Any]]:
        """The events the corrected scene makes, after the look's ``withdrawn`` events are
        taken back; checked on a copy of the game (nothing changes here)."""
        from companion.vision.scene import TableScene

        if mapper is None:
            raise CorrectionRefused(
                pgettext("web", "the camera reads nothing in this game"), "look")
        copy = self.copy(stored_game, withdrawn)
        events = mapper.events(look.before or TableScene(()), scene, copy.game.view(None))
        for event in events:
            copy.apply(event)  # a refusal of the rules: nothing stored, said to the page
        return events

    def check(self, stored_game: StoredSession, withdrawn: int,
              events: list[dict[str, Any]]) -> None:
        """Whether the rules take ``events`` once ``withdrawn`` events are taken back."""
        copy = self.copy(stored_game, withdrawn)
        for event in events:
            copy.apply(event)

    @staticmethod
    def copy(stored_game: StoredSession, withdrawn: int) -> TableSession:
        """The game as it stands without its latest ``withdrawn`` events (a copy)."""
        in_force = stored_game.session.in_force
        copy = TableSession(stored_game.header)
        for event in in_force[:len(in_force) - withdrawn]:
            copy.apply(event)
        return copy

    def carry_out(self, stored_game: StoredSession, look: Look, withdrawn: int,
                  events: list[dict[str, Any]]) -> list[int]:
        """Withdraw the look's events still standing and store the corrected ones, in one
        transaction; then drop the look's sightings waiting at the confirm step."""
        to_store = [{"type": "undo"}] * withdrawn + list(events)
        try:
            seqs = self.recorder.append_all([{**event, "t": now_iso()} for event in to_store])
        except CompanionError as error:  # the store refused it (a full disk): nothing stored
            raise CorrectionRefused(storage_notice(error, _("not recorded")),
                                    conflict=True) from None
        if self.asking.withdraw(look.number) and self.asking.purpose == CONFIRM:
            self.close(None, False)  # its sighting dropped
        return seqs


def already(look: Look, index: int, item_id: str | None) -> bool:
    """Whether reading ``index`` of ``look`` stands as ``item_id`` already (None: not a card):
    such a correction has nothing to change."""
    if item_id is None:
        return look.states[index] == NOT_A_CARD
    return look.readings[index].item_id == item_id and look.states[index] in (SURE, CORRECTED)
