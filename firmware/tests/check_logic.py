"""The firmware's encoder decoding and button debouncing, driven by simulated pin edges.

Runs under MicroPython (as on the Pico) and CPython: ``micropython check_logic.py`` prints
``ok N`` or stops at the first failing check.
"""

import _paths  # noqa: F401  (puts the firmware and hubproto on sys.path)
from debounce import Debouncer
from quadrature import Quadrature

# Pin states (A, B) through one detent clockwise, from rest (both high) back to rest.
CLOCKWISE = ((0, 1), (0, 0), (1, 0), (1, 1))
COUNTER = ((1, 0), (0, 0), (0, 1), (1, 1))


def turn(dial, states):
    for a, b in states:
        dial.update(a, b)


def check_turns():
    dial = Quadrature()
    turn(dial, CLOCKWISE * 5)
    assert dial.take() == 5
    turn(dial, COUNTER * 3)
    assert dial.take() == -3
    assert dial.take() == 0
    return 3


def check_jitter_at_rest():
    """Contact bounce on one pin at the detent moves nothing."""
    dial = Quadrature()
    turn(dial, ((0, 1), (1, 1)) * 20 + ((1, 0), (1, 1)) * 20)
    assert dial.take() == 0
    return 1


def check_half_turn_back():
    dial = Quadrature()
    turn(dial, CLOCKWISE[:2] + ((0, 1), (1, 1)))
    assert dial.take() == 0
    return 1


def check_fast_turn():
    """At speed an edge is missed (both pins seem to change at once): no detent is lost."""
    dial = Quadrature()
    skipping = ((0, 1), (1, 0), (1, 1))
    turn(dial, skipping * 10 + CLOCKWISE * 2)
    assert dial.take() == 12, "fast clockwise"
    turn(dial, ((1, 0), (0, 1), (1, 1)) * 7)
    assert dial.take() == -7, "fast counter-clockwise"
    assert dial.skipped == 17
    return 3


def check_repeated_levels():
    """An interrupt for an edge already seen (both pins read unchanged) counts nothing."""
    dial = Quadrature()
    for a, b in CLOCKWISE:
        dial.update(a, b)
        dial.update(a, b)
    assert dial.take() == 1
    return 1


def press_with_bounce(button, start, level):
    """A contact that bounces for 4 ms before settling at ``level``; events seen on the way."""
    events = []
    for t, pin in ((0, level), (1, 1 - level), (2, level), (3, 1 - level), (4, level)):
        event = button.update(pin, start + t)
        if event:
            events.append((start + t, event))
    for t in range(5, 30):
        event = button.update(level, start + t)
        if event:
            events.append((start + t, event))
    return events


def check_debounce():
    button = Debouncer(pressed=0, settle_ms=10, hold_ms=1000)
    assert button.update(1, 0) is None
    assert press_with_bounce(button, 100, 0) == [(114, ("press", 0))]
    assert button.is_pressed
    assert press_with_bounce(button, 200, 1) == [(214, ("release", 0))]
    return 3


def check_glitch_ignored():
    """A spike shorter than the settle time is never a press."""
    button = Debouncer(settle_ms=10)
    events = [button.update(level, t) for t, level in ((0, 1), (5, 0), (9, 0), (10, 1), (40, 1))]
    assert events == [None] * 5, events
    return 1


def check_hold():
    button = Debouncer(settle_ms=10, hold_ms=1500)
    events = []
    for t in range(0, 3000, 5):
        event = button.update(0 if t < 2500 else 1, t)
        if event:
            events.append((t, event))
    assert events == [(10, ("press", 0)), (1510, ("hold", 2)), (2510, ("release", 0))], events
    return 1


def main():
    count = (check_turns() + check_jitter_at_rest() + check_half_turn_back() + check_fast_turn()
             + check_repeated_levels() + check_debounce() + check_glitch_ignored() + check_hold())
    print("ok", count)
    return count


if __name__ == "__main__":
    main()
