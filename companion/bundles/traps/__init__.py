"""Mage Knight 3D Dungeons traps: the trap dial, the squares, the trap tiles' art."""

from companion.bundles.bundle import Bundle, Demo
from companion.bundles.traps import dial, entry

BUNDLE = Bundle(
    name="traps",
    engine="companion.games.traps:Traps",
    screens="companion.bundles.traps.screens",
    order=0,
    candidates=entry.candidates,
    as_printed=("square",),  # squares are named as printed on the board: T1, T2
    expected_entry=entry.expected_entry,
    dial=dial.dial,
    art="companion.bundles.traps.art:items",
    simulator="companion.games.traps_sim",
    demo=Demo(3),
    table_play="companion.bundles.traps.play",
    step="disarm",
)
