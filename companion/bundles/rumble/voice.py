"""What the table hears in Rumble in the Dungeon, from the public views before and after
an event."""

from __future__ import annotations

from collections.abc import Sequence

from companion.i18n import pgettext
from companion.voice.words import View, leader, turn, winner


def announce(before: View, after: View, seats: Sequence[str]) -> list[str]:
    if after["phase"] == "over":
        return [winner(after["totals"], seats)]
    if after["adventure"] != before["adventure"]:
        return [pgettext("voice", "Adventure {n} over.").format(n=before["adventure"]) + " "
                + leader(after["totals"], seats)]
    return turn(after["turn"], seats) if after["turn"] != before.get("turn") else []
