"""Deathtrap Dungeon at the table: the words of its manual entry, where an entry starts, and
a seat button's tap (a pass)."""

from __future__ import annotations

from typing import Any

from companion.games.base import Game
from companion.games.spec import Expected, component_data

SPECIALS = ("chaindog", "red-lotus", "exploding-pig", "killing-machine")


def _deck(game: Game) -> dict[str, Any]:
    return game.options.get("deck") or component_data(__package__, "deathtrap-deck.json")


def candidates(game: Game, key: str) -> list[str]:
    if key in ("discard", "cards"):
        return [c["id"] for c in _deck(game)["creatures"]] + list(SPECIALS)
    return []


def cards(game: Game) -> list[str]:
    """Each face of the table's deck once (a creature's copies look alike), the specials
    last: what the camera reads, corrects to and enrols."""
    return candidates(game, "cards")


def names(game: Game) -> dict[str, str]:
    """The creatures' names as printed (the table's own deck, if it has one)."""
    return {c["id"]: c["name"] for c in _deck(game)["creatures"] if "name" in c}


def expected_entry(game: Game) -> Expected:
    view = game.view(None)
    return {"deal": ("deal", None), "exchange": ("deal", None), "pig": ("pig", None),
            "play": ("play", view["turn"])}.get(view["phase"], (None, None))


def tap(seat: int) -> dict[str, Any]:
    """A tap of a seat's button: that seat passes."""
    return {"type": "pass", "seat": seat}
