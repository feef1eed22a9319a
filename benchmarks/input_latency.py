"""Input latency and I2C cost: from a mock encoder edge to the new image handed to luma.

Each detent of the trap dial (counting clicks to expose a square) goes through the whole
path: gpiozero mock pin edge -> our debouncing -> gpiozero's quadrature state machine ->
InputEvent -> TableUI -> traps views -> screen images -> Panel -> luma SSD1306/SH1106
drivers -> simulated I2C bus (TCA9548A in select mode, so channel switches count too).

Two ways of updating the screens, measured in the same run on the same detents:
- ours: only screens whose image changed, and in them only the changed pages and columns;
- baseline: every screen redrawn full frame by luma's own ``display`` on every update.

Run:  python benchmarks/input_latency.py [--detents 3000] [--seats 4]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable

from gpiozero.pins.mock import MockFactory

from companion.bundles.traps.rules.engine import Traps
from companion.daemon.ui import TableUI
from companion.hardware.events import InputEvent
from companion.hardware.inputs import TableInputs
from companion.hardware.oled import open_panels
from companion.hardware.pins import load_pinmap
from companion.hardware.simbus import SimBus
from companion.screens.screen_set import compose

I2C_HZ = 400_000
BITS_PER_BYTE = 9  # eight data bits and the acknowledge


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def run(detents: int, seats: int, full_frame: bool) -> tuple[list[float], list[int]]:
    """Latency (seconds) and I2C bytes of each detent's screen update."""
    pinmap = load_pinmap(overrides={"i2c": {"mux_mode": "select"}})
    bus = SimBus(mux_address=pinmap.mux_address)
    names = ["table", *(f"seat:{seat}" for seat in range(seats))]
    for wiring in pinmap.screens:
        bus.attach(wiring.address, wiring.driver, wiring.channel)
    panels = open_panels(pinmap, names=names, smbus_opener=lambda number: bus)
    game = Traps([f"P{seat}" for seat in range(seats)], seed=1)
    ui = TableUI("traps", seats, squares=list(game.squares))
    now = [0.0]
    factory = MockFactory()
    pending: list[InputEvent] = []
    inputs = TableInputs(pinmap, pending.append, seats=seats, pin_factory=factory,
                         clock=lambda: now[0])

    turned = [0]

    def update() -> None:
        for event in pending:
            turned[0] += event.kind == "dial"
            ui.handle(event, now[0])
        pending.clear()
        images = compose(game, ui)
        for name, panel in panels.items():
            if full_frame:
                panel.device.display(images[name])
            else:
                panel.show(images[name])

    def edge(gpio: int, high: bool) -> None:
        now[0] += pinmap.bounce_s * 2
        pin = factory.pin(gpio)
        (pin.drive_high if high else pin.drive_low)()

    # Open the dial flow at the clicks step of an expose.
    switch = pinmap.encoder_switch
    for _ in range(3):
        edge(switch, False)
        edge(switch, True)
    update()

    latencies: list[float] = []
    sizes: list[int] = []
    for index in range(detents):
        direction = -1 if (index // 10) % 2 == 0 else 1  # turn left ten, back ten
        lead, follow = ((pinmap.encoder_a, pinmap.encoder_b) if direction > 0
                        else (pinmap.encoder_b, pinmap.encoder_a))
        edge(lead, False)
        edge(follow, False)
        edge(lead, True)
        sent = bus.bytes_sent
        now[0] += pinmap.bounce_s * 2
        started = time.perf_counter()
        factory.pin(follow).drive_high()  # the edge that completes the detent
        update()
        latencies.append(time.perf_counter() - started)
        sizes.append(bus.bytes_sent - sent)
    inputs.close()
    if turned[0] != detents:
        raise SystemExit(f"the encoder reported {turned[0]} detents of {detents}")
    return latencies, sizes


def report(label: str, measure: Callable[[], tuple[list[float], list[int]]]) -> float:
    latencies, sizes = measure()
    mean_bytes = statistics.mean(sizes)
    wire_ms = mean_bytes * BITS_PER_BYTE / I2C_HZ * 1000
    print(f"{label:9} p50 {percentile(latencies, 0.5) * 1000:7.3f} ms   "
          f"p99 {percentile(latencies, 0.99) * 1000:7.3f} ms   "
          f"I2C {mean_bytes:7.1f} bytes/update (~{wire_ms:5.2f} ms on the wire at 400 kHz)")
    return mean_bytes


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--detents", type=int, default=3000)
    parser.add_argument("--seats", type=int, default=4)
    args = parser.parse_args(argv)
    print("command: python benchmarks/input_latency.py " + " ".join(
        sys.argv[1:] if argv is None else argv))
    print(f"{args.detents} detents, table screen + {args.seats} seat screens, "
          f"edge -> image handed to luma (host CPU; the bus is simulated)")
    ours = report("ours", lambda: run(args.detents, args.seats, full_frame=False))
    baseline = report("baseline", lambda: run(args.detents, args.seats, full_frame=True))
    print(f"I2C bytes per update: ours {ours:.1f} vs full-frame baseline {baseline:.1f} "
          f"({baseline / ours:.0f}x fewer)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
