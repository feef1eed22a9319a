"""The screen set of a game: the table screen from the public view, each seat's from its own.

Secrecy by construction: the table screen is drawn from ``game.view(None)`` and seat N's
screen from ``game.view(N)`` only, so no screen can show what its view does not hold.

Drawing is the costly part of an update (type fitted and rendered: about 1 ms a screen here),
and most events change one or two screens' views: each image is kept in :class:`Drawings`
under everything it is drawn from (the view, the seat names, the UI state of that screen), so
a screen whose inputs did not change is not drawn again. The image is a function of that key
alone, so a kept image can never carry more than its own view. A game's screen module may
name the keys of the view its screens read (``TABLE_KEYS``, ``SEAT_KEYS``): they are then
drawn from those alone, and a history that grows all game long is not part of the key.

>>> from companion.daemon.ui import TableUI
>>> from companion.bundles.deathtrap.rules.engine import Deathtrap
>>> game = Deathtrap(["Ann", "Bob", "Cy", "Dee"], seed=1)
>>> sorted(compose(game, TableUI("deathtrap", 4)))
['seat:0', 'seat:1', 'seat:2', 'seat:3', 'table']
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, Protocol

from PIL import Image

from companion.games.base import Game
from companion.games.spec import Screens
from companion.games.views import view_of
from companion.i18n import _, current
from companion.screens.common import TABLE, error_screen, scoreboard


class Controls(Protocol):
    """What the screens read of the table's controls (the daemon's ``TableUI`` has it): the
    game's own screens among them (its bundle's ``screens``: the screens never look a game
    up)."""

    page: str

    @property
    def screens(self) -> Screens: ...

    def dial_state(self) -> dict[str, Any] | None: ...

    def error(self, seat: int) -> str | None: ...

    def error_age(self, seat: int) -> float: ...

    def peeking(self, seat: int) -> bool: ...


class Drawings:
    """Images drawn lately, by what they were drawn from (least recently used ones dropped).

    The images handed out are shared: a caller that draws on one copies it first.
    """

    def __init__(self, size: int = 64) -> None:
        self.size = size
        self.kept: OrderedDict[Hashable, Image.Image] = OrderedDict()
        self.drawn = 0  # images drawn (not found kept), for tests and benchmarks

    def get(self, key: Hashable, draw: Callable[[], Image.Image]) -> Image.Image:
        # The language is part of what an image is drawn from: a switch redraws every screen.
        key = (current(), key)
        image = self.kept.get(key)
        if image is None:
            image = self.kept[key] = draw()
            self.drawn += 1
            while len(self.kept) > self.size:
                self.kept.popitem(last=False)
        else:
            self.kept.move_to_end(key)
        return image


def drawn(view: dict[str, Any], keys: tuple[str, ...] | None) -> dict[str, Any]:
    """The part of ``view`` a screen draws: the ``keys`` its game's screen module names
    (``TABLE_KEYS``, ``SEAT_KEYS``), else all of it. A screen is drawn from this part alone,
    so its image is a function of it: the key of its drawing stays small however long the
    game's history grows."""
    return view if keys is None else {key: view[key] for key in keys if key in view}


#: The drawings of the running process (a key holds everything its image is drawn from).
DRAWINGS = Drawings()


def table_image(game: Game, ui: Controls, drawings: Drawings | None = None) -> Image.Image:
    drawings = drawings or DRAWINGS
    table_error = ui.error(TABLE)
    if table_error is not None:  # a refusal turning its pages: drawn as it is shown
        return error_screen(table_error, ui.error_age(TABLE))
    screens = ui.screens
    dial = ui.dial_state()
    seats = tuple(game.seats)
    if dial is not None:
        draw_flow = screens.dial_flow
        assert draw_flow is not None, f"{game.name}: a dial flow with no screen"
        return drawings.get(("dial", game.name, repr(dial)), lambda: draw_flow(dial))
    if ui.page == "scores":
        totals = tuple(game.totals())
        return drawings.get(("scores", seats, repr(totals)),
                            lambda: scoreboard(_("Scores"), game.seats, totals))
    view = drawn(view_of(game, None), screens.table_keys)
    return drawings.get(("table", game.name, seats, repr(view)),
                        lambda: screens.table(view, game.seats))


def seat_image(game: Game, ui: Controls, seat: int, drawings: Drawings | None = None
               ) -> Image.Image:
    drawings = drawings or DRAWINGS
    message = ui.error(seat)
    if message is not None:
        return error_screen(message, ui.error_age(seat))
    screens = ui.screens
    view = drawn(view_of(game, seat), screens.seat_keys)
    peeking = ui.peeking(seat)
    return drawings.get(("seat", game.name, tuple(game.seats), repr(view), peeking),
                        lambda: screens.seat(view, game.seats, peeking))


def compose(game: Game, ui: Controls, drawings: Drawings | None = None
            ) -> dict[str, Image.Image]:
    """Every screen's image: ``table`` and ``seat:N`` for each seat (each game's screens are
    its bundle's ``screens``, as the controls hand them; kept images where their inputs did
    not change)."""
    drawings = drawings or DRAWINGS
    images = {"table": table_image(game, ui, drawings)}
    images.update({f"seat:{seat}": seat_image(game, ui, seat, drawings)
                   for seat in range(len(game.seats))})
    return images
