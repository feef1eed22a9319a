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
#: Width of the finer copy a card laid is outlined on.
FINE_WIDTH = 640
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
#: A card laid covers a place that changed: at least this share of its outline.
LAID_CHANGED = 0.3
#: Without a card read yet, a card's long side is taken as this share of the frame's.
FIRST_CARD = 0.2


@dataclass
class _Read:
    """The frame last read, as compared, and what was read in it."""

    grey: np.ndarray
    fine: np.ndarray  # the same, finer: where a card was laid, its outline
    shape: tuple[int, ...]
    detections: list[Detection]


ReadWhole = Callable[[np.ndarray], list[Detection]]
ReadOutline = Callable[[np.ndarray, np.ndarray], "Detection | None"]


class ChangeReader:
    """The cards of a frame from the frame last read and what changed since.

    ``read_whole(crop)``: the cards whose whole outline shows in a crop of a frame (in the
    crop's pixels); ``read_part(crop)``: every card in it, those partly covered too;
    ``read_outline(frame, outline)``: the card in an outline found roughly (it is put on
    the card's edges first), or None."""

    def __init__(self, read_whole: ReadWhole, read_part: ReadWhole | None = None,
                 read_outline: ReadOutline | None = None) -> None:
        self.read_whole = read_whole
        self.read_part = read_part or (lambda crop: [])
        self.read_outline = read_outline or (lambda frame, outline: None)
        self.last: _Read | None = None

    def remember(self, frame: np.ndarray, detections: Sequence[Detection]) -> None:
        """The frame just read (in full or not), and its cards: what the next is compared
        with."""
        self.last = _Read(self._grey(frame), self._fine(frame), frame.shape, list(detections))

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
            np.uint8(_difference(grey, last.grey) > CHANGE_LEVEL) * 255, cv2.MORPH_OPEN,
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
        crop = frame[y0:y1, x0:x1]

        def where_changed(_: np.ndarray) -> list[Detection]:
            # The outlines from the change seen finer: a card's width is a few of the coarse
            # copy's pixels, and a card's edge must be found within a pixel or two.
            fine = self._fine(frame)
            step = frame.shape[1] / fine.shape[1]
            box = (slice(int(y0 / step), int(y1 / step) + 1),
                   slice(int(x0 / step), int(x1 / step) + 1))
            moved = np.zeros(fine.shape[:2], np.uint8)
            moved[box] = cv2.morphologyEx(
                np.uint8(_difference(fine[box], last.fine[box]) > CHANGE_LEVEL) * 255,
                cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
            found = [self.read_outline(frame, outline)
                     for outline in _card_shaped(moved, step, card_long)]
            return [replace(d, corners=(d.corners - offset).astype(np.float32))
                    for d in found if d is not None]

        # The change itself is the outline of a card laid alone (on the table or on a trick);
        # a card laid apart shows its whole outline; one laid across others may only be told
        # from the cards under it by reading the cluster.
        for reading in (where_changed, self.read_whole, self.read_part):
            laid = [replace(d, corners=(d.corners + offset).astype(np.float32))
                    for d in reading(crop)]
            laid = [d for d in laid
                    if not any(same_card(d.corners, o.corners) and d.item_id == o.item_id
                               for o in last.detections)
                    and self._changed_under(changed, scale, d) >= LAID_CHANGED]
            if laid and self._explained(changed, scale, laid, card_long):
                return [*last.detections, *laid]
        return None

    @staticmethod
    def _changed_under(changed: np.ndarray, scale: float, card: Detection) -> float:
        """The share of a card's outline where the frame changed (a card laid: most of it;
        one read again where it lay: none)."""
        inside = np.zeros_like(changed)
        cv2.fillConvexPoly(inside, (card.corners / scale).round().astype(np.int32), 255)
        area = cv2.countNonZero(inside)
        return cv2.countNonZero(cv2.bitwise_and(changed, inside)) / max(area, 1)

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
    def _fine(frame: np.ndarray) -> np.ndarray:
        return ChangeReader._grey(frame, FINE_WIDTH)

    @staticmethod
    def _grey(frame: np.ndarray, width: int = 0) -> np.ndarray:
        width = min(width or COMPARED_WIDTH, frame.shape[1])
        size = (width, max(1, round(frame.shape[0] * width / frame.shape[1])))
        # In colour: a blue card laid on another blue card changes the print, not the grey.
        return cv2.GaussianBlur(cv2.resize(frame, size, interpolation=cv2.INTER_AREA), (5, 5), 0)


def _card_shaped(changed: np.ndarray, scale: float, card_long: float) -> list[np.ndarray]:
    """Outlines (frame pixels) of the parts of the change that are a card's size: the
    smallest turned rectangle round each."""
    count, labels, stats, _ = cv2.connectedComponentsWithStats(
        cv2.morphologyEx(changed, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8)))
    area = (card_long / scale) ** 2 / 1.45  # a card's, at the compared size
    outlines = []
    for label in range(1, count):
        if not 0.5 * area <= stats[label, cv2.CC_STAT_AREA] <= 1.5 * area:
            continue
        points = cv2.findNonZero(np.uint8(labels == label))
        rect = cv2.minAreaRect(points)
        (w, h) = rect[1]
        if not 0.6 * area <= w * h <= 1.6 * area:
            continue
        outlines.append(np.float32(cv2.boxPoints(rect)) * scale + (scale - 1) / 2)
    return outlines


def _difference(now: np.ndarray, before: np.ndarray) -> np.ndarray:
    """The largest difference of any colour plane, per pixel."""
    diff = cv2.absdiff(now, before)
    return diff if diff.ndim == 2 else diff.max(axis=2)
