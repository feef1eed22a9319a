"""Deathtrap Dungeon screens: the set to beat on the table, turn and exchange at each seat."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PIL import Image, ImageDraw

from companion.screens.canvas import blank
from companion.screens.common import body, headline, paragraph, scoreboard, seat_header


def table(view: dict[str, Any], seats: Sequence[str]) -> Image.Image:
    """Whose turn and what to beat; the scoreboard between rounds and at the end."""
    round_title = f"Round {view['round']}/{view['rounds']}"
    if view["phase"] == "over":
        best = max(view["totals"])
        winners = [seat for seat, total in enumerate(view["totals"]) if total == best]
        return scoreboard("Final scores", seats, view["totals"], winners)
    # Between turns the table is told what the companion waits for (scores: the menu button).
    if view["phase"] == "deal":
        return headline(f"Round {view['round'] + 1}/{view['rounds']}", "Deal",
                        "then press the dial: deal")
    if view["phase"] == "exchange":
        return headline(f"{round_title} over", "Exchange", "then deal: press the dial")
    if view["phase"] == "pig":
        return headline(round_title, "Exploding Pig", "its holder: press the dial, pig")
    if view["phase"] != "play" or view["turn"] is None:
        return scoreboard(f"{round_title}: scores", seats, view["totals"])
    to_play = seats[view["turn"]]
    beat = view["to_beat"]
    if beat is None:
        return headline(f"{round_title}  {to_play}", "Lead", f"{to_play} leads any set")
    return headline(f"{round_title}  {to_play} to beat", f"{beat['count']} x {beat['value']}",
                    f"{beat['name']} by {seats[beat['seat']]}")


def seat(view: dict[str, Any], seats: Sequence[str], peeking: bool) -> Image.Image:
    """The seat's exchange instruction (hands-off), else its turn and what to beat."""
    me = view["seat"]
    image = blank()
    draw = ImageDraw.Draw(image)
    box = seat_header(draw, seats[me], f"{view['your_count']} cards")
    if view.get("prompt"):
        paragraph(draw, box, view["prompt"], largest=13)
    elif view["phase"] == "over":
        body(draw, box, f"{view['totals'][me]} pts", view["titles"][me] or "game over")
    elif view["your_turn"]:
        beat = view["to_beat"]
        if beat is None:
            body(draw, box, "LEAD", "play any set")
        else:
            body(draw, box, f"beat {beat['count']} x {beat['value']}",
                 "your turn: play or pass")
    elif view["turn"] is not None:
        body(draw, box, seats[view["turn"]], "to play")
    else:
        waiting = {"deal": "waiting for the deal", "pig": "waiting for the Pig"}
        body(draw, box, f"{view['totals'][me]} pts",
             waiting.get(view["phase"], f"round {view['round']}/{view['rounds']}"))
    return image
