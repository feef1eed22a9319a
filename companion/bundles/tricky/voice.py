"""What the table hears in Tricky Dungeon, from the public views before and after an event."""

from __future__ import annotations

from collections.abc import Sequence

from companion.i18n import pgettext
from companion.voice.words import View, leader, turn, winner


def announce(before: View, after: View, seats: Sequence[str]) -> list[str]:
    if after["phase"] == "finished":
        return [winner(after["gold"], seats)]
    if after["round"] != before["round"] and after["phase"] == "deal" \
            or (before["phase"] != "deal" and after["phase"] == "deal"):
        return [pgettext("voice", "Round {n} over.").format(n=after["round"]) + " "
                + leader(after["gold"], seats)]
    said = []
    won, was = after.get("last_trick"), before.get("last_trick")
    if won is not None and (was is None or (won["number"], won["winner"]) != (
            was["number"], was["winner"]) or after["round"] != before["round"]):
        said.append(pgettext("voice", "{player} wins the trick").format(
            player=seats[won["winner"]]))
    if after["to_play"] != before.get("to_play"):
        said += turn(after["to_play"], seats)
    return said
