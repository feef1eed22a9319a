"""The hub's wiring (hardware/HUB.md) and timing: the one file to edit for another layout.

Pins are RP2040 GPIO numbers (GPn). Every input is a switch to ground with the internal
pull-up on; an input that is not wired reads as released and costs nothing.
"""

FIRMWARE_VERSION = "1.0.2"

#: (pin A, pin B, encoder number at the table). The Pi's own trap dial is encoder 0.
ENCODERS = (
    (2, 3, 1),
    (5, 6, 2),
    (8, 9, 3),
    (11, 12, 4),
)

#: (pin, control, number): control is ``encoder-switch``, ``seat`` or ``menu``.
BUTTONS = (
    (4, "encoder-switch", 1),
    (7, "encoder-switch", 2),
    (10, "encoder-switch", 3),
    (13, "encoder-switch", 4),
    (16, "seat", 0),
    (17, "seat", 1),
    (18, "seat", 2),
    (19, "seat", 3),
    (20, "seat", 4),
    (21, "seat", 5),
    (22, "menu", 0),
)

#: Held at power-up, this pin leaves the firmware at the REPL so mpremote can reach it.
MAINTENANCE_PIN = 22

#: The on-board LED ("LED" works on both Pico and Pico W).
LED_PIN = "LED"

SETTLE_MS = 10
HOLD_MS = 1000
#: How often the buttons are sampled and the link is served.
LOOP_MS = 1
