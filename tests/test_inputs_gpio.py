"""Encoder detents and button presses through gpiozero mock pins, with injected contact bounce.

gpiozero's own mock pins store ``bounce_time`` but ignore it; :class:`LockoutPin` honours it
as gpiozero documents it (changes within ``bounce`` after an edge are ignored), on a clock
the test moves, so the controls are debounced by gpiozero's public ``bounce_time``."""

from __future__ import annotations

import pytest
from gpiozero.pins.mock import MockFactory, MockPin
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.hardware.events import InputEvent
from companion.hardware.inputs import TableInputs
from companion.hardware.pins import load_pinmap

PINMAP = load_pinmap()
BOUNCE_S = PINMAP.bounce_s


class LockoutPin(MockPin):
    """A mock input pin whose ``bounce`` hides the edges that follow an edge too closely.

    The level still changes (``states`` records every raw change); only the callback that
    reports the edge is held back, as a backend's lock-out does.
    """

    accepted_at = float("-inf")

    def drive_high(self) -> None:
        self._drive(super().drive_high)

    def drive_low(self) -> None:
        self._drive(super().drive_low)

    def _drive(self, drive) -> None:
        now = self.factory.now
        if self.when_changed is None:  # not wired yet (the pull-up settling): no edge
            drive()
            return
        if self.bounce is not None and now - self.accepted_at < self.bounce:
            callback, self.when_changed = self.when_changed, None
            drive()
            self.when_changed = callback
            return
        before = self.state
        drive()
        if self.state != before:
            self.accepted_at = now


class LockoutFactory(MockFactory):
    """Mock pins that honour ``bounce_time``, on a clock the test sets in ``now``."""

    def __init__(self) -> None:
        super().__init__(pin_class=LockoutPin)
        self.now = 0.0


class Bench:
    """Mock pins, a clock the test moves, and the events the inputs emitted."""

    def __init__(self) -> None:
        self.factory = LockoutFactory()
        self.events: list[InputEvent] = []
        self.inputs = TableInputs(PINMAP, self.events.append, pin_factory=self.factory,
                                  clock=lambda: self.factory.now)

    @property
    def now(self) -> float:
        return self.factory.now

    def wait(self, seconds: float) -> None:
        self.factory.now += seconds

    def level(self, gpio: int, high: bool, bounces: int = 0, spacing: float = 0.0004) -> None:
        """Drive a pin to a level, after ``bounces`` extra toggle pairs of contact bounce."""
        pin = self.factory.pin(gpio)
        for _ in range(bounces):
            (pin.drive_high if high else pin.drive_low)()
            self.wait(spacing)
            (pin.drive_low if high else pin.drive_high)()
            self.wait(spacing)
        (pin.drive_high if high else pin.drive_low)()

    def detent(self, direction: int, bounces: tuple[int, int, int, int] = (0, 0, 0, 0)) -> None:
        """One detent: the leading line falls, the other falls, the leading rises, the other."""
        lead, follow = ((PINMAP.encoder_a, PINMAP.encoder_b) if direction > 0
                        else (PINMAP.encoder_b, PINMAP.encoder_a))
        for (gpio, high), bounce in zip([(lead, False), (follow, False), (lead, True),
                                         (follow, True)], bounces, strict=True):
            self.level(gpio, high, bounce)
            self.wait(BOUNCE_S * 2)

    def tap(self, gpio: int, held: float = 0.1, bounces: int = 0) -> None:
        self.level(gpio, False, bounces)
        self.wait(held)
        self.inputs.poll()
        self.level(gpio, True, bounces)
        self.wait(BOUNCE_S * 2)
        self.inputs.poll()


def dial(value: int) -> InputEvent:
    return InputEvent("dial", "encoder:0", value)


def test_clockwise_and_counter_clockwise_detents_are_separate_events() -> None:
    bench = Bench()
    bench.detent(+1)
    bench.detent(+1)
    bench.detent(-1)
    assert bench.events == [dial(1), dial(1), dial(-1)]
    assert bench.inputs.encoder.steps == 1


def test_steps_are_unlimited() -> None:
    bench = Bench()
    for _ in range(40):  # gpiozero's default would stop at 16
        bench.detent(-1)
    assert bench.inputs.encoder.steps == -40
    assert len(bench.events) == 40


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.sampled_from([1, -1]),
                          st.tuples(*[st.integers(0, 3)] * 4)), min_size=1, max_size=12))
def test_bounce_never_adds_or_loses_a_detent(turns: list[tuple[int, tuple]]) -> None:
    bench = Bench()
    for direction, bounces in turns:
        bench.detent(direction, bounces)
    assert bench.events == [dial(direction) for direction, _ in turns]


def test_bounce_is_what_makes_a_raw_pin_chatter() -> None:
    # The injected bounce really reaches the pin: gpiozero records every raw change.
    bench = Bench()
    bench.factory.pin(PINMAP.encoder_a).clear_states()
    bench.detent(+1, (3, 0, 0, 0))
    raw_changes = len(bench.factory.pin(PINMAP.encoder_a).states) - 1
    assert raw_changes == 2 + 2 * 3
    assert bench.events == [dial(1)]


def test_a_bouncing_seat_button_gives_one_press_and_one_release() -> None:
    bench = Bench()
    bench.tap(PINMAP.seat_buttons[2], bounces=3)
    assert bench.events == [InputEvent("press", "seat:2"), InputEvent("release", "seat:2")]


def test_holding_a_button_reports_one_hold_after_the_hold_time() -> None:
    bench = Bench()
    gpio = PINMAP.seat_buttons[0]
    bench.level(gpio, False)
    bench.wait(PINMAP.hold_s / 2)
    bench.inputs.poll()
    assert bench.events == [InputEvent("press", "seat:0")]
    bench.wait(PINMAP.hold_s)
    bench.inputs.poll()
    bench.wait(1.0)
    bench.inputs.poll()  # still held: no second hold
    bench.level(gpio, True)
    assert bench.events == [InputEvent("press", "seat:0"), InputEvent("hold", "seat:0", 1),
                            InputEvent("release", "seat:0")]


def test_a_release_inside_the_lockout_is_settled_by_poll() -> None:
    # A very short tap: the release edge falls inside the press's bounce window.
    bench = Bench()
    gpio = PINMAP.menu
    bench.level(gpio, False)
    bench.wait(BOUNCE_S / 3)
    bench.level(gpio, True)
    assert bench.events == [InputEvent("press", "menu")]
    bench.wait(BOUNCE_S)
    bench.inputs.poll()
    assert bench.events == [InputEvent("press", "menu"), InputEvent("release", "menu")]
    assert not bench.inputs.buttons["menu"].is_pressed


@pytest.mark.parametrize(("control", "gpio"), [
    ("encoder-switch:0", PINMAP.encoder_switch), ("menu", PINMAP.menu),
    *[(f"seat:{seat}", gpio) for seat, gpio in enumerate(PINMAP.seat_buttons)],
])
def test_every_button_is_wired_to_its_control(control: str, gpio: int) -> None:
    bench = Bench()
    bench.tap(gpio)
    assert [event.control for event in bench.events] == [control, control]


def test_every_control_asks_gpiozero_for_the_bounce_time() -> None:
    bench = Bench()
    gpios = [PINMAP.encoder_a, PINMAP.encoder_b, PINMAP.encoder_switch, PINMAP.menu,
             *PINMAP.seat_buttons]
    assert {bench.factory.pin(gpio).bounce for gpio in gpios} == {BOUNCE_S}


def test_without_the_lockout_the_same_bounce_would_count_twice() -> None:
    # The mock's lock-out is what debounces: with bounce_time off, the chatter shows through.
    bench = Bench()
    for button in bench.inputs.buttons.values():
        button.device.pin.bounce = None
    bench.tap(PINMAP.seat_buttons[2], bounces=3)
    assert len(bench.events) > 2


def test_fewer_seats_leave_the_other_buttons_free() -> None:
    factory = MockFactory()
    inputs = TableInputs(PINMAP, lambda event: None, seats=3, pin_factory=factory)
    assert sorted(inputs.buttons) == ["encoder-switch:0", "menu", "seat:0", "seat:1", "seat:2"]
    inputs.close()
