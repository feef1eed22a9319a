"""The trap dial (Mage Knight traps): press (or turn) the dial, turn to the square, press, turn
to the action, press, then turn counter-clockwise one detent per click (or enter the two
dice), and the acting seat taps its button.

>>> flow = DialFlow(["T1", "T2"])
>>> flow.turn(1); flow.press(); flow.press(); flow.turn(-2)
>>> flow.event(0)
{'type': 'expose', 'seat': 0, 'square': 'T2', 'clicks': 2}
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.errors import RuleViolation
from companion.games.base import Game

ACTIONS = ("expose", "trigger", "quick", "slow")


@dataclass
class DialFlow:
    """The trap dial, step by step: ``square`` -> ``action`` -> ``clicks`` or ``dice``."""

    squares: Sequence[str]
    step: str = "square"
    square_index: int = 0
    action_index: int = 0
    clicks: int = 0
    dice: list[int] = field(default_factory=lambda: [0, 0])
    die: int = 0  # which of the dice the dial sets

    @property
    def square(self) -> str:
        return self.squares[self.square_index]

    @property
    def action(self) -> str:
        return ACTIONS[self.action_index]

    def turn(self, detents: int) -> None:
        if self.step == "square":
            self.square_index = (self.square_index + detents) % len(self.squares)
        elif self.step == "action":
            self.action_index = (self.action_index + detents) % len(ACTIONS)
        elif self.step == "clicks":
            # The physical dial is exposed by turning it counter-clockwise (-1 detents).
            self.clicks = max(0, self.clicks - detents)
        else:
            self.dice[self.die] = (self.dice[self.die] + detents - 1) % 6 + 1

    def press(self) -> None:
        if self.step == "square":
            self.step = "action"
        elif self.step == "action":
            self.step = "clicks" if self.action in ("expose", "trigger") else "dice"
            if self.step == "dice":
                self.dice = [1, 1]
        elif self.step == "dice":
            self.die = 1 - self.die

    def event(self, seat: int) -> dict[str, Any] | None:
        """The traps event this flow describes, done by ``seat``; None if not complete."""
        if self.step == "clicks":
            if self.clicks == 0 and self.action == "expose":
                return None
            event: dict[str, Any] = {"type": self.action, "seat": seat, "square": self.square}
            if self.clicks:
                event["clicks"] = self.clicks
            return event
        if self.step == "dice":
            return {"type": "disarm", "seat": seat, "square": self.square, "mode": self.action,
                    "dice": list(self.dice)}
        return None

    def check(self, game: Game) -> RuleViolation | None:
        """A disarm the square's public status rules out is refused before the dice: the flow
        goes back to the action (another square or another action)."""
        if self.step != "dice":
            return None
        refusal = game.refuse_early({"type": "disarm", "square": self.square})
        if refusal is not None:
            self.step = "action"
        return refusal

    def dial_state(self) -> dict[str, Any]:
        """What the table screen draws."""
        return {"step": self.step, "square": self.square, "action": self.action,
                "clicks": self.clicks, "dice": list(self.dice), "die": self.die}



def dial(options: Mapping[str, Any]) -> DialFlow | None:
    """The trap dial over the table's squares (None: a table without squares has none)."""
    squares = list(options.get("squares") or ())
    return DialFlow(squares) if squares else None
