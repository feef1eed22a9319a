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
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from companion.errors import CompanionError
from companion.i18n import pgettext

if TYPE_CHECKING:  # numpy and the vision load only with the camera
    import numpy as np

    from companion.vision.library import CardLibrary
    from companion.vision.watch import TableWatcher

log = logging.getLogger("companion.daemon")

#: The library's file name beside the table store when the config names none.
ENROLLED = "cards.npz"
#: The crops shown on the controls page: this wide (pixels), one JPEG each.
CROP_WIDTH = 96


def small_jpeg(face: np.ndarray) -> bytes:
    """A face (or a sample's crop) as a small JPEG, ``CROP_WIDTH`` wide, for the page
    (empty if it cannot be encoded)."""
    import cv2

    height, width = face.shape[:2]
    small = cv2.resize(face, (CROP_WIDTH, max(1, round(height * CROP_WIDTH / width))),
                       interpolation=cv2.INTER_AREA)
    ok, data = cv2.imencode(".jpg", small, [cv2.IMWRITE_JPEG_QUALITY, 80])
    return data.tobytes() if ok else b""


@dataclass(frozen=True)
class Sample:
    """A sample the table taught, as the controls page lists it: its ``number`` (this
    run's, the same for as long as the sample is kept), the card it shows (or NOT_A_CARD)
    and its crop as a small JPEG."""

    number: int
    card: str
    jpeg: bytes


class SampleRefused(CompanionError):
    """A sample the controls page asked to drop that is not listed (dropped already, or
    never taught); or a table whose camera keeps no samples. ``field``: the request's."""

    def __init__(self, message: str, field_name: str = "") -> None:
        self.field = field_name
        super().__init__(f"{field_name}: {message}" if field_name else message)


@dataclass
class DropSample:
    """From the controls page: drop the sample listed as ``number`` (``Sample.number``).
    ``done`` is set once the camera is told (it is no longer used from its next frame on)
    or it is refused (``error``)."""

    number: int
    done: threading.Event = field(default_factory=threading.Event)
    error: CompanionError | None = None


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
        self._newer: CardLibrary | None = None
        self._lessons: list[tuple[str | None, np.ndarray]] = []
        self._samples_stamp: tuple[int, int] | None = None  # the samples file as last read
        # The samples in use as the controls page lists them, each with its face; a sample
        # dropped from the page leaves the list at once, the library at the camera's next frame.
        self._listed: list[tuple[Sample, np.ndarray]] = []
        self._numbers = 0  # the samples numbered so far by this run
        self.listing = 0  # how many times the list changed (the page's version of it)

    def load(self) -> CardLibrary:
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
        self._samples_stamp = self._stamp()
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
        return self._stamp() != self._samples_stamp

    def teach(self, item_id: str, face: np.ndarray) -> None:
        """A correction's crop, a sample of card ``item_id`` (or of NOT_A_CARD): the camera
        keeps it with the library from its next frame on (``lessons``)."""
        with self._lock:
            self._lessons.append((item_id, face))

    def unteach(self, face: np.ndarray) -> None:
        """The sample ``face`` taught is dropped (its correction taken back)."""
        with self._lock:
            self._lessons.append((None, face))

    def drop(self, number: int) -> None:
        """The sample listed as ``number`` is dropped: gone from the list now, from the
        library and its file at the camera's next frame (a SampleRefused if it is not
        listed)."""
        with self._lock:
            found = next((n for n, (sample, _) in enumerate(self._listed)
                          if sample.number == number), None)
            if found is None:
                raise SampleRefused(pgettext("web", "no sample {number}: dropped already, or "
                                                    "never taught").format(number=number),
                                    "drop")
            _, face = self._listed.pop(found)
            self._lessons.append((None, face))
            self.listing += 1

    def samples_listed(self) -> tuple[int, list[Sample]]:
        """The samples in use, oldest first, and the list's version (for the page)."""
        with self._lock:
            return self.listing, [sample for sample, _ in self._listed]

    def _list(self, samples: list[tuple[str, np.ndarray]]) -> bool:
        """The library's ``samples`` listed for the page (a sample listed already keeps its
        number and crop; one being dropped is left out): True if the list changed."""
        with self._lock:
            going = [face for item_id, face in self._lessons if item_id is None]
            kept = [(item_id, face) for item_id, face in samples
                    if not any(face is other for other in going)]
            if len(kept) == len(self._listed) and all(
                    face is listed for (_, face), (_, listed) in zip(kept, self._listed,
                                                                     strict=True)):
                return False
            listed = []
            for item_id, face in kept:
                sample = next((sample for sample, known in self._listed if known is face), None)
                if sample is None:
                    sample = Sample(self._numbers, item_id, small_jpeg(face))
                    self._numbers += 1
                listed.append((sample, face))
            self._listed = listed
            self.listing += 1
            return True

    def lessons(self) -> list[tuple[str | None, np.ndarray]]:
        """The samples taught (id, face) and dropped (None, face) since last asked."""
        with self._lock:
            lessons, self._lessons = self._lessons, []
        return lessons

    def learn(self, watcher: TableWatcher) -> bool:
        """In the camera's thread: the samples taught (or taken back, or dropped on the
        controls page) since last asked kept with the library the ``watcher`` reads with,
        and with its file; the table then read whole again, with them. A samples file
        changed by someone else (``companion vision samples --drop``) is read again first.
        True if the samples the page lists changed (``samples_listed``)."""
        from companion.vision.library import LibraryError, load_samples

        library = watcher.recognizer.library
        if self._samples_changed():
            try:
                library.samples = []
                load_samples(library, self.samples)
            except LibraryError as error:
                log.warning("camera: the samples the table taught are not read (%s)", error)
            self._samples_stamp = self._stamp()
            watcher.read_afresh()
            log.info("camera: %d samples the table taught read again", len(library.samples))
        lessons = self.lessons()
        if lessons:
            self._apply(watcher, lessons)
        return self._list(library.samples)

    def _apply(self, watcher: TableWatcher, lessons: list[tuple[str | None, np.ndarray]]) -> None:
        """The ``lessons`` (``lessons``) kept with the watcher's library and its file."""
        from companion.vision.library import LibraryError, save_samples

        library = watcher.recognizer.library
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
        self._samples_stamp = self._stamp()
        watcher.read_afresh()
        log.info("camera: %d samples the table taught in use", len(library.samples))

    def write(self, library: CardLibrary) -> None:
        """Write ``library`` atomically (a LibraryError, nothing changed, if it cannot be),
        then hand it to the camera (the caller lets go of it)."""
        library.save(self.path)
        with self._lock:
            self._newer = library
            self.version += 1

    def newer(self, known: int) -> tuple[int, CardLibrary] | None:
        """The library written last and its version, if newer than version ``known``."""
        with self._lock:
            if self.version == known or self._newer is None:
                return None
            return self.version, self._newer
