"""Where frames come from: Picamera2 (Pi only), OpenCV VideoCapture, a folder of images.

Every source has ``open()``, ``read() -> (timestamp, frame) | None`` and ``close()``; one with a
small stream of its own (Picamera2) also ``glimpse()`` (``companion.vision.glimpse``). A
``CameraWatch`` wraps one and judges each frame: a dropped read, a black frame or a frozen
picture is reported as a ``CameraTrouble`` and the source is reopened; such frames never
reach the recognizer, so they never become events.

>>> watch = CameraWatch(FrameList([np.zeros((8, 8, 3), np.uint8)]))
>>> glimpse, trouble = watch.next()
>>> glimpse is None, trouble.kind
(True, 'black')
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from companion.errors import CompanionError, PartUnusable
from companion.vision.glimpse import WATCH_WIDTH, FrameSource, Glimpse, glimpses_of

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".tif", ".tiff", ".webp")


class CameraError(CompanionError):
    """A camera that cannot be opened at all."""


class PicameraUnusable(CameraError, PartUnusable):
    """Picamera2 cannot be imported here: retrying will not help until it is fixed."""


class FrameList:
    """Frames held in memory, with optional timestamps: tests and the demo."""

    def __init__(self, frames: Sequence[np.ndarray], times: Sequence[float] | None = None):
        self.frames = list(frames)
        self.times = list(times) if times is not None else [i / 10 for i in range(len(frames))]
        self.position = 0
        self.opened = 0

    def open(self) -> None:
        self.opened += 1

    def read(self) -> tuple[float, np.ndarray] | None:
        if self.position >= len(self.frames):
            return None
        self.position += 1
        return self.times[self.position - 1], self.frames[self.position - 1]

    def close(self) -> None:
        pass


class ImageFolder:
    """Every image file of a folder in name order, ``interval`` seconds apart (simulated camera).

    The folder is played once: read to its end, ``read`` gives None and ``ended`` is True; a
    reopen (the camera part's, after trouble) goes on where it was, never from the first
    file again. With ``loop`` the first file follows the last, the times still counting on.
    EXIF orientation is applied, as a phone photo would be shown.

    >>> folder = ImageFolder("frames")
    >>> folder.ended, folder.live
    (False, False)
    """

    #: Two frames alike are one file shown twice, not a stuck driver (``CameraWatch``).
    live = False

    def __init__(self, folder: str | Path, interval: float = 0.1, loop: bool = False) -> None:
        self.folder = Path(folder)
        self.interval = interval
        self.loop = loop
        self.files: list[Path] | None = None  # listed at the first open
        self.position = 0  # the next file to read
        self.frames_read = 0  # frames read so far (their times count on through a loop)

    def open(self) -> None:
        if not self.folder.is_dir():
            raise CameraError(f"{self.folder}: not a folder of images")
        if self.files is None:
            self.files = sorted(p for p in self.folder.iterdir()
                                if p.suffix.lower() in IMAGE_SUFFIXES)

    @property
    def ended(self) -> bool:
        """Every frame of the folder has been read, and it is not looped."""
        return self.files is not None and not self.loop and self.position >= len(self.files)

    def read(self) -> tuple[float, np.ndarray] | None:
        files = self.files or []
        if self.loop and files and self.position >= len(files):
            self.position = 0
        if self.position >= len(files):
            return None
        path = files[self.position]
        self.position += 1
        frame = read_image(path)
        self.frames_read += 1
        return (self.frames_read - 1) * self.interval, frame

    def close(self) -> None:
        pass


class VideoCapture:
    """A USB camera (by index) or a video file through OpenCV."""

    def __init__(self, device: int | str = 0, size: tuple[int, int] | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.device = device
        self.size = size
        self.clock = clock
        self._capture: cv2.VideoCapture | None = None
        self._queued = 0  # frames the camera's driver keeps beyond the one read

    def open(self) -> None:
        self.close()
        capture = cv2.VideoCapture(self.device)
        if not capture.isOpened():
            raise CameraError(f"camera {self.device!r} cannot be opened")
        if self.size:
            capture.set(cv2.CAP_PROP_FRAME_WIDTH, self.size[0])
            capture.set(cv2.CAP_PROP_FRAME_HEIGHT, self.size[1])
        # A camera's driver queues frames (V4L2: 4 by default) and a read takes the oldest:
        # read 2 or 4 times a second, the picture would be seconds old. One buffer, so a
        # read waits for a frame taken after it; a driver keeping more anyway has the
        # queued ones skipped at each read. (A file says -1: every frame of it is read.)
        capture.set(cv2.CAP_PROP_BUFFERSIZE, 1)
        self._queued = max(0, int(capture.get(cv2.CAP_PROP_BUFFERSIZE)) - 1)
        self._capture = capture

    def read(self) -> tuple[float, np.ndarray] | None:
        if self._capture is None:
            return None
        for _ in range(self._queued):
            self._capture.grab()  # taken before this read: skipped undecoded
        ok, frame = self._capture.read()
        return (self.clock(), frame) if ok and frame is not None else None

    def close(self) -> None:
        if self._capture is not None:
            self._capture.release()
            self._capture = None


class Picamera2Source:
    """The Raspberry Pi camera through Picamera2, imported only when opened (Pi only).

    Watched through its ``lores`` YUV stream (``glimpse``: the ISP scales it from the same
    view at no CPU cost, and its luma plane is the grey picture watched, as in Picamera2's
    own motion-detection examples); the ``main`` frame is read only when a glimpse's full
    frame is asked for, the full-resolution ``still`` once a scene is still.
    ``picamera2``: the Picamera2 class (None: imported from picamera2 at ``open``; tests
    and benchmarks give a stand-in with the same public API)."""

    def __init__(self, size: tuple[int, int] = (1280, 720),
                 clock: Callable[[], float] = time.monotonic,
                 picamera2: Callable[[], Any] | None = None) -> None:
        self.size = size
        # The same view as main, WATCH_WIDTH wide (even sides, as YUV420 needs).
        self.lores = (WATCH_WIDTH, 2 * round(size[1] * WATCH_WIDTH / size[0] / 2))
        self.clock = clock
        self.picamera2 = picamera2
        self._camera: Any = None

    def open(self) -> None:
        self.close()
        camera = self._make()
        camera.configure(camera.create_video_configuration(
            main={"size": self.size, "format": "RGB888"},
            lores={"size": self.lores, "format": "YUV420"}))
        # libcamera may adjust a stream's size to what the ISP can make: the one in force.
        self.lores = tuple(camera.camera_configuration()["lores"]["size"])
        # Stills at the sensor's full size, same field of view: read once a scene is still.
        self._still_config = camera.create_still_configuration(main={"format": "RGB888"})
        camera.start()
        self._camera = camera

    def _make(self) -> Any:
        if self.picamera2 is not None:
            return self.picamera2()
        from companion.picamera import picamera2_problem_once

        problem = picamera2_problem_once()  # any failure of the import, with its fix
        if problem is not None:
            raise PicameraUnusable(problem)
        from picamera2 import Picamera2  # only present on a Pi
        return Picamera2()

    def still(self) -> np.ndarray | None:
        """A full-resolution picture of the same view (the camera switches mode for it and
        back: about half a second), or None if it cannot be had."""
        if self._camera is None:
            return None
        try:
            return self._camera.switch_mode_and_capture_array(self._still_config, "main")
        except RuntimeError:
            return None

    def glimpse(self) -> Glimpse | None:
        """The next moment: the luma plane of the ``lores`` stream; its ``main`` frame is
        read only if asked for (the next one the camera makes: a moment later)."""
        if self._camera is None:
            return None
        try:
            yuv = self._camera.capture_array("lores")
        except RuntimeError:
            return None
        width, height = self.lores
        # YUV420 comes as (height * 3/2, stride) rows: the first ``height`` are the luma.
        return Glimpse(self.clock(), yuv[:height, :width], self._main)

    def _main(self) -> np.ndarray | None:
        try:
            # Picamera2's "RGB888" is laid out B, G, R in memory: already OpenCV's order.
            return self._camera.capture_array("main") if self._camera is not None else None
        except RuntimeError:
            return None

    def read(self) -> tuple[float, np.ndarray] | None:
        frame = self._main()
        return None if frame is None else (self.clock(), frame)

    def close(self) -> None:
        if self._camera is not None:
            self._camera.stop()
            self._camera.close()
            self._camera = None


#: Largest image read at all (pixels): a 20000 x 20000 PNG would take gigabytes to decode.
MAX_PIXELS = 64_000_000
#: Larger photos are decoded at a half, a quarter or an eighth of their size (JPEG does this
#: cheaply): recognition works on at most 2048 pixels anyway.
DECODE_LONG = 4096


def image_size(path: str | Path) -> tuple[int, int]:
    """(width, height) from the file's header, without decoding it; CameraError if the file
    is not an image or is too large to read.

    A PNG's chunks are checked to the end first (their CRCs, not the pixels): given a
    truncated or damaged one, libpng would print its own error line before ours."""
    from PIL import Image, UnidentifiedImageError

    try:
        with Image.open(path) as image:
            width, height = image.size
            if image.format == "PNG":
                image.verify()
    except Image.DecompressionBombError:
        width = height = 0  # Pillow refuses it for its size: say so below, in our words
    except (UnidentifiedImageError, OSError, ValueError, SyntaxError):
        raise CameraError(f"{path}: not a readable image") from None
    if width * height == 0 or width * height > MAX_PIXELS:
        raise CameraError(f"{path}: too large an image (the companion reads up to "
                          f"{MAX_PIXELS // 1_000_000} megapixels; scale it down first)")
    return width, height


def read_image(path: str | Path) -> np.ndarray:
    """An image file as BGR, turned as its EXIF orientation says (a very large photo comes
    back smaller: see ``read_image_scaled``)."""
    return read_image_scaled(path)[0]


def read_image_scaled(path: str | Path) -> tuple[np.ndarray, float]:
    """An image file as BGR and the scale it was decoded at (1.0, or 1/2, 1/4, 1/8 for a
    photo longer than DECODE_LONG): pixel positions in it divided by the scale are positions
    in the file's image."""
    if not Path(path).is_file():  # checked first: OpenCV would print its own warning
        raise CameraError(f"{path}: no such image file")
    width, height = image_size(path)
    factor, flag = 1, cv2.IMREAD_COLOR  # applies EXIF orientation
    for reduce, reduced in ((2, cv2.IMREAD_REDUCED_COLOR_2), (4, cv2.IMREAD_REDUCED_COLOR_4),
                            (8, cv2.IMREAD_REDUCED_COLOR_8)):
        if max(width, height) / factor > DECODE_LONG:
            factor, flag = reduce, reduced
    try:
        frame = cv2.imread(str(path), flag)
    except cv2.error:
        frame = None
    if frame is None:
        raise CameraError(f"{path}: not a readable image")
    long_side = max(frame.shape[:2])
    return frame, long_side / max(width, height)


@dataclass(frozen=True)
class CameraTrouble:
    """A frame that was not used: ``dropped``, ``black`` or ``frozen``, and when."""

    kind: str
    at: float | None
    message: str


class CameraWatch:
    """Reads a source, holds back bad frames, reports trouble and reopens the source.

    What it judges is the small grey picture watched (``glimpse``): the full frame is not
    touched. Frozen means ``frozen_frames`` reads in a row with no pixel change at all: a live
    sensor always carries some noise, a stuck driver repeats the same buffer. A source that
    says it is no live sensor (``live = False``: a folder of frames) is never frozen.
    """

    def __init__(self, source: FrameSource, black_level: float = 8.0, frozen_frames: int = 30,
                 report: Callable[[CameraTrouble], None] | None = None) -> None:
        self.source = source
        self.watched = glimpses_of(source)
        self.black_level = black_level
        self.frozen_frames = frozen_frames
        self.report = report
        self.live = getattr(source, "live", True)
        self.troubles: list[CameraTrouble] = []
        self._opened = False
        self._previous: np.ndarray | None = None
        self._spare: np.ndarray | None = None  # the buffer the next picture goes into
        self._same = 0

    def next(self) -> tuple[Glimpse | None, CameraTrouble | None]:
        """The next good moment, or (None, the trouble that held it back)."""
        if not self._opened:
            self.watched.open()
            self._opened = True
        glimpse = self.watched.glimpse()
        if glimpse is None:
            return None, self._trouble("dropped", None, "the camera gave no frame")
        at, grey = glimpse.at, glimpse.grey
        # Copied into one of two buffers kept for it (the source may reuse its own).
        sample = self._spare
        if sample is None or sample.shape != grey.shape or sample.dtype != grey.dtype:
            sample = np.empty(grey.shape, grey.dtype)
        np.copyto(sample, grey)
        self._spare = sample
        if float(sample.mean()) < self.black_level:
            return None, self._trouble("black", at, "the camera sees only black "
                                       "(lens covered, cable loose or lights off)")
        # A source that is no live sensor (a folder of frames) repeats a picture honestly.
        if self.live and self._previous is not None and np.array_equal(sample, self._previous):
            self._same += 1
            if self._same >= self.frozen_frames:
                self._same = 0
                return None, self._trouble("frozen", at, "the camera picture is frozen")
        else:
            self._same = 0
        self._previous, self._spare = sample, self._previous
        return glimpse, None

    def _trouble(self, kind: str, at: float | None, message: str) -> CameraTrouble:
        trouble = CameraTrouble(kind, at, message)
        self.troubles.append(trouble)
        if self.report:
            self.report(trouble)
        self.watched.close()
        self._opened = False
        self._previous = None
        return trouble
