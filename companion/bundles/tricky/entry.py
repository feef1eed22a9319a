"""Tricky Dungeon at the table: the words of its manual entry and where an entry starts."""

from __future__ import annotations

from typing import Any

from companion.games.base import Game
from companion.games.spec import Expected, component_data
from companion.games.views import view_of

HEROES = ("thief", "assassin", "barbarian", "wizard", "witch", "dwarven-hunter", "trickster",
          "seer", "troubadour", "sorcerer", "knight", "ninja", "elvish-hunter", "nymph",
          "fairy-scout")


def _deck(game: Game) -> dict[str, Any]:
    """The table's deck (its ``deck`` option), else the shipped one."""
    return game.options.get("deck") or component_data(__package__, "tricky-deck.json")


def candidates(game: Game, key: str) -> list[str]:
    deck = _deck(game)
    suits = [colour["suit"] for colour in deck["colours"]]
    if key == "hero":
        return list(HEROES)
    if key in ("suit", "trump_suit"):
        return suits
    if key in ("card", "cards"):
        return [f"{suit}-{value}" for suit in suits for value in deck["values"]]
    return []


def cards(game: Game) -> list[str]:
    """The table's deck, card by card: what the camera reads, corrects to and enrols."""
    return candidates(game, "card")


def expected_entry(game: Game) -> Expected:
    view = view_of(game, None)
    phase, seat = view["phase"], view["to_play"]
    if phase == "prepare":
        active = view["active"]
        if view["hero"] == "trickster" and not view["open_cards"]:
            return "open_cards", seat
        if seat != active:
            return "trump", seat
        if view["hero"] == "seer" and view["prediction"] is None:
            return "predict", seat
        return ("exchange" if view["exchanges"][active] is None else "play"), seat
    return {"deal": ("deal", None), "hero": ("hero", seat), "play": ("play", seat),
            "reveal": ("reveal", seat)}.get(phase, (None, None))
