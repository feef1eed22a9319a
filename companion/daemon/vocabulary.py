"""The words a manual entry offers for a text field: squares, cards, characters, rooms, heroes.

They come from the game's resolved options where the table overrides them (``squares``,
``deck``, ``characters``, ``map``), else from the component data shipped in
``companion/data/`` and the names fixed by CONTRACT.md. ``display`` gives each id the name
people read on the cards (``rat-man`` is "Rat Man", ``green-4`` is "Green 4").

>>> from companion.games.deathtrap import Deathtrap
>>> display(Deathtrap(["Ann", "Bob", "Cy"], seed=1), "cards", "rat-man")
'Rat Man'
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from companion.games.base import Game
from companion.i18n import _

DEATHTRAP_SPECIALS = ("chaindog", "red-lotus", "exploding-pig", "killing-machine")
TRICKY_HEROES = ("thief", "assassin", "barbarian", "wizard", "witch", "dwarven-hunter",
                 "trickster", "seer", "troubadour", "sorcerer", "knight", "ninja",
                 "elvish-hunter", "nymph", "fairy-scout")


@cache
def _data(name: str) -> Any:
    return json.loads(resources.files("companion").joinpath("data", name).read_text("utf-8"))


def _option(game: Game, name: str) -> Any:
    return game.options.get(name) if isinstance(game.options, dict) else None


def _deathtrap(game: Game, key: str) -> list[str]:
    deck = _option(game, "deck") or _data("deathtrap-deck.json")
    if key in ("discard", "cards"):
        return [c["id"] for c in deck["creatures"]] + list(DEATHTRAP_SPECIALS)
    return []


def _rumble(game: Game, key: str) -> list[str]:
    if key in ("character", "victim", "characters"):
        return list(_option(game, "characters")
                    or [c["id"] for c in _data("rumble-characters.json")["characters"]])
    if key == "to":
        return list((_option(game, "map") or _data("rumble-map.json")["map"])["rooms"])
    return []


def _tricky(game: Game, key: str) -> list[str]:
    deck = _data("tricky-deck.json")
    suits = [colour["suit"] for colour in deck["colours"]]
    if key == "hero":
        return list(TRICKY_HEROES)
    if key in ("suit", "trump_suit"):
        return suits
    if key in ("card", "cards"):
        return [f"{suit}-{value}" for suit in suits for value in deck["values"]]
    return []


def _traps(game: Game, key: str) -> list[str]:
    if key == "square":
        return list(_option(game, "squares") or ["T1", "T2", "T3", "T4"])
    return []


def _names(game: Game) -> dict[str, str]:
    """Display names the game's data gives (Deathtrap's creatures, Rumble's characters)."""
    if game.name == "deathtrap":
        deck = _option(game, "deck") or _data("deathtrap-deck.json")
        return {c["id"]: c["name"] for c in deck["creatures"] if "name" in c}
    if game.name == "rumble":
        return {c["id"]: c["name"] for c in _data("rumble-characters.json")["characters"]}
    return {}


def display(game: Game, key: str, value: Any) -> str:
    """The name people read for ``value`` of field ``key``: a seat's name, a card's title."""
    if key in ("seat", "active", "dealer", "lead") and isinstance(value, int) \
            and not isinstance(value, bool) and 0 <= value < len(game.seats):
        return game.seats[value]
    if not isinstance(value, str):
        return str(value)
    named = _names(game).get(value)
    if named:
        return _(named)
    if game.name == "traps" and key == "square":
        return value  # squares are named as printed on the board: T1, T2
    if game.name == "rumble" and key == "to":
        return value  # rooms are grid references: A1, C4
    if game.name == "tricky" and key in ("card", "cards") and "-" in value:
        suit, _dash, number = value.rpartition("-")
        return f"{_(suit.title())} {number}"  # green-4: "Green 4"
    return _(value.replace("-", " ").title())


_BY_GAME = {"deathtrap": _deathtrap, "rumble": _rumble, "tricky": _tricky, "traps": _traps}


def candidates(game: Game, key: str) -> list[str]:
    """The values a person may pick for text field ``key`` of an event of ``game``."""
    words = _BY_GAME.get(game.name)
    return words(game, key) if words else []
