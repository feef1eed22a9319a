"""A table session in memory: a header, the events accepted so far, and the engine's state.

Every event (an undo too) is first worked out without changing anything (``prepare``: the engine's
``Game.after`` gives the state after an event, and leaves the one it was given as it was),
then made the session's (``commit``). ``apply`` does both; ``check`` only the first. The
store commits, then writes; if the write fails it puts the session back where it was
(``mark`` before, ``restore`` after), which costs nothing: the earlier game is kept as is.

``undo`` withdraws the latest event still in force; ``undone`` holds the numbers of the
events withdrawn so (counted from 1, as the store counts them), so that nothing shows one of
them as standing. Engines never change a state they have
handed on, so the session keeps earlier states instead of replaying the log: the states
before the latest ``RECENT`` events, and one every ``EVERY`` events before that. An undo
takes the kept state (no event replayed) or, past the recent ones, the nearest earlier one
and replays at most ``EVERY - 1`` events, keeping the states it makes on the way, so undo
after undo costs about one event each however long the log.

>>> session = TableSession(Header("traps", ("Ann", "Bob"), seed=7))
>>> session.apply({"type": "expose", "seat": 0, "square": "T1", "clicks": 3})
>>> session.apply({"type": "undo"})
>>> session.in_force
[]
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from companion.errors import EventError, RuleViolation
from companion.games.base import Game
from companion.games.registry import engine
from companion.games.views import score_of, view_of
from companion.i18n import _
from companion.i18n.names import seat_words
from companion.table.log import Header, lone_surrogate

UNDO = "undo"
#: States kept for undo: one every EVERY events, and the latest RECENT ones.
EVERY = 32
RECENT = 32


def _copy(event: Any) -> Any:
    """A private copy, so that a caller changing its dict later cannot change our record."""
    return json.loads(json.dumps(event))


@dataclass(frozen=True)
class Step:
    """An event worked out but not yet taken: the event as recorded and the game after it."""

    event: dict[str, Any]
    game: Game

    @property
    def undo(self) -> bool:
        return self.event.get("type") == UNDO


@dataclass(frozen=True)
class Mark:
    """A session's place: its game, how many events (undos too) and how many in force, the
    latest one."""

    game: Game
    events: int
    in_force: int
    last: dict[str, Any] | None
    last_number: int | None  # the latest event's number (an undo may withdraw it)


class TableSession:
    """The header, every accepted event (undos too) and the game they lead to."""

    def __init__(self, header: Header) -> None:
        self.header = header
        # The seats' names as the engine writes them, in the language current when the
        # session is read (an unnamed seat's "Seat 4" is "Spieler 4" in German): the one name
        # each seat has on the screens, pages and voice. The header, stored, keeps its own.
        self.names = seat_words(header.seats)
        self.engine_class = engine(header.game)
        self.game: Game = self._new_game()
        self.events: list[dict[str, Any]] = []
        self.in_force: list[dict[str, Any]] = []
        self._numbers: list[int] = []  # the number of each event in force (in ``events``)
        #: The numbers of the events an undo took back.
        self.undone: set[int] = set()
        # The game after the first n events in force, for some n < len(in_force).
        self._kept: dict[int, Game] = {}

    # --- one event: worked out, then taken ------------------------------------------------

    def prepare(self, event: Any) -> Step:
        """The event ``event`` would be and the game after it; raise (RuleViolation,
        EventError) if it would be refused. Nothing is changed."""
        surrogate = lone_surrogate(event, "event")
        if surrogate:  # refused before the engine, whose messages may quote the text
            raise EventError(surrogate)
        if isinstance(event, dict) and event.get("type") == UNDO:
            extra = sorted(set(event) - {"type", "t"})
            if extra:
                raise EventError(f"unknown field '{extra[0]}' in an undo event")
            if not self.in_force:
                raise RuleViolation("undo", _("nothing to undo"))
            return Step(_copy(event), self._game_after(len(self.in_force) - 1))
        event = _copy(event)
        return Step(event, self.game.after(event))

    def commit(self, step: Step) -> None:
        """Take an event ``prepare`` worked out (nothing accepted since)."""
        if step.undo:
            self.in_force.pop()
            self.undone.add(self._numbers.pop())
            self._kept.pop(len(self.in_force), None)  # that state is the session's now
        else:
            self._keep(len(self.in_force), self.game)
            self.in_force.append(step.event)
            self._numbers.append(len(self.events) + 1)
        self.game = step.game
        self.events.append(step.event)  # the session's own copy, never changed

    def mark(self) -> Mark:
        """Where the session is now, to ``restore`` it after an event that could not be kept."""
        return Mark(self.game, len(self.events), len(self.in_force),
                    self.in_force[-1] if self.in_force else None,
                    self._numbers[-1] if self._numbers else None)

    def restore(self, mark: Mark) -> None:
        """Back to ``mark``, taking back the event committed since (one at most): the store
        calls it when that event could not be made durable."""
        del self.events[mark.events:]
        if len(self.in_force) > mark.in_force:
            del self.in_force[mark.in_force:]
            del self._numbers[mark.in_force:]
        elif len(self.in_force) < mark.in_force and mark.last is not None \
                and mark.last_number is not None:
            self.in_force.append(mark.last)  # an undo taken back
            self._numbers.append(mark.last_number)
            self.undone.discard(mark.last_number)
        self.game = mark.game
        self._kept.pop(len(self.in_force), None)  # the session's own state is not kept

    def apply(self, event: Any) -> None:
        """Accept one event or raise (RuleViolation, EventError) with nothing changed."""
        self.commit(self.prepare(event))

    def check(self, event: Any) -> None:
        """Raise as ``apply`` would, without changing anything."""
        self.prepare(event)

    # --- earlier states -----------------------------------------------------------------

    def _keep(self, count: int, game: Game) -> None:
        """Keep the game after ``count`` events; let go of one no longer recent."""
        self._kept[count] = game
        old = count - RECENT
        if old >= 0 and old % EVERY:
            self._kept.pop(old, None)

    def game_before(self, latest: int) -> Game:
        """The game as it stood before the ``latest`` events in force (0: the game now),
        from the kept states (no more than ``EVERY - 1`` events replayed). Nothing changes.

        >>> session = TableSession(Header("traps", ("Ann", "Bob"), seed=7))
        >>> session.apply({"type": "expose", "seat": 0, "square": "T1", "clicks": 3})
        >>> session.game_before(1).view(None)["squares"]["T1"]["status"]
        'hidden'
        """
        if not 0 <= latest <= len(self.in_force):
            raise ValueError(f"{latest} of {len(self.in_force)} events in force")
        return self.game if latest == 0 else self._game_after(len(self.in_force) - latest)

    def _game_after(self, count: int) -> Game:
        """The game after the first ``count`` events in force (``count`` < their number)."""
        if count in self._kept:
            return self._kept[count]
        start = max((n for n in self._kept if n < count), default=None)
        if start is None:
            game, start = self._new_game(), 0
            self._kept[0] = game
        else:
            game = self._kept[start]
        for number in range(start + 1, count + 1):
            game = game.after(self.in_force[number - 1])
            self._kept[number] = game  # true whether or not the undo is taken
        return game

    def _new_game(self) -> Game:
        return self.engine_class(list(self.names), self.header.seed, self.header.options)

    # --- results, as `companion replay --json` prints them ---------------------------

    def result(self, seat: int | None = None, referee: bool = False) -> dict[str, Any]:
        """``companion replay --json``'s object; its views and score are worked out once per
        state and shared (``games.views``): read it, never change it."""
        game = self.game
        state = game.referee_view() if referee else view_of(game, seat)
        score = score_of(game)
        return {
            "game": self.header.game,
            "seats": list(self.header.seats),
            "finished": score.finished,
            "totals": score.totals,
            "rounds": score.rounds,
            "winners": score.winners,
            "state": state,
        }
