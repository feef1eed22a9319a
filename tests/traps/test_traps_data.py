"""`traps` options and component data: the catalog, fixed dials, the dungeon grid checks."""

from __future__ import annotations

import copy
import random

import pytest

from companion.bundles.traps.rules.dials import (
    TRAP_IDS,
    check_catalog,
    default_catalog,
    draw_dial,
    parse_disarm,
)
from companion.bundles.traps.rules.dungeon import dead_end_hallways, walking_distances
from companion.bundles.traps.rules.engine import Traps
from companion.bundles.traps.rules.moves import passage_triggers
from companion.errors import OptionError, RuleViolation

SPIKED = {"trap": "spiked-pit", "disarm": 7, "xp": 10}

# A 10 x 10 room (100 squares) with a 5-square dead-end hallway leaving its top right
# corner: 105 squares, so floor(105 / 50) = 2 traps per player.
ROOM_WITH_HALLWAY = ["." * 15] + ["." * 10 + "#" * 5] * 9


def traps(seats: int = 2, **options) -> Traps:
    return Traps(["Ann", "Bob", "Cy", "Dee"][:seats], seed=5, options=options)


def dungeon(**cells) -> dict:
    return {"map": ROOM_WITH_HALLWAY, "traps": {square: list(cell) for square, cell in
                                                cells.items()}}


# --- the catalog -------------------------------------------------------------------------

def test_shipped_catalog_describes_every_trap_and_every_reading_is_reachable():
    catalog = check_catalog(default_catalog())
    assert set(catalog["traps"]) == set(TRAP_IDS)
    for item in catalog["readings"]:
        reading = item["reading"]
        if isinstance(reading, dict):
            base, variable = parse_disarm(reading["disarm"])
            # Even the highest variable roll (6) stays within a slow 6 + 6 + 2.
            assert base + (6 if variable else 0) <= 14


def test_drawn_dial_holds_only_catalog_readings():
    catalog = check_catalog(default_catalog())
    pool = [item["reading"] for item in catalog["readings"]]
    dial = draw_dial(random.Random(9), catalog, 30)
    assert dial[0] == "start" and len(dial) == 30
    assert all(position in pool for position in dial[1:])


def test_a_table_catalog_replaces_the_shipped_one():
    catalog = copy.deepcopy(default_catalog())
    catalog["readings"] = [{"weight": 1, "reading": {"trap": "cage", "disarm": 5, "xp": 3}}]
    catalog["traps"]["cage"]["name"] = "Iron Cage"
    g = traps(catalog=catalog)
    assert all(position == {"trap": "cage", "disarm": 5, "xp": 3}
               for dial in g.dials.values() for position in dial[1:])
    g.apply({"type": "trigger", "seat": 0, "square": "T1", "clicks": 1})
    assert g.view(None)["squares"]["T1"]["name"] == "Iron Cage"


@pytest.mark.parametrize("change, says", [
    (lambda c: c["traps"].pop("cage"), "lacks cage"),
    (lambda c: c["readings"].append({"weight": 1, "reading": {"trap": "ghost", "disarm": 5,
                                                              "xp": 1}}), "unknown trap 'ghost'"),
    (lambda c: c["readings"].__setitem__(0, {"weight": 0, "reading": "x"}), "weight"),
    (lambda c: c["traps"]["fire-jets"].__setitem__("damage", "lots"), "'damage'"),
    (lambda c: c["traps"]["jaws-of-doom"].pop("attack"), "attack"),
    (lambda c: c.__setitem__("readings", []), "'readings'"),
])
def test_a_broken_catalog_is_refused_naming_the_part(change, says):
    catalog = copy.deepcopy(default_catalog())
    change(catalog)
    with pytest.raises(OptionError) as caught:
        traps(catalog=catalog)
    assert "option 'catalog'" in str(caught.value) and says in str(caught.value)


# --- fixed dials and other options -------------------------------------------------------

def test_fixed_dials_are_used_exactly_and_the_rest_drawn():
    g = traps(dials={"T2": ["start", "x", SPIKED]})
    assert list(g.dials["T2"]) == ["start", "x", SPIKED]
    assert g.dials["T1"] == traps().dials["T1"]


@pytest.mark.parametrize("dials, says", [
    ({"T9": ["start", "x"]}, "T9 not among the trap squares"),
    ({"T1": ["x", "start"]}, "position 0 must be \"start\""),
    ({"T1": ["start"]}, "at least 2 positions"),
    ({"T1": ["start", "x", "start"]}, "only position 0"),
    ({"T1": ["start", {"trap": "pit", "disarm": 7, "xp": 1}]}, "unknown trap 'pit'"),
    ({"T1": ["start", {"trap": "cage", "disarm": "hard", "xp": 1}]}, "disarm number"),
    ({"T1": ["start", {"trap": "cage", "disarm": 7, "xp": -1}]}, "xp"),
    ({"T1": ["start", {"trap": "cage", "disarm": 7}]}, "missing key 'xp'"),
    ({"T1": ["start", "trap"]}, "a position is"),
    ({"T1": "start,x"}, "list of positions"),
])
def test_a_bad_dial_is_refused_naming_it(dials, says):
    with pytest.raises(OptionError) as caught:
        traps(dials=dials)
    assert "option 'dials'" in str(caught.value) and says in str(caught.value)


@pytest.mark.parametrize("options, says", [
    ({"squares": []}, "option 'squares'"),
    ({"squares": ["T1", "T1"]}, "different"),
    ({"dial_clicks": 1}, "option 'dial_clicks'"),
    ({"companion_rolls": "yes"}, "option 'companion_rolls'"),
    ({"slow_disarm_bonus": -1}, "option 'slow_disarm_bonus'"),
    ({"trap_filter": True}, "unknown option 'trap_filter'"),
])
def test_a_bad_option_is_refused_naming_it(options, says):
    with pytest.raises(OptionError) as caught:
        traps(**options)
    assert says in str(caught.value)


def test_seats_outside_the_range_are_refused():
    with pytest.raises(OptionError):
        Traps(["Solo"], seed=1)


def test_every_option_has_help_and_a_default_that_passes_its_check():
    assert Traps.OPTIONS
    for option in Traps.OPTIONS:
        assert option.help
        if option.check is not None and option.default is not None:
            assert option.check(copy.deepcopy(option.default)) == option.default


# --- the dungeon grid --------------------------------------------------------------------

def test_dead_end_hallway_is_found_with_its_entrance():
    hallways = dead_end_hallways(ROOM_WITH_HALLWAY)
    assert hallways == [([(0, 14), (0, 13), (0, 12), (0, 11), (0, 10)], (0, 9))]
    assert walking_distances(ROOM_WITH_HALLWAY, (9, 0))[(9, 5)] == 5


def test_a_good_placement_is_accepted_and_gives_the_pool():
    g = traps(squares=["T1", "T2"], dungeon=dungeon(T1=(9, 0), T2=(9, 5)))
    assert g.trap_pool() == 2
    assert traps().trap_pool() is None


@pytest.mark.parametrize("cells, says", [
    ({"T1": (0, 12)}, "dead-end: T1 is in a dead-end hallway"),
    ({"T1": (2, 7)}, "dead-end: T1 is 2 squares from the entrance"),
    ({"T1": (9, 0), "T2": (9, 4)}, "trap-spacing: T1 and T2 are 4 squares apart"),
    ({"T1": (9, 0), "T2": (9, 5), "T3": (5, 0), "T4": (5, 5), "T5": (9, 9)},
     "trap-pool: 5 traps, but a dungeon of 105 squares allows 2 per player (4 for 2)"),
])
def test_a_bad_placement_is_refused_naming_the_rule(cells, says):
    with pytest.raises(OptionError) as caught:
        traps(squares=list(cells), dungeon=dungeon(**cells))
    assert says in str(caught.value)


def test_pool_and_spacing_follow_their_options():
    cells = {"T1": (9, 0), "T2": (9, 2), "T3": (9, 9)}
    g = traps(squares=list(cells), dungeon=dungeon(**cells), squares_per_trap=35,
              trap_spacing=2)
    assert g.trap_pool() == 3


def test_a_trap_square_missing_from_the_grid_is_refused():
    with pytest.raises(OptionError, match="T2 not located on the map"):
        traps(squares=["T1", "T2"], dungeon=dungeon(T1=(9, 0)))


@pytest.mark.parametrize("grid, says", [
    ({"map": ["..x"], "traps": {}}, "'x'"),
    ({"map": ["..."], "traps": {"T1": [0, 5]}}, "not a floor square"),
    ({"map": [".#."], "traps": {"T1": [0, 1]}}, "not a floor square"),
    ({"map": []}, "must be null or an object"),
])
def test_a_broken_grid_is_refused(grid, says):
    with pytest.raises(OptionError) as caught:
        traps(squares=["T1"], dungeon=grid)
    assert "option 'dungeon'" in str(caught.value) and says in str(caught.value)


# --- moves -------------------------------------------------------------------------------

def test_a_diagonal_move_needs_its_roll():
    with pytest.raises(RuleViolation, match="diagonal-roll"):
        passage_triggers("diagonal")
    with pytest.raises(RuleViolation, match="1 to 6"):
        passage_triggers("diagonal", roll=7)
    with pytest.raises(RuleViolation, match="rule: move"):
        passage_triggers("leap")


def test_settled_squares_never_trigger():
    g = traps(squares=["T1"], dials={"T1": ["start", "x"]})
    g.apply({"type": "trigger", "seat": 0, "square": "T1", "clicks": 1})
    assert g.passage_triggers("T1", "end") is False
    assert g.shockwave_triggers("T1", 20, [6, 6]) is False
    with pytest.raises(RuleViolation, match="unknown-square"):
        g.passage_triggers("T7", "end")
