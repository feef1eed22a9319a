"""Deathtrap Dungeon screens: the set to beat on the table, turn and exchange at each seat."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PIL import Image

from companion.i18n import _, npgettext, translated
from companion.screens.common import (
    body,
    final_scores,
    headline,
    paragraph,
    scoreboard,
    seat_screen,
)


def table(view: dict[str, Any], seats: Sequence[str]) -> Image.Image:
    """Whose turn and what to beat; the scoreboard between rounds and at the end."""
    round_title = _("Round {n}/{total}").format(n=view["round"], total=view["rounds"])
    if view["phase"] == "over":
        return final_scores(seats, view["totals"])
    # Between turns the table is told what the companion waits for (scores: the menu button).
    if view["phase"] == "deal":
        return headline(_("Round {n}/{total}").format(n=view["round"] + 1, total=view["rounds"]),
                        _("Deal"), _("then press the dial: deal"))
    if view["phase"] == "exchange":
        return headline(_("{title} over").format(title=round_title), _("Exchange"),
                        _("then deal: press the dial"))
    if view["phase"] == "pig":
        return headline(round_title, _("Exploding Pig"), _("holder: dial, pig"))
    if view["phase"] != "play" or view["turn"] is None:
        return scoreboard(_("{title}: scores").format(title=round_title), seats, view["totals"])
    to_play = seats[view["turn"]]
    beat = view["to_beat"]
    if beat is None:
        return headline(f"{round_title}  {to_play}", _("Lead"),
                        _("{player} leads any set").format(player=to_play))
    return headline(_("{title}  {player} to beat").format(title=round_title, player=to_play),
                    f"{beat['count']} x {beat['value']}",
                    _("{card} by {player}").format(card=beat["name"],
                                                   player=seats[beat["seat"]]))


def seat(view: dict[str, Any], seats: Sequence[str], peeking: bool) -> Image.Image:
    """The seat's exchange instruction (hands-off), else its turn and what to beat."""
    me = view["seat"]
    cards = npgettext("score", "{n} card", "{n} cards", view["your_count"])
    image, draw, box = seat_screen(seats[me], cards.format(n=view["your_count"]))
    if view.get("prompt"):
        paragraph(draw, box, view["prompt"], largest=13)
    elif view["phase"] == "over":
        body(draw, box, npgettext("score", "{n} pt", "{n} pts", view["totals"][me]).format(
            n=view["totals"][me]),
             translated(view["titles"][me]) if view["titles"][me] else _("game over"))
    elif view["your_turn"]:
        beat = view["to_beat"]
        if beat is None:
            body(draw, box, _("LEAD"), _("play any set"))
        else:
            body(draw, box, _("beat {count} x {value}").format(count=beat["count"],
                                                                value=beat["value"]),
                 _("your turn: play or pass"))
    elif view["turn"] is not None:
        body(draw, box, seats[view["turn"]], _("to play"))
    else:
        waiting = {"deal": _("waiting for the deal"), "pig": _("waiting for the Pig")}
        body(draw, box, npgettext("score", "{n} pt", "{n} pts", view["totals"][me]).format(
            n=view["totals"][me]), waiting.get(view["phase"], _("round {n}/{total}").format(
                n=view["round"], total=view["rounds"])))
    return image


def exchange_words(exchange: dict[str, Any], seats: Sequence[str]) -> str:
    """One card exchange before the deal (a seat's own), in words."""
    count, giver, taker = exchange["count"], seats[exchange["from"]], seats[exchange["to"]]
    if exchange["cards"] == "highest":
        words = npgettext("web", "{giver} gives {taker} the highest creature card",
                          "{giver} gives {taker} the {n} highest creature cards", count)
    else:
        words = npgettext("web", "{giver} gives {taker} {n} card of their choice",
                          "{giver} gives {taker} {n} cards of their choice", count)
    return words.format(giver=giver, taker=taker, n=count)


def facts(private: dict[str, Any], seats: Sequence[str]) -> dict[str, str]:
    """A seat's own facts in words (its page): the exchanges it takes part in."""
    if "exchange" in private:
        return {"exchange": "; ".join(exchange_words(e, seats) for e in private["exchange"])
                or "-"}
    return {}
