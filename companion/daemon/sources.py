"""Parts that put items on the daemon's queue: GPIO controls, the keyboard, a fed log.

Each runs in its own thread and only calls ``submit``; the daemon's loop does the rest.
"""

from __future__ import annotations

import contextlib
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from typing import Any, TextIO

from companion.daemon.items import FedEvent, FeedFinished, PartFailed, Stop
from companion.daemon.parts import Part, Submit, describe, supervised
from companion.hardware.events import InputEvent
from companion.hardware.pins import PinMap
from companion.table.faults import StorageFull

#: How often the GPIO controls are polled for holds and settling contacts, in seconds.
POLL_SECONDS = 0.02
#: ...and while none is held down or has changed for ``QUIET_SECONDS``: then a poll can only
#: find a change a lock-out hid (which follows an edge within the bounce time), and every
#: wake-up costs CPU (50 a second were ~1 % of a core here, a third of a still table's).
IDLE_POLL_SECONDS = 0.1
QUIET_SECONDS = 1.0


def pin_factory(name: str) -> Any:
    """A gpiozero pin factory by name ("" lets gpiozero choose)."""
    if name == "mock":
        from gpiozero.pins.mock import MockFactory
        return MockFactory()
    if name == "lgpio":
        from gpiozero.pins.lgpio import LGPIOFactory
        return LGPIOFactory()
    if name == "rpigpio":
        from gpiozero.pins.rpigpio import RPiGPIOFactory
        return RPiGPIOFactory()
    return None


class GpioControls(Part):
    """The trap dial, its switch, the seat buttons and the menu button on GPIO. ``clock``
    times bounces and holds (tests give one that moves only as their mock fingers do)."""

    name = "controls"

    def __init__(self, pinmap: PinMap, factory: Any = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.pinmap = pinmap
        self.factory = factory
        self.clock = clock
        self.inputs: Any = None
        self._stop = threading.Event()
        self._wake = threading.Event()  # set by every event reported, and by stop()

    def start(self, submit: Submit) -> None:
        from companion.hardware.inputs import TableInputs

        def emit(item: Any) -> None:
            submit(item)
            self._wake.set()  # a control moved: poll at full rate again at once

        self._stop.clear()
        self.inputs = TableInputs(self.pinmap, emit, pin_factory=self.factory,
                                  clock=self.clock)
        threading.Thread(target=supervised(self.name, submit, lambda: self._poll(submit)),
                         name="controls", daemon=True).start()

    def _poll(self, submit: Submit) -> None:
        while not self._stop.is_set():
            try:
                quiet = self.inputs.quiet(QUIET_SECONDS)
                self._wake.wait(IDLE_POLL_SECONDS if quiet else POLL_SECONDS)
                self._wake.clear()
                if self._stop.is_set():
                    return
                self.inputs.poll()
            except Exception as error:  # noqa: BLE001 - reported, then retried
                submit(PartFailed(self.name, describe(error)))
                return

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()
        if self.inputs is not None:
            with contextlib.suppress(Exception):
                self.inputs.close()
            self.inputs = None


#: The keyboard of ``--sim``: key -> the input events it stands for.
KEYS: dict[str, tuple[InputEvent, ...]] = {
    ".": (InputEvent("dial", "encoder:0", 1, "keyboard"),),
    ",": (InputEvent("dial", "encoder:0", -1, "keyboard"),),
    " ": (InputEvent("press", "encoder-switch:0", 0, "keyboard"),
          InputEvent("release", "encoder-switch:0", 0, "keyboard")),
    "m": (InputEvent("press", "menu", 0, "keyboard"), InputEvent("release", "menu", 0, "keyboard")),
    "u": (InputEvent("press", "menu", 0, "keyboard"), InputEvent("hold", "menu", 1, "keyboard"),
          InputEvent("release", "menu", 0, "keyboard")),
    **{str(seat + 1): (InputEvent("press", f"seat:{seat}", 0, "keyboard"),
                       InputEvent("release", f"seat:{seat}", 0, "keyboard"))
       for seat in range(8)},
}
#: ``h`` then one of these keys holds that control (a key cannot be held down in a terminal).
HOLDS: dict[str, str] = {" ": "encoder-switch:0", "m": "menu",
                         **{str(seat + 1): f"seat:{seat}" for seat in range(8)}}
KEY_HELP = ("keys: . , turn the dial | space press it | m menu | u long press (undo / leave)"
            " | 1-8 seat buttons | h then 1-8 hold (peek), h then space hold the dial"
            " (enter by hand) | tab next seat's screen | q quit")


class KeyPresses:
    """Keys to input events. ``h`` makes the next key a hold: a seat button stays held (its
    peek shown) until the next key; the dial switch and the menu button are let go at once."""

    def __init__(self) -> None:
        self.holding = False  # ``h`` was typed: the next control key is held
        self.held: str | None = None  # the seat button held down until the next key

    def events(self, key: str) -> list[InputEvent]:
        found: list[InputEvent] = []
        if self.held is not None:
            found.append(InputEvent("release", self.held, 0, "keyboard"))
            self.held = None
        key = key.lower()
        if key == "h":
            self.holding = True
            return found
        control = HOLDS.get(key) if self.holding else None
        self.holding = False
        if control is None:
            return found + list(KEYS.get(key, ()))
        found += [InputEvent("press", control, 0, "keyboard"),
                  InputEvent("hold", control, 1, "keyboard")]
        if control.startswith("seat:"):
            self.held = control
        else:
            found.append(InputEvent("release", control, 0, "keyboard"))
        return found


class Keyboard(Part):
    """Keys for the encoder and buttons (``--sim``, see ``KeyPresses``); one key a character,
    Enter not needed on a terminal. ``q`` or the end of input stops the daemon."""

    name = "keyboard"

    def __init__(self, stream: TextIO | None = None,
                 board_keys: dict[str, Callable[[], None]] | None = None,
                 held: Callable[[str], None] | None = None) -> None:
        self.stream = stream
        self.board_keys = board_keys or {}  # keys for the terminal board itself (tab)
        self.held = held  # told of a seat button held (the board shows that seat's screen)
        self._started = False

    def start(self, submit: Submit) -> None:
        if self._started:
            return  # one reader for the whole run: stdin cannot be reopened
        self._started = True
        threading.Thread(target=self._read, args=(submit,), name="keyboard",
                         daemon=True).start()

    def _read(self, submit: Submit) -> None:
        try:
            self.read_keys(submit)
        except Exception as error:  # noqa: BLE001 - reported; the game goes on without keys
            submit(PartFailed(self.name, describe(error)))

    def read_keys(self, submit: Submit) -> None:
        """Read keys on this thread until the end of input or ``q`` (what ``start`` runs in
        the background)."""
        stream = self.stream or sys.stdin
        presses = KeyPresses()
        with _cbreak(stream):
            while True:
                key = stream.read(1)
                if key in ("", "q"):
                    submit(Stop("end of keyboard input" if key == "" else "q pressed"))
                    return
                if key in self.board_keys:
                    self.board_keys[key]()
                    continue
                for event in presses.events(key):
                    if self.held and event.kind == "hold" and event.control.startswith("seat:"):
                        self.held(event.control)
                    submit(event)


@contextlib.contextmanager
def _cbreak(stream: TextIO) -> Any:
    """Keys without Enter on a terminal; a pipe is read as it is."""
    import termios
    import tty

    try:
        descriptor = stream.fileno()
        saved = termios.tcgetattr(descriptor)
    except (OSError, ValueError, AttributeError, termios.error):
        yield
        return
    try:
        tty.setcbreak(descriptor)
        yield
    finally:
        termios.tcsetattr(descriptor, termios.TCSADRAIN, saved)


class FeedSource(Part):
    """The events of a table log, one at a time, each stored before the next is given.

    An event the store has no room for is given again every ``retry_s`` seconds until it is
    stored: the feed waits for space like the table does, and ends with every event once.
    Each event is let go once stored (the table's session keeps its own copy): a long log
    fed does not stay in memory beside the game it became.
    """

    name = "feed"

    def __init__(self, events: Sequence[tuple[int, Any]], retry_s: float = 1.0) -> None:
        self.events = deque(events)
        self.retry_s = retry_s
        self._stop = threading.Event()
        self._started = False

    def start(self, submit: Submit) -> None:
        if self._started:
            return
        self._started = True
        threading.Thread(target=self.feed, args=(submit,), name="feed", daemon=True).start()

    def feed(self, submit: Submit) -> None:
        """Give every event on this thread, each once it is stored (what ``start`` runs in
        the background)."""
        while self.events:
            line, event = self.events[0]
            fed = FedEvent(line, event)
            while True:
                submit(fed)
                while not fed.done.wait(0.1):
                    if self._stop.is_set():
                        return
                if not isinstance(fed.error, StorageFull) or self._stop.wait(self.retry_s):
                    break
                fed = FedEvent(line, event)
            if fed.error is not None:
                return
            self.events.popleft()
            del fed, event  # not held while the next one waits to be stored
        submit(FeedFinished())

    def stop(self) -> None:
        self._stop.set()


class HubLink(Part):
    """The serial hub. Its own thread reconnects by itself; this part reports it as failed
    while it is not connected, so the table sees "hub: not connected" until it is back."""

    name = "hub"

    def __init__(self, port: str, baud: int, grace_s: float = 2.0) -> None:
        self.port = port
        self.baud = baud
        self.grace_s = grace_s
        self.hub: Any = None
        self._stop = threading.Event()

    def start(self, submit: Submit) -> None:
        from companion.hardware.hub import Hub

        if self.hub is None:
            # A fresh link gets a grace period to connect (the watcher's); a retry does not.
            self.hub = Hub(submit, self.port or None, baudrate=self.baud).start()
        elif self.hub.fault is not None:
            raise OSError(str(self.hub.fault))
        elif not self.hub.connected:
            raise OSError(f"not connected ({self.port or 'looking for the hub'})")
        self._stop.clear()
        threading.Thread(target=supervised(self.name, submit, lambda: self._watch(submit)),
                         name="hub-watch", daemon=True).start()

    def _watch(self, submit: Submit) -> None:
        # A hub that never connects, or drops out, is reported once; the retry restarts this.
        if not self.hub.wait_connected(self.grace_s):
            if not self._stop.is_set():
                reason = self.hub.fault or f"not connected ({self.port})"
                submit(PartFailed(self.name, str(reason)))
            return
        while not self._stop.wait(0.2):
            if not self.hub.connected:
                submit(PartFailed(self.name, f"unplugged ({self.port})"))
                return

    def stop(self) -> None:
        # The hub's thread keeps looking for the port; only the watcher stops here.
        self._stop.set()

    def close(self) -> None:
        self._stop.set()
        if self.hub is not None:
            self.hub.close()
            self.hub = None
