"""Reading only what changed since the table was last read: a fixed camera sees the same
table all evening, and a card laid on a trick changes a card's worth of it.

The frame is compared with the one last read (a small grey copy of each): where nothing
changed, the cards read then still lie as they were. Where it changed, only that region is
read, and only for cards whose whole outline shows (a card laid lies on top). If the cards
found there explain the change (nothing changed outside them but their shadows), they join
the cards read before; else (a card moved or taken away, a hand left something unreadable
in view) the frame must be read in full.

>>> reader = ChangeReader(lambda crop: [])
>>> table = np.full((360, 480, 3), 60, np.uint8)
>>> reader.remember(table, [])
>>> reader.read(table)
[]
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import cv2
import numpy as np

from companion.vision.detection import Detection, same_card
from companion.vision.quads import quad_sides

#: Width of the grey copy compared (pixels): a card is still a dozen pixels across.
COMPARED_WIDTH = 320
#: Grey levels (of the blurred copy) that count as a change: past sensor noise and a
#: flicker of the light, below a card's edge on any table.
CHANGE_LEVEL = 14
#: A change over more than this share of the frame is read in full (the light changed,
#: the camera was knocked): no part of the earlier reading can be trusted.
MOST_CHANGED = 0.35
#: The region read reaches this share of a card's long side beyond the change.
REACH = 0.6
#: The change left once the new cards' outlines (grown by ``SHADOW`` of their short side:
#: their shadow, an outline a pixel or two inside the edge) are taken out may be at most
#: this share of a card.
UNEXPLAINED = 0.04
SHADOW = 0.1
#: Without a card read yet, a card's long side is taken as this share of the frame's.
FIRST_CARD = 0.2


@dataclass
class _Read:
    """The frame last read, as compared, and what was read in it."""

    grey: np.ndarray
    shape: tuple[int, ...]
    detections: list[Detection]


ReadWhole = Callable[[np.ndarray], list[Detection]]


class ChangeReader:
    """The cards of a frame from the frame last read and what changed since.

    ``read_whole(crop)``: the cards whose whole outline shows in a crop of a frame (in the
    crop's pixels)."""

    def __init__(self, read_whole: ReadWhole) -> None:
        self.read_whole = read_whole
        self.last: _Read | None = None

    def remember(self, frame: np.ndarray, detections: Sequence[Detection]) -> None:
        """The frame just read (in full or not), and its cards: what the next is compared
        with."""
        self.last = _Read(self._grey(frame), frame.shape, list(detections))

    def forget(self) -> None:
        self.last = None

    def read(self, frame: np.ndarray) -> list[Detection] | None:
        """The cards of ``frame``: those read before plus any laid since; None if the
        change must be read in full (or nothing was read before)."""
        last = self.last
        if last is None or frame.shape != last.shape:
            return None
        grey = self._grey(frame)
        changed = cv2.morphologyEx(
            np.uint8(cv2.absdiff(grey, last.grey) > CHANGE_LEVEL) * 255, cv2.MORPH_OPEN,
            np.ones((3, 3), np.uint8))
        count = cv2.countNonZero(changed)
        if count == 0:
            return list(last.detections)
        if count > MOST_CHANGED * changed.size:
            return None
        scale = frame.shape[1] / grey.shape[1]
        card_long = (float(np.median([max(quad_sides(d.corners)) for d in last.detections]))
                     if last.detections else FIRST_CARD * max(frame.shape[:2]))
        x, y, w, h = cv2.boundingRect(changed)
        pad = REACH * card_long
        x0, y0 = max(0, int(x * scale - pad)), max(0, int(y * scale - pad))
        x1 = min(frame.shape[1], int((x + w) * scale + pad))
        y1 = min(frame.shape[0], int((y + h) * scale + pad))
        offset = np.float32([x0, y0])
        laid = [replace(d, corners=(d.corners + offset).astype(np.float32))
                for d in self.read_whole(frame[y0:y1, x0:x1])]
        laid = [d for d in laid if not any(same_card(d.corners, o.corners)
                                           and d.item_id == o.item_id for o in last.detections)]
        if not laid or not self._explained(changed, scale, laid, card_long):
            return None
        return [*last.detections, *laid]

    @staticmethod
    def _explained(changed: np.ndarray, scale: float, laid: Sequence[Detection],
                   card_long: float) -> bool:
        """Does the change lie within the cards laid (grown a little), bar a sliver?"""
        covered = np.zeros_like(changed)
        for card in laid:
            centre = card.corners.mean(axis=0)
            half_diagonal = max(1.0, float(np.linalg.norm(card.corners[0] - centre)))
            grow = 1 + SHADOW * min(quad_sides(card.corners)) / half_diagonal
            outline = (centre + (card.corners - centre) * grow) / scale
            cv2.fillConvexPoly(covered, outline.round().astype(np.int32), 255)
        left = cv2.countNonZero(cv2.bitwise_and(changed, cv2.bitwise_not(covered)))
        card_area = (card_long / scale) ** 2 / 1.5
        return left <= UNEXPLAINED * card_area

    @staticmethod
    def _grey(frame: np.ndarray) -> np.ndarray:
        height, width = frame.shape[:2]
        size = (COMPARED_WIDTH, max(1, round(height * COMPARED_WIDTH / width)))
        small = cv2.resize(frame, size, interpolation=cv2.INTER_AREA)
        if small.ndim == 3:
            small = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
        return cv2.GaussianBlur(small, (5, 5), 0)
