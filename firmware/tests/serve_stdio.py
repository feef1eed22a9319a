"""firmware/main.py's own loop on stdin/stdout under MicroPython, its seat buttons pressed
by a script: the hub end of tests/test_hub_stall.py.

The hub's USB port is this process's stdin and stdout (give it a pty), exactly as on the
Pico; the pins are tests/fake/machine.py's, pressed from the loop's own sleep. Reports go to
stderr, a line each:

    press N      seat button N goes down (its press and release events follow)
    host gone    the hub stopped serving its host (it heard nothing for 3 s)
    queued       every press made while the host was gone is in the outbox
    host back    the hub serves its host again
    done         every press made and acknowledged by the host

Usage: ``micropython firmware/tests/serve_stdio.py BEFORE DURING AFTER`` (presses before
the host goes, while it is gone, after it is back).
"""

import sys

import _paths

sys.path.insert(0, _paths.FIRMWARE + "/tests/fake")

import config  # noqa: E402
import machine  # noqa: E402

machine.Pin.levels[config.MAINTENANCE_PIN] = 0
import main  # noqa: E402  (returns at once: the maintenance pin is held)

machine.Pin.levels[config.MAINTENANCE_PIN] = 1

SEAT_PINS = [pin for pin, control, _ in config.BUTTONS if control == "seat"]
#: Each press: the pin low this long, then high this long (the debouncer settles in 10 ms).
DOWN_MS = 30
UP_MS = 30


def report(line):
    sys.stderr.write(line + "\n")


class Table:
    """The people at the hub's buttons: presses by phase, as the hub's state allows."""

    def __init__(self, before, during, after):
        self.plan = (before, during, after)
        self.loop = None
        self.phase = 0
        self.made = 0  # presses made in this phase
        self.pressed_at = None
        self.pin = None
        self.next_at = 0
        self.seed = 12345

    def build(self):
        self.loop = build()
        return self.loop

    def next_seat(self):
        # Not periodic in the seats, so a repeated or missing run of events shows.
        self.seed = (self.seed * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.seed >> 16) % len(SEAT_PINS)

    def pressing(self, now, count, begin=True):
        """Go on pressing; True once ``count`` presses of this phase are made and released.
        A press is always finished (never left down to become a hold); ``begin`` says
        whether a new one may start."""
        if self.pressed_at is not None:
            if now - self.pressed_at >= DOWN_MS:
                machine.Pin.levels[self.pin] = 1
                self.pressed_at = None
                self.next_at = now + UP_MS
            return False
        if self.made == count:
            return now >= self.next_at
        if begin and now >= self.next_at:
            seat = self.next_seat()
            self.pin = SEAT_PINS[seat]
            machine.Pin.levels[self.pin] = 0
            self.pressed_at = now
            self.made += 1
            report("press " + str(seat))
        return False

    def step(self, now):
        hub = self.loop.hub
        before, during, after = self.plan
        # (what to report, when this phase is over), phase by phase.
        phases = (
            ("", lambda: self.pressing(now, before, hub.connected)),
            ("host gone", lambda: not hub.connected),
            ("queued", lambda: self.pressing(now, during)
             and hub.next_number - 1 == 2 * (before + during)),
            ("host back", lambda: hub.connected),
            ("", lambda: self.pressing(now, after)),
            ("done", lambda: not hub.outbox
             and hub.next_number - 1 == 2 * (before + during + after)),
        )
        if self.phase < len(phases):
            line, over = phases[self.phase]
            if over():
                if line:
                    report(line)
                self.phase += 1
                self.made = 0


class Clock:
    """main.py's ``time``, with the script run at every turn of the loop. Its ticks follow
    the real clock but move at most ``STEP_MS`` a turn: this process stalled by a loaded
    machine is no stalled Pico, and a 30 ms press must not become a 1 s hold."""

    STEP_MS = 50

    def __init__(self, table, real):
        self.table = table
        self.real = real
        self.seen = real.ticks_ms()
        self.ticks = 0

    def ticks_ms(self):
        seen = self.real.ticks_ms()
        self.ticks += min(self.real.ticks_diff(seen, self.seen), self.STEP_MS)
        self.seen = seen
        return self.ticks

    def ticks_diff(self, a, b):
        return a - b  # these ticks never wrap

    def sleep_ms(self, ms):
        self.table.step(self.ticks_ms())
        self.real.sleep_ms(ms)


build = main.build
table = Table(*[int(arg) for arg in sys.argv[1:4]])
main.build = table.build
main.time = Clock(table, main.time)
main.run()
