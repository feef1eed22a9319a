"""What the table hears in Deathtrap Dungeon, from the public views before and after an event."""

from __future__ import annotations

from collections.abc import Sequence

from companion.i18n import pgettext
from companion.voice.words import View, leader, turn, winner


def announce(before: View, after: View, seats: Sequence[str]) -> list[str]:
    if after["phase"] == "over":
        return [winner(after["totals"], seats)]
    if after["round"] == before["round"] and after["phase"] in ("deal", "exchange") \
            and before["phase"] in ("play", "pig"):
        return [pgettext("voice", "Round {n} over.").format(n=after["round"]) + " "
                + leader(after["totals"], seats)]
    said = []
    if before.get("to_beat") is not None and after.get("to_beat") is None \
            and after["phase"] == "play" and after.get("leader") is not None:
        said.append(pgettext("voice", "{player} wins the hand").format(
            player=seats[after["leader"]]))
    elif after["phase"] == "play" and after["turn"] != before.get("turn"):
        said += turn(after["turn"], seats)
    return said
