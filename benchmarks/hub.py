"""Serial hub link speed: events per second and heartbeat round trip, through a pty.

Run: python benchmarks/hub.py [--quick] [--events N] [--pings N]

The companion's ``Hub`` (host thread, pyserial) talks to ``FakeHub`` (the firmware's
protocol core) over a pseudo-terminal: "events/s" is press events from the moment they are
queued in the hub to the moment the last one is emitted on the host, acknowledgements and
all; "round trip" is a heartbeat (PING -> PONG) seen from ``Hub.round_trip``. The baseline,
measured in the same run over a fresh pty, is the bare link: the same event frames written
and parsed with no acknowledgement, session or threads between, and a frame echoed back by
a thread that does nothing else. A real Pico over USB full speed is slower than a pty;
these figures say what the protocol and host code cost, not what the cable allows.
"""

from __future__ import annotations

import argparse
import os
import queue
import shlex
import statistics
import sys
import tempfile
import threading
import time
import tty
from pathlib import Path

import serial

from companion.hardware import hubproto
from companion.hardware.hub import Hub
from companion.hardware.hubfake import FakeHub


def event_frames(count: int) -> list[bytes]:
    return [hubproto.encode_frame(number & 0xFF, hubproto.EVENT,
                                  hubproto.encode_event(number, "press", "seat", 1, 0))
            for number in range(1, count + 1)]


class RawPty:
    """A bare pty: the host end opened with pyserial as the Hub opens its port."""

    def __init__(self) -> None:
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        self.port = serial.Serial(os.ttyname(self.slave), timeout=1)

    def close(self) -> None:
        self.port.close()
        os.close(self.master)
        os.close(self.slave)


def baseline_events_per_second(count: int) -> float:
    raw = RawPty()
    data = b"".join(event_frames(count))
    writer = threading.Thread(target=lambda: _write_all(raw.master, data))
    parser = hubproto.FrameParser()
    received = 0
    start = time.perf_counter()
    writer.start()
    while received < count:
        received += len(parser.feed(raw.port.read(max(1, raw.port.in_waiting))))
    elapsed = time.perf_counter() - start
    writer.join()
    raw.close()
    return count / elapsed


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def baseline_round_trips(count: int) -> list[float]:
    raw = RawPty()
    stop = threading.Event()

    def echo() -> None:
        while not stop.is_set():
            try:
                os.write(raw.master, os.read(raw.master, 64))
            except OSError:
                return

    echoer = threading.Thread(target=echo, daemon=True)
    echoer.start()
    frame = hubproto.encode_frame(1, hubproto.PING)
    times = []
    for _ in range(count):
        start = time.perf_counter()
        raw.port.write(frame)
        raw.port.read(len(frame))
        times.append(time.perf_counter() - start)
    stop.set()
    raw.port.write(frame)
    echoer.join(timeout=1)
    raw.close()
    return times


def hub_events_per_second(count: int, link: Path) -> float:
    events: queue.Queue = queue.Queue()
    with FakeHub(link, capacity=count + 1) as fake, Hub(events.put, str(link)) as hub:
        if not hub.wait_connected(10):
            raise RuntimeError("the hub did not connect")
        start = time.perf_counter()
        for _ in range(count):
            fake.add_event("press", "seat", 1)
        for _ in range(count):
            events.get(timeout=10)
        return count / (time.perf_counter() - start)


def hub_round_trips(count: int, link: Path) -> list[float]:
    with FakeHub(link), Hub(lambda event: None, str(link)) as hub:
        if not hub.wait_connected(10):
            raise RuntimeError("the hub did not connect")
        return [hub.round_trip(timeout=5) for _ in range(count)]


def summary(times: list[float]) -> str:
    ordered = sorted(times)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return f"median {statistics.median(ordered) * 1e3:7.3f} ms   p99 {p99 * 1e3:7.3f} ms"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--quick", action="store_true", help="fewer events and pings")
    parser.add_argument("--events", type=int, default=20000)
    parser.add_argument("--pings", type=int, default=500)
    args = parser.parse_args(argv)
    events = 2000 if args.quick else args.events
    pings = 100 if args.quick else args.pings

    print("command:", shlex.join([Path(sys.executable).name, *sys.argv]))
    print(f"{events} events, {pings} round trips, pseudo-terminal link")
    with tempfile.TemporaryDirectory() as folder:
        link = Path(folder) / "companion-hub"
        base_rate = baseline_events_per_second(events)
        hub_rate = hub_events_per_second(events, link)
        base_trips = baseline_round_trips(pings)
        hub_trips = hub_round_trips(pings, link)
    print(f"events/s    baseline (bare frames, no acks) {base_rate:12,.0f}")
    print(f"events/s    hub (acknowledged, exactly once) {hub_rate:11,.0f}"
          f"   ({hub_rate / base_rate:.0%} of baseline)")
    print(f"round trip  baseline (echo thread)  {summary(base_trips)}")
    print(f"round trip  hub (PING -> PONG)      {summary(hub_trips)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
