"""A rules review of `traps`: scripted games whose results are worked out by hand from the
rule text and docs/rulings.md (never copied from the engine's output)."""

from __future__ import annotations

import copy

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.bundles.traps.rules.engine import Traps
from companion.bundles.traps.rules.sim import random_game
from companion.errors import RuleViolation

PIT = {"trap": "spiked-pit", "disarm": 7, "xp": 10}
SAW = {"trap": "buzz-saw", "disarm": "6+", "xp": 20}
CAGE = {"trap": "cage", "disarm": 8, "xp": 10}
JAWS = {"trap": "jaws-of-doom", "disarm": 10, "xp": 20}
# Five positions, listed counter-clockwise: n clicks from p land on (p + n) % 5.
WHEEL = ["start", PIT, "x", CAGE, SAW]


def game(dials: dict, seats: int = 3, **options) -> Traps:
    names = ["Ann", "Bob", "Cy", "Di"][:seats]
    return Traps(names, seed=11, options={"squares": list(dials), "dials": dials, **options})


def seen(g: Traps, seat: int, square: str = "T1") -> dict:
    return g.view(seat)["squares"][square]["reading_seen"]


def test_exposing_wraps_round_the_dial_and_the_start_marker_reads_x():
    g = game({"T1": WHEEL})
    g.apply({"type": "expose", "seat": 0, "square": "T1", "clicks": 7})
    # (0 + 7) % 5 = 2: the X.
    assert seen(g, 0)["name"] == "X"
    g.apply({"type": "expose", "seat": 0, "square": "T1", "clicks": 3})
    # Turning again goes on from 2: (2 + 3) % 5 = 0, the start marker, which reads X.
    assert seen(g, 0)["name"] == "X" and seen(g, 0)["current"]
    g.apply({"type": "expose", "seat": 1, "square": "T1", "clicks": 9})
    # (0 + 9) % 5 = 4: the variable Buzz Saw, on Bob's screen; Ann's X is stale now.
    assert seen(g, 1)["name"] == "Buzz Saw" and seen(g, 1)["disarm"] == "6+"
    assert seen(g, 1)["xp"] == 20
    assert not seen(g, 0)["current"]
    assert "reading_seen" not in g.view(2)["squares"]["T1"]
    assert g.view(None)["squares"]["T1"]["status"] == "exposed"
    assert g.view(None)["squares"]["T1"]["exposed_by"] == [0, 1]


def test_a_trigger_of_a_never_exposed_square_turns_the_dial_first():
    g = game({"T1": WHEEL})
    g.apply({"type": "trigger", "seat": 2, "square": "T1", "clicks": 8})
    # (0 + 8) % 5 = 3: The Cage, public now, with Cy inside.
    square = g.view(None)["squares"]["T1"]
    assert square["status"] == "triggered" and square["trap"] == "cage"
    assert square["prisoner"] == 2 and square["exposed_by"] == [2]
    # A trigger of a square already turned does not turn it again.
    g2 = game({"T1": WHEEL})
    g2.apply({"type": "expose", "seat": 0, "square": "T1", "clicks": 1})
    g2.apply({"type": "trigger", "seat": 1, "square": "T1"})
    assert g2.view(None)["squares"]["T1"]["trap"] == "spiked-pit"  # still position 1


def test_an_x_is_clear_only_once_triggered_and_never_hinted_before():
    with_x = game({"T1": ["start", "x"], "T2": ["start", PIT]})
    with_trap = game({"T1": ["start", PIT], "T2": ["start", PIT]})
    for g in (with_x, with_trap):
        g.apply({"type": "expose", "seat": 0, "square": "T1", "clicks": 1})
    # Bob, Cy and everyone cannot tell an exposed X from an exposed trap.
    for seat in (None, 1, 2):
        assert with_x.view(seat) == with_trap.view(seat)
    assert with_x.view(None)["squares"]["T1"]["status"] == "exposed"
    assert not with_x.finished
    with_x.apply({"type": "trigger", "seat": 1, "square": "T1"})
    square = with_x.view(None)["squares"]["T1"]
    assert square["status"] == "clear" and square["reading"] == "x"
    assert with_x.totals() == [0, 0, 0]


def test_a_variable_number_is_fixed_at_the_first_attempt_and_a_failure_triggers():
    g = game({"T1": ["start", SAW]})
    g.apply({"type": "expose", "seat": 0, "square": "T1", "clicks": 1})
    # 6+ with a die of 4: 10. Quick 2 + 3 = 5 < 10: the Buzz Saw goes off on Ann.
    g.apply({"type": "disarm", "seat": 0, "square": "T1", "mode": "quick", "dice": [2, 3],
             "variable_die": 4})
    square = g.view(None)["squares"]["T1"]
    assert square["status"] == "triggered" and square["name"] == "Buzz Saw"
    assert square["disarm_now"] == 10 and square["triggered_by"][0]["seat"] == 0
    with pytest.raises(RuleViolation) as refusal:
        g.apply({"type": "disarm", "seat": 1, "square": "T1", "mode": "slow", "dice": [4, 3],
                 "variable_die": 1})
    assert refusal.value.rule == "variable-die"
    # Slow 4 + 3 + 2 = 9 < 10: it fails (the saw stays armed, and cuts Bob too).
    g.apply({"type": "disarm", "seat": 1, "square": "T1", "mode": "slow", "dice": [4, 3]})
    assert [hit["seat"] for hit in g.view(None)["squares"]["T1"]["triggered_by"]] == [0, 1]
    # Slow 4 + 4 + 2 = 10 >= 10: disarmed, Cy earns the 20 XP.
    g.apply({"type": "disarm", "seat": 2, "square": "T1", "mode": "slow", "dice": [4, 4]})
    assert g.view(None)["squares"]["T1"]["status"] == "disarmed"
    assert g.totals() == [0, 0, 20]


def test_the_cage_holds_whoever_failed_until_someone_else_unlocks_it():
    g = game({"T1": ["start", CAGE]})
    g.apply({"type": "expose", "seat": 1, "square": "T1", "clicks": 1})
    # Quick 3 + 4 = 7 < 8: the Cage springs on Bob, the disarmer.
    g.apply({"type": "disarm", "seat": 1, "square": "T1", "mode": "quick", "dice": [3, 4]})
    assert g.view(None)["squares"]["T1"]["prisoner"] == 1
    # A failed unlock leaves the Cage locked and Bob inside; nobody else is caught.
    g.apply({"type": "disarm", "seat": 0, "square": "T1", "mode": "quick", "dice": [1, 2]})
    square = g.view(None)["squares"]["T1"]
    assert square["status"] == "triggered" and square["prisoner"] == 1
    assert [hit["seat"] for hit in square["triggered_by"]] == [1]
    # Slow 3 + 3 + 2 = 8 >= 8: Cy unlocks it, Bob is free, Cy gains 10 XP.
    g.apply({"type": "disarm", "seat": 2, "square": "T1", "mode": "slow", "dice": [3, 3]})
    square = g.view(None)["squares"]["T1"]
    assert square["status"] == "disarmed" and square["released"] == 1
    assert g.totals() == [0, 0, 10]


def test_a_jaws_figure_gone_after_a_missed_counterattack_cannot_be_counterattacked():
    g = game({"T1": ["start", JAWS]})
    g.apply({"type": "trigger", "seat": 0, "square": "T1", "clicks": 1})
    g.apply({"type": "counterattack", "seat": 0, "square": "T1", "damaged": False})
    # The figure has left the board: nothing is there to counterattack until it is set off.
    before = copy.deepcopy(g.referee_view())
    with pytest.raises(RuleViolation) as refusal:
        g.apply({"type": "counterattack", "seat": 1, "square": "T1", "damaged": True})
    assert refusal.value.rule == "counterattack-jaws"
    assert g.referee_view() == before
    # Set off again, it attacks again and may be counterattacked: damage disarms, no XP.
    g.apply({"type": "trigger", "seat": 1, "square": "T1"})
    g.apply({"type": "counterattack", "seat": 1, "square": "T1", "attack": 9, "dice": [3, 2],
             "damage": 2})  # 9 + 5 = 14 >= 14, 2 - 1 Toughness = 1 gets through
    assert g.view(None)["squares"]["T1"]["status"] == "disarmed"
    assert g.totals() == [0, 0, 0]


@pytest.mark.parametrize("extra", [{}, {"variable_die": 3}])
def test_a_refusal_to_a_seat_that_has_not_read_the_dial_tells_nothing_about_it(extra):
    # Ann reads T1; Bob has not. Whatever the reading (X, fixed or n+ number), Bob's attempt
    # must be answered the same way: the rule name goes up on the table screen.
    answers = set()
    for reading in ("x", PIT, SAW):
        g = game({"T1": ["start", reading]})
        g.apply({"type": "expose", "seat": 0, "square": "T1", "clicks": 1})
        try:
            g.apply({"type": "disarm", "seat": 1, "square": "T1", "mode": "quick",
                     "dice": [6, 6], **extra})
            answers.add(("accepted", g.view(None)["squares"]["T1"]["status"]))
        except RuleViolation as refusal:
            answers.add((refusal.rule, str(refusal)))
    assert len(answers) == 1, answers


def test_a_seat_whose_reading_is_stale_must_expose_again_before_disarming():
    g = game({"T1": ["start", PIT, PIT]})
    g.apply({"type": "expose", "seat": 0, "square": "T1", "clicks": 1})
    g.apply({"type": "expose", "seat": 1, "square": "T1", "clicks": 1})
    with pytest.raises(RuleViolation):
        g.apply({"type": "disarm", "seat": 0, "square": "T1", "mode": "quick", "dice": [6, 6]})
    # Bob read where the dial is now: quick 6 + 6 = 12 >= 7, 10 XP.
    g.apply({"type": "disarm", "seat": 1, "square": "T1", "mode": "quick", "dice": [6, 6]})
    assert g.totals() == [0, 10, 0]


def test_blind_disarm_option_lets_any_seat_try_an_exposed_trap():
    g = game({"T1": ["start", PIT]}, blind_disarm=True)
    g.apply({"type": "expose", "seat": 0, "square": "T1", "clicks": 1})
    # Quick 3 + 4 = 7 >= 7: Bob disarms the trap Ann exposed.
    g.apply({"type": "disarm", "seat": 1, "square": "T1", "mode": "quick", "dice": [3, 4]})
    assert g.totals() == [0, 10, 0]


def test_once_triggered_any_seat_may_disarm():
    g = game({"T1": ["start", PIT]})
    g.apply({"type": "trigger", "seat": 0, "square": "T1", "clicks": 1})
    g.apply({"type": "disarm", "seat": 2, "square": "T1", "mode": "quick", "dice": [5, 2]})
    assert g.totals() == [0, 0, 10]


READINGS = ["x", PIT, SAW, CAGE, JAWS, {"trap": "falling-weight", "disarm": 7, "xp": 5},
            {"trap": "monstrous-hand", "disarm": 10, "xp": 20}]
PROBES = [
    {"type": "disarm", "mode": "quick", "dice": [6, 6]},
    {"type": "disarm", "mode": "slow", "dice": [1, 1]},
    {"type": "disarm", "mode": "quick", "dice": [3, 4], "variable_die": 2},
    {"type": "disarm", "mode": "quick"},
    {"type": "trigger"},
    {"type": "trigger", "clicks": 2},
    {"type": "expose", "clicks": 3},
    {"type": "counterattack", "damaged": True},
]


def answer(g: Traps, event: dict) -> tuple:
    """How the engine answers ``event``: accepted, or the refusal's rule and message."""
    try:
        copy.deepcopy(g).apply(event)
    except RuleViolation as refusal:
        return (refusal.rule, str(refusal))
    return ("accepted",)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32), st.integers(2, 4), st.data())
def test_no_refusal_depends_on_a_reading_the_acting_seat_has_not_seen(seed, seats, data):
    header, events = random_game(seed, seats)
    cut = data.draw(st.integers(0, len(events)))
    g = Traps(header["seats"], header["seed"], header["options"])
    for event in events[:cut]:
        g.apply(event)
    for square, state in g.squares.items():
        if state["status"] != "exposed":
            continue
        for seat in range(seats):
            if state["read_by"].get(str(seat)) == state["position"]:
                continue
            for probe in PROBES:
                event = {**probe, "seat": seat, "square": square}
                answers = set()
                for reading in READINGS:
                    twin = copy.deepcopy(g)
                    dial = list(twin.dials[square])
                    dial[state["position"]] = reading
                    twin.dials = {**twin.dials, square: dial}
                    found = answer(twin, event)
                    # An accepted trigger shows the trap to all, as the rules want.
                    answers.add(found if found[0] != "accepted" else ("accepted",))
                assert len(answers) == 1, (event, answers)
