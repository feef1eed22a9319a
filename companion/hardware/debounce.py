"""Our own contact debouncing, the same on every pin backend and on gpiozero's mock pins.

gpiozero's ``bounce_time`` is left to the backend (a lock-out on some, a steady-level filter
on lgpio, ignored by ``MockFactory``), and a lock-out alone can lose a release that falls
inside it; this filter behaves the same everywhere and is what the tests drive.

Lock-out with recovery: the first edge of a contact counts at once (no added latency),
edges within ``bounce_s`` after it are bounce and ignored; if the contact then rests at a
level other than the one we accepted for a whole window (the real last edge fell inside
the lock-out), ``settle()`` accepts it. The clock is injected, so tests drive it with
timed mock edges.

>>> now = [0.0]
>>> line = DebouncedLine(True, bounce_s=0.005, clock=lambda: now[0])
>>> line.edge(False), line.edge(True), line.edge(False)  # a press that bounces
(True, False, False)
>>> line.level
False
"""

from __future__ import annotations

import math
from collections.abc import Callable

Clock = Callable[[], float]


class DebouncedLine:
    """The debounced level of one contact, fed with its raw edges."""

    def __init__(self, level: bool, bounce_s: float, clock: Clock) -> None:
        self.level = level
        self.raw = level
        self.bounce_s = bounce_s
        self.clock = clock
        self._accepted_at = -math.inf
        self._raw_at = -math.inf

    def edge(self, level: bool) -> bool:
        """Record a raw edge; True if it changes the debounced level."""
        now = self.clock()
        self.raw, self._raw_at = level, now
        if level == self.level or now - self._accepted_at < self.bounce_s:
            return False
        self.level, self._accepted_at = level, now
        return True

    def settle(self) -> bool:
        """Accept a resting level the lock-out missed; True if the debounced level changed."""
        now = self.clock()
        if (self.raw == self.level or now - self._raw_at < self.bounce_s
                or now - self._accepted_at < self.bounce_s):
            return False
        self.level, self._accepted_at = self.raw, now
        return True
