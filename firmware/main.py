"""The hub firmware: RP2040 pins and the USB serial port, around hubloop.HubLoop.

Everything that can be tested lives in hubproto, hubloop, quadrature and debounce; this file
only ties them to ``machine`` pins and to the USB port (sys.stdin / sys.stdout).
"""

import os
import select
import struct
import sys
import time

import config
import machine
import micropython
from debounce import Debouncer
from hubloop import HubLoop
from hubproto import HubSide
from quadrature import Quadrature


def pull_up(number):
    return machine.Pin(number, machine.Pin.IN, machine.Pin.PULL_UP)


def watch_encoder(pin_a, pin_b, dial):
    def on_edge(_pin):
        dial.update(pin_a.value(), pin_b.value())

    edges = machine.Pin.IRQ_RISING | machine.Pin.IRQ_FALLING
    pin_a.irq(on_edge, edges, hard=True)
    pin_b.irq(on_edge, edges, hard=True)


def build():
    encoders = []
    for a, b, number in config.ENCODERS:
        pin_a, pin_b = pull_up(a), pull_up(b)
        dial = Quadrature(pin_a.value(), pin_b.value())
        watch_encoder(pin_a, pin_b, dial)
        encoders.append((dial, number))
    buttons = [(pull_up(pin), Debouncer(0, config.SETTLE_MS, config.HOLD_MS), control, number)
               for pin, control, number in config.BUTTONS]
    boot = struct.unpack(">I", os.urandom(4))[0]
    hub = HubSide(boot, config.FIRMWARE_VERSION)
    led = machine.Pin(config.LED_PIN, machine.Pin.OUT)
    return HubLoop(hub, encoders, buttons, led, machine.disable_irq, machine.enable_irq)


def run():
    loop = build()
    # Frames are binary: a 0x03 byte must not raise KeyboardInterrupt.
    micropython.kbd_intr(-1)
    link_in = sys.stdin.buffer
    link_out = sys.stdout.buffer
    poller = select.poll()
    poller.register(sys.stdin, select.POLLIN)
    # A millisecond count that never wraps, unlike ticks_ms.
    now = 0
    last = time.ticks_ms()
    while True:
        tick = time.ticks_ms()
        now += time.ticks_diff(tick, last)
        last = tick
        received = bytearray()
        while len(received) < 64 and poller.poll(0):
            received.extend(link_in.read(1))
        out = loop.step(received, now)
        if out:
            link_out.write(out)
        time.sleep_ms(config.LOOP_MS)


if pull_up(config.MAINTENANCE_PIN).value():
    run()
