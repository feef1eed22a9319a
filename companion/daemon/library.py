"""The table's card library: the file the camera reads, and a deck enrolled at the table
handed from the daemon's loop to the camera's thread.

The file is ``[vision] library`` where the config names one, else ``cards.npz`` beside the
table store (the state directory): read when it is there, the demo art's faces until a deck
is enrolled. An enrolled deck is written there atomically (``CardLibrary.save``: a power
cut leaves the old file or the new one), then handed to the camera, which reads with it
from its next frame (``newer``); the next start reads the file.

>>> from pathlib import Path
>>> TableLibrary(Path("/var/lib/companion/cards.npz"), configured=False, games=()).version
0
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

#: The library's file name beside the table store when the config names none.
ENROLLED = "cards.npz"


def library_path(configured: str, state: Path | None) -> Path | None:
    """Where the camera's library is read and a deck enrolled at the table is written: the
    config's ``[vision] library``, else ``cards.npz`` in ``state`` (None: nowhere)."""
    if configured:
        return Path(configured)
    return None if state is None else state / ENROLLED


class TableLibrary:
    """Where the camera's card library is kept (see the module). ``configured``: the config
    names the file (it must then be there); ``games``, ``cache``: the demo art read until a
    deck is enrolled (``camera.library_for``)."""

    def __init__(self, path: Path, configured: bool, games: tuple[str, ...],
                 cache: Path | None = None) -> None:
        self.path = path
        self.configured = configured
        self.games = games
        self.cache = cache
        self.version = 0  # how many libraries were written by this run
        self._lock = threading.Lock()
        self._newer: Any = None

    def load(self) -> Any:
        """The library as the file holds it (a LibraryError if it cannot be read), or the
        demo art's while there is no file yet."""
        from companion.daemon.camera import library_for
        from companion.vision.library import CardLibrary

        if self.configured or self.path.exists():
            return CardLibrary.load(self.path)
        return library_for(self.games, "", self.cache)

    def write(self, library: Any) -> None:
        """Write ``library`` atomically (a LibraryError, nothing changed, if it cannot be),
        then hand it to the camera (the caller lets go of it)."""
        library.save(self.path)
        with self._lock:
            self._newer = library
            self.version += 1

    def newer(self, seen: int) -> tuple[int, Any] | None:
        """The library written last and its version, if newer than version ``seen``."""
        with self._lock:
            if self.version == seen or self._newer is None:
                return None
            return self.version, self._newer
