"""A game's deck enrolled at the table, card by card: which faces are in, which card is next.

The cards are a game's (its bundle's ``cards``: ids in the game's order). A face taken by
the camera (``laid.LaidCards``) is named the next card still missing when it is the only
card laid and no other waits for its name ("lay the next card: Rat Man (3 of 17)");
several laid at once wait, each to be named from the game's list (a tap on the controls
page). A face may be named again (the name moves to it) or dropped. The deck is ready when
every card has its face; its library is then the faces written over a library given (the
other games' faces kept). Ids only: the words are the daemon's and the command's.

>>> deck = DeckEnrolment(["rat-man", "orc"])
>>> deck.next_card(), deck.position("rat-man")
('rat-man', 1)
>>> [taken.card for taken in deck.laid([np.zeros((448, 320, 3), np.uint8)])]
['rat-man']
>>> deck.next_card(), deck.ready
('orc', False)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from companion.errors import CompanionError
from companion.i18n import pgettext
from companion.vision.library import CardLibrary


class EnrolError(CompanionError):
    """A naming or a drop that cannot be made: ``field`` is the request's field at fault."""

    def __init__(self, message: str, field_name: str = "") -> None:
        self.field = field_name
        super().__init__(f"{field_name}: {message}" if field_name else message)


@dataclass
class Taken:
    """A face the camera took: its number in this enrolment (from 1, never reused), the
    face, and the card it is (None: it waits to be named)."""

    number: int
    face: np.ndarray
    card: str | None


class DeckEnrolment:
    """One deck being enrolled (see the module)."""

    def __init__(self, cards: Sequence[str]) -> None:
        if not cards:
            raise EnrolError(pgettext("web", "the game has no cards the camera reads"))
        self.cards = list(dict.fromkeys(cards))
        self.taken: list[Taken] = []
        self._count = 0

    @property
    def named(self) -> dict[str, Taken]:
        """Each card with a face, and that face."""
        return {taken.card: taken for taken in self.taken if taken.card is not None}

    @property
    def waiting(self) -> list[Taken]:
        """The faces taken that wait for their name."""
        return [taken for taken in self.taken if taken.card is None]

    @property
    def ready(self) -> bool:
        """Every card of the deck has its face (and none waits for a name)."""
        return len(self.named) == len(self.cards) and not self.waiting

    def next_card(self) -> str | None:
        """The first card of the game's order still without its face (None: all in)."""
        named = self.named
        return next((card for card in self.cards if card not in named), None)

    def position(self, card: str) -> int:
        """The card's place in the deck, from 1 ("3 of 17")."""
        return self.cards.index(card) + 1

    def laid(self, faces: Sequence[np.ndarray]) -> list[Taken]:
        """Faces of cards just laid (in the order they are to be named), taken: one alone,
        with nothing waiting, is the next card; several wait to be named."""
        alone = len(faces) == 1 and not self.waiting
        taken = []
        for face in faces:
            self._count += 1
            taken.append(Taken(self._count, face, self.next_card() if alone else None))
        self.taken += taken
        return taken

    def find(self, number: int) -> Taken:
        found = next((taken for taken in self.taken if taken.number == number), None)
        if found is None:
            raise EnrolError(pgettext("web", "no face {n} was taken").format(n=number), "crop")
        return found

    def name(self, number: int, card: str) -> None:
        """Face ``number`` is ``card`` (a face named so before waits for a name again)."""
        taken = self.find(number)
        if card not in self.cards:
            raise EnrolError(pgettext("web", "{id} is not a card of this game").format(id=card),
                             "card")
        for other in self.taken:
            if other.card == card and other is not taken:
                other.card = None
        taken.card = card

    def drop(self, number: int) -> None:
        """Face ``number`` is not wanted (a bad crop, a card laid by mistake)."""
        self.taken.remove(self.find(number))

    def library(self, base: CardLibrary) -> CardLibrary:
        """``base`` with this deck's faces added (each card's earlier face replaced): the
        library to write once the deck is ready."""
        for card in self.cards:
            taken = self.named.get(card)
            if taken is not None:
                base.add_face(card, taken.face)
        return base
