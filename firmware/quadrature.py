"""Quadrature decoding of one rotary encoder, fed both pin levels on every edge.

Pure logic (no ``machine``): ``main.py`` calls ``update`` from a pin interrupt and ``take``
from the main loop, so the same code is tested on a PC with simulated edges.

>>> dial = Quadrature()
>>> for a, b in ((0, 1), (0, 0), (1, 0), (1, 1)):  # one detent clockwise
...     dial.update(a, b)
>>> dial.take()
1
"""

# Quarter step for (previous state << 2 | new state), state = A << 1 | B: +1 when A leads
# (clockwise), 0 for no move or a skipped state (both pins changed at once).
_STEP = (0, -1, 1, 0, 1, 0, 0, -1, -1, 0, 0, 1, 0, 1, -1, 0)


class Quadrature:
    """Counts detents of an encoder with one full quadrature cycle per detent.

    A detent is counted when the pins come back to the rest state (both high with the usual
    pull-ups), so contact jitter around a detent never counts. A skipped state (an edge
    missed at a fast turn) is taken as two quarter steps in the direction of travel, so
    fast turns lose no detents.
    """

    def __init__(self, a: int = 1, b: int = 1, rest: int = 3) -> None:
        self.rest = rest
        self._state = (a << 1) | b
        self._quarters = 0
        self._rest_quarters = 0
        self._direction = 1
        self._detents = 0
        #: Skipped states seen (a measure of how fast the dial was turned).
        self.skipped = 0

    def update(self, a: int, b: int) -> None:
        """Both pin levels after an edge; allocation-free so a hard interrupt may call it."""
        new = (a << 1) | b
        old = self._state
        if new == old:
            return
        self._state = new
        step = _STEP[(old << 2) | new]
        if step:
            self._direction = step
            self._quarters += step
        else:
            self.skipped += 1
            self._quarters += 2 * self._direction
        if new == self.rest:
            moved = self._quarters - self._rest_quarters
            # Whole cycles only; integer division toward zero for both directions.
            self._detents += moved // 4 if moved >= 0 else -(-moved // 4)
            self._rest_quarters = self._quarters

    def take(self) -> int:
        """Detents turned since the last call: positive clockwise."""
        detents = self._detents
        self._detents -= detents
        return detents
