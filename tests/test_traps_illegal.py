"""Every illegal `traps` event is refused with a message naming the rule, state unchanged."""

from __future__ import annotations

import copy

import pytest

from companion.bundles.traps.rules.engine import Traps
from companion.errors import EventError, RuleViolation

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


def everything(g: Traps) -> list:
    return copy.deepcopy([g.view(None), *(g.view(seat) for seat in range(len(g.seats))),
                          g.referee_view(), g.totals()])


def refused(event: dict, error: type = RuleViolation, rule: str | None = None,
            says: str = "", g: Traps | None = None) -> Exception:
    g = g or table()
    before = everything(g)
    with pytest.raises(error) as caught:
        g.apply(event)
    assert everything(g) == before
    if rule is not None:
        assert caught.value.rule == rule
        assert f"[rule: {rule}]" in str(caught.value)
    assert says in str(caught.value)
    return caught.value


def test_unknown_square():
    refused({"type": "expose", "seat": 0, "square": "T99", "clicks": 2},
            rule="unknown-square", says="no trap square 'T99'")


def test_disarm_of_an_unexposed_square():
    refused({"type": "disarm", "seat": 0, "square": "T8", "mode": "quick", "dice": [6, 6]},
            rule="disarm-unexposed", says="expose it first")


def test_disarm_of_a_disarmed_square():
    refused({"type": "disarm", "seat": 1, "square": "T3", "mode": "slow", "dice": [6, 6]},
            rule="disarm-disarmed", says="T3 is disarmed already")


def test_disarm_of_a_clear_square():
    refused({"type": "disarm", "seat": 1, "square": "T4", "mode": "slow", "dice": [6, 6]},
            rule="disarm-clear", says="no trap")


def test_disarm_of_an_exposed_x():
    refused({"type": "disarm", "seat": 1, "square": "T2", "mode": "quick", "dice": [6, 6]},
            rule="disarm-no-trap", says="no trap on T2")


def test_disarm_of_a_fallen_weight():
    refused({"type": "disarm", "seat": 0, "square": "T5", "mode": "quick", "dice": [6, 6]},
            rule="trap-spent", says="Falling Weight")


def test_disarm_without_dice():
    refused({"type": "disarm", "seat": 0, "square": "T1", "mode": "quick"},
            rule="disarm-dice", says="needs dice")


def test_disarm_with_three_dice():
    refused({"type": "disarm", "seat": 0, "square": "T1", "mode": "quick", "dice": [1, 2, 3]},
            rule="disarm-dice", says="exactly 2")


@pytest.mark.parametrize("dice", [[0, 3], [3, 7], [-1, 2]])
def test_dice_out_of_range(dice):
    refused({"type": "disarm", "seat": 0, "square": "T1", "mode": "quick", "dice": dice},
            rule="disarm-dice", says="a six-sided die shows 1 to 6")


def test_dice_of_the_wrong_type():
    refused({"type": "disarm", "seat": 0, "square": "T1", "mode": "quick", "dice": [3, "6"]},
            error=EventError, says="field 'dice'")


def test_variable_number_without_its_die():
    refused({"type": "disarm", "seat": 2, "square": "T6", "mode": "quick", "dice": [6, 6]},
            rule="variable-die", says="first attempt needs variable_die")


def test_variable_die_for_a_fixed_number():
    refused({"type": "disarm", "seat": 0, "square": "T1", "mode": "quick", "dice": [6, 6],
             "variable_die": 3}, rule="variable-die", says="not variable")


def test_variable_die_once_the_number_is_fixed():
    refused({"type": "disarm", "seat": 0, "square": "T9", "mode": "quick", "dice": [6, 6],
             "variable_die": 3}, rule="variable-die", says="fixed at the first attempt")


def test_variable_die_for_a_triggered_monstrous_hand():
    refused({"type": "disarm", "seat": 0, "square": "T7", "mode": "quick", "dice": [6, 6],
             "variable_die": 3}, rule="variable-die", says="Monstrous Hand")


def test_variable_die_out_of_range():
    refused({"type": "disarm", "seat": 2, "square": "T6", "mode": "quick", "dice": [6, 6],
             "variable_die": 7}, rule="variable-die", says="a six-sided die shows 1 to 6")


def test_a_disarmed_square_exposed_again():
    refused({"type": "expose", "seat": 1, "square": "T3", "clicks": 2},
            rule="expose-disarmed", says="T3 is disarmed")


def test_a_clear_square_exposed_again():
    refused({"type": "expose", "seat": 1, "square": "T4", "clicks": 2},
            rule="expose-clear", says="clear terrain")


def test_a_triggered_square_exposed():
    refused({"type": "expose", "seat": 0, "square": "T7", "clicks": 2},
            rule="expose-triggered", says="already on every screen")


def test_expose_without_clicks():
    refused({"type": "expose", "seat": 0, "square": "T8"},
            rule="expose-clicks", says="give clicks")


@pytest.mark.parametrize("kind", ["expose", "trigger"])
@pytest.mark.parametrize("clicks", [0, -3])
def test_a_turn_of_no_clicks(kind, clicks):
    refused({"type": kind, "seat": 0, "square": "T8", "clicks": clicks},
            rule=f"{kind}-clicks", says="at least 1 click")


def test_huge_clicks():
    refused({"type": "expose", "seat": 0, "square": "T8", "clicks": 10**9},
            error=EventError, says="field 'clicks'")


def test_trigger_of_a_never_exposed_square_without_clicks():
    refused({"type": "trigger", "seat": 0, "square": "T8"},
            rule="trigger-clicks", says="give clicks")


def test_trigger_with_clicks_of_an_exposed_square():
    refused({"type": "trigger", "seat": 0, "square": "T1", "clicks": 3},
            rule="trigger-clicks", says="leave out clicks")


def test_trigger_of_a_disarmed_square():
    refused({"type": "trigger", "seat": 0, "square": "T3"},
            rule="trigger-disarmed", says="T3 is disarmed")


def test_trigger_of_a_clear_square():
    refused({"type": "trigger", "seat": 0, "square": "T4"},
            rule="trigger-clear", says="clear terrain")


@pytest.mark.parametrize("square, name", [("T5", "Falling Weight"), ("T7", "Monstrous Hand")])
def test_trigger_again_of_a_trap_that_triggers_once(square, name):
    refused({"type": "trigger", "seat": 0, "square": square},
            rule="trigger-once", says=name)


def test_trigger_again_of_an_occupied_cage():
    g = Traps(["Ann", "Bob"], seed=1, options={"squares": ["T1"], "dials": {
        "T1": ["start", CAGE]}})
    g.apply({"type": "trigger", "seat": 0, "square": "T1", "clicks": 1})
    refused({"type": "trigger", "seat": 1, "square": "T1"}, rule="trigger-once",
            says="The Cage", g=g)


def test_unknown_seat():
    refused({"type": "expose", "seat": 3, "square": "T8", "clicks": 2},
            error=EventError, says="unknown seat 3")


def test_unknown_mode():
    refused({"type": "disarm", "seat": 0, "square": "T1", "mode": "careful", "dice": [6, 6]},
            error=EventError, says="field 'mode'")


def test_unknown_field():
    refused({"type": "expose", "seat": 0, "square": "T8", "clicks": 2, "reading": "x"},
            error=EventError, says="unknown field 'reading'")


def test_missing_square():
    refused({"type": "trigger", "seat": 0}, error=EventError, says="missing field 'square'")


def test_square_of_the_wrong_type():
    refused({"type": "expose", "seat": 0, "square": 1, "clicks": 2},
            error=EventError, says="field 'square'")


def test_unknown_event_type():
    refused({"type": "dance", "seat": 0, "square": "T1"},
            error=EventError, says="unknown event type")


def test_seat_missing():
    refused({"type": "expose", "square": "T8", "clicks": 1}, error=EventError,
            says="missing field 'seat'")
