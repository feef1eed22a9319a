"""The serial hub: a Raspberry Pi Pico with more trap dials and seat buttons, over USB.

Its events become the same :class:`~companion.hardware.events.InputEvent` s as the Pi's own
pins (``source="hub"``), handed to ``emit`` from the hub's own thread, so the daemon's loop
never waits on the serial port. The hub may be plugged in late, pulled out and put back:
the thread reconnects with backoff, and the protocol (firmware/PROTOCOL.md) delivers every
event the hub took exactly once, in order.

Example::

    events = queue.Queue()
    with Hub(events.put) as hub:          # finds /dev/companion-hub by itself
        event = events.get()               # InputEvent(kind='press', control='seat:2', ...)
"""

from __future__ import annotations

import glob
import logging
import os
import threading
import time
from collections.abc import Callable
from types import TracebackType

import serial

from companion.errors import CompanionError
from companion.hardware import hubproto
from companion.hardware.events import InputEvent
from companion.hardware.hubhost import HostSide

log = logging.getLogger(__name__)

#: The udev rule in systemd/99-companion-hub.rules names the hub this.
UDEV_LINK = "/dev/companion-hub"
#: Where the kernel lists USB serial devices by a name that survives replugging.
BY_ID_PATTERN = "/dev/serial/by-id/usb-MicroPython*-if00"

Emit = Callable[[InputEvent], None]


class HubError(CompanionError):
    """The hub cannot be used: wrong firmware, or it stopped answering."""


def find_port(port: str | None = None) -> str | None:
    """The hub's serial port: ``port`` if given, else the udev link, else a MicroPython board
    under /dev/serial/by-id; None if nothing is plugged in."""
    if port:
        return port if os.path.exists(port) else None
    if os.path.exists(UDEV_LINK):
        return UDEV_LINK
    boards = sorted(glob.glob(BY_ID_PATTERN))
    return boards[0] if boards else None


def input_events(kind: str, control: str, index: int, value: int) -> list[InputEvent]:
    """The input events of one hub event; a dial event of n detents becomes n events of one.

    >>> input_events("dial", "encoder", 1, -2)  # doctest: +NORMALIZE_WHITESPACE
    [InputEvent(kind='dial', control='encoder:1', value=-1, source='hub'),
     InputEvent(kind='dial', control='encoder:1', value=-1, source='hub')]
    """
    name = control if control == "menu" else f"{control}:{index}"
    if kind == "dial":
        step = 1 if value > 0 else -1
        return [InputEvent("dial", name, step, "hub") for _ in range(abs(value))]
    return [InputEvent(kind, name, value, "hub")]  # type: ignore[arg-type]


class Hub:
    """The hub on its serial port, served by a background thread once ``start`` is called.

    ``emit`` gets every event (from the hub's thread: hand it a ``queue.Queue.put`` or
    anything else thread-safe). ``port`` defaults to :func:`find_port`, looked up again at
    every reconnection. A hub with an incompatible firmware is refused: ``fault`` says
    why and the thread stops.
    """

    def __init__(self, emit: Emit, port: str | None = None, *, baudrate: int = 115200,
                 backoff_s: tuple[float, float] = (0.05, 2.0), heartbeat_s: float = 1.0,
                 retry_s: float = 0.25, tries: int = 4) -> None:
        self.emit = emit
        self.port = port
        self.baudrate = baudrate
        self.backoff_s = backoff_s
        self.session = HostSide(retry_ms=retry_s * 1000, tries=tries,
                                heartbeat_ms=heartbeat_s * 1000)
        #: Why the hub was refused (an incompatible firmware), else None.
        self.fault: HubError | None = None
        #: Successful handshakes so far (the first connection and every reconnection).
        self.connections = 0
        self._connected = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._ping_lock = threading.Lock()
        self._ping_due = False
        self._pinged = threading.Event()

    @property
    def connected(self) -> bool:
        """True while the hub is plugged in and has answered the handshake."""
        return self._connected.is_set()

    @property
    def running(self) -> bool:
        """True between ``start`` and ``close`` (the serving thread is alive)."""
        return self._thread is not None

    @property
    def firmware(self) -> str | None:
        """The firmware version the hub reported, once it has."""
        return self.session.firmware

    def start(self) -> Hub:
        """Start serving the hub in the background; returns at once."""
        if self._thread is None:
            self._stop.clear()
            self._thread = threading.Thread(target=self._run, name="companion-hub", daemon=True)
            self._thread.start()
        return self

    def close(self) -> None:
        """Stop the thread and release the port."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
            self._thread = None

    def __enter__(self) -> Hub:
        return self.start()

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()

    def wait_connected(self, timeout: float | None = None) -> bool:
        """Wait until the hub is connected (for diagnostics and tests, not the daemon loop)."""
        return self._connected.wait(timeout)

    def round_trip(self, timeout: float = 1.0) -> float:
        """Seconds a heartbeat takes to reach the hub and come back."""
        with self._ping_lock:
            self._pinged.clear()
            self._ping_due = True
            if not self._pinged.wait(timeout):
                raise HubError(f"the hub did not answer a heartbeat within {timeout} s")
            return self.session.round_trips[-1] / 1000

    def _run(self) -> None:
        delay = self.backoff_s[0]
        while not self._stop.is_set():
            path = find_port(self.port)
            if path is not None:
                connections = self.connections
                try:
                    self._serve(path)
                except hubproto.VersionMismatch as error:
                    self.fault = HubError(str(error))
                    log.error("hub on %s refused: %s", path, error)
                    return
                except (serial.SerialException, OSError, hubproto.LinkDead) as error:
                    if self._connected.is_set():
                        log.warning("hub on %s lost: %s", path, error)
                    else:
                        log.debug("hub on %s not reachable: %s", path, error)
                except Exception:
                    # A fault of ours must not leave the table without its hub for good.
                    log.exception("hub on %s: unexpected failure, reconnecting", path)
                finally:
                    self._connected.clear()
                if self.connections > connections:
                    delay = self.backoff_s[0]
            self._stop.wait(delay)
            delay = min(delay * 2, self.backoff_s[1])

    def _serve(self, path: str) -> None:
        with serial.Serial(path, self.baudrate, timeout=0.01, write_timeout=0.5,
                           exclusive=True) as link:
            # Bytes from before this connection belong to nobody.
            link.reset_input_buffer()
            session = self.session
            session.connect(_now_ms())
            handshakes = session.handshakes
            while not self._stop.is_set():
                if self._ping_due:
                    self._ping_due = False
                    session.ping(_now_ms())
                out = session.tick(_now_ms())
                if out:
                    link.write(out)
                data = link.read(max(1, link.in_waiting))
                if data:
                    answered, skipped = session.answers, session.skipped
                    for event in session.receive(data, _now_ms()):
                        self._deliver(*event)
                    if session.answers > answered:
                        self._pinged.set()
                    if session.skipped > skipped:
                        log.warning("hub on %s no longer held %d events: lost",
                                    path, session.skipped - skipped)
                if session.handshakes > handshakes:
                    # The first handshake on this port, or a HELLO said again after a stall.
                    handshakes = session.handshakes
                    self.connections += 1
                    self._connected.set()
                    log.info("hub on %s: firmware %s", path, session.firmware)

    def _deliver(self, kind: str, control: str, index: int, value: int) -> None:
        for event in input_events(kind, control, index, value):
            try:
                self.emit(event)
            except Exception:
                # A fault in the receiver must not cut the hub off the table.
                log.exception("emit failed for %s", event)


def _now_ms() -> float:
    return time.monotonic() * 1000
