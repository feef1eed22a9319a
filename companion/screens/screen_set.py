"""The screen set of a game: the table screen from the public view, each seat's from its own.

Secrecy by construction: the table screen is drawn from ``game.view(None)`` and seat N's
screen from ``game.view(N)`` only, so no screen can show what its view does not hold.

Drawing is the costly part of an update (type fitted and rendered: about 1 ms a screen here),
and most events change one or two screens' views: each image is kept in :class:`Drawings`
under everything it is drawn from (the view, the seat names, the UI state of that screen), so
a screen whose inputs did not change is not drawn again. The image is a function of that key
alone, so a kept image can never carry more than its own view.

>>> from companion.games.deathtrap import Deathtrap
>>> game = Deathtrap(["Ann", "Bob", "Cy", "Dee"], seed=1)
>>> sorted(compose(game, TableUI("deathtrap", 4)))
['seat:0', 'seat:1', 'seat:2', 'seat:3', 'table']
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable
from types import ModuleType

from PIL import Image

from companion.games.base import Game
from companion.screens import deathtrap, rumble, traps, tricky
from companion.screens.common import error_screen, scoreboard
from companion.screens.panel import Panel
from companion.screens.ui import TableUI

GAME_SCREENS: dict[str, ModuleType] = {
    "deathtrap": deathtrap, "rumble": rumble, "traps": traps, "tricky": tricky}


class Drawings:
    """Images drawn lately, by what they were drawn from (least recently used ones dropped).

    The images handed out are shared: a caller that draws on one copies it first.
    """

    def __init__(self, size: int = 64) -> None:
        self.size = size
        self.kept: OrderedDict[Hashable, Image.Image] = OrderedDict()
        self.drawn = 0  # images drawn (not found kept), for tests and benchmarks

    def get(self, key: Hashable, draw: Callable[[], Image.Image]) -> Image.Image:
        image = self.kept.get(key)
        if image is None:
            image = self.kept[key] = draw()
            self.drawn += 1
            while len(self.kept) > self.size:
                self.kept.popitem(last=False)
        else:
            self.kept.move_to_end(key)
        return image


#: The drawings of the running process (a key holds everything its image is drawn from).
DRAWINGS = Drawings()


def table_image(game: Game, ui: TableUI, drawings: Drawings | None = None) -> Image.Image:
    drawings = drawings or DRAWINGS
    dial = ui.dial_shown()
    seats = tuple(game.seats)
    if dial is not None:
        return drawings.get(("dial", repr(dial)), lambda: traps.dial_flow(dial))
    if ui.page == "scores":
        totals = tuple(game.totals())
        return drawings.get(("scores", seats, repr(totals)),
                            lambda: scoreboard("Scores", game.seats, totals))
    view = game.view(None)
    return drawings.get(("table", game.name, seats, repr(view)),
                        lambda: GAME_SCREENS[game.name].table(view, game.seats))


def seat_image(game: Game, ui: TableUI, seat: int, drawings: Drawings | None = None
               ) -> Image.Image:
    drawings = drawings or DRAWINGS
    message = ui.error(seat)
    if message is not None:
        return drawings.get(("error", message), lambda: error_screen(message))
    view, peeking = game.view(seat), ui.peeking(seat)
    return drawings.get(("seat", game.name, tuple(game.seats), repr(view), peeking),
                        lambda: GAME_SCREENS[game.name].seat(view, game.seats, peeking))


def compose(game: Game, ui: TableUI, drawings: Drawings | None = None) -> dict[str, Image.Image]:
    """Every screen's image: ``table`` and ``seat:N`` for each seat (kept images where their
    inputs did not change)."""
    drawings = drawings or DRAWINGS
    images = {"table": table_image(game, ui, drawings)}
    images.update({f"seat:{seat}": seat_image(game, ui, seat, drawings)
                   for seat in range(len(game.seats))})
    return images


class Screens:
    """The panels of the table; ``show`` writes only the screens whose image changed."""

    def __init__(self, panels: dict[str, Panel]) -> None:
        self.panels = panels

    def show(self, images: dict[str, Image.Image]) -> list[str]:
        """Show each image on its panel (if wired); the names of the screens redrawn."""
        return [name for name, image in images.items()
                if name in self.panels and self.panels[name].show(image)]

    def close(self) -> None:
        for panel in self.panels.values():
            panel.close()
