"""Finding card-shaped quadrilaterals in a camera image.

Cards are lighter than the table around them; an adaptive threshold follows lighting
gradients, and a CLAHE-equalised edge pass catches what a flat or washed-out frame hides.
Each blob comes back with its outline if that is one card, the closed rims inside it
(cards touching or lying on others), and its box and contour for the row splitter and the
feature matcher (cards partly covered, a hand over a card).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

#: Detection runs on a copy no wider than this: quads need shape, not detail.
WORK_WIDTH = 640


def box_overlap(one: tuple[int, int, int, int], other: tuple[int, int, int, int]) -> float:
    """The share of their union two boxes (x, y, w, h) have in common."""
    common = _box_common(one, other)
    return common / max(one[2] * one[3] + other[2] * other[3] - common, 1)


def box_share(box: tuple[int, int, int, int], other: tuple[int, int, int, int]) -> float:
    """The share of ``box`` (x, y, w, h) that ``other`` covers."""
    return _box_common(box, other) / max(box[2] * box[3], 1)


def _box_common(one: tuple[int, int, int, int], other: tuple[int, int, int, int]) -> int:
    """The area two boxes (x, y, w, h) have in common."""
    x0, y0 = max(one[0], other[0]), max(one[1], other[1])
    x1 = min(one[0] + one[2], other[0] + other[2])
    y1 = min(one[1] + one[3], other[1] + other[3])
    return max(0, x1 - x0) * max(0, y1 - y0)


@dataclass(frozen=True)
class Blob:
    """One light blob: its outline if that is a quad, the quads of the closed rims inside it
    (cards touching or overlapping it), and its box (x, y, w, h). Pixels of the image given.
    Quads run clockwise from the corner nearest the image's top-left."""

    outline: np.ndarray | None
    inner: list[np.ndarray]
    box: tuple[int, int, int, int]
    rect: np.ndarray  # corners of the smallest turned rectangle around the blob
    contour: np.ndarray  # the blob's outline, (N, 2)


def uncovered(blob: Blob, cards: Sequence[np.ndarray], least: float = 0.15
              ) -> np.ndarray | None:
    """What of ``blob`` the ``cards`` (corners) leave uncovered, as a mask over its box
    grown by a pixel, bar slivers narrower than a tenth of a card; None if that is less than
    ``least`` of a card's short side squared (by default, nothing a card could hide in)."""
    x, y, w, h = blob.box
    left = np.zeros((h + 2, w + 2), np.uint8)
    offset = np.float32([x - 1, y - 1])
    cv2.fillPoly(left, [(blob.contour - offset).round().astype(np.int32)], 255)
    for quad in cards:
        cv2.fillConvexPoly(left, (quad - offset).round().astype(np.int32), 0)
    short = (min(min(quad_sides(quad)) for quad in cards) if len(cards)
             else 0.5 * min(w, h))
    least_pixels = least * short * short
    if cv2.countNonZero(left) < least_pixels:
        return None  # too little even before opening, which only takes pixels away
    # Thin rims and table specks left along the edges are opened away; a hidden card is not.
    size = max(3, int(short / 10) | 1)
    left = cv2.morphologyEx(left, cv2.MORPH_OPEN, np.ones((size, size), np.uint8))
    return None if cv2.countNonZero(left) < least_pixels else left


def order_corners(quad: np.ndarray) -> np.ndarray:
    """Corners clockwise from the one nearest the top-left of the image."""
    pts = np.asarray(quad, np.float32).reshape(4, 2)
    # Plain floats on four points: numpy's per-call overhead was most of the cost (a frame
    # orders a few hundred outlines).
    corners = pts.tolist()
    cx, cy = sum(x for x, _ in corners) / 4, sum(y for _, y in corners) / 4
    # y points down, so growing angle is clockwise.
    order = sorted(range(4), key=lambda k: math.atan2(corners[k][1] - cy, corners[k][0] - cx))
    start = min(range(4), key=lambda k: corners[order[k]][0] + corners[order[k]][1])
    return pts[order[start:] + order[:start]]


def quad_sides(quad: np.ndarray) -> tuple[float, float]:
    """Mean lengths of the (TL-TR, BR-BL) sides and of the (TR-BR, BL-TL) sides."""
    # Plain floats: called tens of thousands of times a frame where a pile is searched, and
    # numpy's per-call overhead on eight numbers was most of its cost.
    (ax, ay), (bx, by), (cx, cy), (dx, dy) = np.asarray(quad).reshape(4, 2).tolist()
    return ((math.hypot(bx - ax, by - ay) + math.hypot(dx - cx, dy - cy)) / 2,
            (math.hypot(cx - bx, cy - by) + math.hypot(ax - dx, ay - dy)) / 2)


class QuadFinder:
    """Finds quadrilaterals covering between ``min_fraction`` and ``max_fraction`` of the frame.
    """

    def __init__(self, min_fraction: float = 0.003, max_fraction: float = 0.6,
                 contrast: int = 30) -> None:
        self.contrast = contrast
        self.min_fraction = min_fraction
        self.max_fraction = max_fraction
        self._clahe = cv2.createCLAHE(clipLimit=2.0, tileGridSize=(8, 8))

    def find(self, grey: np.ndarray) -> list[Blob]:
        return self.find_with_beyond(grey)[0]

    def find_with_beyond(self, grey: np.ndarray
                         ) -> tuple[list[Blob], list[tuple[int, int, int, int]]]:
        """The blobs, and the boxes (x, y, w, h) of light regions larger than any cluster
        (a light table, the light beyond it, or cards touching a sheet of paper)."""
        scale = min(1.0, WORK_WIDTH / grey.shape[1])
        small = grey if scale == 1.0 else cv2.resize(
            grey, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        blobs, beyond = self._from_mask(self._bright_mask(small), small.shape, scale)
        if beyond:
            # Those found already (lying apart from the region) are not found twice.
            blobs += [b for b in self._within(small, beyond, scale)
                      if not any(box_overlap(b.box, known.box) >= 0.8 for known in blobs)]
        if not blobs:
            # A washed-out or flat frame: equalise locally and look for outlines instead.
            blobs = self._from_mask(self._edge_mask(small), small.shape, scale)[0]
        return blobs, beyond

    def _within(self, small: np.ndarray, beyond: list[tuple[int, int, int, int]], scale: float
                ) -> list[Blob]:
        """The card clusters inside light regions too large to be one (cards touching a mat's
        light rim or a sheet of paper, cards on a light table): the region's lightest part,
        split from the rest at its own Otsu level."""
        found: list[Blob] = []
        for x, y, w, h in beyond:
            x0, y0 = int(x * scale), int(y * scale)
            x1 = min(small.shape[1], int((x + w) * scale))
            y1 = min(small.shape[0], int((y + h) * scale))
            region = small[y0:y1, x0:x1]
            if region.size == 0:
                continue
            _, light = cv2.threshold(region, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
            mask = np.zeros_like(small)
            mask[y0:y1, x0:x1] = light
            mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
            found += self._from_mask(mask, small.shape, scale)[0]
        return found

    def _bright_mask(self, small: np.ndarray) -> np.ndarray:
        """Pixels clearly lighter than their neighbourhood: the light rim and face of a card."""
        block = max(31, (min(small.shape) // 4) | 1)
        local = cv2.blur(small, (block, block))
        mask = cv2.compare(small, cv2.add(local, self.contrast), cv2.CMP_GT)
        # Closing bridges a card's light rim where blur or a bright table thinned it.
        return cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((7, 7), np.uint8))

    def _edge_mask(self, small: np.ndarray) -> np.ndarray:
        equal = self._clahe.apply(small)
        median = float(np.median(equal))
        edges = cv2.Canny(equal, 0.66 * median, 1.33 * median)
        return cv2.dilate(edges, np.ones((3, 3), np.uint8))

    def _from_mask(self, mask: np.ndarray, shape: tuple[int, ...], scale: float
                   ) -> tuple[list[Blob], list[tuple[int, int, int, int]]]:
        """The mask's blobs, and the boxes of its regions too large to be one."""
        contours, hierarchy = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_NONE)
        beyond: list[tuple[int, int, int, int]] = []
        if hierarchy is None:
            return [], beyond
        links = hierarchy[0]
        frame_area = shape[0] * shape[1]
        min_area = self.min_fraction * frame_area
        max_area = self.max_fraction * frame_area
        blobs: list[Blob] = []
        for index, contour in enumerate(contours):
            if links[index][3] != -1:
                continue  # a hole: looked at with its outline below
            if len(contour) ** 2 < 2 * math.pi * min_area:
                # A speck. Each of the n points is a step of at most sqrt(2) px, and no
                # closed line of length L holds more than L^2 / (4 pi): nor does its hull.
                continue
            hull = cv2.convexHull(contour)
            hull_area = cv2.contourArea(hull)
            if hull_area > max_area:
                x, y, w, h = cv2.boundingRect(contour)
                beyond.append((int(x / scale), int(y / scale), int(w / scale) + 1,
                               int(h / scale) + 1))
            if not min_area <= hull_area <= max_area:
                continue
            outline = None
            for candidate in (_without_tails(contour), contour):
                quad = self._quad_of(mask, candidate)
                if quad is not None:
                    outline = order_corners(quad / scale)
                    break
            inner = [order_corners(q / scale)
                     for q in self._from_holes(mask, contours, links, index, min_area)]
            box = cv2.minAreaRect(contour)
            # Cards leave solid blobs or rims, broken or not; the table's grain leaves specks
            # and thin streaks.
            if outline is None and not inner and (
                    hull_area < 2 * min_area or min(box[1]) < 0.8 * np.sqrt(min_area)):
                continue
            x, y, w, h = cv2.boundingRect(contour)
            rect = cv2.boxPoints(box).astype(np.float32) / scale
            blobs.append(Blob(outline, inner, (int(x / scale), int(y / scale),
                                               int(w / scale) + 1, int(h / scale) + 1), rect,
                              contour.reshape(-1, 2).astype(np.float32) / scale))
        return blobs, beyond

    def _quad_of(self, mask: np.ndarray, contour: np.ndarray | None) -> np.ndarray | None:
        """The card outline a contour traces, if it traces one."""
        if contour is None:
            return None
        hull = cv2.convexHull(contour)
        if len(hull) < 4:
            return None  # a triangle (a sliver of a card's corner left in a crop) is no card
        # The four-sided polygon that adds the least area to the hull: a speck of bright
        # table stuck to a card's rim only nudges one side out.
        approx = cv2.approxPolyN(hull, 4, epsilon_percentage=-1, ensure_convex=True)
        approx = approx.reshape(-1, 2).astype(np.float32)
        if len(approx) != 4 or cv2.contourArea(approx) > 1.12 * cv2.contourArea(hull):
            return None
        quad = _refine(approx, contour)
        return quad if self._rim_present(mask, quad) else None

    def _from_holes(self, mask: np.ndarray, contours: list[np.ndarray], links: np.ndarray,
                    index: int, min_area: float) -> list[np.ndarray]:
        """Cards inside a blob their outline cannot be read from (a bright patch of table or
        another card stuck to them): the dark face inside each closed rim is a quad, and
        the rim around it gives the card's outline."""
        found = []
        child = links[index][2]
        while child != -1:
            hole = contours[child]
            child = links[child][0]
            hole_area = cv2.contourArea(hole)
            if hole_area < 0.6 * min_area:
                continue
            approx = cv2.approxPolyN(cv2.convexHull(hole), 4, epsilon_percentage=-1,
                                     ensure_convex=True).reshape(-1, 2).astype(np.float32)
            if len(approx) != 4 or hole_area < 0.85 * cv2.contourArea(approx):
                continue
            face = _refine(approx, hole)
            width = _rim_width(mask, face)
            if width is None:
                continue
            card = _offset(face, width)
            if self._rim_present(mask, card):
                found.append(card)
        return found

    @staticmethod
    def _rim_present(mask: np.ndarray, quad: np.ndarray) -> bool:
        """Is the light rim there all along the quad's sides? A card's is, even where its
        face is darker than the table; a blob that only happens to have four corners is not."""
        x, y, w, h = cv2.boundingRect(quad.astype(np.int32))
        outline = np.zeros((h + 4, w + 4), np.uint8)
        cv2.polylines(outline, [quad.astype(np.int32) - np.int32([x - 2, y - 2])], True, 255, 1)
        patch = np.zeros_like(outline)
        y0, x0 = max(0, y - 2), max(0, x - 2)
        crop = mask[y0:y + h + 2, x0:x + w + 2]
        patch[y0 - (y - 2):y0 - (y - 2) + crop.shape[0],
              x0 - (x - 2):x0 - (x - 2) + crop.shape[1]] = crop
        # The fitted sides run along the rim's outer edge: allow them a pixel of slack.
        patch = cv2.dilate(patch, np.ones((3, 3), np.uint8))
        on_rim = cv2.countNonZero(cv2.bitwise_and(outline, patch))
        return on_rim >= 0.8 * cv2.countNonZero(outline)


def snap_to_outline(quad: np.ndarray, contour: np.ndarray) -> np.ndarray:
    """A guessed card rectangle with the sides that run along a blob's outline fitted to it
    (a card at the end of a row shows three of its sides); the others are kept."""
    return _refine(quad, contour, partial=True)


def _refine(quad: np.ndarray, contour: np.ndarray, partial: bool = False) -> np.ndarray:
    """Corners from lines fitted to each side's contour points: polygon vertices cut the
    rounded corners of a card short. ``partial``: sides with no contour points stay."""
    points = contour.reshape(-1, 2).astype(np.float32)
    # Wide enough to catch a side that a speck pushed outwards, robust fit to ignore the speck.
    band = max(3.0, 0.1 * min(quad_sides(quad)))
    lines = []
    for i in range(4):
        a, b = quad[i], quad[(i + 1) % 4]
        side = b - a
        length = float(np.linalg.norm(side))
        if length < 4:
            return quad
        along = (points - a) @ side / length ** 2
        normal = np.array([-side[1], side[0]]) / length
        off = np.abs((points - a) @ normal)
        near = points[(along > 0.15) & (along < 0.85) & (off < band)]
        if len(near) < max(4, 0.3 * length if partial else 4):
            if partial:
                lines.append((a, side / length))
                continue
            return quad
        vx, vy, x0, y0 = cv2.fitLine(near, cv2.DIST_WELSCH, 0, 0.01, 0.01).ravel()
        lines.append((np.array([x0, y0]), np.array([vx, vy])))
    refined = corners_of(lines)
    if refined is None:
        return quad
    # A wild intersection means a side fitted to the wrong points: keep the rough quad.
    if float(np.abs(refined - quad).max()) > 0.25 * min(quad_sides(quad)):
        return quad
    return refined


def corners_of(lines: list[tuple[np.ndarray, np.ndarray]]) -> np.ndarray | None:
    """The corners where four lines (point, direction), one per side in order, meet; None if
    two neighbouring sides are parallel."""
    corners = []
    for i in range(4):
        (p, u), (q, v) = lines[i - 1], lines[i]
        det = u[0] * -v[1] - u[1] * -v[0]
        if abs(det) < 1e-6:
            return None
        t = ((q[0] - p[0]) * -v[1] - (q[1] - p[1]) * -v[0]) / det
        corners.append(p + t * u)
    return np.float32(corners)


def outward_normals(quad: np.ndarray) -> np.ndarray:
    """Unit normals of the quad's sides (side k from corner k to k + 1), pointing out."""
    centre = quad.mean(axis=0)
    normals = []
    for i in range(4):
        a, b = quad[i], quad[(i + 1) % 4]
        side = b - a
        n = np.array([-side[1], side[0]]) / (np.linalg.norm(side) + 1e-9)
        normals.append(n if np.dot((a + b) / 2 - centre, n) > 0 else -n)
    return np.float32(normals)


def _rim_width(mask: np.ndarray, face: np.ndarray) -> float | None:
    """How far the light rim reaches outwards from a face's sides (median over samples)."""
    widths = []
    h, w = mask.shape
    for i, n in enumerate(outward_normals(face)):
        a, b = face[i], face[(i + 1) % 4]
        for t in (0.25, 0.4, 0.6, 0.75):
            p = a + (b - a) * t
            run = 0
            for step in range(1, 16):
                x, y = (p + n * step).round().astype(int)
                if not (0 <= x < w and 0 <= y < h) or not mask[y, x]:
                    break
                run = step
            widths.append(run)
    width = float(np.median(widths))
    return width if width >= 1 else None


def _offset(quad: np.ndarray, distance: float) -> np.ndarray:
    """The quad with every side moved outwards by ``distance``."""
    normals = outward_normals(quad)
    lines = [(quad[i] + normals[i] * distance, quad[(i + 1) % 4] - quad[i]) for i in range(4)]
    corners = []
    for i in range(4):
        (p, u), (q, v) = lines[i - 1], lines[i]
        det = u[0] * -v[1] - u[1] * -v[0]
        t = ((q[0] - p[0]) * -v[1] - (q[1] - p[1]) * -v[0]) / det if abs(det) > 1e-9 else 0.0
        corners.append(p + t * u)
    return np.float32(corners)


def _without_tails(contour: np.ndarray) -> np.ndarray | None:
    """The blob with thin streaks of lit table grain that touch it cut off, or None if the
    blob is itself thin (a card's rim alone, broken open)."""
    x, y, w, h = cv2.boundingRect(contour)
    filled = np.zeros((h + 2, w + 2), np.uint8)
    cv2.drawContours(filled, [contour - np.int32([x - 1, y - 1])], -1, 255, -1)
    opened = cv2.morphologyEx(filled, cv2.MORPH_OPEN,
                              cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (7, 7)))
    parts, _ = cv2.findContours(opened, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    if not parts:
        return None
    body = max(parts, key=cv2.contourArea)
    if cv2.contourArea(body) < 0.5 * cv2.contourArea(contour):
        return None
    return body + np.int32([x - 1, y - 1])


def outline_sides(contour: np.ndarray, tolerance: float, shortest: float
                  ) -> list[tuple[np.ndarray, np.ndarray, np.ndarray, float]]:
    """The straight stretches of a blob's outline at least ``shortest`` long, each as both its
    ends: (end, unit vector along the stretch from that end, unit vector into the blob, its
    length). A card in a cluster shows at least one side with a corner at one end, whatever
    the cluster's shape, unless it is covered at both ends."""
    poly = cv2.approxPolyDP(contour.reshape(-1, 1, 2).astype(np.float32), tolerance, True)
    poly = poly.reshape(-1, 2).astype(np.float32)
    if len(poly) < 3:
        return []
    inside = poly.reshape(-1, 1, 2)
    sides = []
    for i, start in enumerate(poly):
        end = poly[(i + 1) % len(poly)]
        length = float(np.linalg.norm(end - start))
        if length < shortest:
            continue
        along = (end - start) / length
        inward = np.float32([-along[1], along[0]])
        middle = (start + end) / 2
        probe = middle + inward * 2 * tolerance
        if cv2.pointPolygonTest(inside, (float(probe[0]), float(probe[1])), False) < 0:
            inward = -inward
        sides.append((start, along, inward, length))
        sides.append((end, -along, inward, length))
    return sides


def laid_like(card: np.ndarray, contour: np.ndarray, short: float) -> list[np.ndarray]:
    """A card's outline turned and moved so that one of its corners sits on a corner of a
    blob's outline, its sides along the outline's straight stretches there: where another
    card of the same size may lie, in the same perspective (a neighbour read cleanly is a
    better guess at a card's shape in a cluster than a rectangle)."""
    placed = []
    for end, along, inward, _ in outline_sides(contour, max(2.0, 0.04 * short), 0.3 * short):
        for i in range(4):
            corner = card[i]
            for j in (i + 1, i - 1):
                side = card[j % 4] - corner
                other = card[(2 * i - j) % 4] - corner  # the corner's other side
                angle = np.arctan2(along[1], along[0]) - np.arctan2(side[1], side[0])
                turn = np.float32([[np.cos(angle), -np.sin(angle)],
                                   [np.sin(angle), np.cos(angle)]])
                # The other side must then point into the blob, not out of it.
                if float((turn @ other) @ inward) <= 0:
                    continue
                placed.append(order_corners((card - corner) @ turn.T + end))
    return placed
