"""Finding card-shaped quadrilaterals in a camera image.

Cards are lighter than the table around them; an adaptive threshold follows lighting
gradients, and a CLAHE-equalised edge pass catches what a flat or washed-out frame hides.
Blobs that are not one clean quadrilateral (touching or overlapping cards, a hand over a
card) are handed back as regions for the feature matcher.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

#: Detection runs on a copy no wider than this: quads need shape, not detail.
WORK_WIDTH = 640


@dataclass(frozen=True)
class Candidates:
    """What the quad finder saw: clean quads (pixels, TL-TR-BR-BL) and leftover regions."""

    quads: list[np.ndarray]
    regions: list[tuple[int, int, int, int]]  # x, y, w, h in image pixels


def order_corners(quad: np.ndarray) -> np.ndarray:
    """Corners clockwise from the one nearest the top-left of the image."""
    pts = quad.reshape(4, 2).astype(np.float32)
    centre = pts.mean(axis=0)
    angles = np.arctan2(pts[:, 1] - centre[1], pts[:, 0] - centre[0])
    pts = pts[np.argsort(angles)]  # y points down, so growing angle is clockwise
    start = int(np.argmin(pts.sum(axis=1)))
    return np.roll(pts, -start, axis=0)


def quad_sides(quad: np.ndarray) -> tuple[float, float]:
    """Mean lengths of the (TL-TR, BR-BL) sides and of the (TR-BR, BL-TL) sides."""
    d = np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1)
    return float(d[0] + d[2]) / 2, float(d[1] + d[3]) / 2


class QuadFinder:
    """Finds quadrilaterals covering between ``min_fraction`` and ``max_fraction`` of the frame.
    """

    def __init__(self, min_fraction: float = 0.003, max_fraction: float = 0.6,
                 contrast: int = 30) -> None:
        self.contrast = contrast
        self.min_fraction = min_fraction
        self.max_fraction = max_fraction
        self._clahe = cv2.createCLAHE(clipLimit=2.0, tileGridSize=(8, 8))

    def find(self, grey: np.ndarray) -> Candidates:
        scale = min(1.0, WORK_WIDTH / grey.shape[1])
        small = grey if scale == 1.0 else cv2.resize(
            grey, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        quads, regions = self._from_mask(self._bright_mask(small), small.shape, scale)
        if not quads and not regions:
            # A washed-out or flat frame: equalise locally and look for outlines instead.
            quads, regions = self._from_mask(self._edge_mask(small), small.shape, scale)
        return Candidates(quads, regions)

    def _bright_mask(self, small: np.ndarray) -> np.ndarray:
        """Pixels clearly lighter than their neighbourhood: the light rim and face of a card."""
        block = max(31, (min(small.shape) // 4) | 1)
        local = cv2.blur(small, (block, block))
        mask = cv2.compare(small, cv2.add(local, self.contrast), cv2.CMP_GT)
        # Closing bridges a card's light rim where blur or a bright table thinned it.
        return cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))

    def _edge_mask(self, small: np.ndarray) -> np.ndarray:
        equal = self._clahe.apply(small)
        median = float(np.median(equal))
        edges = cv2.Canny(equal, 0.66 * median, 1.33 * median)
        return cv2.dilate(edges, np.ones((3, 3), np.uint8))

    def _from_mask(self, mask: np.ndarray, shape: tuple[int, ...], scale: float
                   ) -> tuple[list[np.ndarray], list[tuple[int, int, int, int]]]:
        contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        frame_area = shape[0] * shape[1]
        min_area = self.min_fraction * frame_area
        max_area = self.max_fraction * frame_area
        quads: list[np.ndarray] = []
        regions: list[tuple[int, int, int, int]] = []
        for contour in contours:
            area = cv2.contourArea(contour)
            if not min_area <= area <= max_area:
                continue
            hull = cv2.convexHull(contour)
            approx = cv2.approxPolyDP(hull, 0.04 * cv2.arcLength(hull, True), True)
            solid = area / max(cv2.contourArea(hull), 1.0)
            if len(approx) == 4 and solid > 0.9:
                quads.append(order_corners(approx.reshape(4, 2) / scale))
                continue
            x, y, w, h = cv2.boundingRect(contour)
            trimmed = self._trim(contour, (x, y, w, h), min_area)
            if trimmed is not None:
                quads.append(order_corners(trimmed / scale))
                continue
            # Cards leave solid blobs; the table's own grain leaves thin, ragged ones.
            if area >= 2 * min_area and solid > 0.5:
                regions.append((int(x / scale), int(y / scale), int(w / scale) + 1,
                                int(h / scale) + 1))
        return quads, regions

    @staticmethod
    def _trim(contour: np.ndarray, box: tuple[int, int, int, int],
              min_area: float) -> np.ndarray | None:
        """A card with specks of bright table stuck to its rim: open them off, keep the quad."""
        x, y, w, h = box
        filled = np.zeros((h + 2, w + 2), np.uint8)
        cv2.drawContours(filled, [contour - np.int32([x - 1, y - 1])], -1, 255, -1)
        k = max(3, int(0.15 * min(w, h)) | 1)
        opened = cv2.morphologyEx(filled, cv2.MORPH_OPEN,
                                  cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
        inner, _ = cv2.findContours(opened, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        if len(inner) != 1 or cv2.contourArea(inner[0]) < min_area:
            return None
        hull = cv2.convexHull(inner[0])
        approx = cv2.approxPolyDP(hull, 0.04 * cv2.arcLength(hull, True), True)
        if len(approx) != 4 or cv2.contourArea(inner[0]) < 0.9 * cv2.contourArea(hull):
            return None
        return approx.reshape(4, 2).astype(np.float32) + np.float32([x - 1, y - 1])
