"""The daemon's moments (ready, stopping) and who is told of each.

A part says what it reacts to when it is added (``Part.listens``), the way Klipper's parts call
``register_event_handler("klippy:ready", ...)``; the daemon sends each moment once. Nobody sets
an attribute on another object to be told.

>>> moments = Lifecycle()
>>> moments.register(Moment.READY, lambda: print("library loading"))
>>> moments.send(Moment.READY)
library loading
>>> moments.send(Moment.STOPPING)  # nobody listens: nothing happens
"""

from __future__ import annotations

import enum
import logging
from collections.abc import Callable

log = logging.getLogger("companion.daemon")

#: What a part runs when a moment comes: in the daemon's thread, quickly.
Handler = Callable[[], None]


class Moment(enum.Enum):
    """What the daemon announces to its parts."""

    #: The parts are started, the screens drawn, READY sent to systemd.
    READY = "ready"
    #: The loop has ended; the parts are stopped next.
    STOPPING = "stopping"


class Lifecycle:
    """The handlers of each moment, called in the order they were registered; one that
    raises is logged, and the others are called all the same (a part's mistake does not
    keep the daemon from starting, nor from closing the other parts)."""

    def __init__(self) -> None:
        self._handlers: dict[Moment, list[Handler]] = {moment: [] for moment in Moment}

    def register(self, moment: Moment, handler: Handler) -> None:
        self._handlers[moment].append(handler)

    def send(self, moment: Moment) -> None:
        for handler in self._handlers[moment]:
            try:
                handler()
            except Exception:  # noqa: BLE001 - logged whole; the other parts are told
                log.exception("a handler of %s failed: %r", moment.value, handler)
