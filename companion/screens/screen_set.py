"""The screen set of a game: the table screen from the public view, each seat's from its own.

Secrecy by construction: the table screen is drawn from ``game.view(None)`` and seat N's
screen from ``game.view(N)`` only, so no screen can show what its view does not hold.

>>> from companion.games.deathtrap import Deathtrap
>>> game = Deathtrap(["Ann", "Bob", "Cy", "Dee"], seed=1)
>>> sorted(compose(game, TableUI("deathtrap", 4)))
['seat:0', 'seat:1', 'seat:2', 'seat:3', 'table']
"""

from __future__ import annotations

from types import ModuleType

from PIL import Image

from companion.games.base import Game
from companion.i18n import _
from companion.screens import deathtrap, rumble, traps, tricky
from companion.screens.common import error_screen, scoreboard
from companion.screens.panel import Panel
from companion.screens.ui import TABLE, TableUI

GAME_SCREENS: dict[str, ModuleType] = {
    "deathtrap": deathtrap, "rumble": rumble, "traps": traps, "tricky": tricky}


def table_image(game: Game, ui: TableUI) -> Image.Image:
    table_error = ui.error(TABLE)
    if table_error is not None:
        return error_screen(table_error, ui.error_age(TABLE))
    dial = ui.dial_shown()
    if dial is not None:
        return traps.dial_flow(dial)
    if ui.page == "scores":
        return scoreboard(_("Scores"), game.seats, game.totals())
    return GAME_SCREENS[game.name].table(game.view(None), game.seats)


def seat_image(game: Game, ui: TableUI, seat: int) -> Image.Image:
    message = ui.error(seat)
    if message is not None:
        return error_screen(message, ui.error_age(seat))
    return GAME_SCREENS[game.name].seat(game.view(seat), game.seats, ui.peeking(seat))


def compose(game: Game, ui: TableUI) -> dict[str, Image.Image]:
    """Every screen's image: ``table`` and ``seat:N`` for each seat."""
    images = {"table": table_image(game, ui)}
    images.update({f"seat:{seat}": seat_image(game, ui, seat) for seat in range(len(game.seats))})
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
