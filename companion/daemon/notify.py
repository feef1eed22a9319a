"""systemd's notification socket: READY once the table is up, WATCHDOG pings while alive.

Without systemd (no ``$NOTIFY_SOCKET``) every call does nothing, so the same daemon runs in a
terminal. The watchdog is pinged at half the interval systemd asks for (``$WATCHDOG_USEC``).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable

import sdnotify


class Notifier:
    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._systemd = sdnotify.SystemdNotifier()
        self._clock = clock
        usec = os.environ.get("WATCHDOG_USEC", "")
        self.interval = int(usec) / 2e6 if usec.isdigit() and int(usec) > 0 else None
        self._last_ping = float("-inf")

    def ready(self, status: str) -> None:
        self._systemd.notify(f"READY=1\nSTATUS={status}")

    def status(self, status: str) -> None:
        self._systemd.notify(f"STATUS={status}")

    def watchdog(self) -> None:
        """Ping if half the watchdog interval has passed since the last ping."""
        now = self._clock()
        if self.interval is not None and now - self._last_ping >= self.interval:
            self._systemd.notify("WATCHDOG=1")
            self._last_ping = now

    def stopping(self) -> None:
        self._systemd.notify("STOPPING=1")
