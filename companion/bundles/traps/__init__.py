"""Mage Knight 3D Dungeons traps: the trap dial, the squares, the trap tiles' art."""

from companion.bundles.traps import dial, entry, voice, words
from companion.bundles.traps.rules.engine import Traps
from companion.games.lazy import Lazy
from companion.games.spec import Bundle, Demo
from companion.i18n import NP_

#: Squares are named as printed on the board (T1, T2); a score step is a disarm.
BUNDLE = Bundle(
    name="traps", engine=Traps, screens=Lazy(f"{__name__}.screens"),
    menu_title=NP_("game", "Mage Knight traps"), order=0,
    candidates=entry.candidates, expected_entry=entry.expected_entry, as_printed=("square",),
    dial=dial.dial,
    art=Lazy(f"{__name__}.art", "items"),
    simulator=Lazy(f"{__name__}.rules.sim"), demo=Demo(3),
    table_play=Lazy(f"{__name__}.play"),
    step="disarm", announce=voice.announce, data_words=words.DATA)
