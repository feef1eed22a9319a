"""Mage Knight 3D Dungeons traps: the trap dial, the squares, the trap tiles' art."""

from companion.bundles.bundle import Demo, packaged
from companion.bundles.traps.rules.engine import Traps
from companion.i18n import NP_

#: Squares are named as printed on the board (T1, T2); a score step is a disarm.
BUNDLE = packaged(__name__, menu_title=NP_("game", "Mage Knight traps"),
                  engine=Traps,
                  order=0, as_printed=("square",),
                  demo=Demo(3), step="disarm")
