"""Mage Knight traps at a simulated table: exposes, triggers and disarms are turned on the
trap dial detent by detent, and the acting seat taps its button."""

from __future__ import annotations

from typing import Any

from companion.bundles.traps.dial import ACTIONS
from companion.games.base import Game
from companion.games.spec import DialHands


def route(game: Game, event: dict[str, Any], camera: bool) -> str:
    kind = event["type"]
    if kind in ("expose", "trigger", "disarm") and "variable_die" not in event \
            and (kind != "disarm" or "dice" in event):
        return "dial"
    return "by hand"


def by_dial(player: DialHands, event: dict[str, Any]) -> None:
    """Turn the dial to the square, the action, the clicks or the dice; the seat taps."""
    dial_state, press = player.dial_state, player.press_switch
    squares = list(player.game.options["squares"])
    action = event.get("mode", event["type"])
    press(lambda: dial_state() is not None)
    player.turn_dial(squares.index(event["square"]),
                     lambda: dial_state()["square"] == event["square"])
    press(lambda: dial_state()["step"] == "action")
    player.turn_dial(ACTIONS.index(action), lambda: dial_state()["action"] == action)
    if event["type"] == "disarm":
        press(lambda: dial_state()["step"] == "dice")
        first, second = event["dice"]
        player.turn_dial(first - 1, lambda: dial_state()["dice"][0] == first)
        press(lambda: dial_state()["die"] == 1)
        player.turn_dial(second - 1, lambda: dial_state()["dice"][1] == second)
    else:
        press(lambda: dial_state()["step"] == "clicks")
        clicks = event.get("clicks", 0)
        # The physical dial is exposed by turning it counter-clockwise.
        player.turn_dial(-clicks, lambda: dial_state()["clicks"] == clicks)
    player.tap_seat(event["seat"], lambda: dial_state() is None)
