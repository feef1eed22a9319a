"""The hub's main loop with simulated pins, talking to the host's side of the protocol.

Runs under MicroPython and CPython: prints ``ok N`` or stops at the first failing check.
"""

import _paths  # noqa: F401  (puts the firmware and hubproto on sys.path)
from debounce import Debouncer
from hubloop import HubLoop
from hubproto import HostSide, HubSide
from quadrature import Quadrature


class Pin:
    """A simulated input or LED pin: ``level`` is what the wire carries."""

    def __init__(self, level=1):
        self.level = level

    def value(self, level=None):
        if level is None:
            return self.level
        self.level = int(level)
        return None


def check_loop_delivers_presses_and_turns():
    seat = Pin()
    led = Pin(0)
    dial = Quadrature()
    guarded = []
    loop = HubLoop(HubSide(boot=3, firmware="test"), [(dial, 1)],
                   [(seat, Debouncer(0, 10, 1000), "seat", 0)], led,
                   lambda: guarded.append("off"), lambda state: guarded.append("on"))
    host = HostSide()
    host.connect(0)
    got = []
    for now in range(300):
        if now == 50:
            seat.level = 0
        if now == 90:
            seat.level = 1
        if now == 120:
            # Two detents clockwise, edges arriving between loop turns as interrupts do.
            for a, b in ((0, 1), (0, 0), (1, 0), (1, 1)) * 2:
                dial.update(a, b)
        got.extend(host.receive(loop.step(host.tick(now), now), now))
    assert got == [("press", "seat", 0, 0), ("release", "seat", 0, 0),
                   ("dial", "encoder", 1, 2)], got
    assert led.level == 1, "LED steady once the host is there"
    assert guarded[:2] == ["off", "on"]
    return 3


def check_led_blinks_without_host():
    led = Pin(0)
    loop = HubLoop(HubSide(boot=3, firmware="test"), [], [], led)
    levels = []
    for now in range(0, 2000, 50):
        loop.step(b"", now)
        levels.append(led.level)
    assert 0 < sum(levels) < len(levels), levels
    return 1


def main():
    count = check_loop_delivers_presses_and_turns() + check_led_blinks_without_host()
    print("ok", count)
    return count


if __name__ == "__main__":
    main()
