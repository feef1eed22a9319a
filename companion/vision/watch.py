"""The whole camera pipeline for one frame: rectify, recognise, place, gate.

>>> watcher = TableWatcher(CardLibrary(), TableLayout(), settle_seconds=0.5)
>>> watcher.watch_frame(0.0, np.zeros((48, 64, 3), np.uint8)) is None
True
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass, replace

import numpy as np

from companion.vision.changes import ChangeReader
from companion.vision.finder import TableBackground
from companion.vision.glimpse import Glimpse
from companion.vision.layout import CORNER_IDS, TableLayout
from companion.vision.library import CardLibrary
from companion.vision.markers import MarkerFinder
from companion.vision.recognize import Detection, Recognizer
from companion.vision.scene import TableScene, table_scene
from companion.vision.settle import MotionMeter, SettleGate
from companion.vision.table_view import Rectifier


@dataclass(frozen=True)
class FrameReading:
    """What one frame showed, before gating."""

    detections: list[Detection]
    scene: TableScene | None  # None when the table's corner markers were never found
    motion: float


#: Pixels of the motion meter's small copy that may differ (past sensor noise) from the frame
#: last read while the scene still counts as unchanged: fewer than a marker or a card covers.
STILL_PIXELS = 6
#: Comparisons (``Thresholds.most_compared``) spent reading the cluster a card was laid on
#: where the table changed: the card on top is read first, in a few dozen.
CHANGE_BOUND = 100


class TableWatcher:
    """Turns camera frames into settled table scenes (each new still scene once; the same
    scene once more if the table settles looking otherwise, e.g. a card laid that the
    recognizer cannot name, so that the picture of it is taken).

    What a fixed camera gives is used: frames while hands move over the table are only
    measured for motion (no recognition); the empty table, seen still before play and again
    whenever nothing lies on it, is the background model the card finder compares with (so
    a lamp switched on does not throw it); and once the table is still, the scene can be read
    from a sharper picture than the watching stream (``still``: e.g. a full-resolution still
    from Picamera2).

    A still table costs next to nothing: once the frames read in full (markers, cards) have
    shown the same scene for ``settle_seconds`` (or once the sharper still was read), only a
    small grey copy of each frame is compared with the one of the frame last read; the full
    work is done again only once something has moved (hands over the table, or the picture
    drifted past the motion limit since, e.g. the light changed). Fed ``Glimpse`` s
    (``watch``), the watcher measures motion on their small grey picture and takes a full
    frame only to read it: none while the table stays as read.
    """

    def __init__(self, library: CardLibrary, layout: TableLayout,
                 settle_seconds: float = 0.8, motion_limit: float = 4.0,
                 tokens: bool | Collection[int] = False,
                 still: Callable[[], np.ndarray | None] | None = None,
                 piles: bool | Collection[str] = True) -> None:
        """``tokens``: also place the markers of the game's pieces, these ids (True: every
        marker but the table's corners; only for a game with such pieces: in other games a
        card's artwork could now and then read as one). ``still``: called
        once per still scene for a sharper picture of the same view (None: use the frame).
        ``piles``: the cards copies may lie under (see ``Recognizer``)."""
        self.tokens = tokens
        # The pieces' markers are smaller than the corners': read them at full size.
        self.finder = MarkerFinder(half_first=not tokens)
        self.rectifier = Rectifier(layout, self.finder)
        self.piles = piles
        self.recognizer = Recognizer(library, piles=piles)
        self.changes = self._change_reader()
        self.gate = SettleGate(settle_seconds, motion_limit)
        self.motion = MotionMeter()
        self.motion_limit = motion_limit
        self.still = still
        self.background: TableBackground | None = None
        self.last: FrameReading | None = None
        self._read_small: np.ndarray | None = None  # the small copy of the frame last read
        self._steady: tuple[object, float] | None = None  # the scene read, since when
        self._resting: float | None = None  # since when frames were only compared
        self._pictured: np.ndarray | None = None  # the small copy of the last scene reported
        self.reads = 0  # frames read (for tests and benchmarks)
        self.full_reads = 0  # of those, read whole rather than where they changed

    def _change_reader(self) -> ChangeReader:
        """Reading only where the table changed, with this watcher's recognizer."""
        recognizer = self.recognizer
        # Where the table changed, the card laid on top is read first: a small bound of
        # work finds it, or the frame is read whole.
        changed = Recognizer(recognizer.library, piles=self.piles, use_features=False,
                             thresholds=replace(recognizer.limits, most_compared=CHANGE_BOUND))
        return ChangeReader(
            lambda crop: recognizer.recognize(crop, [], whole_only=True),
            lambda crop: changed.recognize(crop, []),
            lambda frame, outline: recognizer.identify(frame, outline, outline=True))

    def use_library(self, library: CardLibrary) -> None:
        """Read with ``library`` from the next frame on (a deck enrolled at the table): the
        table is read anew and its scene, once still, reported again as if first seen."""
        self.recognizer = Recognizer(library, piles=self.piles)
        self.changes = self._change_reader()
        self.gate = SettleGate(self.gate.settle_seconds, self.motion_limit)
        self.last = None
        self._read_small = self._steady = self._resting = self._pictured = None

    def see(self, frame: np.ndarray, motion: float | None = None,
            sharper: np.ndarray | None = None) -> FrameReading:
        """Rectify and recognise one frame (no gating). ``sharper``: the same view at a
        higher resolution, to identify the cards from."""
        motion = self.motion.measure(frame) if motion is None else motion
        found = self.finder.find(frame)
        view = self.rectifier.locate(frame, found)
        if sharper is not None and sharper.shape[:2] != frame.shape[:2]:
            scale = frame.shape[1] / sharper.shape[1]
            # The markers found in the frame, in the still's pixels: not looked for again.
            markers = [replace(m, corners=m.corners / scale) for m in found]
            detections = [replace(d, corners=(d.corners * scale).astype(np.float32))
                          for d in self.recognizer.recognize(sharper, markers)]
            self.changes.forget()
        else:
            # Only what changed since the frame last read, where the cards laid explain it.
            detections = self.changes.read(frame)
            if detections is None:
                detections = self.recognizer.recognize(frame, found,
                                                       self._background(frame))
                self.full_reads += 1
            self.changes.remember(frame, detections)
        tokens = [s for s in found if self._is_token(s.marker_id)]
        scene = None if view is None else table_scene(
            detections, tokens, view, self.rectifier.layout)
        if not detections and motion <= self.motion_limit:
            self._learn_background(frame)
        self.last = FrameReading(detections, scene, motion)
        return self.last

    def read_afresh(self) -> None:
        """Read the next frame whole, not only where it changed (the library was taught a
        sample: what was read before may read otherwise now)."""
        self.changes.forget()

    def _is_token(self, marker_id: int) -> bool:
        """Is ``marker_id`` one a piece wears (see ``tokens``)?"""
        if isinstance(self.tokens, bool):
            return self.tokens and marker_id not in CORNER_IDS
        return marker_id in self.tokens

    def watch_frame(self, at: float, frame: np.ndarray) -> TableScene | None:
        """Feed one frame taken at ``at`` seconds; the scene when it has just settled."""
        return self._watch(at, frame, lambda: frame)

    def watch(self, glimpse: Glimpse) -> TableScene | None:
        """Feed one glimpse: its small grey picture is watched, its full frame taken only
        when the table must be read (never while it stays as read); the scene when it has
        just settled."""
        return self._watch(glimpse.at, glimpse.grey, glimpse.frame)

    def _watch(self, at: float, watched: np.ndarray,
               frame: Callable[[], np.ndarray | None]) -> TableScene | None:
        motion = self.motion.measure(watched)
        if motion > self.motion_limit:
            # Hands over the table: nothing to read until they are gone.
            self.gate.observe(at, motion, frozenset())
            self._read_small = self._steady = self._resting = None
            return None
        if self._known(at):
            # Still since the scene was read: what it showed stands.
            frame_reading = self.last = FrameReading(self.last.detections, self.last.scene, motion)
            if self._resting is None:
                self._resting = at
        else:
            self._resting = None
            full = frame()
            if full is None:  # the camera gave no full frame: read at the next one
                return None
            sharper = self.still() if self.still is not None else None
            frame_reading = self.see(full, motion, sharper)
            self._read_small = self.motion.small
            self.reads += 1
            key = None if frame_reading.scene is None else frame_reading.scene.key()
            if self._steady is None or self._steady[0] != key:
                self._steady = (key, at)
        if frame_reading.scene is None:
            return None
        settled = self.gate.observe(at, frame_reading.motion, frame_reading.scene.key())
        if settled or self._looks_otherwise(at, frame_reading.scene.key()):
            self._pictured = self.motion.small
            return frame_reading.scene
        return None

    def _looks_otherwise(self, at: float, key: frozenset) -> bool:
        """The scene reported before, settled again, but the table looks otherwise than it
        did then: something the recognizer could not name was laid or taken away. Reported
        again (once), so that its picture shows it (``evidence``: an outline left out)."""
        since = self.gate.since
        return (self._pictured is not None and key == self.gate.reported
                and since is not None and at - since >= self.gate.settle_seconds - 1e-6
                and self.motion.changed_pixels(self._pictured) > STILL_PIXELS)

    def resting(self, at: float) -> float:
        """For how long (seconds, up to ``at``) the frames have only been compared with the
        scene read, nothing having moved: 0 once a frame moved or was read in full. The
        camera takes fewer frames of a table resting a while (``Camera``)."""
        return 0.0 if self._resting is None else at - self._resting

    def _known(self, at: float) -> bool:
        """The scene last read still stands: read the same long enough (a sharper still: once)
        and nothing moved since the frame it was read from."""
        if self.last is None or self._steady is None:
            return False
        needed = 0.0 if self.still is not None else self.gate.settle_seconds
        return (at - self._steady[1] >= needed - 1e-6
                and self.motion.change(self._read_small) <= self.motion_limit
                and self.motion.changed_pixels(self._read_small) <= STILL_PIXELS)

    def _background(self, frame: np.ndarray) -> TableBackground | None:
        background = self.background
        if background is not None and not background.fits(frame):
            self.background = background = None  # the camera's mode changed
        return background

    def _learn_background(self, frame: np.ndarray) -> None:
        """The table, still and with no card read on it: the empty table as seen now."""
        if self.background is None:
            self.background = TableBackground(frame)
        else:
            self.background.refresh(frame)
