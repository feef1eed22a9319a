"""A seat's own facts (the keys its view has and the public view lacks) as its page lists
them: each value in words, in the page's language.

The game's bundle says its own (``facts(private, seats)`` in its ``screens.py``: a Rumble
seat's secret characters, the heroes offered in Tricky, a Traps dial reading), with the same
names its screens draw; the rest reads plainly (a seat by its name, yes or no, a number).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion import bundles
from companion.i18n import pgettext


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
    own = getattr(bundles.get(game).screen_module(), "facts", None)
    words = own(private, seats) if own is not None else {}
    return {key: words[key] if key in words else plain(key, value, seats)
            for key, value in private.items()}
