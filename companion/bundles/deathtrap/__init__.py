"""Deathtrap Dungeon, the card game: creatures by name, a pass at a seat's button, sets
played before the camera."""

from companion.bundles.bundle import Demo, packaged

BUNDLE = packaged(__name__, "companion.games.deathtrap:Deathtrap", order=1,
                  demo=Demo(4, quick={"rounds": 1}))
