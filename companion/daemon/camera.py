"""The camera's way into the daemon: frames -> settled scenes (camera thread) -> events (loop).

The camera part only watches: it turns frames into settled ``TableScene`` s and puts them on
the queue. It watches a small grey picture of each moment (Picamera2's ``lores`` stream, or
a downscaled copy of another source's frame: ``companion.vision.glimpse``) and takes the
full frame only when the table is to be read. The daemon's loop reads each scene against
the one before with the game's mapper (its bundle's ``camera``), using only the public view
(whose turn it is), and proposes the events it finds as ``CameraProposal`` items. A game
whose bundle has no camera (one entered with the dial) has no camera events.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from companion.daemon.items import CameraProposal, PartFailed, PartFinished, Redraw
from companion.daemon.library import TableLibrary
from companion.daemon.lifecycle import Handler, Moment
from companion.daemon.parts import Part, Submit, describe, supervised
from companion.games import registry
from companion.games.base import Game

if TYPE_CHECKING:  # types only: a table without a camera loads no OpenCV, numpy or vision
    import numpy as np

    from companion.games.spec import SceneMapper
    from companion.vision.detection import Detection
    from companion.vision.evidence import Picture
    from companion.vision.layout import TableLayout
    from companion.vision.library import CardLibrary
    from companion.vision.scene import TableScene
    from companion.vision.sources import CameraWatch
    from companion.vision.table_view import TableView
    from companion.vision.watch import TableWatcher

log = logging.getLogger("companion.daemon")

T = TypeVar("T")
#: A sharper picture of the camera's view (a Pi camera's full-resolution still), or None.
Still = Callable[[], "np.ndarray | None"]

#: Once the table has rested this long (seconds: every frame only compared with the scene
#: read, nothing moved), frames are taken at most ``STILL_FPS`` a second; the first frame in
#: which something moved or that had to be read in full brings the configured rate back.
STILL_AFTER = 5.0
STILL_FPS = 2.0
#: How long a stop waits for the camera's thread (a frame being read, a library loading):
#: well within systemd's stop timeout (90 s).
JOIN_SECONDS = 30.0


@dataclass(frozen=True)
class TableGeometry:
    """The marked play area in millimetres, and where the games' own pieces lie on it.

    The config's ``[vision]`` keys set it; the defaults match the printed marker sheet's
    instructions (hardware/markers.md).
    """

    width_mm: float = 800.0
    height_mm: float = 560.0
    marker_mm: float = 40.0
    #: The games' own ``[vision]`` keys as read (a bundle's ``CameraParts.settings``), one each.
    games: tuple[Any, ...] = ()

    def settings(self, kind: type[T]) -> T:
        """A game's own settings of this table (``kind``: its bundle's ``CameraParts.settings``),
        its defaults where the config gives none."""
        return next((given for given in self.games if isinstance(given, kind)), kind())

    def table(self, seats: int = 4) -> TableLayout:
        """The vision TableLayout for ``seats`` seats (ConfigError if the sizes do not fit)."""
        from companion.vision.layout import TableLayout

        return TableLayout(width_mm=self.width_mm, height_mm=self.height_mm,
                           marker_mm=self.marker_mm, seats=seats)


@dataclass(frozen=True)
class SceneSettled:
    """A table scene that has just settled, and the recogniser's lowest confidence in it."""

    scene: TableScene
    confidence: float = 1.0
    #: The picture it was read from, if one was made.
    picture: Picture | None = None
    #: The frame itself and where the table lies in it: what a deck enrolled at the table is
    #: cut from (``enrolling.py``); let go once read.
    frame: np.ndarray | None = None
    view: TableView | None = None
    #: The version of the table's library it was read with (``library.TableLibrary``).
    library: int = 0


def library_for(games: tuple[str, ...], path: str = "", cache: Path | None = None
                ) -> CardLibrary:
    """The card library: the file at ``path``, else the demo art of ``games``. The demo
    library is enrolled once and kept in ``cache`` (a folder: e.g. the state directory), where
    later starts load it instead of enrolling every card again (seconds, more on a Pi)."""
    from companion.vision.art import library_of
    from companion.vision.library import VERSION, CardLibrary, LibraryError

    if path:
        return CardLibrary.load(path)
    kept = None if cache is None else cache / f"demo-cards-{'-'.join(games)}-v{VERSION}.npz"
    if kept is not None and kept.exists():
        try:
            library = CardLibrary.load(kept)
        except LibraryError as error:  # damaged: enrolled again below and written anew
            log.warning("demo card library not read (%s): enrolling it again", error)
        else:
            if not library.keypoints_read:  # kept by an older version: keep its keypoints
                try:
                    library.save(kept)
                except (LibraryError, OSError) as error:  # read-only or full: used as read
                    log.warning("demo card library not updated: %s", error)
            return library
    library = library_of([item for game in games for item in registry.get(game).art_items()])
    if kept is not None:
        try:
            kept.parent.mkdir(parents=True, exist_ok=True)
            library.save(kept)
        except (LibraryError, OSError) as error:  # a read-only or full disk: enrolled each time
            log.warning("demo card library not kept: %s", error)
    return library


def pile_cards() -> frozenset[str]:
    """The ids of the cards of the games played in piles (sets of one card laid together):
    the camera looks for copies lying under these only."""
    return frozenset(item.item_id for game in registry.pile_games()
                     for item in registry.get(game).art_items())


class SceneReader:
    """Reads settled scenes of one game into proposed events (in the daemon's loop)."""

    def __init__(self, game: Game, geometry: TableGeometry | None = None) -> None:
        geometry = geometry or TableGeometry()
        self.before: TableScene | None = None
        # Zones are the seats of this game: the camera itself does not know how many there are.
        self.table = geometry.table(len(game.seats))
        self.mapper: SceneMapper | None = registry.get(game.name).scene_mapper(game, geometry)

    def read_from(self, scene: TableScene) -> None:
        """Read the next scene against ``scene`` (the table as it really was, once a reading
        has been corrected)."""
        self.before = scene

    def read(self, scene: TableScene, game: Game, confidence: float) -> list[CameraProposal]:
        """The events that turn the previous settled scene into this one (SceneError if the
        change cannot be read without guessing; the scene is remembered either way)."""
        from companion.vision.scene import TableScene

        scene = TableScene(tuple(replace(piece, zone=self.table.zone_of(piece.centre_mm))
                                 for piece in scene.pieces), scene.markers)
        if self.mapper is None:
            return []
        if self.before is None and self.mapper.settles_first:
            self.before = scene  # e.g. the board as first seen is where the pieces stand
            return []
        before, self.before = self.before or TableScene(()), scene
        found = self.mapper.events(before, scene, game.view(None))
        return [CameraProposal(event, confidence) for event in found]


def lowest_confidence(detections: list[Detection]) -> float:
    return min((d.confidence for d in detections), default=1.0)


class Camera(Part):
    """Frames from a source through the vision pipeline; settled scenes go on the queue."""

    name = "camera"

    def __init__(self, open_source: Callable[[], Any], watcher: TableWatcher | None,
                 fps: float = 4.0,
                 make_watcher: Callable[[Still | None], TableWatcher] | None = None,
                 still_after: float = STILL_AFTER, library: TableLibrary | None = None
                 ) -> None:
        """``watcher``: the TableWatcher (used as it is); or None and ``make_watcher`` builds
        it in the camera's thread once the daemon is READY (its card library loaded there, so
        loading it does not slow the start), given the source's sharper still if it has one
        (``TableWatcher(still=...)``). ``still_after``: seconds of a resting table before
        frames are taken at STILL_FPS. ``library``: the table's library, a deck enrolled at
        the table read from the next frame on."""
        self.open_source = open_source
        self.library = library
        self._library_version = 0  # the version of the table's library read with
        self.watcher = watcher
        self.make_watcher = make_watcher
        self._daemon_ready = threading.Event()  # set by the daemon's READY (``listens``)
        self.interval = 1 / fps
        self.still_interval = 1 / min(fps, STILL_FPS)
        self.still_after = still_after
        self.resting = False  # taking frames at the still rate (for tests and benchmarks)
        self.frames_watched = 0  # good frames through the pipeline (for tests and benchmarks)
        self.scenes_sent = 0
        self.source: Any = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def listens(self) -> Mapping[Moment, Handler]:
        return {Moment.READY: self._daemon_ready.set}

    def start(self, submit: Submit) -> None:
        from companion.vision.sources import CameraWatch

        self._stop.clear()
        self.source = self.open_source()
        # Opened once here so that a missing camera is reported at once; the watch reopens it.
        self.source.open()
        self.source.close()
        watch = CameraWatch(self.source)
        source = self.source
        self._thread = threading.Thread(
            target=supervised(self.name, submit, lambda: self._run(watch, submit, source)),
            name="camera", daemon=True)
        self._thread.start()

    def _run(self, watch: CameraWatch, submit: Submit, source: Any) -> None:
        try:
            if self.watcher is None and self.make_watcher is not None:
                while not self._daemon_ready.wait(0.5):
                    if self._stop.is_set():
                        return
                # A source that can take a sharper still (Picamera2) gives one per still scene.
                self.watcher = self.make_watcher(
                    self._sharper_still if hasattr(source, "still") else None)
            # The library's matching data, derived now rather than on the first card seen.
            self.watcher.recognizer.library.prepare()
        except Exception as error:  # noqa: BLE001 - reported like a camera gone
            submit(PartFailed(self.name, describe(error)))
            return
        troubles = 0
        while not self._stop.wait(self.still_interval if self.resting else self.interval):
            try:
                got, trouble = watch.next()
            except Exception as error:  # noqa: BLE001 - a camera gone: reported, retried
                submit(PartFailed(self.name, describe(error)))
                return
            if got is None and getattr(source, "ended", False):
                # A folder of frames played once: said once, never opened again.
                submit(PartFinished(self.name, ended_words(source)))
                return
            if got is None:
                self.resting = False
                troubles += 1
                if troubles >= 5 and trouble is not None:
                    submit(PartFailed(self.name, trouble.message))
                    return
                continue
            troubles = 0
            self._newer_library()
            self._learn(submit)
            # The small grey picture is watched; the full frame is taken only to be read.
            scene = self.watcher.watch(got)
            resting = self.watcher.resting(got.at) >= self.still_after
            if resting and not self.resting:
                # Nothing to read until something moves: the faces need not stay resident.
                self.watcher.recognizer.library.rest()
            self.resting = resting
            if scene is not None:
                frame_reading = self.watcher.last
                self.scenes_sent += 1
                submit(SceneSettled(scene, lowest_confidence(frame_reading.detections),
                                    picture_of(self.watcher, got.frame()), got.frame(),
                                    self.watcher.rectifier.last_view, self._library_version))
            self.frames_watched += 1
            got = None  # its full frame let go before the wait, not once the next is read

    def _newer_library(self) -> None:
        """A deck enrolled at the table since the last frame: read with it from now on."""
        newer = self.library.newer(self._library_version) if self.library else None
        if newer is not None:
            self._library_version, library = newer
            self.watcher.use_library(library)
            log.info("camera: reading with the cards enrolled at the table")

    def _learn(self, submit: Submit) -> None:
        """The samples corrections taught (or took back) since the last frame; the pages
        drawn again when the samples they list changed."""
        if self.library is not None and self.library.learn(self.watcher):
            submit(Redraw())

    def _sharper_still(self) -> np.ndarray | None:
        """The still of the source opened now (a retry opens another one)."""
        source = self.source
        return None if source is None else source.still()

    def stop(self) -> None:
        """Stop the camera's thread, wait for it, then close the source: in that order, so
        that the source is never closed under a read, nor OpenCV torn down (at the end of
        the run) under a thread still in it, which aborts the process ("terminate called
        without an active exception", exit 134)."""
        self._stop.set()
        thread, self._thread = self._thread, None
        if thread is not None and thread is not threading.current_thread():
            thread.join(JOIN_SECONDS)
            if thread.is_alive():
                log.warning("camera: its thread did not stop within %gs", JOIN_SECONDS)
        if self.source is not None:
            with contextlib.suppress(Exception):  # a dead camera may fail to close too
                self.source.close()
            self.source = None


def picture_of(watcher: TableWatcher, frame: np.ndarray | None) -> Picture | None:
    """The picture of the scene the watcher has just settled on (one JPEG encode), or None
    if it cannot be made: the scene is read all the same."""
    from companion.vision.evidence import settled

    if frame is None:  # the camera gave no full frame of it
        return None
    try:
        return settled(watcher, frame)
    except Exception as error:  # noqa: BLE001 - evidence only: the table plays on
        log.warning("camera: no picture of the scene (%s)", describe(error))
        return None


def ended_words(source: Any) -> str:
    """What the log says of a folder of frames played to its end."""
    count = len(source.files or [])
    return (f"every frame of {source.folder} has been shown ({count} frames): the camera "
            "reads no more ([camera] loop = true plays the folder again)")


def open_camera(source: str, device: int, files: str, loop: bool = False
                ) -> Callable[[], Any]:
    """A function making the configured frame source (called at each start or retry). A
    folder of frames is one source for the whole run: a retry goes on where it was, so the
    folder is played once (or looped, with ``loop``), never again from its start."""
    from companion.vision import sources

    folder = sources.ImageFolder(Path(files), loop=loop) if source == "files" else None

    def opener() -> Any:
        if folder is not None:
            return folder
        if source == "picamera":
            return sources.Picamera2Source()
        return sources.VideoCapture(device)

    return opener
