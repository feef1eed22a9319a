"""Dragon's Hoard on the table's screens (128x64, one bit), drawn from views only: the table
shows every seat's gold with the roller's inverted; a seat sees its gold and whose turn it is.
Every word goes through the companion's translation (``_``), in the table's language."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PIL import Image

from companion.i18n import _, pgettext
from companion.screens.common import (
    body,
    final_place,
    final_scores,
    scoreboard,
    seat_screen,
)


def table(view: dict[str, Any], seats: Sequence[str]) -> Image.Image:
    """The public view: whose turn (or who burned), every seat's gold; at the end, the
    winner's inverted."""
    if view["finished"]:
        return final_scores(seats, view["gold"])
    if view["woke"] is not None:
        title = _("Dragon! {player} burned").format(player=seats[view["woke"]])
    else:
        title = _("{player} rolls").format(player=seats[view["turn"]])
    return scoreboard(title, seats, view["gold"], highlight=(view["turn"],))


def seat(view: dict[str, Any], seats: Sequence[str], peeking: bool) -> Image.Image:
    """A seat's own screen: its gold, and whose turn it is or its place at the end (nothing
    is secret, so a peek shows the same)."""
    me, gold = view["seat"], view["gold"]
    image, draw, box = seat_screen(seats[me], pgettext("score", "{n} gold").format(n=gold[me]))
    if view["finished"]:
        final_place(draw, box, gold, me, _("game over: {n} gold").format(n=gold[me]))
    elif view["turn"] == me:
        body(draw, box, _("Your turn"), _("goal: {n} gold").format(n=view["goal"]))
    else:
        body(draw, box, _("{player}'s turn").format(player=seats[view["turn"]]),
             _("goal: {n} gold").format(n=view["goal"]))
    return image
