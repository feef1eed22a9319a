"""A seat's own facts (the keys its view has and the public view lacks) as its page lists
them under the peek button: each a sentence a player reads, in the page's language.

The game's bundle says each value in words (``facts(private, seats)`` in its ``screens.py``:
e.g. a seat's secret characters, the heroes it is offered, a dial reading), with
the same names its screens draw; the rest reads plainly (a seat by its name, a number).
``peek_lines`` then says each fact as a sentence ("You hold 6 cards", "Your secret
characters: Dwarf + Wizard"), and leaves out a fact with nothing in it (no exchange, no
prompt) and the seat's own number (its name heads the page).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.games import registry
from companion.i18n import NP_, npgettext, pgettext


def plain(key: str, value: Any, seats: Sequence[str]) -> str:
    """A value no bundle words: a seat by its name, yes or no, nothing as "-"."""
    if key == "seat" and isinstance(value, int) and 0 <= value < len(seats):
        return seats[value]
    if isinstance(value, bool):
        return pgettext("web", "yes") if value else pgettext("web", "no")
    if value is None or value == "" or value == []:
        return "-"
    if isinstance(value, list | tuple):
        return ", ".join(plain("", item, seats) for item in value)
    return str(value)


def fact_words(game: str, private: Mapping[str, Any], seats: Sequence[str]) -> dict[str, str]:
    """Every value of ``private`` (one seat's own part of its view) in words."""
    own = registry.get(game).screen_module().facts
    words = own(private, seats) if own is not None else {}
    return {key: words[key] if key in words else plain(key, value, seats)
            for key, value in private.items()}


#: How a seat's page says a fact, ``{value}`` being the fact in words (``fact_words``).
SENTENCES = {
    "actions": NP_("web", "You may: {value}"),
    "exchange": NP_("web", "Exchange: {value}"),
    "hero_choices": NP_("web", "Heroes you may choose: {value}"),
    "refused": NP_("web", "Not allowed now: {value}"),
    "secrets": NP_("web", "Your secret characters: {value}"),
    "squares": NP_("web", "Your dial readings: {value}"),
    "your_xp": NP_("web", "Your XP: {value}"),
}
#: Facts said as they are (the game's own sentence), and facts a page does not say.
AS_IS = ("prompt", "note")
UNSAID = ("seat",)


def empty(value: Any) -> bool:
    """Nothing to say: no value, an empty text or list, or a "no" (not your turn)."""
    return value is None or value is False or value == "" or value == [] or value == {}


def sentence(key: str, value: Any, words: str) -> str:
    """One fact as a player reads it (``words``: its value in words)."""
    if key == "your_turn":
        return pgettext("web", "It is your turn")
    if key == "your_count" and isinstance(value, int):
        return npgettext("web", "You hold {n} card", "You hold {n} cards", value).format(n=value)
    if key == "exchange_limit" and isinstance(value, int):
        return npgettext("web", "You may exchange up to {n} card",
                         "You may exchange up to {n} cards", value).format(n=value)
    if key in AS_IS:
        return words
    if key in SENTENCES:
        return pgettext("web", SENTENCES[key]).format(value=words)
    return f"{key_word(key)}: {words}"  # a fact no sentence says: its name, then its value


def key_word(key: str) -> str:
    """A view's key in the language drawn (``your_turn`` -> "your turn", or "à vous")."""
    return pgettext("web", key.replace("_", " "))


def peek_lines(game: str, private: Mapping[str, Any], seats: Sequence[str]) -> list[str]:
    """What a seat's page lists under its peek button: each of its own facts said as a
    sentence, in the language drawn; empty facts and the seat's number left out."""
    words = fact_words(game, private, seats)
    return [sentence(key, value, words[key]) for key, value in private.items()
            if key not in UNSAID and not empty(value)]
