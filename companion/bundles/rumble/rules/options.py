"""The rumble engine's options, event fields, phases and character names.

Split from ``engine.py`` (which re-exports every name here); the rules that use them stay on
the ``Rumble`` class.
"""

from __future__ import annotations

from companion.bundles.rumble.rules.data import (
    character_names,
    check_characters,
    check_map,
    default_characters,
    default_map,
)
from companion.games.base import Field, Option, check_bool, check_choice, check_int
from companion.i18n import _

PLAY, REVEAL, OVER = "play", "reveal", "over"
SECRETS_PER_SEAT = 2
NAMES = character_names()
ACTIONS = ("move", "fight", "escape")


def character_word(character: str) -> str:
    """A character's name in the language drawn (engine, views and screens say it alike)."""
    return _(NAMES.get(character, character))


#: The options of a rumble game (companion/bundles/rumble/README.md).
OPTIONS = (
    Option("map", default_map(),
           "rooms, doors, entry, treasure and optional start placement "
           "(default: the assumed 3 x 4 grid of rumble-map.json)", check_map),
    Option("characters", default_characters(),
           "character ids, in start-room order when the map has no 'start' "
           "(default: the assumed 12 of rumble-characters.json)", check_characters),
    Option("deal_secrets", True,
           "the companion deals 2 secret characters per seat to the private screens; "
           "false: physical tokens, told before the adventure or revealed at its end",
           check_bool),
    Option("adventures", 3, "adventures in a game; the highest total then wins",
           check_int(1, 10)),
    Option("top_points", 10,
           "points for rank 1 of an adventure; each rank below scores one less, never < 0",
           check_int(1, 100)),
    Option("first_player_tie", "clockwise",
           "who starts when several seats share the fewest points: 'clockwise' (first met "
           "after the previous starter) or 'random' (seeded)",
           check_choice("clockwise", "random")),
)
#: The fields of each rumble event (docs/table-log.md).
EVENTS: dict[str, dict[str, Field]] = {
    "secrets": {"seat": Field(int), "characters": Field(list, items=str)},
    "start": {"seat": Field(int)},
    "move": {"seat": Field(int), "character": Field(str), "to": Field(str),
             "chest": Field(bool, required=False)},
    "fight": {"seat": Field(int), "victim": Field(str)},
    "escape": {"seat": Field(int), "character": Field(str)},
}
