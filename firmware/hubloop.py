"""One turn of the hub's main loop: bytes from the host in, buttons and dials read, bytes out.

Pure logic (no ``machine``): pins are anything with ``value()``, and the interrupt guard is
passed in, so the loop runs under test with simulated pins exactly as on the Pico.
"""

from hubproto import HubSide


def _no_guard():
    return None


def _no_restore(_state):
    return None


class HubLoop:
    """The hub's inputs served through its side of the protocol.

    ``encoders``: (Quadrature, encoder number) pairs, updated by pin interrupts.
    ``buttons``: (pin, Debouncer, control, number) tuples, sampled on every ``step``.
    ``irq_off`` / ``irq_on``: ``machine.disable_irq`` / ``enable_irq`` on the Pico, so a
    detent counted by an interrupt in the middle of ``take`` is not lost.
    """

    def __init__(self, hub: HubSide, encoders: list, buttons: list, led,
                 irq_off=_no_guard, irq_on=_no_restore) -> None:
        self.hub = hub
        self.encoders = encoders
        self.buttons = buttons
        self.led = led
        self.irq_off = irq_off
        self.irq_on = irq_on

    def step(self, received: bytes, now: int) -> bytes:
        """Take what the host sent, read the controls; returns the bytes to send."""
        hub = self.hub
        if received:
            hub.receive(received, now)
        for pin, button, control, number in self.buttons:
            event = button.update(pin.value(), now)
            if event:
                hub.add_event(event[0], control, number, event[1])
        for dial, number in self.encoders:
            state = self.irq_off()
            detents = dial.take()
            self.irq_on(state)
            if detents:
                hub.add_event("dial", "encoder", number, max(-32768, min(32767, detents)))
        self.led.value(hub.led(now))
        return hub.tick(now)
