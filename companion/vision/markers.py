"""The ArUco markers of the table: four table corners, one per Rumble character, the chest.

One dictionary for everything so a single detector pass finds them all:

>>> CORNER_IDS
(0, 1, 2, 3)
>>> character_marker(0), CHEST_ID
(10, 30)
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

#: 4x4 bits keep the cells large, so a marker reads from far with a cheap camera.
DICTIONARY = cv2.aruco.DICT_4X4_50
#: Table corners, clockwise from top-left as seen by the camera mounted over seat 0's far side.
CORNER_IDS = (0, 1, 2, 3)
#: Rumble characters: the i-th character of the game's character list wears marker 10 + i.
CHARACTER_BASE_ID = 10
CHARACTER_COUNT = 12
#: The Rumble treasure chest.
CHEST_ID = 30


def character_marker(index: int) -> int:
    """Marker id worn by the index-th Rumble character (0-based)."""
    if not 0 <= index < CHARACTER_COUNT:
        raise ValueError(f"character index {index} outside 0..{CHARACTER_COUNT - 1}")
    return CHARACTER_BASE_ID + index


def dictionary() -> cv2.aruco.Dictionary:
    return cv2.aruco.getPredefinedDictionary(DICTIONARY)


def marker_image(marker_id: int, pixels: int) -> np.ndarray:
    """A marker with its black border, ``pixels`` square, 8-bit grey."""
    return cv2.aruco.generateImageMarker(dictionary(), marker_id, pixels)


@dataclass(frozen=True)
class MarkerSighting:
    """One marker found in an image: its id and its four corners (pixels, marker order)."""

    marker_id: int
    corners: np.ndarray  # shape (4, 2), float32

    @property
    def centre(self) -> np.ndarray:
        return self.corners.mean(axis=0)


class MarkerFinder:
    """Finds the table's ArUco markers in a grey or colour image.

    A quick pass with one threshold window runs first; only if it misses one of the
    ``expected`` markers does the thorough pass (several windows) run.

    >>> MarkerFinder().find(np.zeros((40, 40), np.uint8))
    []
    """

    def __init__(self, expected: tuple[int, ...] = CORNER_IDS) -> None:
        self.expected = set(expected)
        quick = cv2.aruco.DetectorParameters()
        quick.adaptiveThreshWinSizeMin = quick.adaptiveThreshWinSizeMax = 13
        thorough = cv2.aruco.DetectorParameters()
        for params in (quick, thorough):
            # Corners drive the table homography: sub-pixel refinement is worth its cost.
            params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
        self._quick = cv2.aruco.ArucoDetector(dictionary(), quick)
        self._thorough = cv2.aruco.ArucoDetector(dictionary(), thorough)

    def find(self, image: np.ndarray) -> list[MarkerSighting]:
        grey = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
        found = self._detect(self._quick, grey)
        if not self.expected <= {s.marker_id for s in found}:
            # None at all: most likely a frame with no markers (a photo), so the thorough
            # pass looks at half size first; it looks at full size only if that finds one.
            half = None if found else cv2.resize(grey, None, fx=0.5, fy=0.5,
                                                 interpolation=cv2.INTER_AREA)
            if half is None or self._detect(self._thorough, half):
                thorough = self._detect(self._thorough, grey)
                if len(thorough) > len(found):
                    found = thorough
        return found

    @staticmethod
    def _detect(detector: cv2.aruco.ArucoDetector, grey: np.ndarray) -> list[MarkerSighting]:
        corners, ids, _ = detector.detectMarkers(grey)
        if ids is None:
            return []
        return [MarkerSighting(int(i), c.reshape(4, 2).astype(np.float32))
                for i, c in zip(ids.ravel(), corners, strict=True)]
