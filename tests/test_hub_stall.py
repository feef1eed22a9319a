"""A host stalled for longer than the hub's patience (issue 14, item 1), for real: the
firmware's own main loop (firmware/main.py under MicroPython's unix port, its USB port a pty)
and the host in a process of its own, SIGSTOPped until the hub says it gave up on it, then
resumed. The link recovers by itself, and every press made before, during and after the stall
arrives exactly once, in order.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
import tty
from collections.abc import Callable
from pathlib import Path
from typing import IO

ROOT = Path(__file__).resolve().parent.parent
MICROPYTHON = Path(sys.executable).parent / "micropython"
SERVE = ROOT / "firmware" / "tests" / "serve_stdio.py"
HOST = Path(__file__).resolve().parent / "hub_host.py"
#: A bound on waiting for what each side reports, never a timing check.
PATIENCE = 60.0
BEFORE, DURING, AFTER = 5, 6, 5


class Lines:
    """The lines a process writes, collected by a thread as they come."""

    def __init__(self, stream: IO[str]) -> None:
        self.lines: list[str] = []
        self._thread = threading.Thread(target=self._read, args=(stream,), daemon=True)
        self._thread.start()

    def _read(self, stream: IO[str]) -> None:
        for line in stream:
            self.lines.append(line.rstrip("\n"))

    def wait(self, what: str, check: Callable[[list[str]], bool]) -> None:
        end = time.monotonic() + PATIENCE
        while not check(list(self.lines)):
            assert time.monotonic() < end, f"waited {PATIENCE} s for {what}: {self.lines}"
            time.sleep(0.01)


def events(lines: list[str]) -> list[str]:
    return [line for line in lines if not line.startswith("connected")]


def test_a_host_stopped_until_the_hub_gives_up_gets_every_event_once(tmp_path: Path) -> None:
    master, slave = os.openpty()
    tty.setraw(slave)
    link = tmp_path / "companion-hub"
    link.symlink_to(os.ttyname(slave))
    hub = subprocess.Popen([str(MICROPYTHON), str(SERVE), str(BEFORE), str(DURING), str(AFTER)],
                           stdin=master, stdout=master, stderr=subprocess.PIPE, text=True)
    os.close(master)
    host = subprocess.Popen([sys.executable, str(HOST), str(link)], stdout=subprocess.PIPE,
                            text=True)
    try:
        assert hub.stderr is not None and host.stdout is not None
        said, got = Lines(hub.stderr), Lines(host.stdout)
        got.wait("the presses before the stall",
                 lambda lines: len(events(lines)) == 2 * BEFORE)
        host.send_signal(signal.SIGSTOP)
        said.wait("the hub to give up on its host and queue presses",
                  lambda lines: "queued" in lines)
        host.send_signal(signal.SIGCONT)
        said.wait("the hub to serve its host again", lambda lines: "done" in lines)
        total = 2 * (BEFORE + DURING + AFTER)
        got.wait("every event", lambda lines: len(events(lines)) >= total)
    finally:
        host.kill()
        hub.kill()
        host.wait()
        hub.wait()
        os.close(slave)
    assert said.lines.index("host gone") < said.lines.index("queued") < said.lines.index(
        "host back") < said.lines.index("done")
    seats = [line.split()[1] for line in said.lines if line.startswith("press ")]
    assert len(seats) == BEFORE + DURING + AFTER
    pressed = [f"{kind} seat:{seat}" for seat in seats for kind in ("press", "release")]
    assert events(got.lines) == pressed, "each event once, in order"
