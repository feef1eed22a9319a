"""The table's controls on GPIO: the trap dial (encoder + push switch), seat buttons, menu.

Each control becomes :class:`~companion.hardware.events.InputEvent` s handed to ``emit``:
``dial`` (+1 clockwise, -1 counter-clockwise, one per detent, unlimited), ``press``,
``release`` and ``hold`` (held past ``hold_s``: hold-to-peek). The same code runs on a Pi
and on gpiozero's ``MockFactory``; the clock is injected so tests can time their edges.

Example (in a test)::

    factory = MockFactory()
    events = []
    inputs = TableInputs(load_pinmap(), events.append, pin_factory=factory)
    factory.pin(5).drive_low()     # seat 0's button goes down
    events  # [InputEvent(kind='press', control='seat:0', value=0, source='gpio')]

Call ``poll()`` every few tens of milliseconds: it reports holds and settles contacts
whose last bounce fell inside the lock-out window.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from gpiozero import InputDevice

from companion.hardware.debounce import Clock, DebouncedLine
from companion.hardware.events import InputEvent
from companion.hardware.pins import PinMap

Emit = Callable[[InputEvent], None]


#: The encoder's two lines as one number, ``a`` the high bit, 1 = high (at rest: 0b11).
#: Turned clockwise, ``a`` leads: 11 -> 01 -> 00 -> 10 -> 11, one detent.
CLOCKWISE_NEXT = {0b11: 0b01, 0b01: 0b00, 0b00: 0b10, 0b10: 0b11}


class DialEncoder:
    """A detented quadrature encoder on two pulled-up GPIO lines, each debounced by us.

    Built on gpiozero's public ``InputDevice`` and pin callbacks: every accepted edge is a
    quarter step (+1 clockwise, -1 back); a detent is counted when both lines are at rest
    again with the quarter steps at least half a detent one way, so bounce that goes back
    and forth cancels out. ``steps`` is unlimited.
    """

    def __init__(self, a: int, b: int, *, bounce_s: float, clock: Clock,
                 pin_factory: Any = None, lock: threading.RLock | None = None) -> None:
        self._lock = lock or threading.RLock()
        self.steps = 0
        self.when_rotated_clockwise: Callable[[], None] | None = None
        self.when_rotated_counter_clockwise: Callable[[], None] | None = None
        self.devices = (InputDevice(a, pull_up=True, pin_factory=pin_factory),
                        InputDevice(b, pull_up=True, pin_factory=pin_factory))
        self.lines = tuple(DebouncedLine(bool(device.pin.state), bounce_s, clock)
                           for device in self.devices)
        self.state = self._state()
        self.quarters = 0
        # gpiozero keeps only a weak reference to a pin callback: bound methods, not lambdas.
        handlers = (self._line_a_changed, self._line_b_changed)
        for device, changed in zip(self.devices, handlers, strict=True):
            device.pin.edges = "both"
            device.pin.when_changed = changed

    def _state(self) -> int:
        return (self.lines[0].level << 1) | self.lines[1].level

    def _line_a_changed(self, _ticks: Any, level: Any) -> None:
        self._edge(self.lines[0], level)

    def _line_b_changed(self, _ticks: Any, level: Any) -> None:
        self._edge(self.lines[1], level)

    def _edge(self, line: DebouncedLine, level: Any) -> None:
        with self._lock:
            if line.edge(bool(level)):
                self._moved()

    def settle(self) -> None:
        with self._lock:
            if any([line.settle() for line in self.lines]):
                self._moved()

    def _moved(self) -> None:
        state = self._state()
        if CLOCKWISE_NEXT[self.state] == state:
            self.quarters += 1
        elif CLOCKWISE_NEXT[state] == self.state:
            self.quarters -= 1
        self.state = state
        if state != 0b11 or abs(self.quarters) < 2:
            return
        turned, self.quarters = (1 if self.quarters > 0 else -1), 0
        self.steps += turned
        handler = self.when_rotated_clockwise if turned > 0 else self.when_rotated_counter_clockwise
        if handler is not None:
            handler()

    def close(self) -> None:
        for device in self.devices:
            device.close()


class DebouncedButton:
    """A push button to ground (internal pull-up): press, release and hold events."""

    def __init__(self, pin: int, control: str, emit: Emit, *, bounce_s: float, hold_s: float,
                 clock: Clock, pin_factory: Any = None,
                 lock: threading.RLock | None = None) -> None:
        self._lock = lock or threading.RLock()
        self.control = control
        self.emit = emit
        self.hold_s = hold_s
        self.clock = clock
        self.device = InputDevice(pin, pull_up=True, pin_factory=pin_factory)
        self.line = DebouncedLine(bool(self.device.pin.state), bounce_s, clock)
        self.pressed_at: float | None = None
        self.held = False
        self.device.pin.edges = "both"
        self.device.pin.when_changed = self._changed

    @property
    def is_pressed(self) -> bool:
        return not self.line.level  # pulled up: pressed is low

    def _changed(self, _ticks: Any, state: Any) -> None:
        with self._lock:
            if self.line.edge(bool(state)):
                self._report()

    def _report(self) -> None:
        if self.is_pressed:
            self.pressed_at, self.held = self.clock(), False
            self.emit(InputEvent("press", self.control))
        else:
            self.pressed_at = None
            self.emit(InputEvent("release", self.control))

    def poll(self) -> None:
        with self._lock:
            self._poll()

    def _poll(self) -> None:
        if self.line.settle():
            self._report()
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
        timing = {"bounce_s": pinmap.bounce_s, "clock": clock, "pin_factory": pin_factory,
                  "lock": self._lock}
        self.encoder = DialEncoder(pinmap.encoder_a, pinmap.encoder_b, **timing)
        self.encoder.when_rotated_clockwise = lambda: self.emit(InputEvent("dial", "encoder:0", 1))
        self.encoder.when_rotated_counter_clockwise = (
            lambda: self.emit(InputEvent("dial", "encoder:0", -1)))
        seat_pins = pinmap.seat_buttons if seats is None else pinmap.seat_buttons[:seats]
        controls = [("encoder-switch:0", pinmap.encoder_switch), ("menu", pinmap.menu)]
        controls += [(f"seat:{seat}", pin) for seat, pin in enumerate(seat_pins)]
        self.buttons = {control: DebouncedButton(pin, control, self.emit, hold_s=pinmap.hold_s,
                                                 **timing)
                        for control, pin in controls}

    def emit(self, event: InputEvent) -> None:
        with self._lock:
            self._emit(event)

    def poll(self) -> None:
        """Report holds and settle contacts; call it every few tens of milliseconds."""
        with self._lock:
            self.encoder.settle()
            for button in self.buttons.values():
                button.poll()

    def close(self) -> None:
        self.encoder.close()
        for button in self.buttons.values():
            button.close()
