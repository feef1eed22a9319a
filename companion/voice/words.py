"""The words the voice builds every announcement from: whose turn, who leads, who won, in
the table's language (``pgettext("voice", ...)``). Each game's bundle says when to say them
(its ``voice.py``); ``companion.voice.announce`` asks it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from companion.i18n import pgettext

View = dict[str, Any]


def _names(seats: Sequence[str], chosen: Sequence[int]) -> str:
    return pgettext("voice", "{first} and {second}").format(
        first=", ".join(seats[seat] for seat in chosen[:-1]), second=seats[chosen[-1]]) \
        if len(chosen) > 1 else seats[chosen[0]]


def _best(totals: Sequence[int]) -> list[int]:
    top = max(totals)
    return [seat for seat, total in enumerate(totals) if total == top]


def leader(totals: Sequence[int], seats: Sequence[str]) -> str:
    """Who leads on ``totals``: one seat, or the seats sharing the lead."""
    best = _best(totals)
    name = _names(seats, best)
    return (pgettext("voice", "{player} leads") if len(best) == 1
            else pgettext("voice", "{player} share the lead")).format(player=name)


def winner(totals: Sequence[int], seats: Sequence[str]) -> str:
    best = _best(totals)
    name = _names(seats, best)
    return (pgettext("voice", "{player} wins the game") if len(best) == 1
            else pgettext("voice", "{player} share the win")).format(player=name)


def turn(seat: int | None, seats: Sequence[str]) -> list[str]:
    return [] if seat is None else [pgettext("voice", "{player}'s turn").format(
        player=seats[seat])]
