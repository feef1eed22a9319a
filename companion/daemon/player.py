"""People at a simulated table: they play the events of a table log through a running daemon
the way they would at a real table, and correct it when it gets something wrong.

Each game's bundle (``table_play``) says how an event gets in (``route``):

- "camera": put before the camera (plays as cards, moves as the board after them: the
  bundle's ``pictures``); an unsure sighting is answered at the confirm step.
- "dial": the game's own dial flow (the trap dial: expose, trigger, disarm) turned detent by
  detent (the bundle's ``by_dial``), and the seat taps.
- "button": a tap of the seat's button (e.g. a pass).
- "by hand": anything else, entered with the dial on the table screen.
- If the camera read something else than what was played, it is undone with a long press of
  the menu button and entered by hand.

What reaches the daemon is only ``PlayerReach``: taps, holds, detents and pictures, through
the same paths as real hardware (a test's hands drive mock pins, a fake hub and a frame source).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from companion.daemon.daemon import MENU, SWITCH, Daemon
from companion.daemon.dialogues import DONE, LEAVE_OUT, MAX_LIST, field_choices
from companion.daemon.stage import Stage
from companion.daemon.vocabulary import Vocabulary
from companion.errors import CompanionError
from companion.games import registry
from companion.games.base import Game
from companion.table import StoredSession

if TYPE_CHECKING:
    import numpy as np

Check = Callable[[], bool]


class PlayerReach(Protocol):
    """How the simulated people reach the daemon. ``until`` waits for the daemon to show a
    change (immediately true when the daemon runs in the caller's thread)."""

    def tap(self, control: str, until: Check) -> None: ...

    def hold(self, control: str, until: Check) -> None: ...

    def turn(self, detents: int, until: Check) -> None: ...

    def show(self, picture: np.ndarray, until: Check) -> None:
        """Put a picture before the camera; return once the daemon has acted on whatever
        the camera made of it (a still table that looks unchanged makes nothing)."""


class PlayError(CompanionError):
    """An event of the script could not be played through the table (a demo or test fault)."""


def equal_but_time(stored: dict[str, Any], wanted: dict[str, Any]) -> bool:
    """Equal events, apart from the time stamp."""
    return ({k: v for k, v in stored.items() if k != "t"}
            == {k: v for k, v in wanted.items() if k != "t"})


class TablePlayer:
    """Plays events through ``daemon`` with ``hands``; ``stage`` draws what the camera sees.

    ``routes`` counts how each event got in: camera, dial, button, by hand, corrected.
    """

    switch = SWITCH

    def __init__(self, daemon: Daemon, hands: PlayerReach, stage: Stage | None) -> None:
        self.daemon = daemon
        self.hands = hands
        self.stage = stage
        self.routes: dict[str, int] = {}
        self.table_pictured = False  # the camera has had a picture of the table once

    # --- what the daemon shows ----------------------------------------------------------

    @property
    def stored_game(self) -> StoredSession:
        assert self.daemon.stored_game is not None, "the player needs a session"
        return self.daemon.stored_game

    @property
    def game(self) -> Game:
        return self.stored_game.game

    def dial_state(self) -> dict[str, Any] | None:
        """The dial flow's state as the table shows it (None: no flow open)."""
        return self.daemon.display.dial_state()

    def press_switch(self, until: Check) -> None:
        self.hands.tap(SWITCH, until)

    def tap_seat(self, seat: int, until: Check) -> None:
        self.hands.tap(f"seat:{seat}", until)

    def in_force(self) -> int:
        return len(self.stored_game.session.in_force)

    def done(self, count: int, event: dict[str, Any]) -> bool:
        in_force = self.stored_game.session.in_force
        return len(in_force) == count + 1 and equal_but_time(in_force[-1], event)

    def ways(self) -> Any:
        """The game's bundle's way of playing at a simulated table (None: all by hand)."""
        return registry.get(self.stored_game.header.game).player()

    # --- one event ------------------------------------------------------------------------

    def play(self, event: dict[str, Any]) -> str:
        """Play one event; returns the route it took. PlayError if it cannot get in."""
        count = self.in_force()
        route = self.route(event)
        if route == "camera":
            self.by_camera(event)
        elif route == "dial":
            self.ways().by_dial(self, event)
        elif route == "button":
            self.hands.tap(f"seat:{event['seat']}", lambda: self.in_force() != count)
        if not self.done(count, event):
            if self.in_force() > count:
                # Something else got in (a misread card): a long press of the menu undoes it.
                self.hands.hold(MENU, lambda: self.in_force() == count)
                route = "corrected"
            else:
                route = "by hand" if route == "by hand" else "corrected"
            try:
                self.by_hand(event)
            except PlayError as error:
                raise PlayError(f"{event['type']} by seat {event.get('seat', '-')}: {error}"
                                ) from None
        if not self.done(count, event):
            # What got in instead, by kind and seat only: the demo shows this message, and
            # an event's fields may hold a secret (a trap's clicks).
            got = ", ".join(f"{e['type']} seat {e.get('seat', '-')}"
                            for e in self.stored_game.session.in_force[count:]) or "nothing"
            raise PlayError(f"could not play {event['type']} by seat {event.get('seat', '-')} "
                            f"at the table (in force after it: {got}; the table asks "
                            f"{self.daemon.display.asks!r})")
        self.routes[route] = self.routes.get(route, 0) + 1
        return route

    def route(self, event: dict[str, Any]) -> str:
        ways = self.ways()
        if ways is None:
            return "by hand"
        watching = self.stage is not None and self.daemon.watching
        return ways.route(self.stored_game.game, event, watching)

    # --- the camera -----------------------------------------------------------------------

    def show_to_camera(self, picture: np.ndarray) -> None:
        self.hands.show(picture, lambda: True)

    def by_camera(self, event: dict[str, Any]) -> None:
        assert self.stage is not None
        game = self.stored_game.game
        for picture in self.ways().pictures(self.stage, game, event, not self.table_pictured):
            self.show_to_camera(picture)
        self.table_pictured = True
        self.confirm(event)

    def confirm(self, event: dict[str, Any]) -> None:
        """Answer the confirm step: yes if the camera saw what was played, else no."""
        while self.daemon.display.asks == "confirm" and self.daemon.display.sightings:
            answer = equal_but_time(self.daemon.display.sightings[0], event)
            pending = len(self.daemon.display.sightings)
            self.choose(answer,
                        lambda pending=pending: len(self.daemon.display.sightings) < pending)

    def turn_dial(self, detents: int, until: Check) -> None:
        if detents:
            self.hands.turn(detents, until)

    # --- by hand ----------------------------------------------------------------------------

    def by_hand(self, event: dict[str, Any]) -> None:
        """Enter ``event`` field by field with the dial (a long press opens the menu)."""
        self.hands.hold(SWITCH, lambda: self.daemon.display.asks == "entry")
        game = self.stored_game.game
        words = Vocabulary(game)
        kind = event["type"]
        steps: list[Any] = [kind]
        for key, spec in game.EVENTS[kind].items():
            if isinstance(event.get(key), list) and not event[key] and not spec.required:
                steps.append(LEAVE_OUT)
            elif isinstance(event.get(key), list):
                steps += event[key] + ([DONE] if len(event[key]) < MAX_LIST else [])
            elif key not in event:
                steps.append(LEAVE_OUT)
            elif field_choices(words, key, spec):
                steps.append(event[key])
        for wanted in steps:
            if self.daemon.display.asks != "entry":
                break
            menu = self.daemon.display.menu
            self.choose(wanted, lambda menu=menu: self.daemon.display.menu is None
                        or self.daemon.display.menu.step != menu.step)

    def choose(self, wanted: Any, until: Check) -> None:
        """Turn the dial to the choice whose value is ``wanted`` and press."""
        menu = self.daemon.display.menu
        if menu is None:
            raise PlayError("no menu is open")
        matches = [i for i, value in enumerate(menu.values()) if _matches(value, wanted)]
        if not matches:
            self.hands.hold(MENU, lambda: self.daemon.display.menu is None)
            raise PlayError(f"{wanted!r} is not offered in the menu '{menu.title}'")
        target = matches[0]
        if target != menu.cursor:
            self.hands.turn(target - menu.cursor, lambda: self._cursor() == target)
        self.hands.tap(SWITCH, until)

    def _cursor(self) -> int | None:
        menu = self.daemon.display.menu
        return menu.cursor if menu is not None else None


def _matches(value: Any, wanted: Any) -> bool:
    if wanted is DONE or wanted is LEAVE_OUT:
        return value is wanted
    return type(value) is type(wanted) and value == wanted
