"""Scripted `traps` games: every expected XP total and status is worked out by hand below."""

from __future__ import annotations

import pytest

from companion.bundles.traps.rules.engine import Traps
from companion.games.registry import engine

SPIKED = {"trap": "spiked-pit", "disarm": 7, "xp": 10}
CAGE = {"trap": "cage", "disarm": 8, "xp": 10}
SAW_VARIABLE = {"trap": "buzz-saw", "disarm": "6+", "xp": 20}
WEIGHT = {"trap": "falling-weight", "disarm": 7, "xp": 5}
FIRE = {"trap": "fire-jets", "disarm": 8, "xp": 10}
JAWS = {"trap": "jaws-of-doom", "disarm": 10, "xp": 20}
HAND = {"trap": "monstrous-hand", "disarm": 6, "xp": 20}
ACID = {"trap": "noxious-acid-pool", "disarm": 9, "xp": 15}


def game(dials: dict, seats: int = 3, **options) -> Traps:
    names = ["Ann", "Bob", "Cy", "Dee"][:seats]
    return Traps(names, seed=11, options={"squares": list(dials), "dials": dials, **options})


def expose(g: Traps, seat: int, square: str, clicks: int) -> None:
    g.apply({"type": "expose", "seat": seat, "square": square, "clicks": clicks})


def trigger(g: Traps, seat: int, square: str, clicks: int | None = None) -> None:
    event = {"type": "trigger", "seat": seat, "square": square}
    if clicks is not None:
        event["clicks"] = clicks
    g.apply(event)


def disarm(g: Traps, seat: int, square: str, mode: str, dice: list[int], **extra) -> None:
    g.apply({"type": "disarm", "seat": seat, "square": square, "mode": mode, "dice": dice,
             **extra})


def test_engine_is_registered():
    assert engine("traps") is Traps


def test_scripted_game_all_disarm_paths():
    g = game({"T1": ["start", "x", SPIKED, CAGE], "T2": ["start", SAW_VARIABLE, "x"]})
    # Ann turns T1 by 2 clicks: position 2, the Spiked Pit (disarm 7), on her screen only.
    expose(g, 0, "T1", 2)
    assert g.view(0)["squares"]["T1"]["reading_seen"]["name"] == "Spiked Pit"
    assert g.view(None)["squares"]["T1"] == {"status": "exposed", "exposed_by": [0]}
    # Quick: 3 + 3 = 6 < 7: failure, the pit triggers on Ann (2 clicks), public.
    disarm(g, 0, "T1", "quick", [3, 3])
    public = g.view(None)["squares"]["T1"]
    assert public["status"] == "triggered" and public["trap"] == "spiked-pit"
    assert public["triggered_by"] == [{"seat": 0, "damage": 2}]
    # Slow: 2 + 3 + 2 = 7 >= 7: Bob disarms it for 10 XP.
    disarm(g, 1, "T1", "slow", [2, 3])
    assert g.view(None)["squares"]["T1"]["status"] == "disarmed"
    # Cy turns T2 by 4 clicks on a 3-position dial: (0 + 4) mod 3 = 1, the Buzz Saw 6+.
    expose(g, 2, "T2", 4)
    # First attempt fixes the number: 6 + 3 = 9; quick 4 + 4 = 8 < 9 fails and triggers.
    disarm(g, 2, "T2", "quick", [4, 4], variable_die=3)
    assert g.view(None)["squares"]["T2"]["disarm_now"] == 9
    # Ann: 5 + 4 = 9 >= 9 (the number stays 9, no new die): +20 XP.
    disarm(g, 0, "T2", "quick", [5, 4])
    assert g.totals() == [20, 10, 0]
    assert g.finished and g.winners() == [0]
    assert g.rounds() == []


def test_slow_bonus_is_the_difference_between_success_and_failure():
    quick = game({"T1": ["start", FIRE]})
    slow = game({"T1": ["start", FIRE]})
    for g in (quick, slow):
        expose(g, 1, "T1", 1)
    disarm(quick, 1, "T1", "quick", [3, 4])   # 7 < 8: triggered
    disarm(slow, 1, "T1", "slow", [3, 4])     # 7 + 2 = 9 >= 8: disarmed
    assert quick.view(None)["squares"]["T1"]["status"] == "triggered"
    assert quick.totals() == [0, 0, 0]
    assert slow.view(None)["squares"]["T1"]["status"] == "disarmed"
    assert slow.totals() == [0, 10, 0]


def test_slow_disarm_bonus_option_changes_the_threshold():
    g = game({"T1": ["start", FIRE]}, slow_disarm_bonus=0)
    expose(g, 0, "T1", 1)
    disarm(g, 0, "T1", "slow", [3, 4])   # 7 + 0 < 8
    assert g.view(None)["squares"]["T1"]["status"] == "triggered"


def test_exact_disarm_number_succeeds():
    g = game({"T1": ["start", ACID]})
    expose(g, 0, "T1", 1)
    disarm(g, 0, "T1", "quick", [4, 5])   # 9 >= 9
    assert g.totals() == [15, 0, 0]


def test_variable_number_rolled_again_when_not_fixed():
    g = game({"T1": ["start", SAW_VARIABLE]}, variable_disarm_fixed=False)
    expose(g, 0, "T1", 1)
    disarm(g, 0, "T1", "quick", [5, 5], variable_die=6)    # 10 < 12: triggered
    disarm(g, 1, "T1", "quick", [5, 5], variable_die=1)    # 10 >= 7: disarmed
    assert g.totals() == [0, 20, 0]


def test_variable_number_success_at_first_attempt():
    g = game({"T1": ["start", SAW_VARIABLE]})
    expose(g, 2, "T1", 1)
    disarm(g, 2, "T1", "slow", [3, 3], variable_die=2)     # 6 + 2 = 8 >= 6 + 2
    assert g.totals() == [0, 0, 20]
    assert g.view(None)["squares"]["T1"] == {
        "status": "disarmed", "exposed_by": [2], "disarmed_by": 2, "xp_gained": 20,
        "released": None}
    assert g.view(2)["squares"]["T1"]["reading_seen"]["disarm_now"] == 8


def test_trigger_of_a_never_exposed_square_runs_the_expose_procedure():
    g = game({"T1": ["start", "x", "x", WEIGHT]})
    trigger(g, 1, "T1", 3)
    public = g.view(None)["squares"]["T1"]
    assert public["status"] == "triggered"
    assert public["name"] == "Falling Weight"
    assert public["exposed_by"] == [1]
    assert public["triggered_by"] == [{"seat": 1, "damage": 3}]


def test_expose_wraps_and_turns_again_from_where_the_dial_is():
    g = game({"T1": ["start", "x", SPIKED, CAGE, FIRE]})
    expose(g, 0, "T1", 7)        # 7 mod 5 = 2: Spiked Pit
    assert g.view(0)["squares"]["T1"]["reading_seen"]["trap"] == "spiked-pit"
    expose(g, 1, "T1", 2)        # 2 + 2 = 4: Fire Jets, Bob's reading
    assert g.view(1)["squares"]["T1"]["reading_seen"]["trap"] == "fire-jets"
    # Ann still remembers her reading, marked as no longer the dial's current one.
    seen = g.view(0)["squares"]["T1"]["reading_seen"]
    assert seen["trap"] == "spiked-pit" and seen["current"] is False
    assert g.view(None)["squares"]["T1"]["exposed_by"] == [0, 1]


def test_start_marker_reads_as_x():
    g = game({"T1": ["start", SPIKED, CAGE]})
    expose(g, 0, "T1", 3)        # back to position 0
    assert g.view(0)["squares"]["T1"]["reading_seen"]["name"] == "X"
    trigger(g, 1, "T1")
    assert g.view(None)["squares"]["T1"]["status"] == "clear"


def test_exposed_x_stays_private_until_triggered():
    g = game({"T1": ["start", "x"], "T2": ["start", SPIKED]})
    expose(g, 0, "T1", 1)
    expose(g, 1, "T2", 1)
    # The public view cannot tell the X from the Spiked Pit.
    public = g.view(None)["squares"]
    assert public["T1"] == {"status": "exposed", "exposed_by": [0]}
    assert public["T2"] == {"status": "exposed", "exposed_by": [1]}
    assert not g.finished
    trigger(g, 2, "T1")
    assert g.view(None)["squares"]["T1"]["status"] == "clear"


def test_reveal_exposed_x_option_makes_it_clear_at_once():
    g = game({"T1": ["start", "x"]}, reveal_exposed_x=True)
    expose(g, 0, "T1", 1)
    assert g.view(None)["squares"]["T1"]["status"] == "clear"
    assert g.finished


def test_cage_imprisons_the_trigger_until_another_figure_disarms_it():
    g = game({"T1": ["start", CAGE]})
    trigger(g, 0, "T1", 1)
    assert g.view(None)["squares"]["T1"]["prisoner"] == 0
    # A failed rescue leaves the cage locked and takes no second prisoner.
    disarm(g, 1, "T1", "quick", [1, 2])       # 3 < 8
    square = g.view(None)["squares"]["T1"]
    assert square["prisoner"] == 0 and square["triggered_by"] == [{"seat": 0, "damage": 0}]
    disarm(g, 1, "T1", "quick", [4, 4])       # 8 >= 8
    square = g.view(None)["squares"]["T1"]
    assert square["status"] == "disarmed" and square["released"] == 0
    assert square["prisoner"] is None
    assert g.totals() == [0, 10, 0]


def test_cage_failed_disarm_before_trigger_imprisons_the_disarmer():
    g = game({"T1": ["start", CAGE]})
    expose(g, 2, "T1", 1)
    disarm(g, 2, "T1", "slow", [1, 1])        # 4 < 8: triggered on Cy
    assert g.view(None)["squares"]["T1"]["prisoner"] == 2


def test_falling_weight_falls_once_and_settles_the_square():
    g = game({"T1": ["start", WEIGHT], "T2": ["start", "x"]})
    expose(g, 0, "T1", 1)
    disarm(g, 0, "T1", "quick", [1, 1])       # 2 < 7: it falls on Ann, 3 clicks
    square = g.view(None)["squares"]["T1"]
    assert square["triggered_by"] == [{"seat": 0, "damage": 3}]
    assert square["armed"] is False and square["disarmable"] is False
    trigger(g, 1, "T2", 1)
    assert g.finished and g.totals() == [0, 0, 0]


def test_fire_jets_burn_everyone_who_triggers_them():
    g = game({"T1": ["start", FIRE]})
    trigger(g, 0, "T1", 1)
    trigger(g, 1, "T1")
    disarm(g, 2, "T1", "quick", [1, 2])       # 3 < 8: triggers on Cy too
    assert g.view(None)["squares"]["T1"]["triggered_by"] == [
        {"seat": 0, "damage": 1}, {"seat": 1, "damage": 1}, {"seat": 2, "damage": 1}]
    assert g.view(None)["squares"]["T1"]["armed"] is True


def test_buzz_saw_damage_is_a_d6_rolled_by_the_player_or_the_companion():
    by_players = game({"T1": ["start", SAW_VARIABLE]})
    trigger(by_players, 0, "T1", 1)
    assert by_players.view(None)["squares"]["T1"]["triggered_by"] == [
        {"seat": 0, "damage": "1d6"}]
    rolled = game({"T1": ["start", SAW_VARIABLE]}, companion_rolls=True)
    trigger(rolled, 0, "T1", 1)
    damage = rolled.view(None)["squares"]["T1"]["triggered_by"][0]["damage"]
    assert damage in range(1, 7)


def test_jaws_of_doom_attacks_can_be_triggered_again_and_disarmed_for_xp():
    g = game({"T1": ["start", JAWS]})
    trigger(g, 0, "T1", 1)
    square = g.view(None)["squares"]["T1"]
    assert square["attack"]["attack"] == 10 and square["attack"]["defence"] == 14
    trigger(g, 1, "T1")
    disarm(g, 2, "T1", "slow", [4, 4])        # 10 >= 10
    assert g.totals() == [0, 0, 20]


def test_jaws_counterattack_outcomes():
    g = game({"T1": ["start", JAWS]})
    # 9 + 2 + 3 = 14 >= 14 hits; damage 2 - 1 (Toughness) = 1: disarmed, no XP.
    assert g.jaws_counterattack(9, [2, 3], 2)["outcome"] == "damaged"
    # A hit of damage 1 is all taken by Toughness: the figure is removed, trap still armed.
    assert g.jaws_counterattack(9, [2, 3], 1)["outcome"] == "removed"
    assert g.jaws_counterattack(5, [1, 1], 4) == {
        "hit": False, "damage": 0, "outcome": "removed",
        "text": "The Jaws figure leaves the board; the trap stays armed: disarm it as normal"}


def test_monstrous_hand_once_triggered_needs_10():
    g = game({"T1": ["start", HAND], "T2": ["start", HAND]})
    # Before it is triggered the dial's own number (6) counts: 3 + 3 = 6.
    expose(g, 0, "T1", 1)
    disarm(g, 0, "T1", "quick", [3, 3])
    assert g.totals() == [20, 0, 0]
    trigger(g, 1, "T2", 1)
    square = g.view(None)["squares"]["T2"]
    assert square["disarm_now"] == 10 and square["armed"] is False
    disarm(g, 1, "T2", "quick", [4, 5])       # 9 < 10: stays, triggers no more
    assert g.view(None)["squares"]["T2"]["triggered_by"] == [{"seat": 1, "damage": 0}]
    disarm(g, 2, "T2", "slow", [4, 4])        # 10 >= 10
    assert g.totals() == [20, 0, 20]


def test_acid_pool_and_spiked_pit_damage():
    g = game({"T1": ["start", ACID], "T2": ["start", SPIKED]})
    trigger(g, 0, "T1", 1)
    trigger(g, 1, "T2", 1)
    squares = g.view(None)["squares"]
    assert squares["T1"]["triggered_by"] == [{"seat": 0, "damage": 2}]
    assert squares["T2"]["triggered_by"] == [{"seat": 1, "damage": 2}]
    assert "4 speed" in squares["T2"]["effect"]


def test_companion_rolls_fill_in_every_die_deterministically():
    # Seven positions: any d6 of clicks lands on a trap, the Buzz Saw only on a 1.
    dial = ["start", SAW_VARIABLE, FIRE, FIRE, FIRE, FIRE, FIRE]

    def play() -> Traps:
        g = game({"T1": dial}, companion_rolls=True)
        g.apply({"type": "expose", "seat": 0, "square": "T1"})
        g.apply({"type": "disarm", "seat": 0, "square": "T1", "mode": "slow"})
        return g
    first, second = play(), play()
    assert first.referee_view() == second.referee_view()
    square = first.squares["T1"]
    assert 1 <= square["position"] <= 6
    assert square["status"] in ("disarmed", "triggered")
    # The Buzz Saw's variable number was rolled and kept; Fire Jets has none to roll.
    assert bool(square["fixed_disarm"]) == (square["position"] == 1)


def test_drawn_dials_depend_on_seed_and_square_only():
    one = Traps(["Ann", "Bob"], seed=1)
    again = Traps(["Ann", "Bob", "Cy"], seed=1, options={"squares": ["T4", "T1"]})
    other = Traps(["Ann", "Bob"], seed=2)
    assert one.dials["T1"] == again.dials["T1"] and one.dials["T4"] == again.dials["T4"]
    assert one.dials != other.dials
    assert all(len(dial) == 12 and dial[0] == "start" for dial in one.dials.values())
    assert len(Traps(["Ann", "Bob"], seed=1, options={"dial_clicks": 6}).dials["T2"]) == 6


def test_moves_that_trigger():
    g = game({"T1": ["start", SPIKED], "T2": ["start", HAND]})
    assert g.passage_triggers("T1", "diagonal", roll=3) is True
    assert g.passage_triggers("T1", "diagonal", roll=4) is False
    assert g.passage_triggers("T1", "diagonal", nimble=True) is False
    assert g.passage_triggers("T1", "through", flying=True) is False
    assert g.passage_triggers("T1", "end", flying=True) is True
    assert g.shockwave_triggers("T1", 7, [2, 3]) is True      # 12 >= 12
    assert g.shockwave_triggers("T1", 6, [2, 3]) is False
    trigger(g, 0, "T2", 1)
    # A triggered Monstrous Hand goes off only once.
    assert g.passage_triggers("T2", "through") is False


def test_diagonal_trigger_max_option():
    g = game({"T1": ["start", SPIKED]}, diagonal_trigger_max=1)
    assert g.passage_triggers("T1", "diagonal", roll=2) is False


@pytest.mark.parametrize("shockwave_defence, hits", [(12, False), (10, True)])
def test_shockwave_defence_option(shockwave_defence, hits):
    g = game({"T1": ["start", SPIKED]}, shockwave_defence=shockwave_defence)
    assert g.shockwave_triggers("T1", 5, [3, 3]) is hits


def test_screen_lines_say_what_happened_and_keep_readings_private():
    g = game({"T1": ["start", SPIKED]})
    expose(g, 0, "T1", 1)
    assert g.view(None)["last"] == "Ann exposed T1"
    assert g.view(0)["note"] == "T1 reads Spiked Pit: disarm 7, 10 XP"
    assert g.view(1)["note"] == ""
    disarm(g, 0, "T1", "quick", [3, 3])
    assert g.view(None)["last"] == "Ann failed to disarm T1: Spiked Pit"
    assert g.view(None)["sprung"]["hurt"] == "2 clicks of damage"
    disarm(g, 1, "T1", "slow", [3, 3])
    assert g.view(None)["last"] == "Bob disarmed T1: +10 XP"
