"""A tiny game for testing the table machinery apart from the four real engines.

Seats take turns adding 1-6 points; the first to reach the goal ends the game. Each seat
holds a secret number dealt from the seed, shown only in its own view. It is registered
under the name "tally" by the tests that use it.
"""

from __future__ import annotations

from typing import Any

from companion.errors import RuleViolation
from companion.games import registry
from companion.games.base import Field, Game, Option, check_int
from companion.games.lazy import Lazy
from companion.games.spec import Bundle


def register() -> None:
    """Tally as a game of this process: its engine, and the toy bundle's screens (never
    drawn by the table machinery: the module is only looked for)."""
    registry.register(Bundle(name="tally", engine=Tally, screens=Lazy("toy_bundle")))


def unregister() -> None:
    registry.unregister("tally")


class Tally(Game):
    name = "tally"
    title = "Tally"
    min_seats, max_seats = 2, 6
    OPTIONS = (Option("goal", 20, "points that end the game", check_int(1, 1000)),)
    EVENTS = {"add": {"seat": Field(int), "points": Field(int)}}

    def setup(self) -> None:
        rng = self.rng("secrets")
        self.secrets = [rng.randrange(1000, 10000) for _ in self.seats]
        self.scores = [0] * len(self.seats)
        self.turn = 0

    def on_add(self, event: dict[str, Any]) -> None:
        if self.finished:
            raise RuleViolation("game-over", "the game is over")
        if event["seat"] != self.turn:
            raise RuleViolation("turn-order", f"it is seat {self.turn}'s turn")
        if not 1 <= event["points"] <= 6:
            raise RuleViolation("die", f"a die shows 1 to 6, not {event['points']}")
        self.scores[event["seat"]] += event["points"]
        self.turn = (self.turn + 1) % len(self.seats)

    def view(self, seat: int | None) -> dict[str, Any]:
        view: dict[str, Any] = {"scores": list(self.scores), "turn": self.turn}
        if seat is not None:
            view["secret"] = self.secrets[seat]
        return view

    def referee_view(self) -> dict[str, Any]:
        return {**self.view(None), "secrets": list(self.secrets)}

    @property
    def finished(self) -> bool:
        return max(self.scores) >= self.options["goal"]

    def totals(self) -> list[int]:
        return list(self.scores)

    def rounds(self) -> list[list[int]]:
        return [list(self.scores)] if self.finished else []
