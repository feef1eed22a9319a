"""Words the code makes from ids (an event type, a field of an event) rather than spells out:
those every game shares are marked here so that they are in the catalogue, each game's in its
bundle's ``words.py``. ``event_word`` and ``field_word`` read them in the language drawn.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from companion.i18n import NP_, pgettext

#: The name a new game gives a seat nobody named ("Seat 4", stored in the log as it is).
UNNAMED = re.compile(r"Seat ([1-9][0-9]?)")

#: The words every game shares: the table's own event and the acting seat. A game marks its
#: own event types and fields in its bundle's ``words.py``.
EVENTS = (NP_("event", "undo"),)
FIELDS = (NP_("field", "seat"),)


def event_word(kind: str) -> str:
    """An event type in the language drawn: ``open_cards`` -> "open cards"."""
    return pgettext("event", kind.replace("_", " "))


def field_word(key: str) -> str:
    return pgettext("field", key.replace("_", " "))


def unnamed(name: str) -> bool:
    """Is ``name`` the one a new game gives a seat nobody named ("Seat 4")?"""
    return UNNAMED.fullmatch(name) is not None


def seat_word(name: str) -> str:
    """A seat's name in the language drawn: an unnamed seat's "Seat 4" is "Joueur 4" in
    French; a name a person gave stays as it is.

    >>> from companion.i18n import using
    >>> with using("de"):
    ...     seat_word("Seat 4"), seat_word("Ann")
    ('Spieler 4', 'Ann')
    """
    found = UNNAMED.fullmatch(name)
    return pgettext("name", "Seat {n}").format(n=found.group(1)) if found else name


def seat_words(names: Sequence[str]) -> tuple[str, ...]:
    """Every seat's name in the language drawn (``seat_word``): the one name a seat has on
    every screen, page, caption and announcement. The names as given should two of them read
    alike then (a player called "Spieler 4" beside an unnamed "Seat 4")."""
    said = tuple(seat_word(name) for name in names)
    return said if len({name.casefold() for name in said}) == len(said) else tuple(names)
