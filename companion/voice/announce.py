"""What the table hears after an event, from the public views before and after it.

Only ``game.view(None)`` goes in (what every screen of the table may show), and the words
are the table's language's (``pgettext("voice", ...)``).

>>> before = {"phase": "play", "turn": 0, "round": 1, "rounds": 4, "totals": [0, 0, 0, 0],
...           "to_beat": None, "leader": 0}
>>> after = dict(before, turn=1, to_beat={"seat": 0})
>>> announcements("deathtrap", before, after, ["Ann", "Bob", "Cy", "Dee"])
["Bob's turn"]
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
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


def _deathtrap(before: View, after: View, seats: Sequence[str]) -> list[str]:
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


def _tricky(before: View, after: View, seats: Sequence[str]) -> list[str]:
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


def _rumble(before: View, after: View, seats: Sequence[str]) -> list[str]:
    if after["phase"] == "over":
        return [winner(after["totals"], seats)]
    if after["adventure"] != before["adventure"]:
        return [pgettext("voice", "Adventure {n} over.").format(n=before["adventure"]) + " "
                + leader(after["totals"], seats)]
    return turn(after["turn"], seats) if after["turn"] != before.get("turn") else []


def _traps(before: View, after: View, seats: Sequence[str]) -> list[str]:
    said = []
    sprung = after.get("sprung")
    if sprung and sprung != before.get("sprung"):
        said.append(pgettext("voice", "{trap} on {player}!").format(
            trap=sprung["name"], player=seats[sprung["seat"]]))
    if after.get("finished") and not before.get("finished"):
        said.append(winner(after["xp"], seats))
    return said


BY_GAME: dict[str, Callable[[View, View, Sequence[str]], list[str]]] = {
    "deathtrap": _deathtrap, "tricky": _tricky, "rumble": _rumble, "traps": _traps}


def announcements(game: str, before: View, after: View, seats: Sequence[str]) -> list[str]:
    """What to say after an event that changed the public view ``before`` into ``after``."""
    said = BY_GAME.get(game)
    return said(before, after, seats) if said else []

