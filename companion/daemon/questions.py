"""The camera's unsure sighting the table is being asked about, for the phones: the acting
seat's page and the controls page show the crop of the reading and the choices, besides the
table screen's yes / no. Whichever answers first wins (``Answer``, in the loop); the others
close, since the question is gone from what the table shows.

A question is the confirm step's sighting (``OpenDialogue.asked``): its number, its seat, the
look it came from and the readings of that look it is about (the cards it puts down), a
JPEG crop of the picture round them (made once per question), and the other faces its one
reading looked most like (a choice of those is the reading corrected to it).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from companion.daemon.looks import Look, Looks
from companion.daemon.open_dialogue import OpenDialogue
from companion.errors import CompanionError
from companion.i18n import _, pgettext

log = logging.getLogger("companion.daemon")

#: How many of the reading's other faces are offered.
ALTERNATIVES = 4
YES, NO = "yes", "no"


@dataclass(frozen=True)
class Question:
    number: int
    seat: int | None
    look: int | None
    event: dict[str, Any]
    readings: tuple[int, ...]
    crop: bytes | None
    alternatives: tuple[str, ...]


@dataclass
class Answer:
    """An answer to question ``number`` from a page: ``choice`` is yes, no or one of the
    question's alternatives; ``seat``: the seat's page it came from (None: the controls
    page). ``done`` is set once it is acted on (stored) or refused (``error``)."""

    number: int
    choice: str
    seat: int | None = None
    done: threading.Event = field(default_factory=threading.Event)
    error: CompanionError | None = None
    stored: int = 0  # events stored by it


class AnswerRefused(CompanionError):
    """An answer that cannot be taken: ``field`` at fault, or ``conflict`` (answered
    already), or ``other_seat`` (a seat answering another's question)."""

    def __init__(self, message: str, field_name: str = "", conflict: bool = False,
                 other_seat: bool = False) -> None:
        self.field, self.conflict, self.other_seat = field_name, conflict, other_seat
        super().__init__(f"{field_name}: {message}" if field_name else message)


def values(event: dict[str, Any]) -> set[str]:
    """The ids an event names (its card, or its cards)."""
    found = set()
    for value in event.values():
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, str):
                found.add(item)
    return found


def readings_of(look: Look, event: dict[str, Any]) -> list[int]:
    """The look's readings an event was read from: the cards new on the table it names."""
    from companion.vision.events import new_pieces
    from companion.vision.scene import TableScene

    fresh = new_pieces(look.before or TableScene(()), look.scene)
    named = values(event)
    return [n for n, reading in enumerate(look.readings)
            if reading.piece is not None and reading.item_id in named
            and any(look.scene.pieces[reading.piece] is piece for piece in fresh)]


#: Per reading of a look, the cards it may be corrected to (``offers.Offers.of``).
OffersOf = Callable[[Look], "list[list[str]] | None"]


def build(number: int, event: dict[str, Any], look: Look | None,
          offers: OffersOf | None = None) -> Question:
    seat = event.get("seat") if isinstance(event.get("seat"), int) else None
    if look is None:
        return Question(number, seat, None, event, (), None, ())
    from companion.vision.evidence import crop

    readings = readings_of(look, event)
    picture = None
    try:
        if readings:
            picture = crop(look.picture, [look.readings[n].outline for n in readings])
    except ValueError as error:  # the question is asked all the same, without its picture
        log.warning("no crop of the camera's reading: %s", error)
    alternatives: tuple[str, ...] = ()
    if len(readings) == 1:
        reading = look.readings[readings[0]]
        # Only what the rules allow there now (never a card of another game, nor one played).
        allowed = offers(look) if offers is not None else None
        kept = set(allowed[readings[0]]) if allowed is not None else set(reading.nearest)
        alternatives = tuple(i for i in reading.nearest
                             if i != reading.item_id and i in kept)[:ALTERNATIVES]
    return Question(number, seat, look.number, event, tuple(readings), picture, alternatives)


class Questions:
    """The question asked now, made once per question (its crop: one decode and encode)."""

    def __init__(self, asking: OpenDialogue, looks: Looks, offers: OffersOf | None = None
                 ) -> None:
        self.asking, self.looks, self.offers = asking, looks, offers
        self._made: Question | None = None

    def current(self, session: int | None) -> Question | None:
        asked = self.asking.asked
        if asked is None:
            return None
        number, sighting = asked
        if self._made is None or self._made.number != number:
            self._made = build(number, dict(sighting.event), self.looks.get(sighting.look, session),
                               self.offers)
        return self._made

    def check(self, answer: Answer, session: int | None) -> Question:
        """The question ``answer`` answers, if it is still asked and the answer is one of
        its choices (else AnswerRefused)."""
        question = self.current(session)
        if question is None or question.number != answer.number:
            raise AnswerRefused(_("answered already"), conflict=True)
        if answer.seat is not None and answer.seat != question.seat:
            raise AnswerRefused(pgettext("web", "another seat's question"), other_seat=True)
        if answer.choice not in (YES, NO, *question.alternatives):
            raise AnswerRefused(pgettext("web", "one of {choices}").format(
                choices=", ".join((YES, *question.alternatives, NO))), "choice")
        return question
