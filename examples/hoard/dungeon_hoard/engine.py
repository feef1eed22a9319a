"""Dragon's Hoard (``hoard``): the rules.

Seats take turns, clockwise from seat 0. On its turn a seat rolls a die and grabs that much
gold from the sleeping dragon's hoard; a 1 wakes the dragon, who burns half the seat's gold
(rounded down) instead. The first seat to hold ``goal`` gold wins at once.

Example::

    game = Hoard(["Ann", "Bob"], seed=1, options={"goal": 8})
    game.apply({"type": "grab", "seat": 0, "die": 5})
    game.apply({"type": "grab", "seat": 1, "die": 1})   # the dragon wakes: Bob has nothing
    game.totals()                                        # [5, 0]
"""

from __future__ import annotations

from typing import Any, ClassVar

from companion.errors import RuleViolation
from companion.games.base import Field, Game, Option, check_int
from companion.i18n import _

#: The die face that wakes the dragon.
DRAGON = 1


class Hoard(Game):
    """One game of Dragon's Hoard. See the module docstring."""

    name = "hoard"
    title = "Dragon's Hoard"
    min_seats, max_seats = 2, 6
    PLAYED = ("Players take turns rolling a die and grabbing that much gold from a sleeping "
              "dragon's hoard. A 1 wakes the dragon, who burns half the roller's gold. The "
              "first to hold the goal's gold wins.")
    COMPANION = ("Keeps the gold and the turn, refuses a roll out of turn or after the end, "
                 "and says when the dragon wakes and who won.")
    OPTIONS = (Option("goal", 20, "gold that wins the game", check_int(5, 100)),)
    EVENTS: ClassVar[dict[str, dict[str, Field]]] = {
        "grab": {"seat": Field(int), "die": Field(int, minimum=1, maximum=6)}}

    def setup(self) -> None:
        self.gold = [0] * len(self.seats)
        self.turn = 0
        self.woke: int | None = None  # the seat the dragon burned on the latest roll

    def on_grab(self, event: dict[str, Any]) -> None:
        seat, die = event["seat"], event["die"]
        if self.finished:
            raise RuleViolation("game-over", "the hoard is won: the game is over")
        if seat != self.turn:
            raise RuleViolation("turn-order", f"it is {self.seats[self.turn]}'s turn")
        if die == DRAGON:
            self.gold[seat] //= 2
            self.woke = seat
        else:
            self.gold[seat] += die
            self.woke = None
        self.turn = (seat + 1) % len(self.seats)

    def events_now(self, seat: int) -> list[str]:
        return [] if self.finished or seat != self.turn else ["grab"]

    def view(self, seat: int | None) -> dict[str, Any]:
        """Nothing is secret in this game: a seat's view is the public one and its seat."""
        public = {"gold": list(self.gold), "turn": self.turn, "woke": self.woke,
                  "goal": self.options["goal"], "finished": self.finished}
        return public if seat is None else {**public, "seat": seat}

    def referee_view(self) -> dict[str, Any]:
        return self.view(None)

    @property
    def finished(self) -> bool:
        return max(self.gold) >= self.options["goal"]

    def totals(self) -> list[int]:
        return list(self.gold)

    def rounds(self) -> list[list[int]]:
        return [list(self.gold)] if self.finished else []

    def state_in_words(self, state: dict[str, Any]) -> list[str]:
        """The state in words: seats by their names (``self.seats``, as every screen and page
        says them), through the companion's translations where it has the words."""
        gold = ", ".join(f"{name} {gold}" for name, gold in zip(self.seats, state["gold"],
                                                                 strict=True))
        return [f"gold: {gold} ({_('goal: {n} gold').format(n=state['goal'])})",
                "the hoard is won" if state["finished"]
                else _("{player}'s turn").format(player=self.seats[state["turn"]])]
