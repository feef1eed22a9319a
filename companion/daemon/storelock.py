"""One daemon per table store: an exclusive lock on a file beside the database.

A second daemon on the same store would show a stale table and then fail on its first
write; it is refused at start instead, naming the process that holds the store. The lock
is the kernel's (``flock``), so it goes with its holder however that ends, SIGKILL and
power cuts included: no stale lock to clear by hand.

Example::

    with hold_store(Path("table.db")):   # StoreInUse if another daemon has it
        ...
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from collections.abc import Iterator
from pathlib import Path

from companion.errors import CompanionError
from companion.table.opening import make_private_folders


class StoreInUse(CompanionError):
    """Another daemon holds the table store."""


def lock_path(db: Path) -> Path:
    """The lock file of the store ``db``: beside it, ``table.db.lock``."""
    return db.with_name(db.name + ".lock")


@contextlib.contextmanager
def hold_store(db: Path) -> Iterator[None]:
    """Hold the store ``db`` for this process until the block ends (see module docstring)."""
    path = lock_path(db)
    make_private_folders(db.parent)  # the lock comes before the store, and so its folder
    try:
        descriptor = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
    except OSError as error:
        raise CompanionError(f"cannot lock the table store: {path}: {error.strerror}") from None
    try:
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise StoreInUse(
                f"the table store {db} is in use by another companion daemon "
                f"({_holder(descriptor)}): stop it first, or give this one another --db"
            ) from None
        os.ftruncate(descriptor, 0)
        # The pid only names the holder to a second daemon; the lock holds without it (a
        # full disk must not stop the daemon that would wait for room).
        with contextlib.suppress(OSError):
            os.write(descriptor, f"{os.getpid()}\n".encode())
        yield
    finally:
        os.close(descriptor)  # releases the lock; the file stays (unlinking it would race)


def _holder(descriptor: int) -> str:
    """``pid N`` of the holder, as it wrote it when it took the lock."""
    with contextlib.suppress(OSError, ValueError):
        pid = int(os.pread(descriptor, 32, 0).decode().strip())
        return f"pid {pid}"
    return "pid unknown: it is just starting"
