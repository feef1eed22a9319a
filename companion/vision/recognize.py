"""Recognising enrolled cards and tiles in a camera image.

1. ``CardFinder`` proposes outlines (edges, light blobs, distance from the table's colour)
   on a small copy of the frame.
2. Each outline is compared with every enrolled face (``FaceIndex``: high-passed colour in all
   four turns). The best face must score well on its own and stand clear of the best *other*
   face; else the outline is left out, never guessed.
3. Blobs that the cards read do not cover (cards touching or lying on each other) are cut
   into card-sized guesses along their straight sides, and what is still unexplained goes to
   the feature matcher: SIFT keypoints against the enrolled faces, a ratio test within each
   face, a RANSAC homography, and a check of the part of the card that shows.

A photo larger than ``WORK_LONG`` on its long side is read at that size; corners always come
back in the pixels of the image given.

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
from dataclasses import dataclass, replace

import cv2
import numpy as np

from companion.vision.faces import Score, print_level
from companion.vision.finder import CardFinder, TableBackground, shrink
from companion.vision.library import FACE_LONG, CardLibrary
from companion.vision.markers import MarkerFinder, MarkerSighting
from companion.vision.piles import Agreement, copies_under
from companion.vision.quads import (
    Blob,
    laid_like,
    order_corners,
    outline_sides,
    quad_sides,
    snap_to_outline,
)

#: The most copies of one card looked for under it.
PILE_MOST = 8
#: Photos larger than this (long side, pixels) are read at this size.
WORK_LONG = 2048


@dataclass(frozen=True)
class Detection:
    """An enrolled face found in an image.

    ``corners``: image pixels, the face's own top-left, top-right, bottom-right, bottom-left
    (for a card that looks the same turned round, either of its two ways up).
    ``confidence``: 0..1, how far the face stands clear of the nearest other one;
    ``method``: ``template`` or ``features``.
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
    """How sure a match must be. Scores are correlations of high-passed colour (-1..1)."""

    min_score: float = 0.6
    #: Clear of the best other face by this much, once lined up (look-alikes such as the 7
    #: and 8 of clubs stood 0.09-0.12 clear when right, on real photos).
    margin: float = 0.05
    #: Stricter for a guessed rectangle inside a blob of several cards.
    split_score: float = 0.65
    split_margin: float = 0.06
    #: A margin this wide or wider is full confidence, and needs no lining up.
    sure_margin: float = 0.15
    #: Near twins: the likeliest face must fit this closely, and the gap be this share of
    #: the twins' own difference (the quad lies this far past the midpoint, towards it).
    twin_score: float = 0.92
    twin_share: float = 0.5
    #: A face must score this share of the way from its nearest neighbour's likeness to 1.
    beyond_nearest: float = 0.08
    #: Below this first score a quad is not worth lining up.
    align_from: float = 0.15
    detail: float = 0.35  # least share of the plainest enrolled face's print a quad must show
    min_inliers: int = 10
    feature_regions: int = 5  # most regions per frame given to the feature matcher
    inlier_ratio: float = 0.5  # runner-up may have at most this share of the best's inliers
    part_score: float = 0.4  # the part of a feature-matched card in view must score this
    #: A copy under a card read in a pile: its part in view must score this, this clear of
    #: any other face.
    copy_score: float = 0.6
    copy_index_score: float = 0.45
    copy_margin: float = 0.1


class Recognizer:
    """Finds the enrolled faces of a library in BGR images."""

    def __init__(self, library: CardLibrary, finder: CardFinder | None = None,
                 thresholds: Thresholds | None = None, use_features: bool = True,
                 use_templates: bool = True) -> None:
        self.library = library
        self.finder = finder or CardFinder()
        self.limits = thresholds or Thresholds()
        self.use_features = use_features
        self.use_templates = use_templates
        self.marker_finder = MarkerFinder(half_first=True)
        self._sift = cv2.SIFT_create(nfeatures=800)
        self._strips: Agreement | None = None
        self._strips_count = 0

    def recognize(self, image: np.ndarray, markers: list[MarkerSighting] | None = None,
                  background: TableBackground | None = None) -> list[Detection]:
        """Every enrolled face clearly seen in a BGR image.

        ``markers``: the ArUco markers already found in it (else they are looked for): a
        marker's white margin can look like a card's outline. ``background``: the empty
        table as this camera sees it, if known.
        """
        if len(self.library) == 0:
            return []
        factor = min(1.0, WORK_LONG / max(image.shape[:2]))
        work = shrink(image, factor)
        if markers is None:
            markers = self.marker_finder.find(work)
        else:
            markers = [replace(m, corners=m.corners * factor) for m in markers]
        markers = [m for m in markers if _printed_in_black_and_white(work, m)]
        found = self.detect(work, markers, background)
        if factor == 1.0:
            return found
        return [replace(d, corners=(d.corners / factor).astype(np.float32)) for d in found]

    def detect(self, image: np.ndarray, markers: list[MarkerSighting],
               background: TableBackground | None = None) -> list[Detection]:
        candidates = self.finder.find(image, background)
        hits: list[Detection] = []
        if self.use_templates:
            for quad in candidates.quads:
                # The same card seen by another cue and read already (lined up with its
                # print if it was a close call): once is enough.
                if any(_same_card(quad, h.corners) for h in hits):
                    continue
                if not _on_marker(quad, markers) and self.fits_a_face(quad):
                    hit = self.identify(image, quad)
                    if hit is not None:
                        hits.append(hit)
        detections = _strongest(hits)
        card_long = (float(np.median([max(quad_sides(d.corners)) for d in detections]))
                     if detections else None)
        puzzling = []
        for blob in candidates.blobs:
            if blob.outline is not None and _on_marker(blob.outline, markers):
                continue
            known = [d for d in detections if _touches(d.corners, blob)]
            if self._explained(image, blob, known):
                continue
            model = _nearest_card(blob, detections)
            found = (self._split(image, blob, card_long, known, model) if self.use_templates
                     else [])
            detections += [hit for hit in found
                           if not any(_overlaps(hit, d) for d in detections)]
            if self.use_templates and not self._explained(image, blob, known + found):
                # A pile: copies of a card read here lying under it.
                for top in known + found:
                    copies = self._copies(image, blob, top, detections)
                    detections += copies
                    found += copies
            if self.use_features and not self._explained(image, blob, known + found):
                puzzling.append(blob)
        if puzzling:
            # Cards partly under others, or in a heap: the feature matcher, on the largest
            # few regions only, so that a cluttered frame costs a bounded time.
            grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
            puzzling.sort(key=lambda b: -b.box[2] * b.box[3])
            for blob in puzzling[:self.limits.feature_regions]:
                known = [d for d in detections if _touches(d.corners, blob)]
                found = [hit for hit in self._match_features(image, grey, blob, card_long, known)
                         if not any(_overlaps(hit, d) for d in detections)]
                detections += found
                if (self.use_templates and found
                        and not self._explained(image, blob, known + found)):
                    for top in found:
                        detections += self._copies(image, blob, top, detections)
        return detections

    def _explained(self, image: np.ndarray, blob: Blob, cards: Sequence[Detection]) -> bool:
        """Do the cards found cover the blob, bar slivers narrower than a tenth of a card and
        patches of bare table (lit grain or glare stuck to a card: nothing printed)?"""
        x, y, w, h = blob.box
        left = np.zeros((h + 2, w + 2), np.uint8)
        offset = np.float32([x - 1, y - 1])
        cv2.fillPoly(left, [(blob.contour - offset).round().astype(np.int32)], 255)
        for card in cards:
            cv2.fillConvexPoly(left, (card.corners - offset).round().astype(np.int32), 0)
        short = (min(min(quad_sides(card.corners)) for card in cards) if cards
                 else 0.5 * min(w, h))
        # Thin rims and table specks left along the edges are opened away; a hidden card is
        # not.
        size = max(3, int(short / 10) | 1)
        left = cv2.morphologyEx(left, cv2.MORPH_OPEN, np.ones((size, size), np.uint8))
        if cv2.countNonZero(left) < 0.15 * short * short:
            return True
        top, side = max(0, y - 1), max(0, x - 1)
        patch = cv2.cvtColor(image[top:y + h + 1, side:x + w + 1], cv2.COLOR_BGR2GRAY)
        inside = left[top - (y - 1):, side - (x - 1):][:patch.shape[0], :patch.shape[1]]
        return print_level(patch, inside) < 0.5 * self.library.index.least_print

    def _agreement(self) -> Agreement:
        if self._strips is None or self._strips.faces is not self.library.faces \
                or len(self._strips.faces) != self._strips_count:
            self._strips = Agreement(self.library.faces)
            self._strips_count = len(self.library.faces)
        return self._strips

    def _copies(self, image: np.ndarray, blob: Blob, top: Detection,
                read: Sequence[Detection]) -> list[Detection]:
        """Copies of ``top`` lying under it in the blob (a pile of one card): each place the
        search finds is checked on the part of it in view, the one nearest the top card first
        (the nearer a copy, the higher it lies in the pile)."""
        entry = self.library.ids.index(top.item_id)
        # Cards read whole lie over whatever they overlap.
        others = [d.corners for d in read if d is not top and _touches(d.corners, blob)]
        hits: list[Detection] = []
        while len(hits) < PILE_MOST:
            # The copy next under the ones found shows all of what they leave uncovered of
            # it: it is the best place of each round.
            on_top = [top.corners, *others, *(h.corners for h in hits)]
            best: tuple[float, np.ndarray] | None = None
            for place, _ in copies_under(image, blob.contour, top.corners,
                                         self.library.faces[entry], 5, tuple(on_top[1:]),
                                         hits[-1].corners if hits else None):
                if any(_same_card(place, d.corners) for d in [*read, *hits]):
                    continue
                if (_share_inside(place, blob.contour) < 0.85
                        or _share_in_view(place, on_top) < 0.1):
                    continue
                # Which card it is, is known: the part in view must agree with it, clearly
                # more than with any other face (by the face index's comparison, or by the
                # colour of that part alone: a thin strip). The copy next under shows all
                # of its part in view, so it agrees best of the places.
                agree = self._agreement()(image, place, on_top)
                rest = np.delete(agree, entry)
                gap = agree[entry] - (rest.max() if rest.size else -1.0)
                value = float(agree[entry]) if (agree[entry] >= self.limits.copy_score
                                                and gap >= self.limits.copy_margin) else 0.0
                scores = self.library.index.scores(image, place, on_top, self.limits.detail)
                if (scores and scores[0].entry == entry
                        and scores[0].score >= self.limits.copy_index_score
                        and _gap(scores) >= self.limits.copy_margin):
                    value = max(value, scores[0].score)
                if value > 0 and (best is None or value > best[0]):
                    best = (value, place)
            if best is None:
                return hits
            hits.append(Detection(top.item_id, best[1], 1.0, "template"))
        return hits

    def _split(self, image: np.ndarray, blob: Blob, card_long: float | None,
               known: Sequence[Detection] = (), model: np.ndarray | None = None
               ) -> list[Detection]:
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
        aspects = sorted({round(self.library.aspect(n), 2) for n in range(len(self.library))})
        aspects = [a if a >= 1 else 1 / a for a in aspects]
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
        if model is not None:
            # The outline of a card read nearby, laid on each corner of the blob: the shape
            # a card has here, perspective and all.
            for quad in laid_like(model, blob.contour, min(quad_sides(model))):
                middle = quad.mean(axis=0)
                if (cv2.pointPolygonTest(inside, (float(middle[0]), float(middle[1])), False) < 0
                        or any(_same(quad, t, reach) for t in guessed)
                        or any(_near(quad, d.corners) for d in [*known, *hits])):
                    continue
                guessed.append(quad)
                tried.append(quad)
                hit = self.identify(image, quad, self.limits.split_score,
                                    self.limits.split_margin)
                if hit is not None:
                    hits.append(hit)
        kept = list(known) + _strongest(hits, list(known))
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
    def fits_a_face(self, quad: np.ndarray) -> bool:
        """Could this quad be an enrolled face seen at a slant? Perspective squeezes a card
        towards a square (a card seen at a slant can look square), so only a quad longer than
        any face could look is ruled out."""
        top, side = quad_sides(quad)
        seen = max(top, side) / max(min(top, side), 1.0)
        return seen <= self.library.index.longest_aspect * 1.45

    def identify(self, image: np.ndarray, quad: np.ndarray, min_score: float | None = None,
                 margin: float | None = None, on_top: Sequence[np.ndarray] = ()
                 ) -> Detection | None:
        """The enrolled face in one quad, or None if no face stands clear of the rest.

        ``on_top``: outlines (image pixels) of cards known to lie over this one; what they
        hide is left out of the comparison (and too little in view is no read at all).
        """
        if on_top and _share_in_view(quad, on_top) < 0.55:
            return None
        index = self.library.index
        scores = index.scores(image, order_corners(quad), list(on_top) or None,
                              self.limits.detail)
        if not scores or scores[0].score < self.limits.align_from:
            return None
        if not on_top and (_gap(scores) < self.limits.sure_margin
                           or scores[0].score < self._bar(scores[0].entry, 0.0)):
            # A close call: line the likeliest face up with the print and compare again.
            aligned = index.align(image, scores[0].corners, scores[0].entry)
            if aligned is not None:
                again = index.scores(image, aligned, None, self.limits.detail,
                                     only=[s.entry for s in scores])
                if again and again[0].score > scores[0].score:
                    scores = again
        return self._decide(scores, self.limits.min_score if min_score is None else min_score,
                            self.limits.margin if margin is None else margin, "template")

    def _decide(self, scores: list[Score], min_score: float, margin: float, method: str
                ) -> Detection | None:
        if not scores:
            return None
        best, gap = scores[0], _gap(scores)
        if best.score < self._bar(best.entry, min_score):
            return None
        sure = gap / self.limits.sure_margin
        if gap < margin:
            # Near twins (the 3 of spades and of clubs: a pip's top apart): the gap is small
            # because the faces are, so measure it against their own difference, and only
            # when the likeliest face fits the print closely.
            runner = scores[1].entry
            apart = 1.0 - self.library.index.likeness(best.entry, runner)
            if best.score < self.limits.twin_score or gap < self.limits.twin_share * apart:
                return None
            sure = gap / apart - self.limits.twin_share
        confidence = float(np.clip(sure, 0.0, 1.0))
        return Detection(self.library.ids[best.entry], best.corners.astype(np.float32),
                         confidence, method)

    def _bar(self, entry: int, min_score: float) -> float:
        """The least score that reads as this face: above ``min_score``, and above how alike
        the face is to its nearest enrolled neighbour (cards of one deck share a layout, so
        a card of another deck can look that much like any of them)."""
        nearest = self.library.index.nearest(entry)
        # Near twins (likeness above twin_score) are told apart by the twin rule instead.
        bar = min(nearest + self.limits.beyond_nearest * (1.0 - nearest), self.limits.twin_score)
        return max(min_score, bar)

    # --- fallback ----------------------------------------------------------------------
    def _match_features(self, image: np.ndarray, grey: np.ndarray, blob: Blob,
                        card_long: float | None, known: Sequence[Detection]
                        ) -> list[Detection]:
        """Cards in a blob seen only in part: SIFT keypoints of the blob's region matched to
        the enrolled faces (a ratio test within each face, so a pip repeated on many faces
        still counts), a RANSAC homography per face, and the part in view checked by the
        face comparison."""
        features = self.library.features
        if len(features["descriptors"]) == 0:
            return []
        x, y, w, h = blob.box
        pad = max(w, h) // 10 + 4
        x0, y0 = max(0, x - pad), max(0, y - pad)
        x1, y1 = min(grey.shape[1], x + w + pad), min(grey.shape[0], y + h + pad)
        crop = grey[y0:y1, x0:x1]
        estimate = card_long or 0.9 * min(crop.shape)
        # Keypoints match across scale, but not across a factor of five: bring large cards
        # down towards the enrolled faces' size, and only small ones up.
        zoom = float(np.clip(0.6 * FACE_LONG / max(estimate, 1.0), 0.25, 2.0))
        if zoom > 1.0 and estimate > 120:
            zoom = 1.0
        # The cards already read are left out: their keypoints are explained.
        hidden = np.full(crop.shape, 255, np.uint8)
        for d in known:
            cv2.fillConvexPoly(hidden, (d.corners - np.float32([x0, y0])).round()
                               .astype(np.int32), 0)
        if abs(zoom - 1.0) > 0.1:
            crop = cv2.resize(crop, None, fx=zoom, fy=zoom, interpolation=cv2.INTER_AREA
                              if zoom < 1 else cv2.INTER_LINEAR)
            hidden = cv2.resize(hidden, (crop.shape[1], crop.shape[0]),
                                interpolation=cv2.INTER_NEAREST)
        keypoints, desc = self._sift.detectAndCompute(crop, hidden)
        if desc is None or len(keypoints) < self.limits.min_inliers:
            return []
        owners_all = features["owners"]
        pairs = features["matcher"].knnMatch(desc, k=8)
        lib_idx, scene_idx = [], []
        for query in pairs:
            by_owner: dict[int, list] = {}
            for m in query:
                by_owner.setdefault(int(owners_all[m.trainIdx]), []).append(m)
            for matches in by_owner.values():
                # Ratio test within one face: the next-best point on the same face, or the
                # last neighbour looked at if the face has no other near point.
                second = matches[1].distance if len(matches) > 1 else query[-1].distance
                if matches[0].distance < 0.8 * second:
                    lib_idx.append(matches[0].trainIdx)
                    scene_idx.append(matches[0].queryIdx)
        if len(lib_idx) < self.limits.min_inliers:
            return []
        scene_pts = np.float32([keypoints[i].pt for i in scene_idx]).reshape(-1, 2)
        lib_pts = features["points"][lib_idx].reshape(-1, 2)
        owners = owners_all[lib_idx]
        candidates = []
        for entry in np.unique(owners):
            chosen = owners == entry
            while chosen.sum() >= self.limits.min_inliers:
                fitted = self._fit(int(entry), lib_pts[chosen], scene_pts[chosen])
                if fitted is None:
                    break
                inliers, corners, used = fitted
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
            corners = corners.astype(np.float32)
            if any(_near(corners, d.corners) for d in [*known, *accepted]):
                continue
            hidden_by = [d.corners for d in [*known, *accepted] if _intersect(d.corners, corners)]
            if not self._part_agrees(image, corners, entry, hidden_by):
                continue
            accepted.append(Detection(self.library.ids[entry], corners,
                                      float(min(1.0, inliers / 40)), "features"))
        return accepted

    def _part_agrees(self, image: np.ndarray, corners: np.ndarray, entry: int,
                     hidden_by: list[np.ndarray]) -> bool:
        """Does the part of the card in view look like the face the keypoints named?"""
        seen = _share_in_view(corners, hidden_by) if hidden_by else 1.0
        if seen < 0.25:
            return False
        scores = self.library.index.scores(image, corners, hidden_by or None, only=entry)
        return bool(scores) and scores[0].score >= self.limits.part_score

    def _fit(self, entry: int, lib_pts: np.ndarray, scene_pts: np.ndarray
             ) -> tuple[int, np.ndarray, np.ndarray] | None:
        homography, mask = cv2.findHomography(lib_pts, scene_pts, cv2.RANSAC, 5.0)
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


def _gap(scores: list[Score]) -> float:
    """How far the best face stands clear of the best other one."""
    return scores[0].score - (scores[1].score if len(scores) > 1 else 0.0)


def _strongest(hits: list[Detection], kept: list[Detection] | None = None) -> list[Detection]:
    """The surest hits, each where no surer one lies (one outline seen by two cues, a
    rectangle guessed over two cards)."""
    taken = list(kept or [])
    chosen = []
    for hit in sorted(hits, key=lambda d: -d.confidence):
        if not any(_overlaps(hit, k) for k in taken):
            taken.append(hit)
            chosen.append(hit)
    return chosen


def _plausible(corners: np.ndarray, aspect: float) -> bool:
    """A projected outline that a real card lying on a table could have."""
    if not cv2.isContourConvex(corners.astype(np.float32).reshape(-1, 1, 2)):
        return False
    top, side = quad_sides(corners)
    if min(top, side) < 8:
        return False
    seen = side / top
    return aspect / 1.5 <= seen <= aspect * 1.5


def _nearest_card(blob: Blob, cards: Sequence[Detection]) -> np.ndarray | None:
    """The outline of the card read nearest to a blob (None if none was)."""
    if not cards:
        return None
    x, y, w, h = blob.box
    middle = np.float32([x + w / 2, y + h / 2])
    return min(cards, key=lambda d: float(np.linalg.norm(d.centre - middle))).corners


def _same_card(a: np.ndarray, b: np.ndarray) -> bool:
    """Two outlines of one card: each corner of one near a corner of the other."""
    reach = 0.15 * min(min(quad_sides(a)), min(quad_sides(b)))
    return bool(np.linalg.norm(a[:, None] - b[None], axis=2).min(axis=1).max() < reach)


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


def _touches(corners: np.ndarray, blob: Blob) -> bool:
    """Does a card found lie (at least partly) in a blob's box?"""
    x, y, w, h = blob.box
    box = np.float32([[x, y], [x + w, y], [x + w, y + h], [x, y + h]])
    area, _ = cv2.intersectConvexConvex(box, corners.astype(np.float32))
    return area > 0.25 * cv2.contourArea(corners.astype(np.float32))


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


def _share_in_view(quad: np.ndarray, on_top: Sequence[np.ndarray]) -> float:
    """The share of a quad's area that no outline in ``on_top`` covers."""
    x, y, w, h = cv2.boundingRect(quad.astype(np.int32))
    mask = np.zeros((h + 2, w + 2), np.uint8)
    offset = np.float32([x - 1, y - 1])
    cv2.fillConvexPoly(mask, (quad - offset).round().astype(np.int32), 1)
    total = max(1, cv2.countNonZero(mask))
    for outline in on_top:
        cv2.fillConvexPoly(mask, (outline - offset).round().astype(np.int32), 0)
    return cv2.countNonZero(mask) / total


def _share_inside(quad: np.ndarray, outline: np.ndarray) -> float:
    """The share of a quad's area inside an outline (any shape)."""
    x, y, w, h = cv2.boundingRect(quad.astype(np.int32))
    offset = np.float32([x - 1, y - 1])
    card = np.zeros((h + 2, w + 2), np.uint8)
    cv2.fillConvexPoly(card, (quad - offset).round().astype(np.int32), 1)
    region = np.zeros_like(card)
    cv2.fillPoly(region, [(outline - offset).round().astype(np.int32)], 1)
    return cv2.countNonZero(card & region) / max(1, cv2.countNonZero(card))
