"""Tricky Dungeon: cards by suit and value (from the table's deck), heroes, the face-down
card entered on its seat's own screen, cards played before the camera."""

from companion.bundles.bundle import Bundle, Camera, Demo
from companion.bundles.tricky import entry

BUNDLE = Bundle(
    name="tricky",
    engine="companion.games.tricky:Tricky",
    screens="companion.bundles.tricky.screens",
    order=2,
    candidates=entry.candidates,
    private_entries=("play",),  # a card may be played face down
    expected_entry=entry.expected_entry,
    camera=Camera("companion.bundles.tricky.camera:Mapper"),
    art="companion.bundles.tricky.art:items",
    simulator="companion.games.tricky_sim",
    demo=Demo(3, quick={"rounds_per_player": 1}),
    table_play="companion.bundles.tricky.play",
)
