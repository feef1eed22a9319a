"""Recognising enrolled cards and tiles in a camera image.

Fast path: every clean quadrilateral is warped upright to a small template and compared with
every enrolled face in every rotation (grey correlation, less a colour penalty). Fallback:
regions that are not one clean quad (cards touching or overlapping, a hand over a card) are
matched with SIFT features and RANSAC homographies. Either way the best match must stand
clear of the runner-up, else nothing is reported: a card is left out rather than guessed.

>>> from companion.vision.art import draw_face, game_items
>>> lib = CardLibrary()
>>> for item in game_items("tricky")[:4]:
...     lib.enroll(item.item_id, draw_face(item))
>>> table = np.full((480, 640, 3), (40, 70, 110), np.uint8)
>>> face = cv2.resize(draw_face(game_items("tricky")[2]), (90, 126))
>>> table[100:226, 200:290] = face
>>> [(d.item_id, d.method) for d in Recognizer(lib).recognize(table)]
[('red-2', 'template')]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from companion.vision.library import (
    FACE_LONG,
    SQUARE_ASPECT,
    CardLibrary,
    chroma_grid,
    detail,
    pattern_scores,
    seen_cells,
)
from companion.vision.markers import MarkerFinder, MarkerSighting
from companion.vision.quads import (
    Blob,
    QuadFinder,
    order_corners,
    outline_sides,
    quad_sides,
    snap_to_outline,
)


@dataclass(frozen=True)
class Detection:
    """An enrolled face found in an image.

    ``corners``: image pixels, the face's own top-left, top-right, bottom-right, bottom-left.
    ``confidence``: 0..1; ``method``: ``template`` or ``features``.
    """

    item_id: str
    corners: np.ndarray
    confidence: float
    method: str

    @property
    def centre(self) -> np.ndarray:
        return self.corners.mean(axis=0)

    def as_json(self) -> dict:
        return {"id": self.item_id,
                "corners": [[round(float(x), 1), round(float(y), 1)] for x, y in self.corners],
                "confidence": round(self.confidence, 3)}


@dataclass(frozen=True)
class Thresholds:
    """How sure a match must be. Scores are pattern correlation minus the colour penalty."""

    min_score: float = 0.3
    margin: float = 0.15
    colour_weight: float = 4.0
    #: Stricter for a guessed rectangle inside a blob of several cards.
    split_score: float = 0.3
    split_margin: float = 0.15
    #: Clear of its own face turned round, too: a wrong match often fits both ways.
    turn_margin: float = 0.25
    detail: float = 0.5  # least share of the plainest enrolled face's detail a quad must show
    min_inliers: int = 12
    inlier_ratio: float = 0.5  # runner-up may have at most this share of the best's inliers


class Recognizer:
    """Finds the enrolled faces of a library in BGR images."""

    def __init__(self, library: CardLibrary, finder: QuadFinder | None = None,
                 thresholds: Thresholds | None = None, use_features: bool = True,
                 use_templates: bool = True) -> None:
        self.library = library
        self.finder = finder or QuadFinder()
        self.limits = thresholds or Thresholds()
        self.use_features = use_features
        self.use_templates = use_templates
        self.marker_finder = MarkerFinder()
        self._features = cv2.SIFT_create(nfeatures=600)

    def recognize(self, image: np.ndarray,
                  markers: list[MarkerSighting] | None = None) -> list[Detection]:
        """Every enrolled face clearly seen in a BGR image.

        ``markers``: the ArUco markers already found in it (else they are looked for): a
        marker with a speck of light table beside it can look like a card's outline.
        """
        if len(self.library) == 0:
            return []
        if markers is None:
            markers = self.marker_finder.find(image)
        grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
        markers = [m for m in markers if _printed_in_black_and_white(image, m)]
        detections: list[Detection] = []
        crowded = []
        for blob in self.finder.find(grey):
            hits, unexplained = self._identify_blob(image, grey, blob, markers)
            detections.extend(hits)
            if unexplained:
                crowded.append(blob)
        card_long = (float(np.median([max(quad_sides(d.corners)) for d in detections]))
                     if detections else None)
        for blob in crowded:
            known = [d for d in detections if _inside(d.corners, blob)]
            found = self._split(image, blob, card_long, known) if self.use_templates else []
            if self.use_features and not self._explained(grey, blob, known + found):
                # Cards partly under the ones found may still be in there.
                found += self._match_features(grey, blob.box, card_long)
            for hit in found:
                if not any(_overlaps(hit, d) for d in detections):
                    detections.append(hit)
        return detections

    def _identify_blob(self, image: np.ndarray, grey: np.ndarray, blob: Blob,
                       markers: list[MarkerSighting]) -> tuple[list[Detection], bool]:
        """Faces in one blob by the fast path, and whether part of it is still unexplained
        (cards partly covered, a hand over them: work for the feature matcher)."""
        outline = blob.outline
        if outline is not None and _on_marker(outline, markers):
            return [], False
        if not self.use_templates:
            return [], True
        if outline is not None and self.fits_a_face(outline):
            hit = self.identify(image, outline)
            if hit is not None:
                return [hit], False
        inner = [q for q in blob.inner if self.fits_a_face(q) and not _on_marker(q, markers)]
        hits = [hit for hit in (self.identify(image, q) for q in inner) if hit is not None]
        # Cards with a light face leave no closed rim: the rims read need not be all.
        return hits, not self._explained(grey, blob, hits)

    def _explained(self, grey: np.ndarray, blob: Blob, cards: Sequence[Detection]) -> bool:
        """Do the cards found cover the blob, bar slivers narrower than a tenth of a card and
        patches of bare table (lit grain or glare stuck to a card: nothing printed)?"""
        if not cards:
            return False
        x, y, w, h = blob.box
        left = np.zeros((h + 2, w + 2), np.uint8)
        offset = np.float32([x - 1, y - 1])
        cv2.fillPoly(left, [(blob.contour - offset).round().astype(np.int32)], 255)
        for card in cards:
            cv2.fillConvexPoly(left, (card.corners - offset).round().astype(np.int32), 0)
        short = min(min(quad_sides(card.corners)) for card in cards)
        # Thin rims and table specks left along the edges are opened away; a hidden card is
        # not.
        size = max(3, int(short / 10) | 1)
        left = cv2.morphologyEx(left, cv2.MORPH_OPEN, np.ones((size, size), np.uint8))
        if cv2.countNonZero(left) < 0.15 * short * short:
            return True
        top, side = max(0, y - 1), max(0, x - 1)
        patch = grey[top:y + h + 1, side:x + w + 1]
        inside = left[top - (y - 1):, side - (x - 1):][:patch.shape[0], :patch.shape[1]]
        shown = patch[inside > 0]
        plainest = min(shape["least_detail"] for shape in self.library.derived["classes"])
        return bool(shown.std() / (shown.mean() + 1.0) < self.limits.detail * plainest)

    def _split(self, image: np.ndarray, blob: Blob, card_long: float | None,
              known: Sequence[Detection] = ()) -> list[Detection]:
        """Cards lying against or partly over each other in one blob: try a card-sized
        rectangle from each end of every straight stretch of the blob's outline (and of the
        rectangle round it), both ways round, and keep what is clearly one card. Rows, fans
        and clusters of any shape are found this way, except a card covered at both ends.
        ``known``: cards already read in this blob."""
        rect = blob.rect
        width = float(np.linalg.norm(rect[1] - rect[0]))
        height = float(np.linalg.norm(rect[3] - rect[0]))
        if min(width, height) < 8:
            return []
        aspects = sorted({shape["class"].aspect for shape in self.library.derived["classes"]})
        short = min(width, height)
        scale = card_long or short * aspects[-1]
        sides = []
        for k in range(4):
            u, v = rect[(k + 1) % 4] - rect[k], rect[k - 1] - rect[k]
            sides.append((rect[k], u / np.linalg.norm(u), v / np.linalg.norm(v),
                          float(np.linalg.norm(u))))
        sides += outline_sides(blob.contour, max(2.0, 0.03 * scale), 0.35 * scale / aspects[-1])
        # Sized like the cards read cleanly elsewhere in the frame, else by the blob.
        sizes = ({(card_long / aspect, card_long) for aspect in aspects} if card_long else
                 {size for aspect in aspects for size in ((short / aspect, short),
                                                          (short, short * aspect))})
        sizes |= {(t, s) for s, t in sizes}
        inside = blob.contour.reshape(-1, 1, 2)
        reach = max(3.0, 0.04 * scale)
        guessed: list[np.ndarray] = []
        tried: list[np.ndarray] = []
        hits: list[Detection] = []
        for corner, du, dv, length in sides:
            own = set()
            if not card_long:
                # No clean card to size by: the side may be a whole side of the card.
                own = {(length, length * aspect) for aspect in aspects}
                own |= {(length, length / aspect) for aspect in aspects}
            for a, b in sizes | own:
                quad = np.float32([corner, corner + du * a, corner + du * a + dv * b,
                                   corner + dv * b])
                # A card in the blob has its middle and the middles of its sides in it (give
                # or take perspective: the cards far from the camera look smaller).
                checks = [quad.mean(axis=0)] + [(quad[i] + quad[i - 1]) / 2 for i in range(4)]
                if any(cv2.pointPolygonTest(inside, (float(x), float(y)), True) < -4 * reach
                       for x, y in checks):
                    continue
                quad = order_corners(quad)
                if any(_same(quad, t, reach) for t in guessed) or any(
                        _near(quad, d.corners) for d in [*known, *hits]):
                    continue  # tried already, or where a card has been read
                guessed.append(quad)
                quad = snap_to_outline(quad, blob.contour)
                if any(_same(quad, t, reach) for t in tried):
                    continue
                tried.append(quad)
                hit = self.identify(image, quad, self.limits.split_score,
                                    self.limits.split_margin)
                if hit is not None:
                    hits.append(hit)
        hits.sort(key=lambda d: -d.confidence)
        kept = list(known)
        for hit in hits:
            if not any(_overlaps(hit, k) for k in kept):
                kept.append(hit)
        if not kept:
            return kept
        # The cards found lie on top; look again under them, leaving out what they hide.
        for quad in tried:
            hidden_by = [k.corners for k in kept if _intersect(k.corners, quad)]
            if not hidden_by:
                continue
            hit = self.identify(image, quad, self.limits.split_score, self.limits.split_margin,
                                on_top=hidden_by)
            if hit is not None and not any(_overlaps(hit, k) for k in kept):
                kept.append(hit)
        return kept[len(known):]

    # --- fast path ---------------------------------------------------------------------
    def _compatible(self, aspect: float) -> list[dict]:
        """The library's shape classes that a quad of this aspect could show."""
        # Perspective stretches a quad; a square tile still reads below a card's aspect.
        return [shape for shape in self.library.derived["classes"]
                if shape["class"].aspect / 1.3 <= aspect <= shape["class"].aspect * 1.3
                or (shape["class"].aspect < SQUARE_ASPECT and aspect < 1.25)]

    def fits_a_face(self, quad: np.ndarray) -> bool:
        top, side = quad_sides(quad)
        return bool(self._compatible(max(top, side) / max(min(top, side), 1.0)))

    def identify(self, image: np.ndarray, quad: np.ndarray, min_score: float | None = None,
                 margin: float | None = None, on_top: Sequence[np.ndarray] = ()
                 ) -> Detection | None:
        """The enrolled face in one quad, or None if no face stands clear of the rest.

        ``on_top``: outlines (image pixels) of cards known to lie over this one; what they
        hide is left out of the comparison.
        """
        top, side = quad_sides(quad)
        quad = quad if side >= top else np.roll(quad, -3, axis=0)  # long side vertical
        aspect = max(top, side) / max(min(top, side), 1.0)
        best: list[tuple[float, int, int]] = []
        for shape in self._compatible(aspect):
            w, h = shape["class"].size
            dst = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
            warped = cv2.warpPerspective(image, cv2.getPerspectiveTransform(
                quad.astype(np.float32), dst), (w, h), flags=cv2.INTER_AREA)
            if detail(warped) < self.limits.detail * shape["least_detail"]:
                continue  # a blank patch of table is not a card, whatever its shape
            seen = _in_view(quad, (w, h), on_top)
            if seen is not None and seen.mean() < 0.6:
                continue  # too little of it shows to tell it from its neighbours
            scores = pattern_scores(shape, warped, seen)
            cells = slice(None) if seen is None else seen_cells(seen)
            colour = np.abs(shape["colour"][:, cells] - chroma_grid(warped)[cells]).mean(axis=1)
            scores = scores - self.limits.colour_weight * colour
            for row in np.argsort(scores)[::-1][:8]:
                entry, turn = shape["owners"][row]
                best.append((float(scores[row]), entry, turn))
        if not best:
            return None
        best.sort(reverse=True)
        score, entry, turn = best[0]
        runner_up = next((s for s, e, _ in best[1:] if e != entry), -1.0)
        if (score < (self.limits.min_score if min_score is None else min_score)
                or score - runner_up < (self.limits.margin if margin is None else margin)):
            return None
        turned = next((s for s, e, _ in best[1:] if e == entry), -1.0)
        if score - turned < self.limits.turn_margin:
            return None
        # Template turned k quarter turns anticlockwise: the face's top-left is corner -k.
        corners = np.roll(quad, -((4 - turn) % 4), axis=0)
        return Detection(self.library.ids[entry], corners.astype(np.float32),
                         float(min(1.0, score)), "template")

    # --- fallback ----------------------------------------------------------------------
    def _match_features(self, grey: np.ndarray, region: tuple[int, int, int, int],
                        card_long: float | None) -> list[Detection]:
        derived = self.library.derived
        if len(derived["descriptors"]) == 0:
            return []
        x, y, w, h = region
        pad = max(w, h) // 8 + 4
        x0, y0 = max(0, x - pad), max(0, y - pad)
        x1, y1 = min(grey.shape[1], x + w + pad), min(grey.shape[0], y + h + pad)
        crop = grey[y0:y1, x0:x1]
        estimate = card_long or min(crop.shape) * 0.9
        # Small cards carry too few keypoints; magnify them towards the enrolled size.
        zoom = float(np.clip(FACE_LONG * 0.6 / max(estimate, 1.0), 1.0, 3.0))
        if zoom > 1.05:
            crop = cv2.resize(crop, None, fx=zoom, fy=zoom, interpolation=cv2.INTER_LINEAR)
        keypoints, desc = self._features.detectAndCompute(crop, None)
        if desc is None or len(keypoints) < self.limits.min_inliers:
            return []
        pairs = derived["matcher"].knnMatch(desc, k=2)
        good = [p[0] for p in pairs if len(p) == 2 and p[0].distance < 0.8 * p[1].distance]
        scene_pts = np.float32([keypoints[m.queryIdx].pt for m in good]).reshape(-1, 2)
        lib_pts = derived["points"][[m.trainIdx for m in good]].reshape(-1, 2)
        owners = derived["owners"][[m.trainIdx for m in good]]
        candidates = []
        for entry in np.unique(owners):
            chosen = owners == entry
            while chosen.sum() >= self.limits.min_inliers:
                found = self._fit(entry, lib_pts[chosen], scene_pts[chosen])
                if found is None:
                    break
                inliers, corners, used = found
                candidates.append((inliers, int(entry), corners / zoom + np.float32([x0, y0])))
                # The same card may lie twice in one region: look again without these points.
                indices = np.flatnonzero(chosen)
                chosen[indices[used]] = False
        candidates.sort(key=lambda c: -c[0])
        accepted: list[Detection] = []
        for inliers, entry, corners in candidates:
            rivals = [c for c in candidates if c[1] != entry and _near(c[2], corners)]
            if rivals and max(r[0] for r in rivals) > self.limits.inlier_ratio * inliers:
                continue
            hit = Detection(self.library.ids[entry], corners.astype(np.float32),
                            float(min(1.0, inliers / 40)), "features")
            if not any(_overlaps(hit, d) for d in accepted):
                accepted.append(hit)
        return accepted

    def _fit(self, entry: int, lib_pts: np.ndarray, scene_pts: np.ndarray
             ) -> tuple[int, np.ndarray, np.ndarray] | None:
        homography, mask = cv2.findHomography(lib_pts, scene_pts, cv2.RANSAC, 4.0)
        if homography is None:
            return None
        used = mask.ravel().astype(bool)
        if used.sum() < self.limits.min_inliers:
            return None
        fh, fw = self.library.faces[entry].shape[:2]
        outline = np.float32([[0, 0], [fw, 0], [fw, fh], [0, fh]]).reshape(-1, 1, 2)
        corners = cv2.perspectiveTransform(outline, homography).reshape(4, 2)
        if not _plausible(corners, fh / fw):
            return None
        return int(used.sum()), corners, used


def _plausible(corners: np.ndarray, aspect: float) -> bool:
    """A projected outline that a real card lying on a table could have."""
    if not cv2.isContourConvex(corners.astype(np.float32).reshape(-1, 1, 2)):
        return False
    top, side = quad_sides(corners)
    if min(top, side) < 8:
        return False
    seen = side / top
    return aspect / 1.4 <= seen <= aspect * 1.4


def _near(a: np.ndarray, b: np.ndarray) -> bool:
    reach = min(quad_sides(a)) / 2
    return float(np.linalg.norm(a.mean(axis=0) - b.mean(axis=0))) < reach


def _same(a: np.ndarray, b: np.ndarray, reach: float) -> bool:
    return float(np.abs(a - b).max()) < reach


def _overlaps(a: Detection, b: Detection) -> bool:
    return _near(a.corners, b.corners) or _near(b.corners, a.corners)


def _on_marker(quad: np.ndarray, markers: list[MarkerSighting]) -> bool:
    centre = tuple(float(v) for v in quad.mean(axis=0))
    for marker in markers:
        middle = marker.corners.mean(axis=0)
        # The marker grown to its white margin and a bit: where a false outline would sit.
        grown = (middle + (marker.corners - middle) * 1.8).reshape(-1, 1, 2)
        if cv2.pointPolygonTest(grown.astype(np.float32), centre, False) >= 0:
            return True
    return False


def _inside(corners: np.ndarray, blob: Blob) -> bool:
    centre = corners.mean(axis=0)
    return cv2.pointPolygonTest(blob.contour.reshape(-1, 1, 2), (float(centre[0]),
                                                                 float(centre[1])), False) >= 0


def _printed_in_black_and_white(image: np.ndarray, marker: MarkerSighting) -> bool:
    """A real marker is black and white, all of it tinted alike by the light; colourful card
    art that ArUco happened to decode is not (spread of chroma: at most 7 against at least
    15 on the benchmark's frames)."""
    x, y, w, h = cv2.boundingRect(marker.corners.astype(np.int32))
    patch = image[max(0, y):y + h, max(0, x):x + w]
    if patch.size == 0:
        return True
    lab = cv2.cvtColor(patch, cv2.COLOR_BGR2LAB).reshape(-1, 3).astype(np.float32)
    return float(np.hypot(lab[:, 1].std(), lab[:, 2].std())) < 11


def _intersect(a: np.ndarray, b: np.ndarray) -> bool:
    area, _ = cv2.intersectConvexConvex(a.astype(np.float32), b.astype(np.float32))
    return area > 0.05 * cv2.contourArea(b.astype(np.float32))


def _in_view(quad: np.ndarray, size: tuple[int, int], on_top: Sequence[np.ndarray]
             ) -> np.ndarray | None:
    """1 where the upright face of ``quad`` (template size) is not under a card on top."""
    if not on_top:
        return None
    w, h = size
    to_face = cv2.getPerspectiveTransform(
        quad.astype(np.float32), np.float32([[0, 0], [w, 0], [w, h], [0, h]]))
    seen = np.ones((h, w), np.uint8)
    for outline in on_top:
        hidden = cv2.perspectiveTransform(outline.reshape(-1, 1, 2).astype(np.float32), to_face)
        cv2.fillConvexPoly(seen, hidden.reshape(-1, 2).round().astype(np.int32), 0)
    return seen
