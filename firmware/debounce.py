"""Debouncing of one push button sampled every millisecond or so.

Pure logic (no ``machine``): ``update`` gets the pin level and the time, and answers the
event the button produced, if any.

>>> button = Debouncer(settle_ms=10)
>>> [button.update(0, t) for t in (0, 5, 10)]
[None, None, ('press', 0)]
"""


class Debouncer:
    """A level counts once it has held for ``settle_ms``; a press held ``hold_ms`` holds.

    ``pressed`` is the pin level of a pressed button (0 for a switch to ground with the
    pull-up on). Events: ``("press", 0)``, ``("release", 0)`` and once per press
    ``("hold", seconds)``.
    """

    def __init__(self, pressed: int = 0, settle_ms: int = 10, hold_ms: int = 1000) -> None:
        self.pressed_level = pressed
        self.settle_ms = settle_ms
        self.hold_ms = hold_ms
        self.is_pressed = False
        self._level = 1 - pressed
        self._changed_at = 0
        self._pressed_at = 0
        self._held = False

    def update(self, level: int, now: int):
        """The pin ``level`` at ``now`` (ms); returns ``(kind, value)`` or None."""
        if level != self._level:
            self._level = level
            self._changed_at = now
            return None
        down = level == self.pressed_level
        if down != self.is_pressed and now - self._changed_at >= self.settle_ms:
            self.is_pressed = down
            if down:
                self._pressed_at = now
                self._held = False
                return ("press", 0)
            return ("release", 0)
        if self.is_pressed and not self._held and now - self._pressed_at >= self.hold_ms:
            self._held = True
            return ("hold", (self.hold_ms + 500) // 1000)
        return None
