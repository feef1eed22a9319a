"""The deathtrap engine's options and event fields.

Split from ``engine.py`` (which re-exports them); the rules that use them stay on the
``Deathtrap`` class.
"""

from __future__ import annotations

from companion.bundles.deathtrap.rules.deck import check_deck, default_deck
from companion.games.base import Field, Option, check_bool, check_choice, check_int

#: The options of a deathtrap game (companion/bundles/deathtrap/README.md).
OPTIONS = (
    Option("deck", default_deck(),
           "creature cards (assumed data file); the 4 special cards always stay", check_deck),
    Option("rounds", 4, "number of rounds in a game", check_int(1, 20)),
    Option("first_dealer", 0, "seat that deals round 1", check_int(0, 7)),
    Option("dealer_rotates", True,
           "the dealer moves one seat clockwise each round (false: same dealer)", check_bool),
    Option("pig_discard", "creature",
           "what the Exploding Pig discards with it: 'creature' (a monster only) or 'any'",
           check_choice("creature", "any")),
    Option("pig_default_lead", "left",
           "who leads the first hand when a pig event names nobody: 'left' of the "
           "holder or the 'holder'", check_choice("left", "holder")),
    Option("wilds_alone_value", 0,
           "value of a set of wilds alone (Chaindog and/or Red Lotus)", check_int(0, 999)),
    Option("equal_beats", False,
           "a set of equal value beats the set on the table (rules: it never does)",
           check_bool),
    Option("pass_locks_out", False,
           "a player who passes sits out the rest of the hand", check_bool),
    Option("exchange", True,
           "before rounds 2+, Total Wimp gives 2 highest to Big Hero, Wimp 1 to Hero",
           check_bool),
)
#: The fields of each deathtrap event (docs/table-log.md).
EVENTS: dict[str, dict[str, Field]] = {
    "deal": {"dealer": Field(int, required=False, is_seat=True),
             "counts": Field(list, required=False, items=int, minimum=1)},
    "pig": {"seat": Field(int), "discard": Field(str),
            "lead": Field(int, required=False, is_seat=True)},
    "play": {"seat": Field(int), "cards": Field(list, items=str)},
    "pass": {"seat": Field(int)},
}
