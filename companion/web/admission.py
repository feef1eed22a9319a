"""Which connections the pages' server takes, so that no host on the LAN can use up the
daemon's open files (issue 53).

Each connection is one open file of the daemon's, which it shares with its store, its fonts
and its camera. So:

- At most ``per_address`` connections from one address (an IPv6 address counts by its /64)
  and ``total`` in all, well below the process's open-file limit (``limits``).
- A connection over either bound takes the place of the oldest one of that address (or of
  all) that has not sent a whole request head yet: bare sockets and half-sent heads cannot
  crowd out a page that asks at once. Where there is none, the new one is closed at once,
  before aiohttp sees it.
- What is left open is bounded in time by aiohttp's own ``keepalive_timeout``
  (``IDLE_SECONDS``): from the moment a connection is made, and again after each answer, a
  connection that has not sent a whole request is closed.
- A burst of refusals (and of accept errors, ``quiet_accept_errors``) is one line in the
  log, not one per connection.

>>> door = Admission(lambda: None, per_address=2, total=3)
>>> first, second, third, other, more = [door() for _ in range(5)]
>>> [door.admit(connection, "10.0.0.9") for connection in (first, second, third)]
[True, True, True]
>>> door.count("10.0.0.9"), first.evicted   # room made: the oldest had asked nothing yet
(2, True)
>>> door.headed(second); door.headed(third)  # both asked: neither makes room any more
>>> door.admit(other, "10.0.0.9"), door.admit(more, "10.0.0.8"), door.count("10.0.0.8")
(False, True, 1)
"""

from __future__ import annotations

import asyncio
import errno
import logging
import resource
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from companion.web.tokens import address_key

log = logging.getLogger("companion.web")

#: A connection with no whole request (none yet, or half of one) is closed after this long,
#: and so is one idle this long after its last answer (aiohttp's ``keepalive_timeout``).
IDLE_SECONDS = 15.0
#: Connections from one address at most: a browser keeps a socket per page and up to six
#: requests' connections to a host (a laptop with the table page, the controls and a seat's
#: page in three windows holds about 20; Chromium with six pages, 40).
PER_ADDRESS = 64
#: Connections in all at most, whatever the open-file limit.
MOST = 256
#: The kernel's queue of connections not yet accepted: each accept wakes up takes at most
#: this many at once, before any can be closed (open files for a moment).
ACCEPT_BACKLOG = 64
#: Open files kept for the rest of the daemon: its store, fonts, catalogues, camera, pipes.
RESERVED = 128
#: A burst of refusals ends after this long without one (the next is a new line in the log).
QUIET_SECONDS = 10.0
#: What ``accept`` fails with when the process or the system has no file or memory left.
OUT_OF_RESOURCES = (errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM)


def limits(open_files: int | None = None) -> tuple[int, int]:
    """(per address, in all) for a process that may open ``open_files`` files (default: its
    soft limit): the pages take at most half of what is left beside the daemon's own.

    >>> limits(1024), limits(65536), limits(200)
    ((64, 256), (64, 256), (8, 8))
    """
    if open_files is None:
        open_files = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
        if open_files == resource.RLIM_INFINITY:
            open_files = 1 << 20
    total = max(8, min(MOST, (open_files - RESERVED - ACCEPT_BACKLOG) // 2))
    return min(PER_ADDRESS, total), total


class Burst:
    """One log line per burst of a kind of trouble: the first one after a quiet while.

    >>> now = [0.0]
    >>> burst = Burst(clock=lambda: now[0])
    >>> [burst.starts() for _ in range(3)], now.__setitem__(0, 60.0), burst.starts()
    ([True, False, False], None, True)
    """

    def __init__(self, quiet: float = QUIET_SECONDS,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.quiet, self.clock = quiet, clock
        self.last: float | None = None
        self.count = 0  # in the burst so far

    def starts(self) -> bool:
        """Record one; whether it begins a new burst."""
        now = self.clock()
        new = self.last is None or now - self.last > self.quiet
        self.last = now
        self.count = 1 if new else self.count + 1
        return new


class DoorConnection(asyncio.Protocol):
    """One connection at the door: admitted (then everything is handed to aiohttp's own
    protocol, ``inner``) or closed at once."""

    def __init__(self, door: Admission) -> None:
        self.door = door
        self.inner: asyncio.Protocol | None = None
        self.transport: asyncio.BaseTransport | None = None
        self.key = ""
        self.headed = False  # a whole request head has come (no longer evictable)
        self.tail = b""  # the last bytes, to find a head's end across reads
        self.evicted = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport
        peer = transport.get_extra_info("peername")
        if not self.door.admit(self, str(peer[0]) if peer else ""):
            transport.abort()
            return
        self.inner = self.door.handler()
        self.inner.connection_made(transport)

    def data_received(self, data: bytes) -> None:
        if self.inner is None:
            return
        if not self.headed:
            received = self.tail + data
            if b"\r\n\r\n" in received:
                self.headed = True
                self.door.headed(self)
            else:
                self.tail = received[-3:]
        self.inner.data_received(data)

    def eof_received(self) -> bool | None:
        return self.inner.eof_received() if self.inner is not None else None

    def pause_writing(self) -> None:
        if self.inner is not None:
            self.inner.pause_writing()

    def resume_writing(self) -> None:
        if self.inner is not None:
            self.inner.resume_writing()

    def connection_lost(self, exc: Exception | None) -> None:
        self.door.left(self)
        if self.inner is not None:
            self.inner.connection_lost(exc)

    def evict(self) -> None:
        """Closed to make room: it had not asked anything whole."""
        self.evicted = True
        if self.transport is not None:
            self.transport.abort()


class Admission:
    """The protocol factory the listening socket uses in place of aiohttp's ``Server``
    (``handler``): it counts connections by address and in all and admits them or not."""

    def __init__(self, handler: Callable[[], Any], per_address: int | None = None,
                 total: int | None = None) -> None:
        default_per_address, default_total = limits()
        self.handler = handler
        self.per_address = per_address or default_per_address
        self.total = total or default_total
        self.open: dict[str, set[DoorConnection]] = {}  # address -> its connections admitted
        #: The connections with no whole head yet, oldest first.
        self.waiting: OrderedDict[DoorConnection, str] = OrderedDict()
        self.admitted = 0
        self.refused = 0  # closed at once, or to make room, since the start
        self.burst = Burst()

    def __call__(self) -> DoorConnection:
        return DoorConnection(self)

    def count(self, address: str) -> int:
        return len(self.open.get(address_key(address), ()))

    def admit(self, connection: DoorConnection, address: str) -> bool:
        """Whether ``connection`` from ``address`` may come in (room made for it if need be)."""
        key = connection.key = address_key(address)
        mine = self.open.setdefault(key, set())
        if len(mine) >= self.per_address and not self._make_room(key):
            return self._refuse(key)
        if self.admitted >= self.total and not self._make_room(None):
            return self._refuse(key)
        mine.add(connection)
        self.waiting[connection] = key
        self.admitted += 1
        return True

    def _make_room(self, key: str | None) -> bool:
        """Close the oldest connection (of ``key``, or of any address) with no whole request
        yet; False if there is none."""
        victim = next((waiting for waiting, of in self.waiting.items() if key in (None, of)), None)
        if victim is None:
            return False
        self.left(victim)
        self._count_refusal(victim.key)
        victim.evict()
        return True

    def _refuse(self, key: str) -> bool:
        self._count_refusal(key)
        if not self.open.get(key):
            self.open.pop(key, None)
        return False

    def _count_refusal(self, key: str) -> None:
        self.refused += 1
        if self.burst.starts():
            log.warning("too many connections from %s: at most %d from one address, %d in all; "
                        "the extra ones are closed (one line per burst)",
                        key, self.per_address, self.total)

    def headed(self, connection: DoorConnection) -> None:
        """``connection`` sent a whole request head: it is not closed to make room any more."""
        self.waiting.pop(connection, None)

    def left(self, connection: DoorConnection) -> None:
        """``connection`` closed (or closed to make room): it no longer counts. Idempotent."""
        self.waiting.pop(connection, None)
        mine = self.open.get(connection.key)
        if mine is not None and connection in mine:
            mine.discard(connection)
            self.admitted -= 1
            if not mine:
                del self.open[connection.key]


def quiet_accept_errors(loop: asyncio.AbstractEventLoop) -> None:
    """Out of open files or memory, asyncio's accept logs a traceback each time it tries (tens
    of thousands a second); here a burst of them is one line. Anything else is left to
    asyncio's own handler."""
    burst = Burst()

    def handler(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        error = context.get("exception")
        if isinstance(error, OSError) and error.errno in OUT_OF_RESOURCES and \
                "accept" in str(context.get("message", "")):
            if burst.starts():
                log.error("cannot accept connections: %s; one line per burst",
                          error.strerror or error)
            return
        loop.default_exception_handler(context)

    loop.set_exception_handler(handler)
