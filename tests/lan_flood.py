"""A LAN host that misbehaves, for the web tests: bare TCP connections held open, and requests
whose head is never finished (issue 53), watched for when the server closes each one.

The sockets connect without blocking, so a server that stops accepting cannot stall the test;
``closed`` says which of them the server has closed (end of file or a reset) and when, as seen
from this side.
"""

from __future__ import annotations

import contextlib
import errno
import os
import resource
import selectors
import socket
import time

#: A request head cut short: the blank line that would end it never comes.
HALF_HEAD = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: slow\r\nX-Padding: "


def room_for(sockets: int) -> None:
    """Let this process hold ``sockets`` more open files (its soft limit up to the hard one)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = sockets + 256
    if soft < wanted:
        if hard != resource.RLIM_INFINITY and hard < wanted:
            raise RuntimeError(f"this test needs {wanted} open files; the hard limit is {hard}")
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))


class Flood:
    """``idle`` bare connections and ``half`` half-sent requests to ``address``, from ``source``
    (an address of this machine), held until ``close``. They are opened ``batch`` at a time,
    each batch once the one before is up (``more``): a burst larger than the server's accept
    queue would only wait for the kernel's SYN retries, not reach the server any sooner."""

    def __init__(self, address: tuple[str, int], idle: int, half: int,
                 source: str = "127.0.0.1", batch: int = 50) -> None:
        room_for(idle + half)
        self.address, self.source, self.batch = address, source, batch
        self.to_open = [False] * idle + [True] * half  # True: a half-sent request
        self.selector = selectors.DefaultSelector()
        self.opened: dict[socket.socket, float] = {}
        self.up: set[socket.socket] = set()  # connected, as far as this side knows
        self.closed: dict[socket.socket, float] = {}  # socket -> when the server closed it
        self.unsent: set[socket.socket] = set()  # half requests still to send their bytes

    @property
    def opening(self) -> bool:
        """Whether some connections are still to be opened or to come up."""
        return bool(self.to_open) or len(self.up | self.closed.keys()) < len(self.opened)

    def more(self) -> None:
        """Open the next batch, once every connection opened so far is up (or closed)."""
        if len(self.up | self.closed.keys()) < len(self.opened):
            return
        for half in self.to_open[:self.batch]:
            sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            sock.bind((self.source, 0))
            sock.setblocking(False)
            result = sock.connect_ex(self.address)
            if result not in (0, errno.EINPROGRESS):
                raise OSError(result, os.strerror(result))
            self.opened[sock] = time.monotonic()
            if half:
                self.unsent.add(sock)
            self.selector.register(sock, selectors.EVENT_READ | selectors.EVENT_WRITE)
        del self.to_open[:self.batch]

    def watch(self, seconds: float = 0.0) -> None:
        """Note the connections that came up (sending the half requests their bytes) and those
        the server closed; waits at most ``seconds`` for something to happen."""
        for key, events in self.selector.select(seconds):
            sock = key.fileobj
            assert isinstance(sock, socket.socket)
            if events & selectors.EVENT_WRITE:
                if not sock.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR):
                    self.up.add(sock)
                    if sock in self.unsent:
                        with contextlib.suppress(OSError):  # closed first: seen on reading
                            sock.send(HALF_HEAD)
                self.unsent.discard(sock)
                self.selector.modify(sock, selectors.EVENT_READ)
            if events & selectors.EVENT_READ:
                try:
                    data = sock.recv(4096)
                except BlockingIOError:
                    continue
                except OSError:
                    data = b""  # reset, or refused
                if not data:
                    self.closed[sock] = time.monotonic()
                    self.selector.unregister(sock)

    @property
    def held(self) -> int:
        """Connections opened that the server has not closed."""
        return len(self.opened) - len(self.closed)

    def longest_open(self) -> float:
        """The longest any closed connection stayed open before the server closed it."""
        return max((self.closed[s] - self.opened[s] for s in self.closed), default=0.0)

    def close(self) -> None:
        self.selector.close()
        for sock in self.opened:
            sock.close()
