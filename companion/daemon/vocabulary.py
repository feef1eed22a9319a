"""The words a manual entry offers for a text field: squares, cards, characters, rooms, heroes.

Each game's bundle gives them (``candidates``, from the table's own options where it has them,
e.g. its ``deck``, else the component data in the game's folder and the names fixed by
docs/table-log.md) and the names people read on the cards (``names``). ``Vocabulary.display`` gives
each id that name (``rat-man`` is "Rat Man", ``green-4`` is "Green 4"); a game's names are
read once per ``Vocabulary``.

>>> from companion.bundles.deathtrap.rules.engine import Deathtrap
>>> Vocabulary(Deathtrap(["Ann", "Bob", "Cy", "Dee"], seed=1)).display("cards", "rat-man")
'Rat Man'
"""

from __future__ import annotations

from typing import Any

from companion.games import registry
from companion.games.base import Game
from companion.i18n import _


class Vocabulary:
    """The words of one game's manual entry (its names read once)."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.bundle = registry.get(game.name)
        self.names = self.bundle.names(game)
        self.seat_fields = game.seat_fields()  # shown as the seat's name

    def candidates(self, key: str) -> list[str]:
        """The values a person may pick for text field ``key`` of an event of the game."""
        return self.bundle.candidates(self.game, key)

    def display(self, key: str, value: Any) -> str:
        """The name people read for ``value`` of field ``key``: a seat's name, a card's."""
        seats = self.game.seats
        if key in self.seat_fields and isinstance(value, int) and not isinstance(value, bool) \
                and 0 <= value < len(seats):
            return seats[value]
        if not isinstance(value, str):
            return str(value)
        named = self.names.get(value)
        if named:
            return _(named)
        if key in self.bundle.as_printed:
            return value
        stem, _dash, number = value.rpartition("-")
        if stem and number.isdigit():
            return f"{_(stem.replace('-', ' ').title())} {number}"  # green-4: "Green 4"
        return _(value.replace("-", " ").title())
