"""Rumble in the Dungeon at the table: the words of its manual entry and where it starts."""

from __future__ import annotations

from companion.games.base import Game
from companion.games.spec import Expected, component_data


def candidates(game: Game, key: str) -> list[str]:
    if key in ("character", "victim", "characters"):
        return list(game.options.get("characters")
                    or [c["id"] for c in _characters()])
    if key == "to":
        return list((game.options.get("map")
                     or component_data(__package__, "rumble-map.json")["map"])["rooms"])
    return []


def names(game: Game) -> dict[str, str]:
    return {c["id"]: c["name"] for c in _characters()}


def _characters() -> list[dict]:
    """The shipped characters (``data/rumble-characters.json``)."""
    return component_data(__package__, "rumble-characters.json")["characters"]


def expected_entry(game: Game) -> Expected:
    view = game.view(None)
    waiting = view.get("waiting_for") or []
    if waiting:
        return "secrets", waiting[0]
    return ("move", view["turn"]) if view["turn"] is not None else (None, None)
