"""Dragon's Hoard, a fifth game of the Dungeon Table Companion in a package of its own.

Its bundle is laid out as the built-in ones (``companion.bundles.bundle.packaged``):
``engine.py`` the rules, ``screens.py`` the table's and the seats' screens, ``entry.py`` the
words of its manual entry, ``voice.py`` what the table hears, ``sim.py`` random games for
``companion demo``. The distribution declares it in the ``companion.games`` entry-point group
(pyproject.toml); no file of the companion names it.
"""

from companion.bundles.bundle import Demo, packaged
from companion.i18n import NP_
from dungeon_hoard.engine import Hoard

BUNDLE = packaged(__name__, name="hoard", engine=Hoard,
                  menu_title=NP_("game", "Dragon's hoard"),
                  demo=Demo(3, quick={"goal": 10}), step="grab")
