"""A table session in memory: a header, the events accepted so far, and the engine's state.

``undo`` withdraws the latest event still in force; the state is then rebuilt from the
header and the remaining events, which is exact because engines are deterministic.

>>> session = TableSession(Header("traps", ("Ann", "Bob"), seed=7))
>>> session.apply({"type": "expose", "seat": 0, "square": "T1", "clicks": 3})
>>> session.apply({"type": "undo"})
>>> session.in_force
[]
"""

from __future__ import annotations

import json
from typing import Any

from companion.errors import EventError, RuleViolation
from companion.games import engine
from companion.games.base import Game
from companion.i18n import _
from companion.table.log import Header, lone_surrogate

UNDO = "undo"


def _copy(event: Any) -> Any:
    """A private copy, so that a caller changing its dict later cannot change our record."""
    return json.loads(json.dumps(event))


class TableSession:
    """The header, every accepted entry (events and undos) and the game they lead to."""

    def __init__(self, header: Header) -> None:
        self.header = header
        self.engine_class = engine(header.game)
        self.game: Game = self._new_game()
        self.entries: list[dict[str, Any]] = []
        self.in_force: list[dict[str, Any]] = []

    def _new_game(self) -> Game:
        return self.engine_class(list(self.header.seats), self.header.seed, self.header.options)

    def _rebuild(self, events: list[dict[str, Any]]) -> Game:
        game = self._new_game()
        for event in events:
            game.apply(event)
        return game

    def apply(self, event: Any) -> None:
        """Accept one entry or raise (RuleViolation, EventError) with nothing changed."""
        surrogate = lone_surrogate(event, "event")
        if surrogate:  # refused before the engine, whose messages may quote the text
            raise EventError(surrogate)
        if isinstance(event, dict) and event.get("type") == UNDO:
            extra = sorted(set(event) - {"type", "t"})
            if extra:
                raise EventError(f"unknown field '{extra[0]}' in an undo event")
            if not self.in_force:
                raise RuleViolation("undo", _("nothing to undo"))
            self.game = self._rebuild(self.in_force[:-1])
            self.in_force.pop()
        else:
            event = _copy(event)
            self.game.apply(event)
            self.in_force.append(event)
        self.entries.append(_copy(event))

    def check(self, event: Any) -> None:
        """Raise as ``apply`` would, without changing anything."""
        trial = TableSession.__new__(TableSession)
        trial.header, trial.engine_class = self.header, self.engine_class
        trial.in_force, trial.entries = list(self.in_force), []
        trial.game = self._rebuild(self.in_force)
        trial.apply(event)

    # --- results, as `companion replay --json` prints them ---------------------------

    def result(self, seat: int | None = None, referee: bool = False) -> dict[str, Any]:
        game = self.game
        if referee:
            state = game.referee_view()
        else:
            state = game.view(seat)
        return {
            "game": self.header.game,
            "seats": list(self.header.seats),
            "finished": game.finished,
            "totals": game.totals(),
            "rounds": game.rounds(),
            "winners": game.winners(),
            "state": state,
        }
