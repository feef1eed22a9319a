"""Tricky Dungeon: cards by suit and value (from the table's deck), heroes, the face-down
card entered on its seat's own screen, cards played before the camera."""

from companion.bundles.tricky import entry, voice
from companion.bundles.tricky.rules.engine import Tricky
from companion.games.lazy import Lazy
from companion.games.spec import Bundle, CameraParts, Demo
from companion.i18n import NP_

#: A card may be played face down: a play is entered on the seat's own screen.
BUNDLE = Bundle(
    name="tricky", engine=Tricky, screens=Lazy(f"{__name__}.screens"),
    menu_title=NP_("game", "Tricky Dungeon"), order=2,
    candidates=entry.candidates, expected_entry=entry.expected_entry, card_faces=entry.cards,
    private_entries=("play",),
    camera=CameraParts(mapper=Lazy(f"{__name__}.camera", "mapper")),
    art=Lazy(f"{__name__}.art", "items"),
    simulator=Lazy(f"{__name__}.rules.sim"),
    demo=Demo(3, quick={"rounds_per_player": 1}, quick_words="one round per player of Tricky"),
    table_play=Lazy(f"{__name__}.play"),
    announce=voice.announce)
