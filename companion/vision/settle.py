"""Settled-frame gating: a play is reported only once the table has been still for a while.

The gate is fed, frame by frame, the time, a motion measure and what was recognised. It
reports a scene when nothing moved and the recognised set stayed the same for
``settle_seconds``, and only if that scene differs from the last one it reported. Hands moving
over the table keep resetting the clock, so they never produce a report.

>>> gate = SettleGate(settle_seconds=0.5)
>>> [gate.observe(t / 10, 0.0, {"orc"}) for t in range(6)][-2:]
[None, Settled(at=0.5, scene=frozenset({'orc'}))]
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass

import cv2
import numpy as np


@dataclass(frozen=True)
class Settled:
    """A scene that has held still: when it settled, and what it is."""

    at: float
    scene: frozenset


class SettleGate:
    """Reports each new still scene once."""

    def __init__(self, settle_seconds: float = 0.8, motion_limit: float = 4.0) -> None:
        if settle_seconds < 0:
            raise ValueError("settle_seconds must not be negative")
        self.settle_seconds = settle_seconds
        self.motion_limit = motion_limit
        self._candidate: frozenset | None = None
        self._since: float | None = None
        self._reported: frozenset | None = None

    @property
    def reported(self) -> frozenset | None:
        """The last scene reported (None before the first)."""
        return self._reported

    @property
    def since(self) -> float | None:
        """Since when the frames have been still with the same scene (None while moving)."""
        return self._since

    def observe(self, at: float, motion: float, scene: set[Hashable] | frozenset
                ) -> Settled | None:
        """Feed one frame; returns the scene when it has just settled and is new."""
        scene = frozenset(scene)
        if motion > self.motion_limit or scene != self._candidate:
            self._candidate = scene
            self._since = None if motion > self.motion_limit else at
            return None
        if self._since is None:
            self._since = at
        # A hair of slack: frame times summed in floating point fall just short.
        if at - self._since >= self.settle_seconds - 1e-6 and scene != self._reported:
            self._reported = scene
            return Settled(at, scene)
        return None


class MotionMeter:
    """How much the picture changed since the previous frame: the grey-level difference of a
    small blurred copy (of a colour frame, or of an already small grey picture), averaged
    per cell of an 8 x 6 grid, and the largest cell's value
    taken, so sensor noise reads near zero and one hand in one corner reads high.

    ``small`` is the latest frame's small copy: kept by whoever wants to know later whether
    the picture has changed since (``change``), e.g. since a scene was last read in full.
    """

    def __init__(self, width: int = 160) -> None:
        self.width = width
        self.small: np.ndarray | None = None

    def measure(self, frame: np.ndarray) -> float:
        height, width = frame.shape[:2]
        size = (self.width, max(1, round(height * self.width / width)))
        # Made small first, grey after: the colour conversion then costs next to nothing.
        # A frame of even sides at least twice the size is halved first: OpenCV averages
        # 2 x 2 blocks on a fast path, and the rest is done on a quarter of the pixels (the
        # same block averages, to a grey level of rounding; half the time of one resize).
        if width % 2 == 0 and height % 2 == 0 and width >= 2 * size[0]:
            frame = (halved(frame) if frame.ndim == 2 else
                     cv2.resize(frame, (width // 2, height // 2), interpolation=cv2.INTER_AREA))
        if frame.ndim == 3:
            frame = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        if frame.shape[1::-1] != size:
            frame = cv2.resize(frame, size, interpolation=cv2.INTER_AREA)
        small = blurred(frame)
        previous, self.small = self.small, small
        return self.change(previous)

    def change(self, before: np.ndarray | None) -> float:
        """The motion between a small copy kept ``before`` and the latest frame (inf when
        there is nothing to compare)."""
        if before is None or self.small is None or before.shape != self.small.shape:
            return float("inf")  # nothing to compare with: not known to be still
        diff = np.abs(self.small - before).astype(np.float32)
        return float(cv2.resize(diff, (8, 6), interpolation=cv2.INTER_AREA).max())

    def changed_pixels(self, before: np.ndarray | None, level: int = 16) -> int:
        """How many pixels of the small copy differ by more than ``level`` grey levels from
        ``before`` (the blur keeps sensor noise well under it): a piece moved without a hand
        in the picture, too small to move a whole cell's average (all of them when there is
        nothing to compare)."""
        if before is None or self.small is None or before.shape != self.small.shape:
            return 1 << 30
        return int(np.count_nonzero(np.abs(self.small - before) > level))


# A small grey picture (the camera's watched one) is halved and blurred in numpy: OpenCV
# would hand so little work to its worker threads, whose waking costs more than the work
# (on a still table, as much as all the rest of the watching). Both give OpenCV's values.


def halved(grey: np.ndarray) -> np.ndarray:
    """The mean of each 2 x 2 block, rounded (OpenCV's INTER_AREA to half size), of a grey
    picture of even sides."""
    rows = grey[0::2].astype(np.uint16)
    rows += grey[1::2]
    blocks = rows[:, 0::2] + rows[:, 1::2]
    blocks += 2
    blocks >>= 2
    return blocks.astype(np.uint8)


def blurred(grey: np.ndarray) -> np.ndarray:
    """OpenCV's 5 x 5 Gaussian blur (its kernel for that size, 1 4 6 4 1 / 16 each way, the
    borders reflected), as int16."""
    height, width = grey.shape
    padded = np.pad(grey, 2, mode="reflect").astype(np.int32)
    rows = padded[0:height] + padded[4:height + 4]
    rows += 4 * (padded[1:height + 1] + padded[3:height + 3])
    rows += 6 * padded[2:height + 2]
    out = rows[:, 0:width] + rows[:, 4:width + 4]
    out += 4 * (rows[:, 1:width + 1] + rows[:, 3:width + 3])
    out += 6 * rows[:, 2:width + 2]
    out += 128
    out >>= 8
    return out.astype(np.int16)
