"""Dragon's Hoard at the table: where a manual entry starts (the roll of the seat whose turn
it is) and what a seat button's tap means (nothing: a roll needs its die)."""

from __future__ import annotations

from companion.games.base import Game
from companion.games.spec import Expected


def expected_entry(game: Game) -> Expected:
    view = game.view(None)
    return (None, None) if view["finished"] else ("grab", view["turn"])
