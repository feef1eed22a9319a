"""A stand-in for MicroPython's ``machine`` on a PC: pins whose levels a test sets.

Only what firmware/main.py uses. Pins start high (pull-ups, nothing pressed); a test sets
``Pin.levels[n]`` and calls ``Pin.handlers[n]`` as the RP2040 would on an edge.
"""


class Pin:
    IN = 0
    OUT = 1
    PULL_UP = 1
    IRQ_RISING = 4
    IRQ_FALLING = 8
    levels = {}
    handlers = {}

    def __init__(self, number, mode=IN, pull=None):
        self.number = number
        Pin.levels.setdefault(number, 1 if pull == Pin.PULL_UP else 0)

    def value(self, level=None):
        if level is None:
            return Pin.levels[self.number]
        Pin.levels[self.number] = int(level)
        return None

    def irq(self, handler, trigger, hard=False):
        Pin.handlers[self.number] = handler


def disable_irq():
    return 1


def enable_irq(state):
    return None
