"""Rumble in the Dungeon: characters and rooms by name, secret characters entered on their
seat's own screen, the board read from its markers."""

from companion.bundles.rumble import entry, voice, words
from companion.bundles.rumble.pieces import RoomTiles, markers
from companion.bundles.rumble.rules.engine import Rumble
from companion.games.lazy import Lazy
from companion.games.spec import Bundle, CameraParts, Demo
from companion.i18n import NP_

#: Rooms are grid references (A1, C4), shown as they are. The markers are small: they need a
#: sharper picture than cards do, and the board is read from them alone, on room tiles laid
#: where the config's ``[vision]`` keys say.
BUNDLE = Bundle(
    name="rumble", engine=Rumble, screens=Lazy(f"{__name__}.screens"),
    menu_title=NP_("game", "Rumble"), order=3,
    candidates=entry.candidates, names=entry.names, expected_entry=entry.expected_entry,
    as_printed=("to",), private_entries=("secrets",),
    camera=CameraParts(mapper=Lazy(f"{__name__}.camera", "mapper"), size=(960, 720),
                       markers_only=True, markers=markers, settings=RoomTiles),
    art=Lazy(f"{__name__}.art", "items"),
    simulator=Lazy(f"{__name__}.rules.sim"), demo=Demo(3),
    table_play=Lazy(f"{__name__}.play"),
    step="adventure", announce=voice.announce, data_words=words.DATA)
