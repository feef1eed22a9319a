"""Dragon's Hoard, a fifth game of the Dungeon Table Companion in a package of its own.

Its bundle is laid out and declared as the built-in ones are (``companion/bundles/<game>/``,
the contract: ``companion.games.spec.Bundle``): ``engine.py`` the rules, ``screens.py`` the
table's and the seats' screens, ``entry.py`` the words of its manual entry, ``voice.py`` what
the table hears, ``sim.py`` random games for ``companion demo``, each named below. The
distribution declares it in the ``companion.games`` entry-point group (pyproject.toml); no
file of the companion names it.
"""

from companion.games.lazy import Lazy
from companion.games.spec import Bundle, Demo
from companion.i18n import NP_
from dungeon_hoard import entry, voice
from dungeon_hoard.engine import Hoard

BUNDLE = Bundle(
    name="hoard", engine=Hoard, screens=Lazy(f"{__name__}.screens"),
    menu_title=NP_("game", "Dragon's hoard"),
    expected_entry=entry.expected_entry,
    simulator=Lazy(f"{__name__}.sim"), demo=Demo(3, quick={"goal": 10}),
    step="grab", announce=voice.announce)
