"""A hub that is not there: the firmware's side of the protocol on a pseudo-terminal.

For tests, benchmarks and ``companion run --sim``: ``link`` is a symlink standing for
/dev/companion-hub. ``plug`` makes a fresh pty and points the link at it; ``unplug`` closes
it, which the host sees exactly as a pulled USB cable (reads fail with EIO). The protocol
state (events not yet acknowledged, boot id) survives unplugging, like a hub that stayed
powered; ``reboot`` forgets it.

Example::

    hub = FakeHub("/tmp/hub").plug()
    hub.press("seat", 2)
"""

from __future__ import annotations

import os
import select
import threading
import time
import tty
from pathlib import Path

from companion.hardware import hubproto


class FakeHub:
    """The firmware's :class:`~companion.hardware.hubproto.HubSide` served on a pty."""

    def __init__(self, link: str | os.PathLike[str], *, boot: int = 1, firmware: str = "fake",
                 major: int = hubproto.PROTOCOL_MAJOR, capacity: int = 4096) -> None:
        self.link = Path(link)
        self.core = hubproto.HubSide(boot, firmware, major=major, capacity=capacity)
        #: While True the hub hears nothing and says nothing (a hung firmware).
        self.mute = False
        self._lock = threading.Lock()
        self._fds: tuple[int, int] | None = None
        self._pending = b""
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    @property
    def plugged(self) -> bool:
        return self._fds is not None

    def plug(self) -> FakeHub:
        """Plug the hub in: a new pty, the link pointing at it."""
        with self._lock:
            if self._fds is not None:
                return self
            master, slave = os.openpty()
            # Raw from the start, so nothing is echoed before the host configures the port.
            tty.setraw(slave)
            os.set_blocking(master, False)
            self._fds = (master, slave)
            self._pending = b""
            temporary = self.link.with_name(self.link.name + ".new")
            temporary.unlink(missing_ok=True)
            temporary.symlink_to(os.ttyname(slave))
            temporary.replace(self.link)
        if self._thread is None:
            self._stop.clear()
            self._thread = threading.Thread(target=self._serve, name="fake-hub", daemon=True)
            self._thread.start()
        return self

    def unplug(self) -> None:
        """Pull the cable: the pty goes away, whatever was in flight is lost."""
        with self._lock:
            if self._fds is None:
                return
            self.link.unlink(missing_ok=True)
            for fd in self._fds:
                os.close(fd)
            self._fds = None
            self.core.connected = False

    def reboot(self) -> None:
        """Power-cycle the hub: a new boot id, queued events forgotten."""
        with self._lock:
            core = self.core
            self.core = hubproto.HubSide(core.boot + 1, core.firmware, major=core.major,
                                         capacity=core.capacity)

    def add_event(self, kind: str, control: str, index: int = 0, value: int = 0) -> None:
        with self._lock:
            self.core.add_event(kind, control, index, value)

    def press(self, control: str, index: int = 0) -> None:
        """A press and a release of a button."""
        with self._lock:
            self.core.add_event("press", control, index)
            self.core.add_event("release", control, index)

    def noise(self, to_host: bytes = b"", to_hub: bytes = b"") -> None:
        """Line noise: ``to_host`` goes out between the hub's frames, ``to_hub`` is heard as if
        the host had sent it."""
        with self._lock:
            if to_hub:
                self.core.receive(to_hub, time.monotonic() * 1000)
            self._pending += to_host

    def leave_in_port(self, data: bytes) -> None:
        """Bytes already waiting in the port for the host to read (a hub that talked before
        anyone listened: the host must not take them for events)."""
        with self._lock:
            if self._fds is None:
                raise RuntimeError("the fake hub is not plugged in")
            os.write(self._fds[0], data)

    def turn(self, index: int, detents: int) -> None:
        """Turn encoder ``index`` by ``detents`` (negative: counter-clockwise)."""
        self.add_event("dial", "encoder", index, detents)

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
            self._thread = None
        self.unplug()

    def __enter__(self) -> FakeHub:
        return self.plug()

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def _serve(self) -> None:
        while not self._stop.is_set():
            master = self._fds[0] if self._fds else None
            if master is None:
                time.sleep(0.002)
                continue
            try:
                readable, _, _ = select.select([master], [], [], 0.002)
            except (OSError, ValueError):
                continue  # unplugged under our feet
            with self._lock:
                if self._fds is None or self._fds[0] != master:
                    continue
                now = time.monotonic() * 1000
                if readable:
                    try:
                        data = os.read(master, 4096)
                    except OSError:
                        data = b""
                    if data and not self.mute:
                        self.core.receive(data, now)
                if not self.mute:
                    self._pending += self.core.tick(now)
                if self._pending:
                    try:
                        written = os.write(master, self._pending)
                    except BlockingIOError:
                        written = 0
                    self._pending = self._pending[written:]
