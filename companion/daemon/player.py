"""People at a simulated table: they play the events of a table log through a running daemon
the way they would at a real table, and correct it when it gets something wrong.

- Cards put down (Deathtrap and Tricky plays) and Rumble moves are shown to the camera; an
  unsure sighting is answered at the confirm step.
- The trap dial (expose, trigger, disarm) is turned detent by detent, and the seat taps.
- A Deathtrap pass is a tap of the seat's button.
- Anything else is entered by hand with the dial on the table screen.
- If the camera read something else than what was played, it is undone with a long press of
  the menu button and entered by hand.

What reaches the daemon is only ``Hands``: taps, holds, detents and pictures, through the
same paths as real hardware (a test's hands drive mock pins, a fake hub and a frame source).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any, Protocol

from companion.daemon.dialogues import DONE, LEAVE_OUT, MAX_LIST, field_entries
from companion.daemon.stage import Stage
from companion.daemon.table import MENU, SWITCH, Daemon
from companion.daemon.ui import ACTIONS
from companion.errors import CompanionError

Check = Callable[[], bool]


class Hands(Protocol):
    """How the simulated people reach the daemon. ``until`` waits for the daemon to show a
    change (immediately true when the daemon runs in the caller's thread)."""

    def tap(self, control: str, until: Check) -> None: ...

    def hold(self, control: str, until: Check) -> None: ...

    def turn(self, detents: int, until: Check) -> None: ...

    def show(self, picture: Any, until: Check) -> None:
        """Put a picture before the camera; return once the daemon has acted on whatever
        the camera made of it (a still table that looks unchanged makes nothing)."""


class PlayError(CompanionError):
    """An event of the script could not be played through the table (a demo or test fault)."""


def same(stored: dict[str, Any], wanted: dict[str, Any]) -> bool:
    """Equal events, apart from the time stamp."""
    return ({k: v for k, v in stored.items() if k != "t"}
            == {k: v for k, v in wanted.items() if k != "t"})


class TablePlayer:
    """Plays events through ``daemon`` with ``hands``; ``stage`` draws what the camera sees.

    ``routes`` counts how each event got in: camera, dial, button, by hand, corrected.
    """

    def __init__(self, daemon: Daemon, hands: Hands, stage: Stage | None) -> None:
        self.daemon = daemon
        self.hands = hands
        self.stage = stage
        self.routes: dict[str, int] = {}

    # --- what the daemon shows ----------------------------------------------------------

    @property
    def table(self) -> Any:
        assert self.daemon.table is not None, "the player needs a session"
        return self.daemon.table

    def in_force(self) -> int:
        return len(self.table.session.in_force)

    def done(self, count: int, event: dict[str, Any]) -> bool:
        in_force = self.table.session.in_force
        return len(in_force) == count + 1 and same(in_force[-1], event)

    # --- one event ------------------------------------------------------------------------

    def play(self, event: dict[str, Any]) -> str:
        """Play one event; returns the route it took. PlayError if it cannot get in."""
        count = self.in_force()
        route = self.route(event)
        if route == "camera":
            self.by_camera(event, count)
        elif route == "dial":
            self.by_dial(event, count)
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
                raise PlayError(f"{event}: {error}") from None
        if not self.done(count, event):
            raise PlayError(f"could not play {event} at the table")
        self.routes[route] = self.routes.get(route, 0) + 1
        return route

    def route(self, event: dict[str, Any]) -> str:
        game, kind = self.table.header.game, event["type"]
        if self.stage is not None and self.daemon.reader is not None:
            if (game, kind) in (("deathtrap", "play"), ("tricky", "play")) \
                    and not event.get("face_down"):
                return "camera"
            if game == "rumble" and kind in ("move", "fight", "escape"):
                return "camera"
        if game == "traps" and kind in ("expose", "trigger", "disarm") \
                and "variable_die" not in event and (kind != "disarm" or "dice" in event):
            return "dial"
        if game == "deathtrap" and kind == "pass":
            return "button"
        return "by hand"

    # --- the camera -----------------------------------------------------------------------

    def look(self, picture: Any) -> None:
        self.hands.show(picture, lambda: True)

    def by_camera(self, event: dict[str, Any], count: int) -> None:
        assert self.stage is not None
        game = self.table.game
        if game.name == "rumble":
            rooms = game.options["map"]["rooms"]
            characters = game.options["characters"]
            if self.daemon.reader is not None and self.daemon.reader.before is None:
                now = game.view(None)
                self.look(self.stage.board(rooms, now["positions"], now["chest"], characters))
            after = copy.deepcopy(game)
            after.apply(event)
            view = after.view(None)
            if view.get("adventure") != game.view(None).get("adventure"):
                # The adventure ended: the board is set up afresh, seen before the next move.
                self.look(self.stage.board(rooms, {}, None, characters))
            else:
                self.look(self.stage.board(rooms, view["positions"], view["chest"], characters))
        else:
            cards = event.get("cards") or [event["card"]]
            self.look(self.stage.clear())
            self.look(self.stage.play(event["seat"], cards))
        self.confirm(event)

    def confirm(self, event: dict[str, Any]) -> None:
        """Answer the confirm step: yes if the camera saw what was played, else no."""
        while self.daemon.purpose == "confirm" and self.daemon.unsure:
            answer = same(self.daemon.unsure[0].event, event)
            pending = len(self.daemon.unsure)
            self.choose(answer, lambda pending=pending: len(self.daemon.unsure) < pending)

    # --- the trap dial ----------------------------------------------------------------------

    def by_dial(self, event: dict[str, Any], count: int) -> None:
        ui = self.daemon.ui
        squares = list(self.table.game.options["squares"])
        action = event.get("mode", event["type"])
        self.hands.tap(SWITCH, lambda: ui.dial is not None)
        self.turn_dial(squares.index(event["square"]), lambda: ui.dial.square == event["square"])
        self.hands.tap(SWITCH, lambda: ui.dial.step == "action")
        self.turn_dial(ACTIONS.index(action), lambda: ui.dial.action == action)
        if event["type"] == "disarm":
            self.hands.tap(SWITCH, lambda: ui.dial.step == "dice")
            first, second = event["dice"]
            self.turn_dial(first - 1, lambda: ui.dial.dice[0] == first)
            self.hands.tap(SWITCH, lambda: ui.dial.die == 1)
            self.turn_dial(second - 1, lambda: ui.dial.dice[1] == second)
        else:
            self.hands.tap(SWITCH, lambda: ui.dial.step == "clicks")
            clicks = event.get("clicks", 0)
            # The physical dial is exposed by turning it counter-clockwise.
            self.turn_dial(-clicks, lambda: ui.dial.clicks == clicks)
        self.hands.tap(f"seat:{event['seat']}", lambda: ui.dial is None)

    def turn_dial(self, detents: int, until: Check) -> None:
        if detents:
            self.hands.turn(detents, until)

    # --- by hand ----------------------------------------------------------------------------

    def by_hand(self, event: dict[str, Any]) -> None:
        """Enter ``event`` field by field with the dial (a long press opens the menu)."""
        self.hands.hold(SWITCH, lambda: self.daemon.purpose == "entry")
        game = self.table.game
        kind = event["type"]
        steps: list[Any] = [kind]
        for key, spec in game.EVENTS[kind].items():
            if isinstance(event.get(key), list) and not event[key] and not spec.required:
                steps.append(LEAVE_OUT)
            elif isinstance(event.get(key), list):
                steps += event[key] + ([DONE] if len(event[key]) < MAX_LIST else [])
            elif key not in event:
                steps.append(LEAVE_OUT)
            elif field_entries(game, key, spec):
                steps.append(event[key])
        for wanted in steps:
            if self.daemon.purpose != "entry":
                break
            menu = self.daemon.dialogue.menu if self.daemon.dialogue else None
            self.choose(wanted, lambda menu=menu: self.daemon.dialogue is None
                        or self.daemon.dialogue.menu is not menu)

    def choose(self, wanted: Any, until: Check) -> None:
        """Turn the dial to the entry whose value is ``wanted`` and press."""
        dialogue = self.daemon.dialogue
        if dialogue is None:
            raise PlayError("no menu is open")
        menu = dialogue.menu
        matches = [i for i, (_, value) in enumerate(menu.entries) if _matches(value, wanted)]
        if not matches:
            self.hands.hold(MENU, lambda: self.daemon.dialogue is None)
            raise PlayError(f"{wanted!r} is not offered in the menu '{menu.title}'")
        target = matches[0]
        if target != menu.cursor:
            self.hands.turn(target - menu.cursor, lambda: menu.cursor == target)
        self.hands.tap(SWITCH, until)


def _matches(value: Any, wanted: Any) -> bool:
    if wanted is DONE or wanted is LEAVE_OUT:
        return value is wanted
    return type(value) is type(wanted) and value == wanted
