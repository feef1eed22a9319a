"""A reading of the camera put right from the table's controls page (``Correct``, in the loop).

A correction changes the latest look's scene (a card named otherwise, an outline left out
named, a card that is not one taken away) and reads it again with the game's own mapper,
against the scene before it and the game as it stood before the look's events: what comes
out goes through the rules like any event. Where the look's events are still the latest in
force, each is withdrawn with an ``undo`` first; where none were stored (refused, never made,
or undone since), the corrected events are simply added. Everything is checked on a copy of
the game before anything is stored, so a correction the rules refuse changes nothing; each
entry is durable before the table shows it. A correction is itself taken back the same way
(``undo`` on the look): the scene as it was before it is read again.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from companion import bundles
from companion.daemon.asking import CONFIRM, OpenDialogue
from companion.daemon.looks import CORRECTED, NOT_A_CARD, Look, Looks
from companion.daemon.questions import NO, YES, Answer, AnswerRefused, Questions
from companion.daemon.record import CurrentGame, Recorder, event_in_words, now_iso
from companion.errors import CompanionError
from companion.i18n import pgettext
from companion.table import StoredSession
from companion.table.session import TableSession

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
    not a card); or, with ``undo``, the look's latest correction taken back. ``done`` is set
    once it is stored (``seqs``: the entries stored) or refused (``error``)."""

    look: int
    reading: int | None = None
    item_id: str | None = None
    undo: bool = False
    done: threading.Event = field(default_factory=threading.Event)
    error: CompanionError | None = None
    seqs: list[int] = field(default_factory=list)


def deck_ids(game: Any) -> set[str]:
    """The ids the camera can read for a game (what a reading may be corrected to): its
    bundle's cards, as its table plays it."""
    return set(bundles.get(game.name).cards(game))


def corrected(look: Look, index: int, item_id: str | None, zone_of: Any
              ) -> tuple[Any, list[Any], list[str]]:
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
    """Carries out ``Correct`` items in the daemon's loop."""

    def __init__(self, playing: CurrentGame, asking: OpenDialogue, recorder: Recorder, looks: Looks,
                 close: Callable[[Any, bool], None]) -> None:
        self.playing = playing
        self.asking = asking
        self.recorder = recorder
        self.looks = looks
        self.close = close  # closes the open dialogue: (what it decided, completed)

    def handle(self, item: Correct) -> None:
        try:
            item.seqs = self.correct(item)
        except CompanionError as error:
            log.info("correction refused: %s", error)
            item.error = error

    def answer(self, item: Answer, questions: Questions) -> None:
        """An answer to the camera's question from a page (the first answer wins)."""
        table = self.playing.table
        try:
            question = questions.check(item, table.id if table else None)
            assert table is not None
            before = len(table.session.entries)
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
            item.stored = len(table.session.entries) - before
            log.info("the camera's question %d answered from a page", item.number)
        except CompanionError as error:
            log.info("answer refused: %s", error)
            item.error = error

    def correct(self, item: Correct) -> list[int]:
        table, reader = self.playing.table, self.playing.reader
        look = self.looks.get(item.look, table.id if table else None)
        if table is None or reader is None or look is None:
            raise CorrectionRefused(pgettext("web", "no such picture of this game"), "look")
        if look is not self.looks.latest:
            raise CorrectionRefused(
                pgettext("web", "the camera has taken a newer picture: correct that one"),
                "look", conflict=True)
        if item.undo:
            if not look.earlier:
                raise CorrectionRefused(
                    pgettext("web", "no correction of this picture to take back"), "undo")
            scene, readings, states = look.earlier[-1]
        else:
            index = item.reading
            if not isinstance(index, int) or not 0 <= index < len(look.readings):
                raise CorrectionRefused(
                    pgettext("web", "no reading {n} on this picture").format(n=index), "reading")
            if item.item_id is not None and item.item_id not in deck_ids(table.game):
                raise CorrectionRefused(pgettext("web", "{id} is not a card of this game").format(
                    id=item.item_id), "id")
            scene, readings, states = corrected(look, index, item.item_id, reader.table.zone_of)
        withdrawn, events = self.plan(table, look, scene, reader.mapper)
        seqs = self.carry_out(table, look, withdrawn, events)
        if item.undo:
            look.earlier.pop()
        else:
            look.earlier.append((look.scene, look.readings, look.states))
        look.scene, look.readings, look.states = scene, readings, states
        look.seqs = []
        for seq, event in zip(seqs[withdrawn:], events, strict=True):
            log.info("corrected from the controls page: %s", event_in_words(event))
            self.looks.stored(table, look, seq)
        reader.read_from(scene)  # the next scene: against the table as it really was
        return seqs

    def plan(self, table: StoredSession, look: Look, scene: Any, mapper: Any
             ) -> tuple[int, list[dict[str, Any]]]:
        """How many of the look's events to withdraw (the latest in force), and the events
        the corrected scene makes; checked on a copy of the game (nothing changes here)."""
        from companion.vision.scene import TableScene

        session = table.session
        in_force = session.in_force
        mine = [session.entries[seq - 1] for seq in look.seqs]
        standing = [entry for entry in mine if any(entry is f for f in in_force)]
        count = len(standing)
        if count and not all(a is b for a, b in zip(in_force[-count:], standing, strict=True)):
            raise CorrectionRefused(
                pgettext("web", "later events stand on this reading: undo them first"),
                "look", conflict=True)
        copy = TableSession(table.header)
        for entry in in_force[:len(in_force) - count]:
            copy.apply(entry)
        if mapper is None:
            raise CorrectionRefused(
                pgettext("web", "the camera reads nothing in this game"), "look")
        events = mapper.events(look.before or TableScene(()), scene, copy.game.view(None))
        for event in events:
            copy.apply(event)  # a refusal of the rules: nothing stored, said to the page
        return count, events

    def carry_out(self, table: StoredSession, look: Look, withdrawn: int,
                  events: list[dict[str, Any]]) -> list[int]:
        """Drop the look's sightings waiting at the confirm step, withdraw its events still
        standing, store the corrected ones: each durable before the next."""
        if self.asking.withdraw(look.number) and self.asking.purpose == CONFIRM:
            self.close(None, False)  # its sighting dropped
        seqs = []
        for entry in [{"type": "undo"}] * withdrawn + list(events):
            seq = self.recorder.append({**entry, "t": now_iso()})
            if seq is None:  # the store refused it (a full disk): said on the table screen
                raise CorrectionRefused(
                    pgettext("web", "not all of it was stored: look at the event log"),
                    conflict=True)
            seqs.append(seq)
        return seqs
