"""Mage Knight traps at the table: the squares of its manual entry; an entry starts at an
expose."""

from __future__ import annotations

from companion.games.base import Game
from companion.games.spec import Expected


def candidates(game: Game, key: str) -> list[str]:
    if key == "square":
        return list(game.options.get("squares") or ["T1", "T2", "T3", "T4"])
    return []


def expected_entry(game: Game) -> Expected:
    return "expose", None
