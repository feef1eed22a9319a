"""The table's controls on GPIO: the trap dial (encoder + push switch), seat buttons, menu.

Each control becomes :class:`~companion.hardware.events.InputEvent` s handed to ``emit``:
``dial`` (+1 clockwise, -1 counter-clockwise, one per detent, unlimited), ``press``,
``release`` and ``hold`` (held past ``hold_s``: hold-to-peek). The same code runs on a Pi
and on gpiozero's ``MockFactory``; the clock is injected so tests can time their edges.

Only gpiozero's public API: ``RotaryEncoder`` and ``DigitalInputDevice`` with their
``bounce_time`` (the pin backend's debouncing) and their ``when_*`` events. A backend whose
``bounce_time`` is a lock-out can hide a contact's last edge; ``poll()`` then reads the
button's level and reports a change the lock-out hid, once it has rested a whole window.

Example (in a test)::

    factory = MockFactory()
    events = []
    inputs = TableInputs(load_pinmap(), events.append, pin_factory=factory)
    factory.pin(5).drive_low()     # seat 0's button goes down
    events  # [InputEvent(kind='press', control='seat:0', value=0, source='gpio')]

Call ``poll()`` every few tens of milliseconds: it reports holds and the changes a
lock-out hid.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable
from typing import Any

from gpiozero import DigitalInputDevice, RotaryEncoder

from companion.hardware.events import InputEvent
from companion.hardware.pins import PinMap

Emit = Callable[[InputEvent], None]
Clock = Callable[[], float]


class DebouncedButton:
    """A push button to ground (internal pull-up): press, release and hold events."""

    def __init__(self, pin: int, control: str, emit: Emit, *, bounce_s: float, hold_s: float,
                 clock: Clock, pin_factory: Any = None,
                 lock: threading.RLock | None = None) -> None:
        self._lock = lock or threading.RLock()
        self.control = control
        self.emit = emit
        self.bounce_s = bounce_s
        self.hold_s = hold_s
        self.clock = clock
        self.device = DigitalInputDevice(pin, pull_up=True, bounce_time=bounce_s or None,
                                         pin_factory=pin_factory)
        self.is_pressed = bool(self.device.is_active)  # as last reported
        self.changed_at = -math.inf
        self.pressed_at: float | None = None
        self.held = False
        self.device.when_activated = self._pressed
        self.device.when_deactivated = self._released

    def _pressed(self) -> None:
        with self._lock:
            if not self.is_pressed:
                self._report(True)

    def _released(self) -> None:
        with self._lock:
            if self.is_pressed:
                self._report(False)

    def _report(self, pressed: bool) -> None:
        self.is_pressed, self.changed_at = pressed, self.clock()
        if pressed:
            self.pressed_at, self.held = self.changed_at, False
            self.emit(InputEvent("press", self.control))
        else:
            self.pressed_at = None
            self.emit(InputEvent("release", self.control))

    def poll(self) -> None:
        with self._lock:
            self._poll()

    def _poll(self) -> None:
        level = bool(self.device.is_active)
        if level != self.is_pressed and self.clock() - self.changed_at >= self.bounce_s:
            self._report(level)  # an edge the backend's lock-out hid
        if self.pressed_at is not None and not self.held:
            held_for = self.clock() - self.pressed_at
            if held_for >= self.hold_s:
                self.held = True
                self.emit(InputEvent("hold", self.control, round(held_for)))

    def close(self) -> None:
        self.device.close()


class TableInputs:
    """Every control of the table as wired in the pin map; events go to ``emit``.

    ``emit`` is called from gpiozero's pin thread on a Pi; calls are serialised here.
    """

    def __init__(self, pinmap: PinMap, emit: Emit, *, seats: int | None = None,
                 pin_factory: Any = None, clock: Clock = time.monotonic) -> None:
        self._lock = threading.RLock()
        self._emit = emit
        # Unlimited steps (max_steps=0): the dial is counted in detents, not kept in a range.
        bounce = pinmap.bounce_s or None  # 0 ms: no debouncing
        self.encoder = RotaryEncoder(pinmap.encoder_a, pinmap.encoder_b, max_steps=0,
                                     bounce_time=bounce, pin_factory=pin_factory)
        # gpiozero 2.0's RotaryEncoder keeps its bounce_time off its pins (it sets an attribute
        # the pins do not have): give it to each line through the pins' public ``bounce``.
        for line in (self.encoder.a, self.encoder.b):
            line.pin.bounce = bounce
        self.encoder.when_rotated_clockwise = lambda: self.emit(InputEvent("dial", "encoder:0", 1))
        self.encoder.when_rotated_counter_clockwise = (
            lambda: self.emit(InputEvent("dial", "encoder:0", -1)))
        seat_pins = pinmap.seat_buttons if seats is None else pinmap.seat_buttons[:seats]
        controls = [("encoder-switch:0", pinmap.encoder_switch), ("menu", pinmap.menu)]
        controls += [(f"seat:{seat}", pin) for seat, pin in enumerate(seat_pins)]
        timing = {"bounce_s": pinmap.bounce_s, "hold_s": pinmap.hold_s, "clock": clock,
                  "pin_factory": pin_factory, "lock": self._lock}
        self.buttons = {control: DebouncedButton(pin, control, self.emit, **timing)
                        for control, pin in controls}

    def emit(self, event: InputEvent) -> None:
        with self._lock:
            self._emit(event)

    def poll(self) -> None:
        """Report holds and the changes a lock-out hid; call it every few tens of ms."""
        with self._lock:
            for button in self.buttons.values():
                button.poll()

    def quiet(self, seconds: float) -> bool:
        """No button held down, and none reported a change in the last ``seconds``: nothing
        for ``poll()`` to time (a hold, a contact settling)."""
        with self._lock:
            return not any(button.is_pressed or button.clock() - button.changed_at < seconds
                           for button in self.buttons.values())

    def close(self) -> None:
        self.encoder.close()
        for button in self.buttons.values():
            button.close()
