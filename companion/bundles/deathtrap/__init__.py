"""Deathtrap Dungeon, the card game: creatures by name, a pass at a seat's button, sets
played before the camera."""

from companion.bundles.deathtrap import entry, voice, words
from companion.bundles.deathtrap.rules.engine import Deathtrap
from companion.games.lazy import Lazy
from companion.games.spec import Bundle, CameraParts, Demo
from companion.i18n import NP_

BUNDLE = Bundle(
    name="deathtrap", engine=Deathtrap, screens=Lazy(f"{__name__}.screens"),
    menu_title=NP_("game", "Deathtrap Dungeon"), order=1,
    candidates=entry.candidates, names=entry.names, expected_entry=entry.expected_entry,
    tap=entry.tap, card_faces=entry.cards,
    # A set of one creature is laid down together, often fanned or heaped.
    camera=CameraParts(mapper=Lazy(f"{__name__}.camera", "mapper"), piles=True),
    art=Lazy(f"{__name__}.art", "items"),
    simulator=Lazy(f"{__name__}.rules.sim"),
    demo=Demo(4, quick={"rounds": 1}, quick_words="one round of Deathtrap"),
    table_play=Lazy(f"{__name__}.play"),
    announce=voice.announce, data_words=words.DATA)
