"""Opening the store's SQLite file: privately for writing, read-only for reading.

The store holds every secret of every game, so a file (and folders) it creates are the
owner's only: 0600 in 0700 folders. A command that only reads never writes, so it can read a
store on a read-only file or mount.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from companion.table.faults import StoreError, guard

PRIVATE_FOLDER = 0o700
PRIVATE_FILE = 0o600
#: How long a writer waits for another connection's write to finish, in seconds.
BUSY_TIMEOUT = 30
#: The write-ahead log is copied into the store (checkpointed) once it holds this many
#: pages (128 KiB), not SQLite's default 1000 (4 MiB): on a small volume a log allowed to
#: grow that far fills the disk long before the games do (778 KB for 85 events), and
#: could never be checkpointed there at all.
WAL_PAGES = 32
#: A write-ahead log file bigger than this is cut back to it whenever it starts over.
WAL_LIMIT = 256 * 1024


def make_private_folders(folder: Path) -> None:
    """Create ``folder`` and any missing parents as 0700; folders already there are left."""
    missing: list[Path] = []
    while not folder.exists() and folder != folder.parent:
        missing.append(folder)
        folder = folder.parent
    for path in reversed(missing):
        try:
            path.mkdir(mode=PRIVATE_FOLDER)
        except FileExistsError:
            pass  # made meanwhile by someone else
        except OSError as error:
            raise StoreError(f"cannot create the folder {path} for the table store: "
                             f"{error.strerror}") from None


def create_private_file(path: Path) -> bool:
    """Create ``path`` empty as 0600 unless it exists; True if this call created it."""
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE_FILE))
    except FileExistsError:
        return False
    except OSError as error:
        raise StoreError(f"cannot create the table store {path}: {error.strerror}") from None
    return True


def connect_for_writing(path: str) -> sqlite3.Connection:
    """The store at ``path``, created private if missing, in WAL mode with full syncs."""
    created = False
    if path != ":memory:":
        make_private_folders(Path(path).parent)
        created = create_private_file(Path(path))
    try:
        with guard(path):
            db = sqlite3.connect(path, isolation_level=None, timeout=BUSY_TIMEOUT)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            db.execute(f"PRAGMA wal_autocheckpoint={WAL_PAGES}")
            db.execute(f"PRAGMA journal_size_limit={WAL_LIMIT}")
    except StoreError:
        if created:
            Path(path).unlink(missing_ok=True)  # leave nothing behind but what was there
        raise
    return db


def connect_for_reading(path: str) -> sqlite3.Connection | None:
    """The store at ``path`` opened read-only, or None if there is no file there."""
    file = Path(path)
    if not file.exists():
        return None
    uri = file.absolute().as_uri() + "?mode=ro"
    with guard(path):
        db = sqlite3.connect(uri, uri=True, isolation_level=None, timeout=BUSY_TIMEOUT)
        try:
            db.execute("PRAGMA schema_version").fetchone()
        except sqlite3.OperationalError as error:
            if not _no_shm_to_be_had(error, file):
                raise
            # A WAL store on a read-only mount (or a full disk) has no -shm file and cannot
            # get one, so nobody is writing it; with no WAL to replay it is read as it lies.
            db.close()
            db = sqlite3.connect(uri + "&immutable=1", uri=True, isolation_level=None)
            db.execute("PRAGMA schema_version").fetchone()
    return db


def _no_shm_to_be_had(error: sqlite3.OperationalError, file: Path) -> bool:
    """Whether ``error`` is SQLite failing to make the -shm file of a store whose WAL is empty."""
    code = error.sqlite_errorcode
    if code & 0xFF != sqlite3.SQLITE_CANTOPEN and code != sqlite3.SQLITE_IOERR_SHMSIZE:
        return False
    wal = file.with_name(file.name + "-wal")
    return not wal.exists() or wal.stat().st_size == 0
