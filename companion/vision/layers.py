"""Cards partly in view (covered in a trick, fanned, laid as a row of copies), read layer by
layer from the top.

One mechanism serves every way cards lie on each other. A card that shows any part of
itself shows at least one of its corners on the outline of the cluster it lies in, with
a stretch of each side running from it; a person reads a covered card from there. So:

1. The *corners* of the cluster's outline: two straight stretches meeting at 60-120 degrees
   (a card seen in perspective), convex, the corner put where the lines fitted to the two
   stretches meet (a card's corner is rounded, its face's is not); also where a short
   chamfer between two such stretches is a rounded corner the outline's polygon cut off.
2. At each corner, a *card laid* along its two sides: sized by the stretches themselves
   where a stretch runs from this corner to the next (a whole side), else by the card read
   nearest to it (same camera, same distance: same shape), else by the nearest whole side.
3. Every card laid is compared with every enrolled face on its part in view only: what the
   cards already read hide is left out, and so is what lies outside the cluster. The card
   that fits its face best, lined up with the print first, is read; it lies on top of the
   ones it overlaps. Then the rest are compared again, what it hides now left out too,
   until no card laid reads as a face.

A card is read once (two corners of one card give one card); below ``LEAST_IN_VIEW`` of a
card in view nothing is read, and a card is read only as clearly as a whole card is (the
same bars and margins as the splitter's guesses). The work per cluster is bounded by
``MOST_CORNERS``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from companion.vision.detection import Detection, intersect, share_in_view
from companion.vision.faces import FaceIndex
from companion.vision.quads import Blob, order_corners, quad_sides

#: Corners a card's outline may make in perspective (degrees).
CORNER_ANGLES = (60.0, 120.0)
#: Least share of a card that must show for it to be read at all.
LEAST_IN_VIEW = 0.4
#: Most corners looked at per cluster (the longest stretches first): clutter is bounded.
MOST_CORNERS = 24
#: Least score of the likeliest face for a laid card to be worth lining up.
LINE_UP_FROM = 0.15
#: How far lining up may move a laid card's corner (share of its width).
LINE_UP_REACH = 0.25
#: A laid card under others is also tried this much longer or shorter along each side
#: (perspective: the far end of a card looks shorter), one side after the other.
SIZE_STEPS = (0.9, 1.1)
#: Two sides of a card are one way round (parallel) within this cosine.
PARALLEL = 0.96
#: A stretch of outline this short against the stretches on either side (share of the
#: shorter) is a card's rounded corner cut off by the polygon, not a side.
CHAMFER = 0.25
#: Two whole stretches at a corner whose proportions differ from the cards' by more than this
#: factor are not a whole card: one runs on under a card on top.
OFF_SHAPE = 1.15


@dataclass(frozen=True)
class Corner:
    """A corner of a cluster's outline: its point, the unit vectors along its two sides (in
    the order that keeps the image's handedness), the length of outline that runs straight
    along each (``straight``), and whether that stretch is a whole side (a corner at its
    other end too)."""

    point: np.ndarray
    along: tuple[np.ndarray, np.ndarray]
    straight: tuple[float, float]
    whole: tuple[bool, bool]


def _fit_line(points: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    vx, vy, x0, y0 = cv2.fitLine(points.astype(np.float32), cv2.DIST_HUBER, 0, 0.01,
                                 0.01).ravel()
    return np.float32([x0, y0]), np.float32([vx, vy])


def _meet(p: np.ndarray, u: np.ndarray, q: np.ndarray, v: np.ndarray) -> np.ndarray | None:
    det = float(u[0] * -v[1] - u[1] * -v[0])
    if abs(det) < 1e-6:
        return None
    t = float((q[0] - p[0]) * -v[1] - (q[1] - p[1]) * -v[0]) / det
    return p + t * u


def _convex(polygon: np.ndarray, vertex: np.ndarray, previous: np.ndarray,
            following: np.ndarray) -> bool:
    """Does the polygon bulge out at ``vertex`` (a point just inside the angle its two
    sides make is in the polygon)?"""
    to_prev, to_next = previous - vertex, following - vertex
    probe = vertex + (to_prev / np.linalg.norm(to_prev) + to_next / np.linalg.norm(to_next)) * 3
    return cv2.pointPolygonTest(polygon, (float(probe[0]), float(probe[1])), False) > 0


def outline_corners(contour: np.ndarray) -> list[Corner]:
    """The corners a card makes on a cluster's outline (see the module's text)."""
    points = contour.reshape(-1, 2).astype(np.float32)
    if len(points) < 8:
        return []
    tolerance = max(2.0, 0.006 * cv2.arcLength(points.reshape(-1, 1, 2), True))
    poly = cv2.approxPolyDP(points.reshape(-1, 1, 2), tolerance, True).reshape(-1, 2)
    n = len(poly)
    if n < 3:
        return []
    on_contour = [int(np.argmin(np.linalg.norm(points - p, axis=1))) for p in poly]
    lines: list[tuple[np.ndarray, np.ndarray] | None] = []
    for i in range(n):
        a, b = on_contour[i], on_contour[(i + 1) % n]
        stretch = points[a:b + 1] if a <= b else np.concatenate([points[a:], points[:b + 1]])
        # The ends of a stretch bend into the rounded corners: fit its middle.
        trim = max(1, len(stretch) // 8)
        middle = stretch[trim:-trim] if len(stretch) > 2 * trim + 2 else stretch
        lines.append(_fit_line(middle) if len(middle) >= 3 else None)
    polygon = poly.reshape(-1, 1, 2).astype(np.float32)

    def corner(first: int, last: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, float,
                                               float] | None:
        """The corner made where the stretch ending at vertex ``first`` and the one starting
        at vertex ``last`` meet (the same vertex, or the two ends of a chamfer)."""
        before, after = lines[first - 1], lines[last]
        if before is None or after is None:
            return None
        to_prev, to_next = poly[first - 1] - poly[first], poly[(last + 1) % n] - poly[last]
        la, lb = float(np.linalg.norm(to_prev)), float(np.linalg.norm(to_next))
        chamfer = float(np.linalg.norm(poly[last] - poly[first]))  # 0 at a single vertex
        if min(la, lb) < 1.0 or chamfer > CHAMFER * min(la, lb):
            return None
        to_prev, to_next = to_prev / la, to_next / lb
        angle = float(np.degrees(np.arccos(np.clip(to_prev @ to_next, -1.0, 1.0))))
        if not CORNER_ANGLES[0] < angle < CORNER_ANGLES[1]:
            return None
        if not all(_convex(polygon, poly[k], poly[k - 1], poly[(k + 1) % n])
                   for k in {first, last}):
            return None  # a notch between two cards, not a card's corner
        point = _meet(before[0], before[1], after[0], after[1])
        if point is None:
            return None
        u = before[1] if float(before[1] @ to_prev) > 0 else -before[1]
        v = after[1] if float(after[1] @ to_next) > 0 else -after[1]
        return point, u, v, la, lb

    # (first vertex, last vertex) -> the corner: one vertex; else two where the polygon cut
    # a rounded corner off with a short chamfer (a card seen large: its rounding spans more
    # than the polygon's tolerance), the corner then where the stretches either side meet.
    found = {(i, i): made for i in range(n) if (made := corner(i, i)) is not None}
    if n >= 4:
        singles = {i for i, _ in found}
        found |= {(i, (i + 1) % n): made for i in range(n)
                  if not {i, (i + 1) % n} & singles
                  and (made := corner(i, (i + 1) % n)) is not None}
    firsts = {first for first, _ in found}
    lasts = {last for _, last in found}
    corners = []
    for (first, last), (point, u, v, la, lb) in found.items():
        # A stretch is a whole side if a corner lies at its other end too.
        whole = ((first - 1) % n in lasts, (last + 1) % n in firsts)
        if float(u[0] * v[1] - u[1] * v[0]) < 0:  # keep the image's handedness
            u, v, la, lb, whole = v, u, lb, la, whole[::-1]
        corners.append(Corner(point, (u, v), (la, lb), whole))
    corners.sort(key=lambda c: -max(c.straight))
    return corners[:MOST_CORNERS]


def laid_cards(corner: Corner, models: Sequence[np.ndarray], whole_sides: Sequence[
        tuple[np.ndarray, float, np.ndarray]], aspect: float, apart: bool = False
               ) -> list[np.ndarray]:
    """Outlines a card lying at ``corner`` may have. ``models``: outlines of cards read
    near by; ``whole_sides``: (direction, length, middle) of every whole side of the
    cluster; ``aspect``: the enrolled cards' long side over short.

    Along each of the corner's sides the card's length is the stretch itself if it is a
    whole side; else the nearest whole side of the cluster running the same way, the side
    of the nearest card read that runs that way, or the other side's length times or over
    the card's proportions."""
    lengths: list[list[float]] = []
    nearest = (min(models, key=lambda m: float(np.linalg.norm(m.mean(axis=0) - corner.point)))
               if models else None)
    for k in (0, 1):
        if corner.whole[k]:
            lengths.append([corner.straight[k]])
            continue
        along = corner.along[k]
        options = []
        parallel = [(float(np.linalg.norm(middle - corner.point)), length)
                    for direction, length, middle in whole_sides
                    if abs(float(direction @ along)) > PARALLEL]
        if parallel:
            options.append(min(parallel)[1])
        if nearest is not None:
            sides = [nearest[(i + 1) % 4] - nearest[i] for i in range(4)]
            best = max(sides, key=lambda d: abs(float(d @ along)) / float(np.linalg.norm(d)))
            options.append(float(np.linalg.norm(best)))
        lengths.append(options)
    for k in (0, 1):
        if not lengths[k] and lengths[1 - k]:
            lengths[k] = [x * f for x in lengths[1 - k][:1] for f in (aspect, 1 / aspect)]
        elif apart and not corner.whole[k] and corner.whole[1 - k]:
            # The card's own proportions from its whole side: a card read in another cluster
            # (``apart``) lies elsewhere, and is seen at another size where the camera looks
            # at the table at a slant. The way round that card lies (its side this way long
            # or short), unless as long already.
            near = lengths[k][-1]
            own = min((corner.straight[1 - k] * f for f in (aspect, 1 / aspect)),
                      key=lambda length: abs(np.log(length / near)))
            if all(abs(own / length - 1) > 0.1 for length in lengths[k]):
                lengths[k].append(own)
    if all(corner.whole):
        # Two whole stretches not shaped like a card: the part in view of a card lying under
        # another that cuts it straight across; the shorter runs on under the card on top.
        short = int(corner.straight[1] < corner.straight[0])
        if max(corner.straight) / max(min(corner.straight), 1.0) < aspect / OFF_SHAPE:
            lengths[short] += [corner.straight[1 - short] / aspect]
        elif max(corner.straight) / max(min(corner.straight), 1.0) > aspect * OFF_SHAPE:
            run = corner.straight[1 - short]
            lengths[short] += [run * aspect, run / aspect]
    p, (u, v) = corner.point, corner.along
    quads: list[np.ndarray] = []
    for a in lengths[0]:
        for b in lengths[1]:
            if a < 0.8 * corner.straight[0] or b < 0.8 * corner.straight[1]:
                continue
            quad = order_corners(np.float32([p, p + u * a, p + u * a + v * b, p + v * b]))
            if not any(float(np.abs(quad - q).max()) < 0.05 * min(a, b) for q in quads):
                quads.append(quad)
    return quads


Identify = Callable[[np.ndarray, Sequence[np.ndarray]], Detection | None]


class LayerReader:
    """The cards of one cluster, read from the top layer down.

    ``identify(quad, on_top)``: the recogniser's reading of a quad with what lies on top
    left out (its bars and margins), or None."""

    def __init__(self, index: FaceIndex, aspect: float) -> None:
        self.index = index
        self.aspect = aspect

    def read(self, image: np.ndarray, blob: Blob, known: Sequence[Detection],
             identify: Identify, more: Callable[[], bool] = lambda: True,
             explained: Callable[[Sequence[Detection]], bool] = lambda cards: False,
             around: Sequence[Detection] = ()) -> list[Detection]:
        """The cards in ``blob`` besides those ``known`` (read already, lying on top), while
        ``more()`` says there is work left in the frame's bound, until ``explained(cards)``
        says the cards read leave nothing of the cluster that could be another card.
        ``around``: cards read elsewhere in the frame; one of them may still lie on a card of
        this cluster (a dark rim between them splits the two clusters), and the nearest
        sizes a card laid here (same camera, same distance: same shape)."""
        corners = outline_corners(blob.contour)
        if not corners:
            return []
        whole_sides = []
        for c in corners:
            for k in (0, 1):
                if c.whole[k]:
                    whole_sides.append((c.along[k], c.straight[k],
                                        c.point + c.along[k] * c.straight[k] / 2))
        read: list[Detection] = []
        tried: dict[tuple, Detection | None] = {}
        while True:
            cards = [*known, *read]
            models = [d.corners for d in cards] or [d.corners for d in around]
            best: Detection | None = None
            for corner in corners:
                if any(_at_corner(corner.point, d.corners) for d in cards):
                    continue
                for quad in laid_cards(corner, models, whole_sides, self.aspect,
                                       apart=not cards):
                    if any(_same_place(quad, d.corners) for d in cards):
                        continue
                    over = [d for d in [*cards, *around] if intersect(d.corners, quad)]
                    on_top = [d.corners for d in over]
                    key = (tuple(quad.round().astype(int).ravel()), tuple(id(d) for d in over))
                    if key not in tried:
                        if not more():
                            return read
                        tried[key] = self._read_one(image, corner, quad, on_top, identify)
                    hit = tried[key]
                    if hit is not None and (best is None or hit.fit > best.fit):
                        best = hit
            if best is None or any(_same_place(best.corners, d.corners) for d in cards):
                return read
            read.append(best)
            if explained(read):
                return read

    def _read_one(self, image: np.ndarray, corner: Corner, quad: np.ndarray,
                  on_top: list[np.ndarray], identify: Identify) -> Detection | None:
        """The laid card fitted to the print (its length along each side a little longer or
        shorter: perspective), lined up with the face it looks most like, and read."""
        if on_top and share_in_view(quad, on_top) < LEAST_IN_VIEW:
            return None
        scores = self.index.scores(image, quad, on_top or None)
        if on_top and scores:
            # The other sizes are compared the way round the likeliest face lies (and its
            # half turn): a card's long side is known from the corner's, not a quarter turn.
            roll = _roll_of(quad, scores[0].corners)
            p, (u, v) = corner.point, corner.along
            k = int(np.argmin(np.linalg.norm(quad - p, axis=1)))
            a = float(np.linalg.norm(quad[(k + 1) % 4] - quad[k]))
            b = float(np.linalg.norm(quad[(k + 3) % 4] - quad[k]))
            if abs(float((quad[(k + 1) % 4] - quad[k]) @ u)) < 0.5 * a:
                a, b = b, a
            size = (1.0, 1.0)
            for side in (0, 1):
                best_size = size
                for f in SIZE_STEPS:
                    fa, fb = (f, size[1]) if side == 0 else (size[0], f)
                    other = order_corners(np.float32([p, p + u * a * fa,
                                                      p + u * a * fa + v * b * fb,
                                                      p + v * b * fb]))
                    again = self.index.scores(image, np.roll(other, -roll, axis=0), on_top,
                                              upright=True)
                    if again and (not scores or again[0].score > scores[0].score):
                        scores, quad, best_size = again, other, (fa, fb)
                size = best_size
        if not scores or scores[0].score < LINE_UP_FROM:
            return None
        lined = self.index.align(image, scores[0].corners, scores[0].face_number, on_top,
                                 reach=LINE_UP_REACH)
        hit = identify(quad if lined is None else lined, on_top)
        if hit is None and lined is not None:
            hit = identify(quad, on_top)
        return hit


def _roll_of(quad: np.ndarray, rolled: np.ndarray) -> int:
    """How many places ``rolled`` is ``quad``'s corners rolled by."""
    return min(range(4), key=lambda k: float(np.abs(np.roll(quad, -k, axis=0) - rolled).sum()))


def _at_corner(point: np.ndarray, card: np.ndarray) -> bool:
    """Is ``point`` a corner of a card read (within a tenth of its short side)?"""
    reach = 0.1 * min(quad_sides(card))
    return bool(np.linalg.norm(card - point, axis=1).min() < reach)


def _same_place(a: np.ndarray, b: np.ndarray) -> bool:
    """Two outlines of one card: centres within a quarter of the short side."""
    reach = 0.25 * min(min(quad_sides(a)), min(quad_sides(b)))
    return float(np.linalg.norm(a.mean(axis=0) - b.mean(axis=0))) < reach
