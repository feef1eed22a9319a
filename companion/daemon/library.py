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

import logging
import threading
from pathlib import Path
from typing import Any

log = logging.getLogger("companion.daemon")

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
        self._lessons: list[tuple[str | None, Any]] = []
        self._samples_seen: tuple[int, int] | None = None  # the samples file as last read

    def load(self) -> Any:
        """The library as the file holds it (a LibraryError if it cannot be read), or the
        demo art's while there is no file yet; with the samples the table taught it
        (``teach``), unless their file cannot be read (said in the log, left out)."""
        from companion.daemon.camera import library_for
        from companion.vision.library import CardLibrary, LibraryError, load_samples

        if self.configured or self.path.exists():
            library = CardLibrary.load(self.path)
        else:
            library = library_for(self.games, "", self.cache)
        try:
            load_samples(library, self.samples)
        except LibraryError as error:
            log.warning("camera: the samples the table taught are not read (%s)", error)
        self._samples_seen = self._stamp()
        return library

    @property
    def samples(self) -> Path:
        """The file of the samples the table taught, beside the library's."""
        from companion.vision.library import samples_path

        return samples_path(self.path)

    def _stamp(self) -> tuple[int, int] | None:
        """The samples file's modification time and size (None: no file)."""
        try:
            stat = self.samples.stat()
        except OSError:
            return None
        return stat.st_mtime_ns, stat.st_size

    def _samples_changed(self) -> bool:
        """Has the samples file changed since this run read or wrote it?"""
        return self._stamp() != self._samples_seen

    def teach(self, item_id: str, face: Any) -> None:
        """A correction's crop, a sample of card ``item_id`` (or of NOT_A_CARD): the camera
        keeps it with the library from its next frame on (``lessons``)."""
        with self._lock:
            self._lessons.append((item_id, face))

    def unteach(self, face: Any) -> None:
        """The sample ``face`` taught is dropped (its correction taken back)."""
        with self._lock:
            self._lessons.append((None, face))

    def lessons(self) -> list[tuple[str | None, Any]]:
        """The samples taught (id, face) and dropped (None, face) since last asked."""
        with self._lock:
            lessons, self._lessons = self._lessons, []
        return lessons

    def learn(self, watcher: Any) -> None:
        """In the camera's thread: the samples taught (or taken back) since last asked kept
        with the library the ``watcher`` reads with, and with its file; the table then read
        whole again, with them. A samples file changed by someone else (``companion vision
        samples --drop``) is read again first."""
        from companion.vision.library import LibraryError, load_samples, save_samples

        library = watcher.recognizer.library
        if self._samples_changed():
            try:
                library.samples = []
                load_samples(library, self.samples)
            except LibraryError as error:
                log.warning("camera: the samples the table taught are not read (%s)", error)
            self._samples_seen = self._stamp()
            watcher.read_afresh()
            log.info("camera: %d samples the table taught read again", len(library.samples))
        lessons = self.lessons()
        if not lessons:
            return
        for item_id, face in lessons:
            try:
                if item_id is not None:
                    library.add_sample(item_id, face)
                else:
                    library.drop_sample(next(n for n, (_, kept) in enumerate(library.samples)
                                             if kept is face))
            except (LibraryError, StopIteration):
                continue  # a card no longer enrolled, a sample gone already
        try:
            save_samples(library, self.samples)
        except LibraryError as error:  # a full or read-only disk: used until the next start
            log.warning("camera: the samples taught not kept (%s)", error)
        self._samples_seen = self._stamp()
        watcher.read_afresh()
        log.info("camera: %d samples the table taught in use", len(library.samples))

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
