"""Cards just laid before the fixed camera, cut out as faces to enrol (enrolment at the table).

A fixed camera sees the same table from one settled scene to the next: what changed between
two settled frames is what was laid (or taken away). Each patch of the picture that changed
is looked at as a phone photo of a card alone is (``look_at``: the one card on a plain
surface, its sides snapped to the colour step): a card found there, most of which changed,
is a card just laid, and is cut out upright (``face_of``), as ``companion vision enroll``
cuts a photo. A card lying still is never taken again, whether or not the card finder sees
it every time; a card laid where another lay (taken away and replaced, the table never still
between) is. The first settled frame has nothing to be compared with: every card-shaped
outline the card finder gives there is new (``CardFinder``: its several outlines of one card,
its edge, its printed panel, counted once). Only what lies on the play area counts, clear
of the corner markers, and of a card's size.

>>> from companion.vision.layout import TableLayout
>>> laid = LaidCards(TableLayout())
>>> laid.before is None
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from companion.errors import CompanionError
from companion.vision.detection import intersect, near
from companion.vision.evidence import CARD_AREA_MM2, inside
from companion.vision.finder import CardFinder
from companion.vision.layout import TableLayout
from companion.vision.library import CardInPhoto, face_of, look_at
from companion.vision.quads import order_corners, quad_sides
from companion.vision.table_view import TableView

#: The crop round a changed patch or a card, each way, as a share of its size: table enough
#: round the card for its outline to be found as on a photo of it alone.
MARGIN = 0.3
#: The settled frames are compared this wide (pixels), a little blurred: the sensor's noise
#: is gone, a card is still a few hundred pixels.
COMPARE_WIDTH = 320
#: A step of any colour channel beyond the frame's usual one that is a change, not noise.
CHANGE_LEVEL = 30
#: A card most of whose pixels changed (this share, or more) since the settled frame before
#: is a card just laid.
CHANGED = 0.5
#: Least changed patch looked at (pixels of the small frame): less is no card.
LEAST_PATCH = 20
#: Most cards taken from one settled frame (a bound on the work, not a rule of any game).
MOST_LAID = 24


@dataclass(frozen=True)
class Laid:
    """A card just laid: its outline (frame pixels, clockwise from the top-left) and its
    face, upright, as the library keeps faces."""

    outline: np.ndarray
    face: np.ndarray


def small(frame: np.ndarray) -> tuple[np.ndarray, float]:
    """The frame as settled frames are compared, and its scale."""
    scale = min(1.0, COMPARE_WIDTH / frame.shape[1])
    size = (max(1, round(frame.shape[1] * scale)), max(1, round(frame.shape[0] * scale)))
    shrunk = cv2.resize(frame, size, interpolation=cv2.INTER_AREA)
    return cv2.GaussianBlur(shrunk, (3, 3), 0), scale


def change_mask(before: np.ndarray, now: np.ndarray) -> np.ndarray:
    """The pixels of two small frames that changed, past the change the whole frame shows
    (the light dimming a little)."""
    diff = cv2.absdiff(before, now).max(axis=2)
    return (diff > CHANGE_LEVEL + float(np.median(diff))).astype(np.uint8) * 255


def changed_share(mask: np.ndarray, outline: np.ndarray, scale: float) -> float:
    """The share of an outline's pixels (frame pixels) that changed (``change_mask``)."""
    area = np.zeros(mask.shape, np.uint8)
    cv2.fillConvexPoly(area, np.round(outline * scale).astype(np.int32), 255)
    inside_it = mask[area > 0]
    return float((inside_it > 0).mean()) if inside_it.size else 0.0


def card_sized(outline: np.ndarray, view: TableView, layout: TableLayout) -> bool:
    """On the play area, clear of the corner markers, and of a card's size."""
    on_table = view.to_table(outline)
    centre = (float(on_table[:, 0].mean()), float(on_table[:, 1].mean()))
    area = float(cv2.contourArea(on_table.astype(np.float32)))
    return inside(layout, centre) and CARD_AREA_MM2[0] <= area <= CARD_AREA_MM2[1]


def card_outlines(frame: np.ndarray, view: TableView, layout: TableLayout,
                  finder: CardFinder | None = None) -> list[np.ndarray]:
    """One outline per card-sized thing on the play area (frame pixels): the outlines the
    finder gives of one card (lying on one another) counted once, the largest kept."""
    kept: list[np.ndarray] = []
    quads = (finder or CardFinder()).find(frame).quads
    for quad in sorted(quads, key=lambda q: -cv2.contourArea(q.astype(np.float32))):
        if not card_sized(quad, view, layout):
            continue
        if any(near(quad, k) or intersect(k, quad, 0.5) for k in kept):
            continue  # the same card seen by another cue, or a panel printed on it
        kept.append(order_corners(quad))
    return kept


def crop_round(frame: np.ndarray, box: tuple[int, int, int, int]
               ) -> tuple[np.ndarray, np.ndarray]:
    """The part of the frame round ``box`` (x, y, w, h), with ``MARGIN`` of table each way,
    and where it begins in the frame."""
    x, y, w, h = box
    reach = int(MARGIN * max(w, h)) + 2
    x0, y0 = max(0, x - reach), max(0, y - reach)
    x1, y1 = min(frame.shape[1], x + w + reach), min(frame.shape[0], y + h + reach)
    return np.ascontiguousarray(frame[y0:y1, x0:x1]), np.float32([x0, y0])


def card_in(frame: np.ndarray, patch: np.ndarray) -> np.ndarray | None:
    """The outline (frame pixels) of the one card in a changed ``patch`` (a contour, frame
    pixels), found as on a photo of it alone: the rest of the crop round it is painted the
    table's colour, so that a card lying beside it is not found instead. None if there is
    no card."""
    box = cv2.boundingRect(patch.astype(np.int32))
    region, origin = crop_round(frame, box)
    keep = np.zeros(region.shape[:2], np.uint8)
    cv2.fillPoly(keep, [np.round(patch - origin).astype(np.int32)], 255)
    grow = 2 * int(0.08 * max(box[2], box[3])) + 3
    keep = cv2.dilate(keep, np.ones((grow, grow), np.uint8))
    if keep.all():
        return None
    region = region.copy()
    region[keep == 0] = np.median(region[keep == 0], axis=0).astype(np.uint8)
    try:
        found = look_at("laid", region).outline
    except CompanionError:
        return None
    return None if found is None else order_corners(found + origin)


def cut(frame: np.ndarray, outline: np.ndarray) -> np.ndarray | None:
    """The face of the card at ``outline`` (frame pixels), upright; None if none can be cut."""
    region, origin = crop_round(frame, cv2.boundingRect(outline.astype(np.int32)))
    in_photo = CardInPhoto(region, (outline - origin).astype(np.float32), 0.0, False, False)
    try:
        return face_of("laid", in_photo, whole=False)[0]
    except CompanionError:
        return None


class LaidCards:
    """The cards laid between one settled frame and the next (see the module)."""

    def __init__(self, layout: TableLayout, finder: CardFinder | None = None) -> None:
        self.layout = layout
        self.finder = finder or CardFinder()
        #: The last settled frame, small (None: none yet, every card is new).
        self.before: np.ndarray | None = None

    def settled(self, frame: np.ndarray, view: TableView | None) -> list[Laid]:
        """The cards of this settled frame that were not in the one before, each cut out;
        the table's outline unknown (``view`` None), nothing."""
        if view is None:
            return []
        now, scale = small(frame)
        if self.before is None:
            outlines = card_outlines(frame, view, self.layout, self.finder)
        else:
            outlines = self.changed(frame, now, scale, view)
        self.before = now
        laid = []
        for outline in outlines:
            face = cut(frame, outline)
            if face is not None:
                laid.append(Laid(outline, face))
        return laid

    def changed(self, frame: np.ndarray, now: np.ndarray, scale: float, view: TableView
                ) -> list[np.ndarray]:
        """The cards found where the picture changed since the settled frame before: each
        changed patch looked at, then what is left of it beside the card found there (two
        cards laid close make one patch)."""
        assert self.before is not None
        mask = change_mask(self.before, now)
        mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
        patches = _patches(mask, LEAST_PATCH)
        kept: list[np.ndarray] = []
        while patches and len(kept) < MOST_LAID:
            patch = patches.pop()
            outline = card_in(frame, patch.astype(np.float32) / scale)
            if outline is None:
                continue
            if card_sized(outline, view, self.layout) \
                    and changed_share(mask, outline, scale) >= CHANGED \
                    and not any(intersect(k, outline, 0.3) for k in kept):
                kept.append(outline)
            # The rest of the patch, the card found taken out of it: another card, or slivers.
            rest = np.zeros(mask.shape, np.uint8)
            cv2.fillPoly(rest, [patch.astype(np.int32)], 255)
            cv2.fillConvexPoly(rest, np.round(outline * scale).astype(np.int32), 0)
            rest = cv2.morphologyEx(rest, cv2.MORPH_OPEN, np.ones((5, 5), np.uint8))
            least = 0.4 * cv2.contourArea((outline * scale).astype(np.float32))
            patches += _patches(rest & mask, max(LEAST_PATCH, least))
        return kept


def _patches(mask: np.ndarray, least: float) -> list[np.ndarray]:
    """The outer contours of a mask's patches of ``least`` pixels or more, as (N, 2)."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    return [c.reshape(-1, 2) for c in contours if cv2.contourArea(c) >= least]


def reading_order(laid: Sequence[Laid]) -> list[Laid]:
    """Cards laid at once in the order they are read, as the camera sees them: row by row
    from the top (a card whose centre is within half a card's width of a row's is in it),
    each row from the left."""
    rows: list[list[Laid]] = []
    for card in sorted(laid, key=lambda c: float(c.outline[:, 1].mean())):
        y = float(card.outline[:, 1].mean())
        reach = min(quad_sides(card.outline)) / 2
        if rows and abs(float(rows[-1][0].outline[:, 1].mean()) - y) < reach:
            rows[-1].append(card)
        else:
            rows.append([card])
    return [card for row in rows
            for card in sorted(row, key=lambda c: float(c.outline[:, 0].mean()))]
