"""The screen set of a game: the table screen from the public view, each seat's from its own.

Secrecy by construction: the table screen is drawn from ``game.view(None)`` and seat N's
screen from ``game.view(N)`` only, so no screen can show what its view does not hold.

>>> from companion.daemon.ui import TableUI
>>> from companion.games.deathtrap import Deathtrap
>>> game = Deathtrap(["Ann", "Bob", "Cy", "Dee"], seed=1)
>>> sorted(compose(game, TableUI("deathtrap", 4)))
['seat:0', 'seat:1', 'seat:2', 'seat:3', 'table']
"""

from __future__ import annotations

from typing import Any, Protocol

from PIL import Image

from companion import bundles
from companion.games.base import Game
from companion.i18n import _
from companion.screens.common import TABLE, error_screen, scoreboard


class Controls(Protocol):
    """What the screens read of the table's controls (the daemon's ``TableUI`` has it)."""

    page: str

    def dial_shown(self) -> dict[str, Any] | None: ...

    def error(self, seat: int) -> str | None: ...

    def error_age(self, seat: int) -> float: ...

    def peeking(self, seat: int) -> bool: ...


def table_image(game: Game, ui: Controls) -> Image.Image:
    table_error = ui.error(TABLE)
    if table_error is not None:
        return error_screen(table_error, ui.error_age(TABLE))
    screens = bundles.get(game.name).screen_module()
    dial = ui.dial_shown()
    if dial is not None:
        return screens.dial_flow(dial)
    if ui.page == "scores":
        return scoreboard(_("Scores"), game.seats, game.totals())
    return screens.table(game.view(None), game.seats)


def seat_image(game: Game, ui: Controls, seat: int) -> Image.Image:
    message = ui.error(seat)
    if message is not None:
        return error_screen(message, ui.error_age(seat))
    return bundles.get(game.name).screen_module().seat(game.view(seat), game.seats,
                                                       ui.peeking(seat))


def compose(game: Game, ui: Controls) -> dict[str, Image.Image]:
    """Every screen's image: ``table`` and ``seat:N`` for each seat (each game's screens are
    its bundle's ``screens``)."""
    images = {"table": table_image(game, ui)}
    images.update({f"seat:{seat}": seat_image(game, ui, seat) for seat in range(len(game.seats))})
    return images
