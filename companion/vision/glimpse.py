"""What the fixed camera watches: a small grey picture of each moment, the full frame on demand.

A still table needs no full frame: the motion meter compares small grey copies. A source
that can hand a small stream of its own (Picamera2's ``lores`` YUV stream, made by the ISP)
gives its luma plane and reads the full ``main`` frame only when asked; any other source
(a folder of images, a USB camera or a video file through OpenCV) decodes its frame as it
must, and a ``Downscaled`` copy of it, grey and small, is watched.

>>> from companion.vision.sources import FrameList
>>> source = Downscaled(FrameList([np.full((720, 1280, 3), 90, np.uint8)]))
>>> glimpse = source.glimpse()
>>> glimpse.grey.shape, glimpse.frame().shape
((180, 320), (720, 1280, 3))
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

import cv2
import numpy as np

#: The width of the small grey picture watched (Picamera2's ``lores`` stream is this wide).
WATCH_WIDTH = 320


class Glimpse:
    """One moment as the camera watched it: ``grey``, a small grey picture, and the full
    frame of it, taken (once) only when ``frame()`` is called."""

    __slots__ = ("at", "grey", "_take", "_frame")

    def __init__(self, at: float, grey: np.ndarray,
                 take: Callable[[], np.ndarray | None]) -> None:
        self.at = at
        self.grey = grey
        self._take = take
        self._frame: np.ndarray | None = None

    def frame(self) -> np.ndarray | None:
        """The full colour frame (BGR) of this moment, or None if the camera gave none."""
        if self._frame is None:
            self._frame = self._take()
        return self._frame


class FrameSource(Protocol):
    """Anything that yields timestamped BGR frames."""

    def open(self) -> None: ...

    def read(self) -> tuple[float, np.ndarray] | None:
        """The next frame and its time (seconds), or None if the read failed."""

    def close(self) -> None: ...


class GlimpseSource(Protocol):
    """A source watched through glimpses (``Picamera2Source``, ``Downscaled``)."""

    def open(self) -> None: ...

    def glimpse(self) -> Glimpse | None:
        """The next moment, or None if the read failed."""

    def close(self) -> None: ...


class Downscaler:
    """Small grey copies of full frames, ``width`` pixels wide at most.

    One pixel in n each way is kept (nearest), not an average: it costs a tenth of an area
    resize, and it keeps the sensor's noise, by which a frozen picture is told from a still
    table (``CameraWatch``); the motion meter blurs the copy anyway. The colour step goes into
    a buffer kept for it: a new one each frame would be mapped and zeroed by the allocator.
    """

    def __init__(self, width: int = WATCH_WIDTH) -> None:
        self.width = width
        self._small: np.ndarray | None = None

    def grey(self, frame: np.ndarray) -> np.ndarray:
        height, width = frame.shape[:2]
        if width > self.width:
            size = (self.width, max(1, round(height * self.width / width)))
            shape = (size[1], size[0], *frame.shape[2:])
            if self._small is None or self._small.shape != shape or \
                    self._small.dtype != frame.dtype:
                self._small = np.empty(shape, frame.dtype)
            frame = cv2.resize(frame, size, dst=self._small, interpolation=cv2.INTER_NEAREST)
        if frame.ndim == 3:
            return cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        return frame.copy()


class Downscaled:
    """Glimpses of a source of full frames: each frame read (decoded) as the source does,
    a small grey copy of it watched, the frame itself kept by its glimpse."""

    def __init__(self, source: FrameSource, width: int = WATCH_WIDTH) -> None:
        self.source = source
        self.downscaler = Downscaler(width)

    def open(self) -> None:
        self.source.open()

    def glimpse(self) -> Glimpse | None:
        got = self.source.read()
        if got is None:
            return None
        at, frame = got
        return Glimpse(at, self.downscaler.grey(frame), lambda: frame)

    def close(self) -> None:
        self.source.close()


def glimpses_of(source: FrameSource | GlimpseSource) -> GlimpseSource:
    """``source`` itself if it has a small stream of its own, else a ``Downscaled`` one."""
    if hasattr(source, "glimpse"):
        return source  # type: ignore[return-value]
    return Downscaled(source)  # type: ignore[arg-type]

