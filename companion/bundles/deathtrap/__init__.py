"""Deathtrap Dungeon, the card game: creatures by name, a pass at a seat's button, sets
played before the camera."""

from companion.bundles.bundle import Camera, Demo, packaged
from companion.bundles.deathtrap.rules.engine import Deathtrap
from companion.i18n import NP_

BUNDLE = packaged(__name__, menu_title=NP_("game", "Deathtrap Dungeon"),
                  engine=Deathtrap, order=1,
                  demo=Demo(4, quick={"rounds": 1}, quick_words="one round of Deathtrap"),
                  # A set of one creature is laid down together, often fanned or heaped.
                  camera=Camera(piles=True))
