"""The ArUco markers of the table: its four corners, and the markers a game's pieces wear (its
bundle's ``CameraParts.markers``).

One dictionary for everything so a single detector pass finds them all:

>>> CORNER_IDS
(0, 1, 2, 3)
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from companion.vision.layout import CORNER_IDS

#: 4x4 bits keep the cells large, so a marker reads from far with a cheap camera.
DICTIONARY = cv2.aruco.DICT_4X4_50
#: Frames this long (pixels, either side) are read at half size first.
HALF_FIRST = 1200


def dictionary() -> cv2.aruco.Dictionary:
    return cv2.aruco.getPredefinedDictionary(DICTIONARY)


def marker_image(marker_id: int, pixels: int) -> np.ndarray:
    """A marker with its black border, ``pixels`` square, 8-bit grey."""
    return cv2.aruco.generateImageMarker(dictionary(), marker_id, pixels)


@dataclass(frozen=True)
class FoundMarker:
    """One marker found in an image: its id and its four corners (pixels, marker order)."""

    marker_id: int
    corners: np.ndarray  # shape (4, 2), float32

    @property
    def centre(self) -> np.ndarray:
        return self.corners.mean(axis=0)


class MarkerFinder:
    """Finds the table's ArUco markers in a grey or colour image.

    A quick pass with one threshold window runs first (at half size on a large frame, the
    corners then refined at full size); only if it misses one of the ``expected`` markers
    does the thorough pass (several windows) run.

    >>> MarkerFinder().find(np.zeros((40, 40), np.uint8))
    []
    """

    def __init__(self, expected: tuple[int, ...] = CORNER_IDS, half_first: bool = False) -> None:
        """``half_first``: read a large frame at half size first (False when small markers,
        such as those of a game's pieces, must be found too)."""
        self.expected = set(expected)
        self.half_first = half_first
        quick = cv2.aruco.DetectorParameters()
        quick.adaptiveThreshWinSizeMin = quick.adaptiveThreshWinSizeMax = 13
        thorough = cv2.aruco.DetectorParameters()
        # The thorough pass's windows less the quick one's: at half size, after the quick
        # pass found nothing there, a look for any marker at all need not repeat it.
        others = cv2.aruco.DetectorParameters()
        others.adaptiveThreshWinSizeMin = thorough.adaptiveThreshWinSizeMin
        others.adaptiveThreshWinSizeMax = thorough.adaptiveThreshWinSizeMax
        others.adaptiveThreshWinSizeStep = (thorough.adaptiveThreshWinSizeMax
                                            - thorough.adaptiveThreshWinSizeMin)
        for params in (quick, thorough, others):
            # Corners drive the table homography: sub-pixel refinement is worth its cost.
            params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
        self._quick = cv2.aruco.ArucoDetector(dictionary(), quick)
        self._thorough = cv2.aruco.ArucoDetector(dictionary(), thorough)
        self._others = cv2.aruco.ArucoDetector(dictionary(), others)

    def find(self, image: np.ndarray) -> list[FoundMarker]:
        grey = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
        half, quick_on_half = None, False
        if self.half_first and max(grey.shape) >= HALF_FIRST:
            # A large frame: its markers are large too, so the quick pass reads them at half
            # size (a quarter of the work) and their corners are refined at full size.
            half = cv2.resize(grey, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
            found, quick_on_half = self._detect(self._quick, half), True
            if self.expected <= {s.marker_id for s in found}:
                return self._refined(grey, found)
            if found:
                found = self._detect(self._quick, grey)
        else:
            found = self._detect(self._quick, grey)
        if not self.expected <= {s.marker_id for s in found}:
            # None at all: most likely a frame with no markers (a photo), so the thorough
            # pass looks at half size first; it looks at full size only if that finds one.
            if found:
                half = None
            elif half is None:
                half = cv2.resize(grey, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
            look = self._others if quick_on_half else self._thorough
            if half is None or self._detect(look, half):
                thorough = self._detect(self._thorough, grey)
                if len(thorough) > len(found):
                    found = thorough
        return found

    def _refined(self, grey: np.ndarray, found: list[FoundMarker]) -> list[FoundMarker]:
        """Markers found at half size, read again at full size each in its own small crop
        (the same corners as a full-size pass, for a fraction of the work)."""
        refined = []
        for marker in found:
            corners = marker.corners * 2.0 + 0.5
            x0, y0 = np.floor(corners.min(axis=0)).astype(int)
            x1, y1 = np.ceil(corners.max(axis=0)).astype(int)
            margin = max(8, (max(x1 - x0, y1 - y0) + 1) // 2)
            x0, y0 = max(0, x0 - margin), max(0, y0 - margin)
            crop = grey[y0:y1 + margin, x0:x1 + margin]
            again = [s for s in self._detect(self._quick, crop)
                     if s.marker_id == marker.marker_id]
            if len(again) != 1:
                return self._detect(self._quick, grey)
            refined.append(FoundMarker(marker.marker_id,
                                       again[0].corners + np.float32([x0, y0])))
        return refined

    @staticmethod
    def _detect(detector: cv2.aruco.ArucoDetector, grey: np.ndarray) -> list[FoundMarker]:
        corners, ids, _ = detector.detectMarkers(grey)
        if ids is None:
            return []
        return [FoundMarker(int(i), c.reshape(4, 2).astype(np.float32))
                for i, c in zip(ids.ravel(), corners, strict=True)]
