"""Rumble in the Dungeon: characters and rooms by name, secret characters entered on their
seat's own screen, the board read from its markers."""

from companion.bundles.bundle import Camera, Demo, packaged
from companion.bundles.rumble.pieces import RoomTiles, markers
from companion.bundles.rumble.rules.engine import Rumble
from companion.i18n import NP_

#: Rooms are grid references (A1, C4), shown as they are. The markers are small: they need a
#: sharper picture than cards do, and the board is read from them alone, on room tiles laid
#: where the config's ``[vision]`` keys say.
BUNDLE = packaged(__name__, menu_title=NP_("game", "Rumble"), engine=Rumble,
                  order=3, as_printed=("to",),
                  private_entries=("secrets",), demo=Demo(3), step="adventure",
                  camera=Camera(size=(960, 720), markers_only=True, markers=markers,
                                settings=RoomTiles))
