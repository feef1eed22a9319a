"""What the recognizer reports, how sure it must be, and the geometry of outlines it uses to
tell cards apart (the same card, overlapping cards, the share of a card in view).

>>> square = np.float32([[0, 0], [10, 0], [10, 10], [0, 10]])
>>> same_card(square, square + 1), round(share_in_view(square, [square + 5]), 2)
(True, 0.75)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from companion.vision.faces import Score
from companion.vision.markers import FoundMarker
from companion.vision.quads import Blob, quad_sides


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
    #: How closely the print fits the face (its score, -1..1; 0 where not measured).
    fit: float = 0.0
    #: Where its index was read, for a card read from its index (image pixels).
    index_at: np.ndarray | None = None

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
    #: A face's bar is at most this (near twins are told apart where they differ instead).
    twin_score: float = 0.92
    #: Near twins (``twins.py``): faces at least this alike, within the margin of each
    #: other, are compared where they differ; the print must fit the closer this well, and
    #: lean at least this far from the midpoint between them (0.5: a face exactly).
    twin_likeness: float = 0.8
    twin_fit: float = 0.8
    twin_lean: float = 0.15
    #: A card's part in view that fits its face below ``twin_fit`` is lined up with it and
    #: read down to this fit: a shadow across a part costs detail a whole face averages out
    #: (a yellow 2 half in shadow, lined up, fit 0.75 and leaned 0.37-0.4 to itself).
    part_fit: float = 0.7
    #: Faces printed alike in grey (``Twins.print_alike`` at least ``print_alike``: one print
    #: in two colours) are told apart by their colours alone: in a card's part in view, the
    #: best of them must score this far above the rest (the scores weigh the colours).
    print_alike: float = 0.98
    colour_apart: float = 0.03
    #: So are faces whose print is broadly alike (``print_alike`` at least
    #: ``colour_twin_alike``) in colours far apart (``Twins.colours_apart`` at least
    #: ``colour_twin_apart``: a green 0 and a blue 0 photographed for enrolment, whose grey
    #: differs by the photos' light). Colours are compared where both faces are coloured:
    #: the dev decks' hearts and diamonds lie within 15, black ink is no colour; a
    #: colour-and-number deck's faces of one colour within 28, of two colours 38 and more
    #: apart (the stand-in's, enrolled from photos).
    colour_twin_alike: float = 0.8
    colour_twin_apart: float = 32.0
    #: Near twins printed in inks this far apart (``Twins.inks_apart``) differ in grey by
    #: how dark each ink prints, as much as by shape: a close call between them is not
    #: told in grey (``Recognizer._twin_against``). A SET deck's purple and green stripes
    #: lie 55 and more apart, one colour's shadings within 32.
    inks_apart: float = 45.0
    #: Of the best face and its print in inks that far apart, those whose ink's hue lies
    #: this much (a cosine) less close to the card's than the closest's are not it
    #: (``Recognizer._ink_struck``): a purple shape under a green cast 0.99 to purple, -0.67
    #: to green; a red washed out 1.0 to red, black ink having no hue.
    ink_turn: float = 0.5
    #: A face must score this share of the way from its nearest neighbour's likeness to 1.
    beyond_nearest: float = 0.08
    #: Below this first score a quad is not worth lining up.
    align_from: float = 0.15
    #: How far lining up may move a corner (share of the face's width): a close call, and an
    #: outline below its face's bar.
    align_reach: tuple[float, float] = (0.15, 0.25)
    #: A first read this good, clear of every other face by the margin, sits on the print
    #: already: lining it up would not change the face read (near twins stay ~0.1 apart
    #: however well lined up), only cost a third of the card's time.
    on_print: float = 0.95
    detail: float = 0.35  # least share of the plainest enrolled face's print a quad must show
    min_inliers: int = 10
    #: Most clusters per frame whose cards are looked for by their corner index (the
    #: largest left unexplained first).
    index_regions: int = 6
    feature_regions: int = 5  # most regions per frame given to the feature matcher
    #: Most quads compared or lined up per frame beyond the cards read whole (reading
    #: clusters, piles and what is left; ``FaceIndex.compared``, about 4 ms each here): a
    #: cluttered frame costs a bounded time. A fan of seven at 640x480 takes about 550; a
    #: photo of separate cards under 20; the cluttered dev photos 100-150.
    most_compared: int = 800
    inlier_ratio: float = 0.5  # runner-up may have at most this share of the best's inliers
    part_score: float = 0.4  # the part of a feature-matched card in view must score this
    #: A copy under a card read in a pile: its part in view must score this, this clear of
    #: any other face.
    copy_score: float = 0.6
    copy_index_score: float = 0.45
    copy_margin: float = 0.1
    #: A copy taken on the face index's word (``copy_index_score``) must still agree this
    #: well with its face in the strip's own comparison. Over 600 rendered plays, true copies
    #: so taken agreed 0.42 or better; a place 33 px off a copy, half on the card beside the
    #: pile, agreed 0.31 and was counted as a sixth copy of five.
    copy_index_agree: float = 0.4
    #: Or, lined up closely (a strip of a card's edge agrees with many faces of one deck),
    #: this score and still first, by this much.
    copy_close_score: float = 0.8
    copy_close_margin: float = 0.03
    #: A strip close to two faces is told apart like near twins (``twin_lean``), but fits
    #: the closer less well than a whole card does: a strip a few pixels wide is mostly
    #: edge. Over 400 rendered plays, true copies told apart fit 0.56 or better, wrong
    #: places 0.34 or worse.
    copy_twin_fit: float = 0.5
    #: The least agreement of a strip told apart so, if this share of the card is in view
    #: (else ``copy_close_score``). A true copy a third in view, a few pixels off, agreed
    #: 0.73; a place 9 px off a copy found, a tenth in view, agreed 0.74 and leaned its way.
    copy_told_score: float = 0.7
    copy_told_view: float = 0.2
    #: A place no round took is held to be a copy (``PileReader._between``) only where the
    #: search matched the posed face this closely: a strip that two faces fit equally,
    #: lying between the copies found and one more, or a sliver under them all agreeing
    #: closely with the pile's card (``sliver_agree``).
    held_search: float = 0.8
    #: A sliver (under ``copy_told_view`` in view) lying over a copy found is held however
    #: the search matched it: where it and the copy overlap, it must fit its print (at least
    #: ``copy_score``) this much better than the copy's.
    sliver_over: float = 0.4
    #: And at least this well, if the search matched it less closely than ``held_search``:
    #: slivers just under the top card, matched 0.42-0.69, fitted 0.89-0.97 where they lay
    #: over the copy; a place 39 px from every copy, matched 0.46, fitted 0.62.
    sliver_fit: float = 0.8
    #: A sliver under every copy found, matched that closely, whose strip agrees with the
    #: pile's card at least this well and within ``sliver_tie`` of the best other face, is
    #: held too: a lowest copy's sliver, mostly frame, agreed 0.83-0.94 and as well with
    #: another face; of 3500 places left at the end of 1000 plays (ten seeds of 1-35) that
    #: were not copies, one agreed as closely with the pile's card as with any face (0.74).
    sliver_agree: float = 0.8
    sliver_tie: float = 0.01
    #: A strip that leans to neither face in detail counts if its colour leans this far to
    #: the pile's card, where the two faces' colours lie at least this far apart (channel
    #: shares, 0-255); one whose colour leans as far to the other face is refused. Over 500
    #: rendered plays the true copies' colour leaned -0.09 at worst (0.34-0.55 where their
    #: detail did not tell, their faces 20-34 apart); no wrong place reached this test
    #: fitting 0.5.
    copy_colour_lean: float = 0.3
    copy_colour_apart: float = 10.0


def gap(scores: list[Score]) -> float:
    """How far the best face stands clear of the best other one."""
    return scores[0].score - (scores[1].score if len(scores) > 1 else 0.0)


def strongest(hits: list[Detection], kept: list[Detection] | None = None) -> list[Detection]:
    """The surest hits, each where no surer one lies (one outline seen by two cues, a
    rectangle guessed over two cards)."""
    taken = list(kept or [])
    chosen = []
    for hit in sorted(hits, key=lambda d: -d.confidence):
        if not any(overlaps(hit, k) for k in taken):
            taken.append(hit)
            chosen.append(hit)
    return chosen


def plausible(corners: np.ndarray, aspect: float) -> bool:
    """A projected outline that a real card lying on a table could have."""
    if not cv2.isContourConvex(corners.astype(np.float32).reshape(-1, 1, 2)):
        return False
    top, side = quad_sides(corners)
    if min(top, side) < 8:
        return False
    ratio = side / top
    return aspect / 1.5 <= ratio <= aspect * 1.5


def nearest_card(blob: Blob, cards: Sequence[Detection]) -> np.ndarray | None:
    """The outline of the card read nearest to a blob (None if none was)."""
    if not cards:
        return None
    x, y, w, h = blob.box
    middle = np.float32([x + w / 2, y + h / 2])
    return min(cards, key=lambda d: float(np.linalg.norm(d.centre - middle))).corners


#: Two outlines of one card read whole: every corner within this share of the short side.
SAME_CARD_REACH = 0.15


def same_card(a: np.ndarray, b: np.ndarray, reach: float = SAME_CARD_REACH) -> bool:
    """Two outlines of one card: each corner of one near a corner of the other (within
    ``reach`` of the shorter side)."""
    reach *= min(min(quad_sides(a)), min(quad_sides(b)))
    return bool(np.linalg.norm(a[:, None] - b[None], axis=2).min(axis=1).max() < reach)


def near(a: np.ndarray, b: np.ndarray) -> bool:
    reach = min(quad_sides(a)) / 2
    return float(np.linalg.norm(a.mean(axis=0) - b.mean(axis=0))) < reach


def corners_within(a: np.ndarray, b: np.ndarray, reach: float) -> bool:
    """Every corner of ``a`` within ``reach`` (pixels, each way) of the same corner of ``b``."""
    return float(np.abs(a - b).max()) < reach


def overlaps(a: Detection, b: Detection) -> bool:
    return near(a.corners, b.corners) or near(b.corners, a.corners)


def on_marker(quad: np.ndarray, markers: list[FoundMarker]) -> bool:
    centre = tuple(float(v) for v in quad.mean(axis=0))
    for marker in markers:
        middle = marker.corners.mean(axis=0)
        # The marker grown to its white margin and a bit: where a false outline would sit.
        grown = (middle + (marker.corners - middle) * 1.8).reshape(-1, 1, 2)
        if cv2.pointPolygonTest(grown.astype(np.float32), centre, False) >= 0:
            return True
    return False


def touches(corners: np.ndarray, blob: Blob) -> bool:
    """Does a card found lie (at least partly) in a blob's box?"""
    x, y, w, h = blob.box
    box = np.float32([[x, y], [x + w, y], [x + w, y + h], [x, y + h]])
    area, _ = cv2.intersectConvexConvex(box, corners.astype(np.float32))
    return area > 0.25 * cv2.contourArea(corners.astype(np.float32))


def printed_in_black_and_white(image: np.ndarray, marker: FoundMarker) -> bool:
    """A real marker is black and white, all of it tinted alike by the light; colourful card
    art that ArUco happened to decode is not (spread of chroma: at most 7 against at least
    15 on the benchmark's frames)."""
    x, y, w, h = cv2.boundingRect(marker.corners.astype(np.int32))
    patch = image[max(0, y):y + h, max(0, x):x + w]
    if patch.size == 0:
        return True
    lab = cv2.cvtColor(patch, cv2.COLOR_BGR2LAB).reshape(-1, 3).astype(np.float32)
    return float(np.hypot(lab[:, 1].std(), lab[:, 2].std())) < 11


def intersect(a: np.ndarray, b: np.ndarray, share: float = 0.05) -> bool:
    """Do two outlines overlap on more than ``share`` of ``b``'s area (0: any part)?"""
    area, _ = cv2.intersectConvexConvex(a.astype(np.float32), b.astype(np.float32))
    return area > share * cv2.contourArea(b.astype(np.float32))


def share_in_view(quad: np.ndarray, on_top: Sequence[np.ndarray]) -> float:
    """The share of a quad's area that no outline in ``on_top`` covers."""
    x, y, w, h = cv2.boundingRect(quad.astype(np.int32))
    mask = np.zeros((h + 2, w + 2), np.uint8)
    offset = np.float32([x - 1, y - 1])
    cv2.fillConvexPoly(mask, (quad - offset).round().astype(np.int32), 1)
    total = max(1, cv2.countNonZero(mask))
    for outline in on_top:
        cv2.fillConvexPoly(mask, (outline - offset).round().astype(np.int32), 0)
    return cv2.countNonZero(mask) / total


def share_inside(quad: np.ndarray, outline: np.ndarray, on_top: Sequence[np.ndarray] = ()
                 ) -> float:
    """The share of a quad's area (of its part that no outline in ``on_top`` covers) inside
    an outline (any shape)."""
    x, y, w, h = cv2.boundingRect(quad.astype(np.int32))
    offset = np.float32([x - 1, y - 1])
    card = np.zeros((h + 2, w + 2), np.uint8)
    cv2.fillConvexPoly(card, (quad - offset).round().astype(np.int32), 1)
    for covering in on_top:
        cv2.fillConvexPoly(card, (covering - offset).round().astype(np.int32), 0)
    region = np.zeros_like(card)
    cv2.fillPoly(region, [(outline - offset).round().astype(np.int32)], 1)
    return cv2.countNonZero(card & region) / max(1, cv2.countNonZero(card))
