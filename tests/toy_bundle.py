"""A fifth game for the tests, all in one place: the bundle of the toy game Tally
(``tally_game.py``: seats take turns adding 1-6 points). Registered by the tests that use
it (``registry.register(BUNDLE)``); nothing outside this file and its engine knows it.

Its table: a turn of the dial sets the points (its own dial flow), the seat whose turn it is
taps its button; or a long press of the dial enters an ``add`` by hand. Its screens: the
scores on the table, the seat's secret number while its button is held.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from PIL import Image, ImageDraw
from tally_game import Tally

from companion.errors import RuleViolation
from companion.games.base import Game
from companion.games.lazy import Lazy
from companion.games.spec import Bundle
from companion.screens.canvas import blank
from companion.screens.common import body, headline, peek_hint, scoreboard, seat_header


class Points:
    """The dial sets the points (1 to 6); a seat's tap adds them."""

    def __init__(self) -> None:
        self.points = 1

    def turn(self, detents: int) -> None:
        self.points = (self.points - 1 + detents) % 6 + 1

    def press(self) -> None:
        pass

    def event(self, seat: int) -> dict[str, Any] | None:
        return {"type": "add", "seat": seat, "points": self.points}

    def dial_state(self) -> dict[str, Any]:
        return {"points": self.points}

    def check(self, game: Game) -> RuleViolation | None:
        return None


def dial(options: Mapping[str, Any]) -> Points:
    return Points()


def expected_entry(game: Game) -> tuple[str | None, int | None]:
    return "add", game.view(None)["turn"]


# --- its screens ----------------------------------------------------------------------------

def table(view: dict[str, Any], seats: Sequence[str]) -> Image.Image:
    return scoreboard(f"Tally: {seats[view['turn']]}", seats, view["scores"])


def seat(view: dict[str, Any], seats: Sequence[str], peeking: bool) -> Image.Image:
    image = blank()
    pen = ImageDraw.Draw(image)
    box = seat_header(pen, "Tally", "")
    if peeking:
        body(pen, box, str(view["secret"]), "your secret")
    else:
        peek_hint(pen, box, "your secret")
    return image


def dial_flow(shown: dict[str, Any]) -> Image.Image:
    return headline("Add points", str(shown["points"]), "turn, then tap your seat")


BUNDLE = Bundle(
    name="tally",
    engine=Tally,
    screens=Lazy("toy_bundle"),
    order=9,
    expected_entry=expected_entry,
    dial=dial,
)
