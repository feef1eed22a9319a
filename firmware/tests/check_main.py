"""firmware/main.py wired to simulated pins (tests/fake/machine.py), under MicroPython.

Holds the maintenance pin at import so main.py builds nothing and returns to the REPL, then
builds the hub from config.py's pins and drives it with edges on those pins.
"""

import sys

import _paths

sys.path.insert(0, _paths.FIRMWARE + "/tests/fake")

import config  # noqa: E402
import machine  # noqa: E402
from hubproto import HostSide  # noqa: E402

machine.Pin.levels[config.MAINTENANCE_PIN] = 0
import main  # noqa: E402


def edge(pin, level):
    machine.Pin.levels[pin] = level
    machine.Pin.handlers[pin](None)


def check_maintenance_pin_leaves_the_repl_free():
    assert not machine.Pin.handlers, "main.py set up pins with the maintenance pin held"
    return 1


def check_built_hub_serves_config_pins():
    machine.Pin.levels[config.MAINTENANCE_PIN] = 1
    loop = main.build()
    pin_a, pin_b, number = config.ENCODERS[0]
    seat_pin, control, seat = [button for button in config.BUTTONS if button[1] == "seat"][0]
    host = HostSide()
    host.connect(0)
    got = []
    for now in range(200):
        if now == 20:
            for a, b in ((0, 1), (0, 0), (1, 0), (1, 1)):
                edge(pin_a, a)
                edge(pin_b, b)
        if now == 40:
            machine.Pin.levels[seat_pin] = 0
        got.extend(host.receive(loop.step(host.tick(now), now), now))
    assert got == [("dial", "encoder", number, 1), ("press", control, seat, 0)], got
    assert machine.Pin.levels[config.LED_PIN] == 1
    return 1


def main_check():
    count = check_maintenance_pin_leaves_the_repl_free() + check_built_hub_serves_config_pins()
    print("ok", count)


main_check()
