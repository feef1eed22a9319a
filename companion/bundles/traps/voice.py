"""What the table hears in Mage Knight traps, from the public views before and after an event."""

from __future__ import annotations

from collections.abc import Sequence

from companion.i18n import pgettext
from companion.voice.words import View, winner


def announce(before: View, after: View, seats: Sequence[str]) -> list[str]:
    said = []
    sprung = after.get("sprung")
    if sprung and sprung != before.get("sprung"):
        said.append(pgettext("voice", "{trap} on {player}!").format(
            trap=sprung["name"], player=seats[sprung["seat"]]))
    if after.get("finished") and not before.get("finished"):
        said.append(winner(after["xp"], seats))
    return said
