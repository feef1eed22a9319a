"""What can go wrong with the SQLite file under the table store, said in one clear line.

Every call into SQLite goes through ``guard``: a full disk, a damaged page, a read-only
file or a busy store becomes a StoreError naming the store, never a raw sqlite3 traceback.

>>> db = sqlite3.connect(":memory:")
>>> db.execute("PRAGMA max_page_count = 1").fetchone()
(1,)
>>> with guard("table.db"):
...     db.execute("CREATE TABLE events (body TEXT)")
Traceback (most recent call last):
...
companion.table.faults.StorageFull: storage full: the table store table.db cannot grow \
(database or disk is full); free some space and it is written again
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager

from companion.errors import CompanionError


class StoreError(CompanionError):
    """The store cannot be opened, read or written (path, permissions, not a table store)."""


class StorageFull(StoreError):
    """The disk (or the store's size limit) is full: nothing was written, try again later."""


class StoreDamaged(StoreError):
    """The file is not a table store, or pages of it are damaged.

    ``detail`` is what is wrong without the way out, for `companion check`'s own report.
    """

    def __init__(self, message: str, detail: str = "") -> None:
        super().__init__(message)
        self.detail = detail or message


def damaged(path: str, detail: str) -> StoreDamaged:
    """The error for a store with damaged pages, and the way out."""
    return StoreDamaged(f"the table store {path} is damaged ({detail}): "
                        f"`companion check --db {path}` says which sessions can still be "
                        "exported", f"damaged ({detail})")


def store_error(error: sqlite3.DatabaseError, path: str) -> StoreError:
    """The StoreError a user should read for this SQLite error on the store at ``path``."""
    extended = getattr(error, "sqlite_errorcode", None) or 0
    # Extended result codes (SQLITE_IOERR_WRITE, ...) carry their primary code in the low byte.
    code = extended & 0xFF
    # No room for the -shm file SQLite needs to open a WAL store is a full disk too.
    if code == sqlite3.SQLITE_FULL or extended == sqlite3.SQLITE_IOERR_SHMSIZE:
        return StorageFull(f"storage full: the table store {path} cannot grow ({error}); "
                           "free some space and it is written again")
    if code == sqlite3.SQLITE_NOTADB:
        return StoreDamaged(f"{path} is not a table store, or its first page is damaged "
                            f"({error})")
    if code == sqlite3.SQLITE_CORRUPT:
        return damaged(path, str(error))
    if code == sqlite3.SQLITE_READONLY:
        return StoreError(f"the table store {path} is read-only ({error})")
    if code in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
        return StoreError(f"the table store {path} is busy: another program is writing it")
    if code == sqlite3.SQLITE_CANTOPEN:
        return StoreError(f"cannot open the table store {path} ({error})")
    return StoreError(f"the table store {path}: {error}")


@contextmanager
def guard(path: str) -> Iterator[None]:
    """Turn any SQLite error raised inside into the StoreError a user should read."""
    try:
        yield
    except sqlite3.DatabaseError as error:
        raise store_error(error, path) from None
