"""A game state's views and score, worked out once per state.

After an event the daemon reads the same state several times: the screens draw the table's
view and each seat's, the web pages' channels and ``/api`` give them again with the totals,
the rounds and the winners. Each is a pure function of the state, and a state is never
changed behind its ``__dict__`` (``Game.apply`` gives the object a new one; a session keeps
each state as a new object), so each is worked out once per state and shared.

Shared: a caller reads what it gets and never changes it. Kept for the latest few states
only (``KEPT_STATES``): a session keeps a state every few events for undo, and the views of
each of those would grow with the game.

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

import threading
import weakref
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from companion.games.base import Game


@dataclass(frozen=True)
class ScoreSheet:
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
        self.score: ScoreSheet | None = None


#: The states whose views and score are kept: the one being played, a copy checked before
#: a correction, the one an undo goes back to.
KEPT_STATES = 8
_KEPT: OrderedDict[int, tuple[weakref.ref[Game], _Kept]] = OrderedDict()
_LOCK = threading.Lock()  # the web server's thread draws a seat's screen when it peeks


def _kept(game: Game) -> _Kept:
    with _LOCK:
        found = _KEPT.get(id(game))
        if found is not None and found[0]() is game and found[1].state is game.__dict__:
            _KEPT.move_to_end(id(game))
            return found[1]
        kept = _Kept(game.__dict__)
        _KEPT[id(game)] = (weakref.ref(game), kept)
        _KEPT.move_to_end(id(game))
        while len(_KEPT) > KEPT_STATES:
            _KEPT.popitem(last=False)
        return kept


def view_of(game: Game, seat: int | None) -> dict[str, Any]:
    """``game.view(seat)``, once per state and seat."""
    kept = _kept(game)
    view = kept.views.get(seat)
    if view is None:
        view = kept.views[seat] = game.view(seat)
    return view


def score_of(game: Game) -> ScoreSheet:
    """Whether the game is over, its totals, rounds and winners, once per state."""
    kept = _kept(game)
    if kept.score is None:
        kept.score = ScoreSheet(game.finished, game.totals(), game.rounds(), game.winners())
    return kept.score
