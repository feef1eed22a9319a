"""Tricky Dungeon: cards by suit and value (from the table's deck), heroes, the face-down
card entered on its seat's own screen, cards played before the camera."""

from companion.bundles.bundle import Demo, packaged
from companion.bundles.tricky.rules.engine import Tricky
from companion.i18n import NP_

#: A card may be played face down: a play is entered on the seat's own screen.
BUNDLE = packaged(__name__, menu_title=NP_("game", "Tricky Dungeon"),
                  engine=Tricky,
                  order=2, private_entries=("play",),
                  demo=Demo(3, quick={"rounds_per_player": 1},
                            quick_words="one round per player of Tricky"))
