"""What the table's controls ask of the screens: peeks, errors, a game's own dial flow.

Pure: time arrives with each call. ``handle`` takes one :class:`InputEvent` and returns the
table-log event it completes, if any (the daemon applies it and, if the rules refuse it,
calls ``refused`` so the error shows on that seat's screen).

- A seat button held past the hold time is a peek: the seat's secret shows until the
  button is released or ``peek_timeout_s`` has passed.
- A seat button tapped (released before the hold time) is that seat's action: what the
  game's bundle says a tap is (e.g. a pass), or the seat finishing the game's dial flow
  (e.g. a trap dial: the seat that set it confirming it).
- The menu button cancels the dial flow if it is open, else switches the table screen between
  play and scores.
- A game with its own dial flow (its bundle's ``dial``) begins it at a press or a turn of the
  dial; the flow takes the turns and presses until a seat's tap finishes it.

>>> ui = TableUI("deathtrap", seats=4)
>>> ui.handle(InputEvent("press", "seat:2"), 0.0)
>>> ui.handle(InputEvent("release", "seat:2"), 0.1)
{'type': 'pass', 'seat': 2}
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.errors import OptionError
from companion.games import registry
from companion.games.spec import Bundle, Flow, Screens
from companion.hardware.events import InputEvent
from companion.i18n import current
from companion.screens.common import PAGE_SECONDS, error_pages
from companion.screens.common import TABLE as TABLE  # the table screen's key in errors

ERROR_SECONDS = 5.0


class TableUI:
    """Peeks, errors, the table screen's page and the game's dial flow, for one game at one
    table. ``options`` are the game's (the flow is made from them: e.g. a board's squares)."""

    def __init__(self, game: str, seats: int, *, peek_timeout_s: float = 5.0,
                 error_s: float = ERROR_SECONDS, **options: Any) -> None:
        self.game = game
        self.seats = seats
        try:
            self._bundle: Bundle | None = registry.get(game)
        except OptionError:  # no game yet (the daemon before its first session)
            self._bundle = None
        self._options = options
        #: The game has its own dial flow: a tap of the dial begins it (not a manual entry).
        self.has_flow = self._new_flow() is not None
        self.peek_timeout_s = peek_timeout_s
        self.error_s = error_s
        self.peeks: dict[int, float] = {}  # seat -> when the peek began
        self.errors: dict[int, tuple[str, float]] = {}  # seat -> (message, shown until)
        self.said: dict[int, Mapping[str, str]] = {}  # seat -> its error in each language
        self.since: dict[int, float] = {}  # seat -> when its error came
        self.now = 0.0  # the time of the latest tick
        self.page = "play"
        self.dial: Flow | None = None
        self._held: set[int] = set()

    # --- what the screens ask ------------------------------------------------------

    def peeking(self, seat: int) -> bool:
        return seat in self.peeks

    def error(self, seat: int) -> str | None:
        """The seat's refusal while its screen shows it, in the language drawn (a seat's page
        may read another than the table's) when the refusal was said in it."""
        current_error = self.errors.get(seat)
        return self.said.get(seat, {}).get(current(), current_error[0]) if current_error else None

    def error_age(self, seat: int) -> float:
        """Seconds the seat's error has been shown (its long message turns pages)."""
        return max(0.0, self.now - self.since.get(seat, self.now))

    def dial_state(self) -> dict[str, Any] | None:
        return self.dial.dial_state() if self.dial else None

    @property
    def screens(self) -> Screens:
        """The game's screens (its bundle's ``screens``): what the screens draw it with."""
        if self._bundle is None:
            raise OptionError(f"no screens for the game {self.game!r}")
        return self._bundle.screen_module()

    def _new_flow(self) -> Flow | None:
        return self._bundle.flow(self._options) if self._bundle is not None else None

    # --- what happens at the table -------------------------------------------------

    def refused(self, seat: int, message: str, now: float,
                said: Mapping[str, str] | None = None) -> None:
        """Show why an action was refused, on the screen of the seat that made it; ``said``:
        the same refusal in other languages (lang -> message)."""
        said = dict(said or {})
        # Each page of a long one is shown for a while, in the longest of its languages.
        pages = max(error_pages(text) for text in [message, *said.values()])
        self.errors[seat] = (message, now + max(self.error_s, pages * PAGE_SECONDS))
        self.said[seat] = said
        self.since[seat] = now

    def moved_on(self) -> None:
        """An event or an undo was accepted since the refusals shown: what they refused was
        refused by a state that is gone, and every screen shows the game again."""
        self.errors.clear()

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
        elif self.has_flow:
            if event.control.startswith("encoder-switch") and event.kind == "press":
                if self.dial is None:
                    self.dial = self._new_flow()
                else:
                    self.dial.press()
            elif event.kind == "dial":
                if self.dial is None:  # turning the dial begins it too, at its first step
                    self.dial = self._new_flow()
                assert self.dial is not None
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
        if self.dial is not None:
            event = self.dial.event(seat)
            if event is not None:
                self.dial = None
            return event
        return self._bundle.tap(seat) if self._bundle is not None else None
