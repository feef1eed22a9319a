"""Deathtrap Dungeon, the card game: creatures by name, a pass at a seat's button, sets
played before the camera."""

from companion.bundles.bundle import Bundle, Camera, Demo
from companion.bundles.deathtrap import entry

BUNDLE = Bundle(
    name="deathtrap",
    engine="companion.games.deathtrap:Deathtrap",
    screens="companion.bundles.deathtrap.screens",
    order=1,
    candidates=entry.candidates,
    names=entry.names,
    expected_entry=entry.expected_entry,
    tap=entry.tap,
    camera=Camera("companion.bundles.deathtrap.camera:Mapper"),
    art="companion.bundles.deathtrap.art:items",
    simulator="companion.games.deathtrap_sim",
    demo=Demo(4, quick={"rounds": 1}),
    table_play="companion.bundles.deathtrap.play",
)
