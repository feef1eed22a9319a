"""``companion vision enroll --camera``: a game's deck enrolled at the table from a terminal.

The same enrolment as on the table's controls page (``companion/daemon/enrolling.py``),
for a table with no web pages: the camera watches the play area through its corner markers,
and each card laid alone is taken once the table settles (``TableWatcher``'s settle gate),
cut out (``laid.LaidCards``) and named the next card of the game's list (its bundle's
``cards``: ``enrol_table.DeckEnrolment``). Cards laid several at once cannot be named here
(a terminal has no tap): the command asks for them one at a time. Once every card is in,
the deck is written over ``--out`` (its other faces kept), atomically, with a contact sheet
of the crops. A folder of frames (``--frames``) stands in for the camera, as ``[camera]
source = "files"`` does for the daemon.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.errors import CompanionError

#: The camera's trouble in a row (no frame, black, frozen) before the command gives up.
MOST_TROUBLE = 5


class EnrolStopped(CompanionError):
    """The enrolment could not go on (the camera, the frames ended); nothing was written."""


@dataclass(frozen=True)
class NamedDeck:
    """The game's deck as the terminal says it: ids in the game's order, each one's name."""

    game: str
    cards: list[str]
    names: dict[str, str]


def frames_from(camera: str | None, frames: str | None) -> Any:
    """The frame source: a folder of frames, the Pi's camera, or USB camera N."""
    from companion.vision import sources

    if frames is not None:
        return sources.ImageFolder(Path(frames))
    assert camera is not None
    if camera == "picamera":
        return sources.Picamera2Source()
    if not camera.isdigit():
        raise EnrolStopped(f"--camera {camera}: give a camera number (USB) or 'picamera'")
    return sources.VideoCapture(int(camera))


def enrol_at_table(deck: NamedDeck, source: Any, layout: Any, say: Callable[[str], None],
                   settle_seconds: float = 0.8) -> Any:
    """Watch ``source`` until every card of ``deck`` is laid and taken; the DeckEnrolment
    done (EnrolStopped if the camera fails or the frames end first)."""
    from companion.vision.enrol_table import DeckEnrolment
    from companion.vision.laid import LaidCards, reading_order
    from companion.vision.library import CardLibrary
    from companion.vision.sources import CameraWatch
    from companion.vision.watch import TableWatcher

    enrolment = DeckEnrolment(deck.cards)
    watch = CameraWatch(source)
    # The table's empty library: the settle gate reports a scene once it looks otherwise.
    watcher = TableWatcher(CardLibrary(), layout, settle_seconds=settle_seconds)
    laid = LaidCards(layout)
    troubles = 0
    say(prompt(deck, enrolment))
    try:
        while not enrolment.ready:
            glimpse, trouble = watch.next()
            if glimpse is None:
                if getattr(source, "ended", False):
                    raise EnrolStopped(f"the frames ended with {len(enrolment.named)} of "
                                       f"{len(deck.cards)} cards enrolled; nothing written")
                troubles += 1
                if troubles >= MOST_TROUBLE and trouble is not None:
                    raise EnrolStopped(f"the camera: {trouble.message}; nothing written")
                continue
            troubles = 0
            if watcher.watch(glimpse) is None:
                continue
            cards = reading_order(laid.settled(glimpse.frame(), watcher.rectifier.last_view))
            if len(cards) > 1:
                say(f"{len(cards)} cards laid at once: take them away and lay one at a time")
            elif cards:
                [taken] = enrolment.laid([cards[0].face])
                say(f"took {deck.names[taken.card]} ({enrolment.position(taken.card)} of "
                    f"{len(deck.cards)})")
                if not enrolment.ready:
                    say(prompt(deck, enrolment))
    finally:
        watch.watched.close()
    return enrolment


def prompt(deck: NamedDeck, enrolment: Any) -> str:
    card = enrolment.next_card()
    return (f"lay the next card: {deck.names[card]} ({enrolment.position(card)} of "
            f"{len(deck.cards)})")
