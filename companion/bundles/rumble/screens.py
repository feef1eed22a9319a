"""Rumble in the Dungeon screens: turn and chest on the table, secret characters at each seat."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PIL import Image

from companion.bundles.rumble.rules.options import character_word
from companion.i18n import _, ngettext, npgettext, pgettext
from companion.i18n.names import event_word
from companion.screens.canvas import fit_text
from companion.screens.common import (
    body,
    final_place,
    final_scores,
    headline,
    paragraph,
    peek_hint,
    scoreboard,
    seat_screen,
)


def character(name: str) -> str:
    """A character's name in the language drawn (the engine's words: the pages say it too)."""
    return character_word(name)


def table(view: dict[str, Any], seats: Sequence[str]) -> Image.Image:
    """Whose turn and where the chest lies; the scoreboard between adventures and at the end."""
    title = _("Adventure {n}/{total}").format(n=view["adventure"], total=view["adventures"])
    if view["phase"] == "over":
        return final_scores(seats, view["totals"])
    if view["turn"] is None:
        return scoreboard(_("{title}: scores").format(title=title), seats, view["totals"])
    chest = view["chest"]
    left = len(view["positions"])
    return headline(_("{title}  {n} left").format(title=title, n=left), seats[view["turn"]],
                    _("chest in {room}").format(room=chest) if chest else _("chest gone"))


def seat(view: dict[str, Any], seats: Sequence[str], peeking: bool) -> Image.Image:
    """The seat's two secret characters while it peeks; otherwise its prompt."""
    me = view["seat"]
    points = npgettext("score", "{n} pt", "{n} pts", view["totals"][me])
    image, draw, box = seat_screen(seats[me], points.format(n=view["totals"][me]))
    secrets = view.get("secrets") or []
    if view["phase"] == "over":
        final_place(draw, box, view["totals"], me, ngettext(
            "game over: {n} point", "game over: {n} points", view["totals"][me]).format(
                n=view["totals"][me]))
    elif peeking and secrets:
        middle = (box[1] + box[3]) // 2
        for index, name in enumerate(secrets[:2]):
            upper = box[1] if index == 0 else middle
            fit_text(draw, (0, upper, box[2], upper + middle - box[1]), character(name),
                     largest=middle - box[1])
    elif secrets and not view["your_turn"]:
        peek_hint(draw, box, _("2 secrets"))
    elif view["your_turn"]:
        body(draw, box, _("YOUR TURN"), _("move, fight or escape"))
    else:
        paragraph(draw, box, view.get("prompt") or "", largest=14)
    return image


def action_words(action: dict[str, Any]) -> str:
    """One of a seat's legal actions (an event of the game) in words."""
    kind = action.get("type")
    if kind == "move":
        move = pgettext("web", "move {character} to {room} with the chest") if action.get(
            "chest") else pgettext("web", "move {character} to {room}")
        return move.format(character=character(action["character"]), room=action["to"])
    if kind == "fight":
        return pgettext("web", "fight {character}").format(character=character(action["victim"]))
    if kind == "escape":
        return pgettext("web", "escape with {character}").format(
            character=character(action["character"]))
    return event_word(str(kind))


def facts(private: dict[str, Any], seats: Sequence[str]) -> dict[str, str]:
    """A seat's own facts in words (its page): its secret characters, its legal actions and
    why the others are refused."""
    words = {}
    if private.get("secrets"):
        words["secrets"] = " + ".join(character(name) for name in private["secrets"])
    if "actions" in private:
        words["actions"] = "; ".join(action_words(a) for a in private["actions"]) or "-"
    if "refused" in private:
        words["refused"] = "; ".join(f"{action_words(refusal['event'])}: {refusal['reason']}"
                                     for refusal in private["refused"]) or "-"
    return words
