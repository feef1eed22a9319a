"""Tricky Dungeon screens: hero, trump and turn on the table, prompt and gold at each seat."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PIL import Image

from companion.bundles.tricky.rules.heroes import title
from companion.bundles.tricky.rules.view import hero_and_trump, trump_words
from companion.i18n import _, ngettext, pgettext
from companion.screens.common import (
    body,
    final_place,
    headline,
    paragraph,
    peek_hint,
    scoreboard,
    seat_screen,
)

#: The keys of the views the screens below read (``screen_set.drawn``): none of the history.
TABLE_KEYS = ("phase", "round", "rounds_total", "gold", "winners", "to_play", "trick_number",
              "hero", "trump")
SEAT_KEYS = ("seat", "gold", "hero_choices", "phase", "prompt", "won", "trump")


def hero(name: str | None) -> str:
    return title(name) if name else "-"


def trump(view: dict[str, Any]) -> str:
    return trump_words(view.get("trump"))


def table(view: dict[str, Any], seats: Sequence[str]) -> Image.Image:
    """Who plays, the hero and trump; the gold scoreboard between rounds and at the end."""
    title = _("Round {n}/{total}").format(n=view["round"], total=view["rounds_total"])
    if view["phase"] == "finished":
        return scoreboard(_("Final gold"), seats, view["gold"], view["winners"])
    if view["phase"] == "deal":
        # The companion waits for the deal (scores: the menu button).
        return headline(_("Round {n}/{total}").format(n=view["round"] + 1,
                                                      total=view["rounds_total"]),
                        _("Deal"), _("then press the dial: deal"))
    if view["to_play"] is None:
        return scoreboard(_("{title}: gold").format(title=title), seats, view["gold"])
    if view["phase"] == "play":
        title = _("{title}  trick {n}").format(title=title, n=view["trick_number"])
    return headline(title, seats[view["to_play"]], hero_and_trump(view["hero"], view["trump"]))


def seat(view: dict[str, Any], seats: Sequence[str], peeking: bool) -> Image.Image:
    """The seat's prompt; the heroes offered to it only while it peeks."""
    me = view["seat"]
    gold = pgettext("score", "{n} gold").format(n=view["gold"][me])
    image, draw, box = seat_screen(seats[me], gold)
    choices = view.get("hero_choices") or []
    if view["phase"] == "finished":
        final_place(draw, box, view["gold"], me,
                    _("game over: {n} gold").format(n=view["gold"][me]))
    elif choices and peeking:
        paragraph(draw, box, ", ".join(hero(choice) for choice in choices), largest=16)
    elif choices:
        peek_hint(draw, box, _("choose a hero"))
    elif view.get("prompt"):
        paragraph(draw, box, view["prompt"], largest=14)
    else:
        body(draw, box, ngettext("{n} trick", "{n} tricks", view["won"][me]).format(
            n=view["won"][me]), trump(view))
    return image


def facts(private: dict[str, Any], seats: Sequence[str]) -> dict[str, str]:
    """A seat's own facts in words (its page): the heroes offered to it, by name."""
    if private.get("hero_choices"):
        return {"hero_choices": ", ".join(hero(name) for name in private["hero_choices"])}
    return {}
