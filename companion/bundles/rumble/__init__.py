"""Rumble in the Dungeon: characters and rooms by name, secret characters entered on their
seat's own screen, the board read from its markers."""

from companion.bundles.bundle import Bundle, Camera, Demo
from companion.bundles.rumble import entry

BUNDLE = Bundle(
    name="rumble",
    engine="companion.games.rumble:Rumble",
    screens="companion.bundles.rumble.screens",
    order=3,
    candidates=entry.candidates,
    names=entry.names,
    as_printed=("to",),  # rooms are grid references: A1, C4
    private_entries=("secrets",),
    expected_entry=entry.expected_entry,
    # Its markers are small: they need a sharper picture than cards do.
    camera=Camera("companion.bundles.rumble.camera:Mapper", size=(960, 720), markers_only=True),
    art="companion.bundles.rumble.art:items",
    simulator="companion.games.rumble_sim",
    demo=Demo(3),
    table_play="companion.bundles.rumble.play",
)
