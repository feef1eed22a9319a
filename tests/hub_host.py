"""The host end of the hub link as its own process (for tests/test_hub_stall.py, which
stops and resumes it): ``python tests/hub_host.py PORT`` prints each event from the hub as
``KIND CONTROL`` on a line of its own, and ``connected N`` at each handshake."""

from __future__ import annotations

import signal
import sys
import threading

from companion.hardware.events import InputEvent
from companion.hardware.hub import Hub


def main(port: str) -> None:
    printed = threading.Lock()

    def say(line: str) -> None:
        with printed:
            print(line, flush=True)

    def emit(event: InputEvent) -> None:
        say(f"{event.kind} {event.control}")

    done = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: done.set())
    with Hub(emit, port) as hub:
        seen = 0
        while not done.wait(0.05):
            if hub.connections > seen:
                seen = hub.connections
                say(f"connected {seen}")


if __name__ == "__main__":
    main(sys.argv[1])
