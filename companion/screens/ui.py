"""What the table's controls ask of the screens: peeks, errors, the trap-dial flow.

Pure: time arrives with each call. ``handle`` takes one :class:`InputEvent` and returns the
table-log event it completes, if any (the daemon applies it and, if the rules refuse it,
calls ``refused`` so the error shows on that seat's screen).

- A seat button held past the hold time is a peek: the seat's secret shows until the
  button is released or ``peek_timeout_s`` has passed.
- A seat button tapped (released before the hold time) is that seat's action: in
  ``deathtrap`` a pass; in ``traps`` the exposing or disarming seat confirming the dial.
- The menu button cancels the trap dial if it is open, else switches the table screen between
  play and scores.
- The trap dial (``traps``): press (or turn) the dial, turn to the square, press, turn to the
  action, press, then turn counter-clockwise one detent per click (or enter the two dice), and
  the acting seat taps its button.

>>> ui = TableUI("deathtrap", seats=4)
>>> ui.handle(InputEvent("press", "seat:2"), 0.0)
>>> ui.handle(InputEvent("release", "seat:2"), 0.1)
{'type': 'pass', 'seat': 2}
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.hardware.events import InputEvent
from companion.screens.common import PAGE_SECONDS, error_pages

ERROR_SECONDS = 5.0
#: Where a refusal that holds no seat's secret is shown: the table screen (errors' key).
TABLE = -1
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

    def shown(self) -> dict[str, Any]:
        """What the table screen draws."""
        return {"step": self.step, "square": self.square, "action": self.action,
                "clicks": self.clicks, "dice": list(self.dice), "die": self.die}


class TableUI:
    """Peeks, errors, the table screen's page and the trap dial, for one game at one table."""

    def __init__(self, game: str, seats: int, *, squares: Sequence[str] = (),
                 peek_timeout_s: float = 5.0, error_s: float = ERROR_SECONDS) -> None:
        self.game = game
        self.seats = seats
        self.squares = list(squares)
        self.peek_timeout_s = peek_timeout_s
        self.error_s = error_s
        self.peeks: dict[int, float] = {}  # seat -> when the peek began
        self.errors: dict[int, tuple[str, float]] = {}  # seat -> (message, shown until)
        self.since: dict[int, float] = {}  # seat -> when its error came
        self.now = 0.0  # the time of the latest tick
        self.page = "play"
        self.dial: DialFlow | None = None
        self._held: set[int] = set()

    # --- what the screens ask ------------------------------------------------------

    def peeking(self, seat: int) -> bool:
        return seat in self.peeks

    def error(self, seat: int) -> str | None:
        shown = self.errors.get(seat)
        return shown[0] if shown else None

    def error_age(self, seat: int) -> float:
        """Seconds the seat's error has been shown (its long message turns pages)."""
        return max(0.0, self.now - self.since.get(seat, self.now))

    def dial_shown(self) -> dict[str, Any] | None:
        return self.dial.shown() if self.dial else None

    # --- what happens at the table -------------------------------------------------

    def refused(self, seat: int, message: str, now: float) -> None:
        """Show why an action was refused, on the screen of the seat that made it."""
        pages = error_pages(message)  # each page of a long one is shown for a while
        self.errors[seat] = (message, now + max(self.error_s, pages * PAGE_SECONDS))
        self.since[seat] = now

    def tick(self, now: float) -> None:
        """End peeks and errors whose time is up."""
        self.now = now
        for seat, began in list(self.peeks.items()):
            if now - began >= self.peek_timeout_s:
                del self.peeks[seat]
        for seat, (_message, until) in list(self.errors.items()):
            if now >= until:
                del self.errors[seat]

    def handle(self, event: InputEvent, now: float) -> dict[str, Any] | None:
        self.tick(now)
        if event.control.startswith("seat:"):
            return self._seat(int(event.control[5:]), event.kind, now)
        if event.control == "menu" and event.kind == "press":
            if self.dial is not None:
                self.dial = None  # a tap leaves the dial, back to the squares
            else:
                self.page = "scores" if self.page == "play" else "play"
        elif self.game == "traps" and self.squares:
            if event.control.startswith("encoder-switch") and event.kind == "press":
                if self.dial is None:
                    self.dial = DialFlow(self.squares)
                else:
                    self.dial.press()
            elif event.kind == "dial":
                if self.dial is None:  # turning the dial begins it too, at the first square
                    self.dial = DialFlow(self.squares)
                self.dial.turn(event.value)
        return None

    def _seat(self, seat: int, kind: str, now: float) -> dict[str, Any] | None:
        if not 0 <= seat < self.seats:
            return None
        if kind == "press":
            self.errors.pop(seat, None)  # the seat has read it: it acts again
            self._held.discard(seat)
        elif kind == "hold":
            self._held.add(seat)
            self.peeks[seat] = now
        elif kind == "release":
            self.peeks.pop(seat, None)
            if seat in self._held:
                self._held.discard(seat)
                return None
            return self._tap(seat)
        return None

    def _tap(self, seat: int) -> dict[str, Any] | None:
        if self.game == "deathtrap":
            return {"type": "pass", "seat": seat}
        if self.game == "traps" and self.dial is not None:
            event = self.dial.event(seat)
            if event is not None:
                self.dial = None
            return event
        return None
