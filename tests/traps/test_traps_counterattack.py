"""The Jaws of Doom counterattack: damage disarms it without XP, a miss leaves it armed."""

from __future__ import annotations

import pytest

from companion.bundles.traps.rules.engine import Traps
from companion.errors import RuleViolation

JAWS = {"trap": "jaws-of-doom", "disarm": 10, "xp": 20}
DIALS = {"T1": ["start", JAWS], "T2": ["start", {"trap": "spiked-pit", "disarm": 7, "xp": 10}]}


def triggered_jaws() -> Traps:
    game = Traps(["Ann", "Bob"], seed=1, options={"squares": ["T1", "T2"], "dials": DIALS})
    game.apply({"type": "trigger", "seat": 1, "square": "T1", "clicks": 1})
    return game


def test_damage_disarms_without_xp():
    game = triggered_jaws()
    game.apply({"type": "counterattack", "seat": 1, "square": "T1", "damaged": True})
    square = game.view(None)["squares"]["T1"]
    assert square["status"] == "disarmed"
    assert square["disarmed_by"] is None and square["xp_gained"] == 0
    assert game.totals() == [0, 0]
    with pytest.raises(RuleViolation, match="disarm-disarmed"):
        game.apply({"type": "disarm", "seat": 1, "square": "T1", "mode": "quick",
                    "dice": [6, 6]})


def test_a_miss_leaves_the_trap_armed_to_be_disarmed_as_normal():
    game = triggered_jaws()
    game.apply({"type": "counterattack", "seat": 1, "square": "T1", "damaged": False})
    assert game.view(None)["squares"]["T1"]["status"] == "triggered"
    assert "still armed" in game.view(None)["last"]
    game.apply({"type": "disarm", "seat": 0, "square": "T1", "mode": "slow", "dice": [4, 4]})
    assert game.totals() == [20, 0]  # 4 + 4 + 2 >= 10: the normal disarm earns the XP


@pytest.mark.parametrize(("attack", "dice", "damage", "status"), [
    (9, [2, 3], 2, "disarmed"),   # 14 >= defence 14, 2 - 1 Toughness = 1 damage gets through
    (9, [2, 2], 2, "triggered"),  # 13 < 14: a miss
    (9, [3, 3], 1, "triggered"),  # a hit, but Toughness takes the only point of damage
])
def test_the_companion_resolves_a_counterattack_from_the_dice(attack, dice, damage, status):
    game = triggered_jaws()
    game.apply({"type": "counterattack", "seat": 0, "square": "T1", "attack": attack,
                "dice": dice, "damage": damage})
    assert game.view(None)["squares"]["T1"]["status"] == status


@pytest.mark.parametrize(("event", "rule"), [
    ({"square": "T2", "damaged": True}, "counterattack-jaws"),
    ({"square": "T1", "damaged": True, "attack": 9}, "counterattack-fields"),
    ({"square": "T1", "attack": 9, "dice": [3, 3]}, "counterattack-fields"),
    ({"square": "T1", "attack": 9, "dice": [3, 7], "damage": 2}, "counterattack-dice"),
])
def test_refused_counterattacks_change_nothing(event, rule):
    game = triggered_jaws()
    game.apply({"type": "trigger", "seat": 0, "square": "T2", "clicks": 1})
    before = game.referee_view()
    with pytest.raises(RuleViolation) as refusal:
        game.apply({"type": "counterattack", "seat": 0, **event})
    assert refusal.value.rule == rule
    assert game.referee_view() == before


def test_an_unexposed_jaws_cannot_be_counterattacked():
    game = Traps(["Ann", "Bob"], seed=1, options={"squares": ["T1", "T2"], "dials": DIALS})
    with pytest.raises(RuleViolation, match="counterattack-jaws"):
        game.apply({"type": "counterattack", "seat": 0, "square": "T1", "damaged": True})
