"""The traps engine's options, event fields, square statuses and disarm records.

Split from ``engine.py`` (which re-exports every name here); the rules that use them stay on
the ``Traps`` class.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.bundles.traps.rules.dials import check_catalog, default_catalog
from companion.bundles.traps.rules.dungeon import check_dungeon
from companion.games.base import Field, Option, check_bool, check_int

#: Square statuses as docs/table-log.md names them.
HIDDEN, EXPOSED, TRIGGERED, DISARMED, CLEAR = "hidden", "exposed", "triggered", "disarmed", "clear"


@dataclass(frozen=True)
class Attempt:
    """One disarm tried at the table: who, where, and the XP it earned (0: it failed)."""

    seat: int
    square: str
    xp: int


def _check_squares(value: Any) -> list[str]:
    if not isinstance(value, list) or not value:
        raise ValueError("must be a non-empty list of trap square ids")
    for square in value:
        if not isinstance(square, str) or not square.strip():
            raise ValueError(f"a trap square id is a non-empty text, got {square!r}")
    if len(set(value)) != len(value):
        raise ValueError("trap square ids must be different from each other")
    return list(value)


def _check_dials(value: Any) -> dict[str, list[Any]]:
    # Positions are checked against the catalog's traps in setup, once both options are known.
    if not isinstance(value, dict):
        raise ValueError("must be an object {square: [\"start\", position, ...]}")
    for square, dial in value.items():
        if not isinstance(dial, list):
            raise ValueError(f"the dial of {square} must be a list of positions, start first")
    return value


#: The options of a traps game (companion/bundles/traps/README.md).
OPTIONS = (
    Option("squares", ["T1", "T2", "T3", "T4"], "the trap squares of the dungeon, by id",
           _check_squares),
    Option("dials", {}, "fixed dials {square: [\"start\", position, ...]} listed "
           "counter-clockwise; squares not listed are drawn from the catalog", _check_dials),
    Option("catalog", check_catalog(default_catalog()), "trap descriptions and the "
           "weighted readings dials are drawn from (data/traps-catalog.json, assumed)",
           check_catalog),
    Option("dial_clicks", 12, "positions on a drawn dial, the start marker included",
           check_int(2, 60)),
    Option("companion_rolls", False, "the companion rolls the dice an event leaves out "
           "(else the players enter their physical dice)", check_bool),
    Option("slow_disarm_bonus", 2, "added to the 2d6 of a slow disarm", check_int(0, 12)),
    Option("variable_disarm_fixed", True, "an n+ disarm number is n + 1d6 rolled at the "
           "first attempt and kept for the game (false: rolled at every attempt)",
           check_bool),
    Option("blind_disarm", False, "any seat may try to disarm an exposed trap it has not "
           "read (default: only a seat that read the dial where it is now, or anyone once "
           "triggered; a blind try's refusal could tell an X)", check_bool),
    Option("reveal_exposed_x", False, "an exposed X shows as clear on every screen at once "
           "(default: a private reading like any other, public when triggered)", check_bool),
    Option("diagonal_trigger_max", 3, "a diagonal move past a trap triggers it on a d6 at "
           "or below this (Nimble: no roll)", check_int(0, 6)),
    Option("shockwave_defence", 12, "defence value of a trap against a Shockwave attack",
           check_int(0, 40)),
    Option("squares_per_trap", 50, "dungeon squares per trap each player may put in the "
           "trap pool (checked when dungeon is given)", check_int(1, 100_000)),
    Option("trap_spacing", 5, "traps are at least this many squares apart (checked when "
           "dungeon is given)", check_int(0, 1000)),
    Option("dead_end_distance", 5, "traps are at least this many squares from the entrance "
           "of a dead-end hallway, never in one (checked when dungeon is given)",
           check_int(0, 1000)),
    Option("dungeon", None, "the dungeon grid {\"map\": rows of '.' and '#', \"traps\": "
           "{square: [row, column]}} for the placement checks; null: not checked",
           check_dungeon),
)
#: The fields of each traps event (docs/table-log.md).
EVENTS: dict[str, dict[str, Field]] = {
    # Clicks and dice are range-checked by the handlers, so a refusal names the rule.
    "expose": {"seat": Field(int), "square": Field(str),
               "clicks": Field(int, required=False)},
    "trigger": {"seat": Field(int), "square": Field(str),
                "clicks": Field(int, required=False)},
    "disarm": {"seat": Field(int), "square": Field(str),
               "mode": Field(str, choices=("quick", "slow")),
               "dice": Field(list, required=False, items=int),
               "variable_die": Field(int, required=False)},
    # A counterattack on a triggered Jaws of Doom (docs/table-log.md). Either the players say
    # whether it dealt damage, or they give attack, 2d6 and damage for us to resolve.
    "counterattack": {"seat": Field(int), "square": Field(str),
                      "damaged": Field(bool, required=False),
                      "attack": Field(int, required=False, minimum=0, maximum=100),
                      "dice": Field(list, required=False, items=int),
                      "damage": Field(int, required=False, minimum=0, maximum=100)},
}
