"""Words the code makes from ids (``dwarven-hunter`` -> "Dwarven Hunter", an event type, a
field of an event) rather than spells out: marked here so that they are in the catalogue.
``event_word`` and ``field_word`` read them in the language being drawn.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from companion.i18n import N_, NP_, pgettext

#: The name a new game gives a seat nobody named ("Seat 4", stored in the log as it is).
UNNAMED = re.compile(r"Seat ([1-9][0-9]?)")

TRICKY_HEROES = (
    N_("Thief"), N_("Assassin"), N_("Barbarian"), N_("Wizard"), N_("Witch"),
    N_("Dwarven Hunter"), N_("Trickster"), N_("Seer"), N_("Troubadour"), N_("Sorcerer"),
    N_("Knight"), N_("Ninja"), N_("Elvish Hunter"), N_("Nymph"), N_("Fairy Scout"))
TRICKY_SUITS = (N_("red"), N_("blue"), N_("yellow"), N_("green"), N_("Red"), N_("Blue"),
                N_("Yellow"), N_("Green"))
#: Event types as a manual entry's menu offers them.
EVENTS = (
    NP_("event", "counterattack"), NP_("event", "deal"), NP_("event", "disarm"),
    NP_("event", "escape"), NP_("event", "exchange"), NP_("event", "expose"),
    NP_("event", "fight"), NP_("event", "hero"), NP_("event", "move"),
    NP_("event", "open cards"), NP_("event", "pass"), NP_("event", "pig"), NP_("event", "play"),
    NP_("event", "predict"), NP_("event", "reveal"), NP_("event", "secrets"),
    NP_("event", "start"), NP_("event", "trigger"), NP_("event", "trump"), NP_("event", "undo"))
#: Fields of an event, as a manual entry asks for them.
FIELDS = (
    NP_("field", "active"), NP_("field", "attack"), NP_("field", "card"),
    NP_("field", "cards"), NP_("field", "character"), NP_("field", "characters"),
    NP_("field", "chest"), NP_("field", "clicks"), NP_("field", "count"),
    NP_("field", "counts"), NP_("field", "damage"), NP_("field", "damaged"),
    NP_("field", "dealer"), NP_("field", "dice"), NP_("field", "discard"),
    NP_("field", "face down"), NP_("field", "hero"), NP_("field", "lead"), NP_("field", "mode"),
    NP_("field", "refuse"), NP_("field", "seat"), NP_("field", "square"), NP_("field", "suit"),
    NP_("field", "to"), NP_("field", "trump suit"), NP_("field", "trump value"),
    NP_("field", "variable die"), NP_("field", "victim"), NP_("field", "quick"),
    NP_("field", "slow"))


def event_word(kind: str) -> str:
    """An event type in the language drawn: ``open_cards`` -> "open cards"."""
    return pgettext("event", kind.replace("_", " "))


def field_word(key: str) -> str:
    return pgettext("field", key.replace("_", " "))


def unnamed(name: str) -> bool:
    """Is ``name`` the one a new game gives a seat nobody named ("Seat 4")?"""
    return UNNAMED.fullmatch(name) is not None


def seat_word(name: str) -> str:
    """A seat's name in the language drawn: an unnamed seat's "Seat 4" is "Place 4" in
    French; a name a person gave stays as it is.

    >>> from companion.i18n import using
    >>> with using("de"):
    ...     seat_word("Seat 4"), seat_word("Ann")
    ('Platz 4', 'Ann')
    """
    found = UNNAMED.fullmatch(name)
    return pgettext("web", "Seat {n}").format(n=found.group(1)) if found else name


def seat_words(names: Sequence[str]) -> tuple[str, ...]:
    """Every seat's name in the language drawn (``seat_word``); the names as given should
    two of them read alike then (a player called "Platz 4" beside an unnamed "Seat 4")."""
    said = tuple(seat_word(name) for name in names)
    return said if len({name.casefold() for name in said}) == len(said) else tuple(names)
