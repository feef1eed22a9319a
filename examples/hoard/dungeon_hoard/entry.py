"""Dragon's Hoard at the table: where a manual entry starts (the roll of the seat whose turn
it is) and what a seat button's tap means (nothing: a roll needs its die)."""

from __future__ import annotations

from companion.bundles.bundle import Expected
from companion.games.base import Game


def expected_entry(game: Game) -> Expected:
    view = game.view(None)
    return (None, None) if view["finished"] else ("grab", view["turn"])
