"""Every illegal `traps` event is refused with a message naming the rule, state unchanged."""

from __future__ import annotations

import pytest
from helpers import refused

from companion.bundles.traps.rules.engine import Traps
from companion.errors import EventError

SPIKED = {"trap": "spiked-pit", "disarm": 7, "xp": 10}
SAW_VARIABLE = {"trap": "buzz-saw", "disarm": "6+", "xp": 20}
WEIGHT = {"trap": "falling-weight", "disarm": 7, "xp": 5}
HAND = {"trap": "monstrous-hand", "disarm": 10, "xp": 20}
CAGE = {"trap": "cage", "disarm": 8, "xp": 10}

DIALS = {
    "T1": ["start", SPIKED],          # exposed by Ann below
    "T2": ["start", "x"],             # exposed by Bob below: an X
    "T3": ["start", SPIKED],          # disarmed by Ann below
    "T4": ["start", "x"],             # triggered: clear
    "T5": ["start", WEIGHT],          # triggered: fell for good
    "T6": ["start", SAW_VARIABLE],    # exposed, never attempted
    "T7": ["start", HAND],            # triggered
    "T8": ["start", SPIKED],          # never touched
    "T9": ["start", SAW_VARIABLE],    # exposed, number fixed at 6 + 4 = 10 by a failed try
}


def table() -> Traps:
    g = Traps(["Ann", "Bob", "Cy"], seed=4, options={"squares": list(DIALS), "dials": DIALS})
    for event in [
        {"type": "expose", "seat": 0, "square": "T1", "clicks": 1},
        {"type": "expose", "seat": 1, "square": "T2", "clicks": 1},
        {"type": "expose", "seat": 0, "square": "T3", "clicks": 1},
        {"type": "disarm", "seat": 0, "square": "T3", "mode": "quick", "dice": [6, 6]},
        {"type": "trigger", "seat": 2, "square": "T4", "clicks": 1},
        {"type": "trigger", "seat": 2, "square": "T5", "clicks": 1},
        {"type": "expose", "seat": 2, "square": "T6", "clicks": 1},
        {"type": "trigger", "seat": 1, "square": "T7", "clicks": 1},
        {"type": "trigger", "seat": 1, "square": "T9", "clicks": 1},
        {"type": "disarm", "seat": 1, "square": "T9", "mode": "quick", "dice": [1, 1],
         "variable_die": 4},
    ]:
        g.apply(event)
    return g


def test_unknown_square():
    refused(table(), {"type": "expose", "seat": 0, "square": "T99", "clicks": 2},
            "unknown-square", "no trap square 'T99'")


def test_disarm_of_an_unexposed_square():
    refused(table(), {"type": "disarm", "seat": 0, "square": "T8", "mode": "quick", "dice": [6, 6]},
            "disarm-unexposed", "expose it first")


def test_disarm_of_a_disarmed_square():
    refused(table(), {"type": "disarm", "seat": 1, "square": "T3", "mode": "slow", "dice": [6, 6]},
            "disarm-disarmed", "T3 is disarmed already")


def test_disarm_of_a_clear_square():
    refused(table(), {"type": "disarm", "seat": 1, "square": "T4", "mode": "slow", "dice": [6, 6]},
            "disarm-clear", "no trap")


def test_disarm_of_an_exposed_x():
    refused(table(), {"type": "disarm", "seat": 1, "square": "T2", "mode": "quick", "dice": [6, 6]},
            "disarm-no-trap", "no trap on T2")


def test_disarm_of_a_fallen_weight():
    refused(table(), {"type": "disarm", "seat": 0, "square": "T5", "mode": "quick", "dice": [6, 6]},
            "trap-spent", "Falling Weight")


def test_disarm_without_dice():
    refused(table(), {"type": "disarm", "seat": 0, "square": "T1", "mode": "quick"},
            "disarm-dice", "needs dice")


def test_disarm_with_three_dice():
    refused(table(),
            {"type": "disarm", "seat": 0, "square": "T1", "mode": "quick", "dice": [1, 2, 3]},
            "disarm-dice", "exactly 2")


@pytest.mark.parametrize("dice", [[0, 3], [3, 7], [-1, 2]])
def test_dice_out_of_range(dice):
    refused(table(), {"type": "disarm", "seat": 0, "square": "T1", "mode": "quick", "dice": dice},
            "disarm-dice", "a six-sided die shows 1 to 6")


def test_dice_of_the_wrong_type():
    refused(table(), {"type": "disarm", "seat": 0, "square": "T1", "mode": "quick",
                      "dice": [3, "6"]},
            None, "field 'dice'", error=EventError)


def test_variable_number_without_its_die():
    refused(table(), {"type": "disarm", "seat": 2, "square": "T6", "mode": "quick", "dice": [6, 6]},
            "variable-die", "first attempt needs variable_die")


def test_variable_die_for_a_fixed_number():
    refused(table(), {"type": "disarm", "seat": 0, "square": "T1", "mode": "quick",
                      "dice": [6, 6], "variable_die": 3},
            "variable-die", "not variable")


def test_variable_die_once_the_number_is_fixed():
    refused(table(), {"type": "disarm", "seat": 0, "square": "T9", "mode": "quick",
                      "dice": [6, 6], "variable_die": 3},
            "variable-die", "fixed at the first attempt")


def test_variable_die_for_a_triggered_monstrous_hand():
    refused(table(), {"type": "disarm", "seat": 0, "square": "T7", "mode": "quick",
                      "dice": [6, 6], "variable_die": 3},
            "variable-die", "Monstrous Hand")


def test_variable_die_out_of_range():
    refused(table(), {"type": "disarm", "seat": 2, "square": "T6", "mode": "quick",
                      "dice": [6, 6], "variable_die": 7},
            "variable-die", "a six-sided die shows 1 to 6")


def test_a_disarmed_square_exposed_again():
    refused(table(), {"type": "expose", "seat": 1, "square": "T3", "clicks": 2},
            "expose-disarmed", "T3 is disarmed")


def test_a_clear_square_exposed_again():
    refused(table(), {"type": "expose", "seat": 1, "square": "T4", "clicks": 2},
            "expose-clear", "clear terrain")


def test_a_triggered_square_exposed():
    refused(table(), {"type": "expose", "seat": 0, "square": "T7", "clicks": 2},
            "expose-triggered", "already on every screen")


def test_expose_without_clicks():
    refused(table(), {"type": "expose", "seat": 0, "square": "T8"}, "expose-clicks", "give clicks")


@pytest.mark.parametrize("kind", ["expose", "trigger"])
@pytest.mark.parametrize("clicks", [0, -3])
def test_a_turn_of_no_clicks(kind, clicks):
    refused(table(), {"type": kind, "seat": 0, "square": "T8", "clicks": clicks},
            f"{kind}-clicks", "at least 1 click")


def test_huge_clicks():
    refused(table(), {"type": "expose", "seat": 0, "square": "T8", "clicks": 10**9},
            None, "field 'clicks'", error=EventError)


def test_trigger_of_a_never_exposed_square_without_clicks():
    refused(table(), {"type": "trigger", "seat": 0, "square": "T8"},
            "trigger-clicks", "give clicks")


def test_trigger_with_clicks_of_an_exposed_square():
    refused(table(), {"type": "trigger", "seat": 0, "square": "T1", "clicks": 3},
            "trigger-clicks", "leave out clicks")


def test_trigger_of_a_disarmed_square():
    refused(table(), {"type": "trigger", "seat": 0, "square": "T3"},
            "trigger-disarmed", "T3 is disarmed")


def test_trigger_of_a_clear_square():
    refused(table(), {"type": "trigger", "seat": 0, "square": "T4"},
            "trigger-clear", "clear terrain")


@pytest.mark.parametrize("square, name", [("T5", "Falling Weight"), ("T7", "Monstrous Hand")])
def test_trigger_again_of_a_trap_that_triggers_once(square, name):
    refused(table(), {"type": "trigger", "seat": 0, "square": square}, "trigger-once", name)


def test_trigger_again_of_an_occupied_cage():
    g = Traps(["Ann", "Bob"], seed=1, options={"squares": ["T1"], "dials": {
        "T1": ["start", CAGE]}})
    g.apply({"type": "trigger", "seat": 0, "square": "T1", "clicks": 1})
    refused(g, {"type": "trigger", "seat": 1, "square": "T1"}, "trigger-once", "The Cage")


def test_unknown_seat():
    refused(table(), {"type": "expose", "seat": 3, "square": "T8", "clicks": 2},
            None, "unknown seat 3", error=EventError)


def test_unknown_mode():
    refused(table(), {"type": "disarm", "seat": 0, "square": "T1", "mode": "careful",
                      "dice": [6, 6]},
            None, "field 'mode'", error=EventError)


def test_unknown_field():
    refused(table(), {"type": "expose", "seat": 0, "square": "T8", "clicks": 2, "reading": "x"},
            None, "unknown field 'reading'", error=EventError)


def test_missing_square():
    refused(table(), {"type": "trigger", "seat": 0},
            None, "missing field 'square'", error=EventError)


def test_square_of_the_wrong_type():
    refused(table(), {"type": "expose", "seat": 0, "square": 1, "clicks": 2},
            None, "field 'square'", error=EventError)


def test_unknown_event_type():
    refused(table(), {"type": "dance", "seat": 0, "square": "T1"},
            None, "unknown event type", error=EventError)


def test_seat_missing():
    refused(table(), {"type": "expose", "square": "T8", "clicks": 1},
            None, "missing field 'seat'", error=EventError)
