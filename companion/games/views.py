"""A game state's views and score, worked out once per state.

After an event the daemon reads the same state several times: the screens draw the table's
view and each seat's, the web pages' channels and ``/api`` give them again with the totals,
the rounds and the winners. Each is a pure function of the state, and a state is never
changed behind its ``__dict__`` (``Game.apply`` gives the object a new one; a session keeps
each state as a new object), so each is worked out once per state and shared.

Shared: a caller reads what it gets and never changes it.

>>> from companion.bundles.traps.rules.engine import Traps
>>> game = Traps(["Ann", "Bob"], seed=1)
>>> view_of(game, 0) is view_of(game, 0)
True
>>> before = view_of(game, None)
>>> game.apply({"type": "expose", "seat": 0, "square": "T1", "clicks": 1})
>>> view_of(game, None) is before
False
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass
from typing import Any

from companion.games.base import Game


@dataclass(frozen=True)
class Score:
    """The score of one state, as ``companion replay --json`` prints it."""

    finished: bool
    totals: list[int]
    rounds: list[list[int]]
    winners: list[int]


class _Kept:
    """What was worked out for one state (``state``: the game's ``__dict__`` it is for)."""

    def __init__(self, state: dict[str, Any]) -> None:
        self.state = state
        self.views: dict[int | None, dict[str, Any]] = {}
        self.score: Score | None = None


_KEPT: weakref.WeakKeyDictionary[Game, _Kept] = weakref.WeakKeyDictionary()


def _kept(game: Game) -> _Kept:
    kept = _KEPT.get(game)
    if kept is None or kept.state is not game.__dict__:
        kept = _KEPT[game] = _Kept(game.__dict__)
    return kept


def view_of(game: Game, seat: int | None) -> dict[str, Any]:
    """``game.view(seat)``, once per state and seat."""
    kept = _kept(game)
    view = kept.views.get(seat)
    if view is None:
        view = kept.views[seat] = game.view(seat)
    return view


def score_of(game: Game) -> Score:
    """Whether the game is over, its totals, rounds and winners, once per state."""
    kept = _kept(game)
    if kept.score is None:
        kept.score = Score(game.finished, game.totals(), game.rounds(), game.winners())
    return kept.score
