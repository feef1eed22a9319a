"""What the table hears in Dragon's Hoard, from the public views before and after a roll."""

from __future__ import annotations

from collections.abc import Sequence

from companion.i18n import pgettext
from companion.voice.words import View, turn, winner


def announce(before: View, after: View, seats: Sequence[str]) -> list[str]:
    if after["finished"]:
        return [winner(after["gold"], seats)]
    said = []
    if after["woke"] is not None:
        said.append(pgettext("voice", "The dragon wakes! {player} is burned").format(
            player=seats[after["woke"]]))
    return said + turn(after["turn"], seats)
