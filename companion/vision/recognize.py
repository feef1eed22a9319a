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

>>> from companion.vision.art import draw_face
>>> from companion.commands.game_art import game_items
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

from collections.abc import Callable, Collection, Sequence
from dataclasses import replace

import cv2
import numpy as np

from companion.vision.detection import (
    Detection,
    Thresholds,
    corners_within,
    gap,
    intersect,
    near,
    nearest_card,
    on_marker,
    overlaps,
    printed_in_black_and_white,
    same_card,
    share_in_view,
    strongest,
    touches,
)
from companion.vision.edges import on_edges
from companion.vision.exposure import levelled
from companion.vision.faces import Score, print_level
from companion.vision.features import FeatureMatcher
from companion.vision.finder import Candidates, CardFinder, TableBackground, shrink
from companion.vision.ground import Ground
from companion.vision.indices import IndexHit, to_other_top
from companion.vision.layers import LEAST_IN_VIEW, LayerReader
from companion.vision.library import NOT_A_CARD, CardLibrary
from companion.vision.markers import FoundMarker, MarkerFinder
from companion.vision.piles import COPY_REACH, PileReader
from companion.vision.quads import (
    Blob,
    box_overlap,
    laid_like,
    order_corners,
    outline_sides,
    quad_sides,
    snap_to_outline,
    uncovered,
)
from companion.vision.slant import SLANT_FROM, Flat, flatten, pinhole_fits, slant
from companion.vision.twins import hue, hue_fit

#: Photos larger than this (long side, pixels) are read at this size.
WORK_LONG = 2048
#: Guesses left unread are compared blurred by this share of a card's short side, to find
#: the face to line them up with; at most this many per blob.
BLUR_FOR_GUESSES = 0.1
MOST_LINED = 24
#: Two clusters whose boxes overlap by this share of their union are one cluster.
SAME_BOX = 0.7
#: A blob is searched for a pile if the cards read leave this much of it uncovered (share of
#: a card's short side squared; ``uncovered``'s default, 0.15, is what a card could hide in).
PILE_LEFT = 0.1
#: A card read whole whose box comes this near a cluster's box (share of the cluster's
#: longer side) may lie on a card of the cluster (a dark rim between them splits the two).
NEAR_BY: float | None = 0.1
#: A card read from its index is sure (confidence 1) once its index stands this clear of
#: any other card's; at the first figure, not sure at all (the table is asked).
INDEX_SURE = (0.1, 0.45)
#: The sizes a cluster's indices are looked for at, as shares of the short side of the cards
#: read in the frame (the first that finds any is taken; beside a card read only).
INDEX_SIZES = (1.0, 0.85)
#: A card read from its rank and suit is sure once what it differs in from any other card's
#: index fits this much better; at the first figure, not sure at all.
MARKS_SURE = (0.05, 0.3)
#: A card read from its face with a confidence under the first figure, on which an index
#: window or a rank and suit read another card with one of the second or more, is left out:
#: one card read two ways that disagree (a covered blue 8's face fit the blue 0 at 0.02; its
#: rank and suit read an 8, sure).
DISPUTED = (0.3, 0.5)
#: An index read unsure (under ``DISPUTED[1]``) this share of a card's short side outside
#: the outline of a card read whole is that card's own print, misread: the outline, fitted a
#: few pixels in, leaves its corner index just outside (a queen's index read as a 5 there).
#: Read surely, it is a card peeking out from under it.
INDEX_ON_EDGE = 0.03
#: Two cards read from their indices, each index this share of the other's short side
#: inside its outline, cannot both lie on top (``_not_both_on_top``). Their print is
#: compared ``PRINT_NEAR`` of the short side round each index, moved up to ``PRINT_SLACK``
#: each way; one is left out where it is this much less its own than the other's
#: (``PRINT_CLEARER``), or, of near twins, read this much less surely (``INDEX_SURER``); one
#: card read from its index as two stands at the read this much surer, else at neither.
INDEX_UNDER = 0.05
PRINT_NEAR = 0.15
PRINT_SLACK = 0.1
PRINT_CLEARER = 0.3
INDEX_SURER = 0.1
#: A print leaning past a face by more than this (on the line where one face is +0.5 and
#: its near twin -0.5) lies between neither: the two differ there by their ink's level, not
#: by a shape (a purple and a green set of stripes, alike in grey but for how dark).
TWIN_BEYOND = 0.75
#: A close call whose print leans this far or further to a near twin of the best is not
#: read as the best: the twin comes first, and is read if the print leans clearly to it
#: (``twin_lean``), else the card is left out (thick stripes 0.09 below their solid twin
#: leaned 0.06 to the stripes).
TWIN_DOUBT = 0.05
#: A face's print in another ink is checked for the card's ink down to this far below it.
INK_TWIN_BELOW = 0.3
#: A near twin this far below the best whole face is still told apart from it where they
#: differ (``_twin_against``): how each enrolment image was cut (a sliver of table at a
#: side, its print a little off) costs the right face as much (a two of clubs read whole
#: 0.158 below the two of spades).
TWIN_CUT_REACH = 0.25
#: Faces most alike to the one a close call is lined up with, scored on the lined-up
#: outline besides those the outline as found shortlisted.
ALIKE_RESCORED = 3
#: A card read on its part in view is told apart from the near twins of its best face down
#: to this many times the margin below it, not only within it (``_twins_below``).
TWIN_REACH = 1.5


class Recognizer:
    """Finds the enrolled faces of a library in BGR images."""

    def __init__(self, library: CardLibrary, finder: CardFinder | None = None,
                 thresholds: Thresholds | None = None, use_features: bool = True,
                 use_templates: bool = True, piles: bool | Collection[str] = True) -> None:
        """``piles``: look for copies of a card read lying under it (a play of several
        cards of one kind): under every card (True), none (False), or the cards of
        these ids (the games played in piles); it costs time only where a blob is left
        unexplained, and there the splitter's guesses that read as nothing are lined up and
        read again (``_lined_up``: a pile's top card against a card beside it)."""
        self.library = library
        self.piles = bool(piles)
        self.pile_ids = None if isinstance(piles, bool) else frozenset(piles)
        self.finder = finder or CardFinder()
        self.limits = thresholds or Thresholds()
        self.use_features = use_features
        self.use_templates = use_templates
        self.marker_finder = MarkerFinder(half_first=True)
        self.features = FeatureMatcher(library, self.limits)
        self.pile_reader = PileReader(library, self.limits)

    def recognize(self, image: np.ndarray, markers: list[FoundMarker] | None = None,
                  background: TableBackground | None = None, whole_only: bool = False
                  ) -> list[Detection]:
        """Every enrolled face clearly seen in a BGR image.

        ``markers``: the ArUco markers already found in it (else they are looked for): a
        marker's white margin can look like a card's outline. ``background``: the empty
        table as this camera sees it, if known. ``whole_only``: the cards whose whole
        outline shows only (a card just laid on top), not those partly under others.
        """
        if len(self.library) == 0:
            return []
        factor = min(1.0, WORK_LONG / max(image.shape[:2]))
        work = shrink(image, factor)
        if markers is None:
            markers = self.marker_finder.find(work)
        else:
            markers = [replace(m, corners=m.corners * factor) for m in markers]
        markers = [m for m in markers if printed_in_black_and_white(work, m)]
        found = self.detect(work, markers, background, whole_only)
        if factor == 1.0:
            return found
        return [replace(d, corners=(d.corners / factor).astype(np.float32)) for d in found]

    def detect(self, image: np.ndarray, markers: list[FoundMarker],
               background: TableBackground | None = None, whole_only: bool = False
               ) -> list[Detection]:
        # A dim or grey frame is stretched into the range the readers' thresholds hold for;
        # the table's own model (``background``) is compared with the frame as taken.
        taken, image = image, levelled(image)
        candidates = self.finder.find(image if background is None else taken, background)
        hits: list[Detection] = []
        if self.use_templates:
            for quad in candidates.quads:
                # The same card seen by another cue and read already: once is enough, unless
                # that read was a close call (a near twin): then the outline that fits the
                # print more closely decides (an outline a few pixels off reads a 5 of
                # spades as the 5 of clubs).
                same = [h for h in hits if same_card(quad, h.corners)]
                if any(h.confidence >= 1.0 for h in same):
                    continue
                if not on_marker(quad, markers) and self.fits_a_face(quad):
                    hit = self.identify(image, quad, outline=True)
                    if hit is not None and hit.fit > max((h.fit for h in same), default=-1.0):
                        hits = [h for h in hits if not any(h is s for s in same)] + [hit]
        detections = strongest(hits)
        if whole_only:
            return detections
        card_long = (float(np.median([max(quad_sides(d.corners)) for d in detections]))
                     if detections else None)
        # What the cards read whole leave unexplained is read with a bounded amount of work:
        # clutter (cups, a keyboard, a patterned cloth) cannot blow a frame's time up. The
        # clusters that cards read lie in come first, then the largest.
        index, begun = self.library.index, self.library.index.compared

        def more() -> bool:
            return index.compared - begun < self.limits.most_compared

        # A marker's white margin is a light blob too, outlined or not: not a cluster of cards.
        blobs = [b for b in candidates.blobs
                 if not on_marker(b.rect if b.outline is None else b.outline, markers)]
        blobs.sort(key=lambda b: (not any(touches(d.corners, b) for d in detections),
                                  -b.box[2] * b.box[3]))
        # A cluster outlined again by another cue (the table's spread) is searched again
        # last: the work bound spends itself on clusters not yet searched first.
        first: list[Blob] = []
        again: list[Blob] = []
        for k, blob in enumerate(blobs):
            seen = any(_same_box(blob, other) for other in blobs[:k])
            (again if seen else first).append(blob)
        # Last, the clusters only the edges enclose (grain closed round them at times).
        blobs = first + again + [b for b in candidates.late if not on_marker(b.rect, markers)]
        puzzling: list[Blob] = []
        for blob in blobs:
            if not more():
                break
            found = self._read_cluster(image, blob, detections, card_long, more)
            detections += found
            known = [d for d in detections if touches(d.corners, blob)]
            # One cluster outlined by two cues (light, the table's spread) is read by its
            # index and its features once.
            if not self._explained(image, blob, known) and not any(
                    _same_box(blob, other) for other in puzzling):
                puzzling.append(blob)
        ground = Ground(image, [b.contour for b in [*candidates.blobs, *candidates.late]],
                        candidates.beyond)
        if puzzling and self.use_templates:
            # Cards that show only a corner (a fan, a trick): read from their index.
            puzzling.sort(key=lambda b: -b.box[2] * b.box[3])
            for blob in puzzling[:self.limits.index_regions]:
                # The deck's index windows, at the size of the cards read, then its rank and
                # suit marks wherever they lie and however turned.
                read, disputed = self._by_index(image, blob, detections, ground)
                marked = self._by_marks(image, blob, detections, read, disputed, ground)
                detections = [d for d in detections
                              if not any(d is x for x in disputed)] + marked
            puzzling = [b for b in puzzling if not self._explained(
                image, b, [d for d in detections if touches(d.corners, b)])]
        if self.use_templates and candidates.beyond and more():
            detections += self._marks_elsewhere(image, candidates, detections, ground)
        if puzzling and self.use_features and more():
            # Cards partly under others, or in a heap: the feature matcher, on the largest
            # few regions only.
            grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
            puzzling.sort(key=lambda b: -b.box[2] * b.box[3])
            for blob in puzzling[:self.limits.feature_regions]:
                known = [d for d in detections if touches(d.corners, blob)]
                found = [hit for hit in self.features.match(image, grey, blob, card_long, known)
                         if not any(overlaps(hit, d) for d in detections)]
                detections += found
                if self.piles and self.use_templates:
                    detections += self._copies(image, blob, known + found, found, detections,
                                               more)
        return self._not_both_on_top(image, _one_index_read_per_card(
            detections, self.library.both_tops))

    def _not_both_on_top(self, image: np.ndarray, detections: list[Detection]
                         ) -> list[Detection]:
        """The readings less one of each two cards read from their indices where each index
        lies on the other's outline (``INDEX_UNDER``): flat cards cannot both show their
        index so, the one on top hides the other's. Left out is the one whose print round
        its index is its own face's less clearly, against the other face's there
        (``_print_fit``): a five of spades read from a two of spades' pips, its index lying
        on the two and the two's on it. Of near twins, alike in that print (a seven of clubs'
        turned index read as the spade's), the one read less surely is left out; of two read
        about as surely (``INDEX_SURER``), neither: one card's two corners, a coin toss."""
        reads = [d for d in detections if d.method == "index" and d.index_at is not None]
        ids = self.library.ids
        out: list[Detection] = []
        for k, one in enumerate(reads):
            for other in reads[k + 1:]:
                if any(d is one or d is other for d in out) or not (
                        _inside(other.corners, one.index_at) >= INDEX_UNDER
                        and _inside(one.corners, other.index_at) >= INDEX_UNDER):
                    continue
                twins = self._near_twins(ids.index(one.item_id), ids.index(other.item_id))
                if twins:
                    # Near twins (a ten of hearts and of diamonds) fit each other's print
                    # alike: the index reader told them apart where they differ.
                    leads = [one.confidence, other.confidence]
                    clearer = INDEX_SURER
                else:
                    leads = [self._print_fit(image, card, card.index_at, card)
                             - self._print_fit(image, rival, card.index_at, card)
                             for card, rival in ((one, other), (other, one))]
                    clearer = PRINT_CLEARER
                if abs(leads[0] - leads[1]) >= clearer:
                    out.append(one if leads[0] < leads[1] else other)
                elif twins:
                    out += [one, other]  # one card read at its two corners: a coin toss
        return [d for d in detections if not any(d is o for o in out)]

    def _print_fit(self, image: np.ndarray, card: Detection, at: np.ndarray,
                   sized_by: Detection) -> float:
        """How well ``card``'s face, laid on its outline, fits the frame's print round
        ``at`` (``PRINT_NEAR`` of ``sized_by``'s short side each way), moved up to
        ``PRINT_SLACK`` of it (an outline read from an index is that far off): the best
        correlation of their grey (-1 if the face shows no print there)."""
        short = min(quad_sides(sized_by.corners))
        x0, y0 = np.maximum((at - PRINT_NEAR * short).astype(int), 0)
        x1, y1 = np.minimum((at + PRINT_NEAR * short).astype(int), image.shape[1::-1])
        slack = int(round(PRINT_SLACK * short))
        gx0, gy0 = max(0, x0 - slack), max(0, y0 - slack)
        gx1, gy1 = min(image.shape[1], x1 + slack), min(image.shape[0], y1 + slack)
        if x1 - x0 < 4 or y1 - y0 < 4:
            return -1.0
        seen = cv2.GaussianBlur(cv2.cvtColor(image[gy0:gy1, gx0:gx1], cv2.COLOR_BGR2GRAY),
                                (0, 0), 1.0)
        face = self.library.faces[self.library.ids.index(card.item_id)]
        h, w = face.shape[:2]
        flat = np.float32([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]])
        onto = cv2.getPerspectiveTransform(flat, (card.corners - (x0, y0)).astype(np.float32))
        laid = cv2.GaussianBlur(cv2.warpPerspective(
            cv2.cvtColor(face, cv2.COLOR_BGR2GRAY), onto, (x1 - x0, y1 - y0),
            flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE), (0, 0), 1.0)
        if float(laid.std()) < 1.0:
            return -1.0  # no print there to fit
        return float(cv2.matchTemplate(seen, laid, cv2.TM_CCOEFF_NORMED).max())

    def _by_index(self, image: np.ndarray, blob: Blob, detections: Sequence[Detection],
                  ground: Ground) -> tuple[list[Detection], list[Detection]]:
        """The cards of a cluster whose corner index shows (``indices.py``), sized like the
        cards read (else like the cluster's own width): each not where a card read lies;
        and the cards read unsure whose own print shows another card's index, sure
        (``DISPUTED``): two readings of one card that disagree, neither taken."""
        reader = self.library.indices
        disputed: list[Detection] = []
        if not reader.windows:
            return [], disputed
        aspect = self._card_aspect()
        if detections:
            # Sized like the cards read; then, for a card's part in view (no larger than a
            # card and a half) beside a card read, smaller: a card under another lies further
            # from the camera at a slant, and is seen smaller. Clutter and whole hands are
            # searched once.
            short = float(np.median([min(quad_sides(d.corners)) for d in detections]))
            under = (blob.box[2] * blob.box[3] <= 1.5 * aspect * short * short
                     and any(_boxes_meet(d.corners, blob.box, NEAR_BY or 0.0)
                             for d in detections))
            shorts = [short * step for step in (INDEX_SIZES if under else INDEX_SIZES[:1])]
        else:  # no card read to size them by: a fan is about a card's length across
            side = float(min(np.linalg.norm(blob.rect[1] - blob.rect[0]),
                             np.linalg.norm(blob.rect[2] - blob.rect[1])))
            shorts = [side / aspect, side]
        x, y, w, h = blob.box
        pad = int(0.1 * max(w, h))
        box = (x - pad, y - pad, w + 2 * pad, h + 2 * pad)
        found: list[Detection] = []
        flat = self._flat(image, detections, box)
        for short in shorts:
            hits = reader.read(image, short, box) if flat is None else [
                hit.projected(flat.to_frame) for hit in reader.read(
                    flat.image, flat.card_short * short / shorts[0])]
            found += self._index_reads(hits, blob, [*detections, *found], ground, INDEX_SURE,
                                       disputed)
            if hits:
                break  # indices at this size, be they of cards read: the size is right here
        return found, disputed

    def _flat(self, image: np.ndarray, detections: Sequence[Detection],
              box: tuple[int, int, int, int]) -> Flat | None:
        """The region ``box`` round a cluster seen flat (``slant.py``), where the card read
        whole nearest it that a camera could see so (``pinhole_fits``) is seen at a
        slant; else None."""
        x, y, w, h = box
        middle = np.float32([x + w / 2, y + h / 2])
        for card in sorted((d for d in detections if d.method != "index"),
                           key=lambda d: float(np.linalg.norm(d.centre - middle))):
            if slant(card.corners) < SLANT_FROM:
                return None  # the nearest card a camera could see so lies square: from above
            face = self.library.faces[self.library.ids.index(card.item_id)]
            if pinhole_fits(card.corners, (face.shape[1], face.shape[0]), image.shape[1::-1]):
                return flatten(image, card.corners, (face.shape[1], face.shape[0]), box)
        return None

    def _by_marks(self, image: np.ndarray, blob: Blob, detections: Sequence[Detection],
                  by_index: Sequence[Detection], disputed: list[Detection], ground: Ground
                  ) -> list[Detection]:
        """The cards of a cluster read by the index windows (``by_index``) and those whose
        index shows as a rank over a suit (``marks.py``): each not where a card read lies,
        nor a card of the cluster read already. A card read both ways lies where its rank
        and suit place it (the line from one to the other turns and sizes it exactly; a
        window may fit a corner's index turned or at another corner). The cards read unsure
        whose print shows another card's rank and suit, sure, are added to ``disputed``."""
        x, y, w, h = blob.box
        pad = int(0.1 * max(w, h))
        hits = self.library.marks.read(image, (x - pad, y - pad, w + 2 * pad, h + 2 * pad),
                                       _card_short(detections))
        marked = {d.item_id: d for d in self._index_reads(hits, blob, detections, ground,
                                                           MARKS_SURE, disputed)}
        kept = []
        for d in by_index:
            if d.index_at is not None and any(
                    m.item_id != d.item_id and m.index_at is not None
                    and _near_print(d.index_at, m.index_at, m.corners, ON_ITS_PRINT)
                    for m in marked.values()):
                continue  # a print the marks read as another card: they tell it apart
            same = marked.get(d.item_id)
            kept.append(replace(d, corners=same.corners)
                        if same is not None and intersect(d.corners, same.corners, 0.25) else d)
        return [*kept, *self._index_reads(hits, blob, [*detections, *kept], ground,
                                          MARKS_SURE)]

    def _marks_elsewhere(self, image: np.ndarray, candidates: Candidates,
                         detections: Sequence[Detection], ground: Ground) -> list[Detection]:
        """The cards whose rank and suit show in the light regions too large to be a
        cluster (``Candidates.beyond``), outside every cluster: a hand fanned on a light
        table, or touching a sheet of paper, is no cluster of its own, yet its indices
        show."""
        if not self.library.marks.indices:
            return []
        short = _card_short(detections)
        clusters = [blob.box for blob in candidates.blobs]
        found: list[Detection] = []
        for x, y, w, h in candidates.beyond:
            hits = self.library.marks.read(image, (x, y, w, h), short, clusters)
            outline = np.float32([[x, y], [x + w, y], [x + w, y + h], [x, y + h]])
            found += self._index_reads(hits, Blob(None, [], (x, y, w, h), outline, outline),
                                       [*detections, *found], ground, MARKS_SURE)
        return found

    def _index_reads(self, hits: Sequence[IndexHit], blob: Blob,
                     detections: Sequence[Detection], ground: Ground,
                     sure: tuple[float, float], disputed: list[Detection] | None = None
                     ) -> list[Detection]:
        """The cards read from their index, best first: each not where a card read lies,
        nor a card of the cluster read already, nor laid mostly on bare table (``ground``,
        ``BARE_AT_MOST``); sure once its index stands ``sure[1]`` clear of any other card's,
        not at all at ``sure[0]``. ``disputed``: given, the cards read unsure on which an
        index of another card shows, sure, are added to it."""
        found: list[Detection] = []
        named = {d.item_id for d in detections if touches(d.corners, blob)}
        for hit in hits:
            card = self.library.ids[hit.face_number]
            confidence = float(np.clip((hit.margin - sure[0]) / (sure[1] - sure[0]), 0.0, 1.0))
            lying_on = [d for d in [*detections, *found]
                        if (d.method != "index" or d.item_id == card)
                        and _index_on(d, hit.at, confidence)]
            if lying_on:
                # The index of a card read, or print on one read whole: no card of its own.
                # (A card read from its index is mostly hidden: other cards' indices show
                # where its outline runs under them.)
                if disputed is not None and confidence >= DISPUTED[1]:
                    # (A card read from its index lies here only if it is this card.)
                    disputed += [d for d in lying_on
                                 if d.item_id != card and d.confidence < DISPUTED[0]]
                continue
            if self.library.ids[hit.face_number] in named:
                continue  # a card of the cluster read already (the best read comes first)
            if any(d.index_at is not None and _near_print(d.index_at, hit.at, hit.corners,
                                                          SAME_PRINT)
                   for d in [*detections, *found]):
                continue  # the print of a card read already, read again (as another card)
            outline = _on_cluster([hit.corners, *hit.others], blob)
            if ground.bare(outline, [d.corners for d in [*detections, *found]]) > BARE_AT_MOST:
                continue  # a card lying there would show: the index is another card's
            named.add(self.library.ids[hit.face_number])
            found.append(Detection(self.library.ids[hit.face_number], outline, confidence,
                                   "index", hit.score, hit.at))
        return found

    def _read_cluster(self, image: np.ndarray, blob: Blob, detections: list[Detection],
                      card_long: float | None, more: Callable[[], bool]) -> list[Detection]:
        """The cards of one cluster (blob) besides those read whole already: layer by layer
        from its corners; then, for what is still unexplained, card-sized guesses along its
        straight sides, and copies under the cards of a pile."""
        known = [d for d in detections if touches(d.corners, blob)]
        if not self.use_templates or self._explained(image, blob, known):
            return []
        if not known and card_long is not None and cv2.contourArea(cv2.convexHull(
                blob.contour)) < SMALLEST_CLUSTER * card_long ** 2 / self._card_aspect():
            return []  # no card shows enough of itself here to be read (its index may show)
        # A cluster no card read lies in may lie under a card read beside it (split from it
        # by the card's dark rim): those cards are weighed as lying on it.
        near_by = [] if known or NEAR_BY is None else [
            d for d in detections if _boxes_meet(d.corners, blob.box, NEAR_BY)]
        layered = [hit for hit in self._layers(image, blob, known, more, near_by)
                   if not any(overlaps(hit, d) for d in detections)]
        found = list(layered)
        if self._explained(image, blob, known + found) or not more():
            return found
        model = nearest_card(blob, [*detections, *found])
        tried: list[np.ndarray] = []
        split = self._split(image, blob, card_long, known + found, model, tried, more)
        if split and card_long is None:
            # No card read cleanly to size the guesses by, and a blob's own size is far
            # off (a heap of cards): the cards the split has read in it size a second one.
            sized = float(np.median([max(quad_sides(d.corners)) for d in split]))
            split += self._split(image, blob, sized, known + found + split,
                                 nearest_card(blob, split), tried, more)
        found += [hit for hit in split if not any(overlaps(hit, d) for d in [*detections,
                                                                               *found])]
        if not self.piles:
            return found
        everything = [*detections, *found]
        # The cards read layer by layer come top first: one lying under a card of its own
        # kind read before it is a copy in a pile, not a pile's top to search under again.
        tops: list[Detection] = []
        for card in known + found:
            if not any(t.item_id == card.item_id and intersect(t.corners, card.corners)
                       for t in tops):
                tops.append(card)
        copies = self._copies(image, blob, known + found, tops, everything, more)
        # A copy the search finds a few pixels from a card of its kind read layer by layer is
        # that card (whose outline, read from a part of it, can be a little off).
        found += [c for c in copies if not any(
            o.item_id == c.item_id and float(np.linalg.norm(o.centre - c.centre))
            < COPY_REACH * min(quad_sides(o.corners)) for o in layered)]
        if tried and more() and not self._explained(image, blob, known + found, bare=False):
            # Still unexplained: a guess a few pixels off a card in view (the top of a pile
            # against a card beside it) is lined up with the face it looks most like from a
            # distance, and read again; copies may lie under it.
            lined = [hit for hit in self._lined_up(image, tried, [*known, *found], more)
                     if not any(overlaps(hit, d) for d in [*detections, *found])]
            found += lined
            found += self._copies(image, blob, known + found, lined, [*detections, *found],
                                  more)
        return found

    def _layers(self, image: np.ndarray, blob: Blob, known: Sequence[Detection],
                more: Callable[[], bool], around: Sequence[Detection] = ()
                ) -> list[Detection]:
        """The cards of a cluster read layer by layer from the top (``layers.py``)."""
        aspects = [self.library.aspect(n) for n in range(len(self.library))]
        reader = LayerReader(self.library.index,
                             float(np.median([max(a, 1 / a) for a in aspects])))

        def identify(quad: np.ndarray, on_top: Sequence[np.ndarray]) -> Detection | None:
            return self.identify(image, quad, self.limits.split_score,
                                 self.limits.split_margin, on_top=on_top,
                                 least_in_view=LEAST_IN_VIEW, in_part=bool(on_top))

        return reader.read(image, blob, known, identify, more,
                           lambda cards: self._explained(image, blob, [*known, *cards]),
                           around)

    def _copies(self, image: np.ndarray, blob: Blob, cards: Sequence[Detection],
                tops: Sequence[Detection], detections: Sequence[Detection],
                more: Callable[[], bool] = lambda: True) -> list[Detection]:
        """A pile: copies lying under those of ``tops`` that are cards of the games played
        in piles, if the ``cards`` read in the blob leave enough of it uncovered
        (``PILE_LEFT``; ``detections``: every card read in the frame so far)."""
        found: list[Detection] = []
        # A copy under the pile may show as little as a tenth of itself, part of it over a
        # card read whole beside the pile (the cards read left less than a card could hide
        # in uncovered, and a two-card pile was read as one).
        if uncovered(blob, [card.corners for card in cards], PILE_LEFT) is None:
            return found
        # The card that fits its print best first: the top of a pile, which nothing covers.
        # (The lowest copy of a row, half in view, can be read whole too: searched under
        # first, the copies over it were found as copies under it, and it hid the one
        # between.)
        for top in sorted(self._pile_tops(tops), key=lambda card: -card.fit):
            if not more():
                break
            found += self.pile_reader.copies(image, blob, top, [*detections, *found], more)
        return found

    def _pile_tops(self, cards: Sequence[Detection]) -> list[Detection]:
        """The cards read that copies may lie under (those of the games played in piles)."""
        return [c for c in cards if self.pile_ids is None or c.item_id in self.pile_ids]

    def _explained(self, image: np.ndarray, blob: Blob, cards: Sequence[Detection],
                   bare: bool = True) -> bool:
        """Do the cards found cover the blob, bar slivers narrower than a tenth of a card and
        patches of bare table (lit grain or glare stuck to a card: nothing printed)?

        ``bare``: judge what is left by its print. Not before a pile search: a copy's strip
        (mostly white border) joined to a patch of table in the blob has too little print as
        a whole, and the search itself tells a copy from bare table."""
        left = uncovered(blob, [card.corners for card in cards])
        if left is None:
            return True
        if not bare:
            return False
        x, y, w, h = blob.box
        top, side = max(0, y - 1), max(0, x - 1)
        patch = cv2.cvtColor(image[top:y + h + 1, side:x + w + 1], cv2.COLOR_BGR2GRAY)
        inside = left[top - (y - 1):, side - (x - 1):][:patch.shape[0], :patch.shape[1]]
        return print_level(patch, inside) < 0.5 * self.library.index.least_print

    def _lined_up(self, image: np.ndarray, guesses: Sequence[np.ndarray],
                  cards: Sequence[Detection], more: Callable[[], bool] = lambda: True
                  ) -> list[Detection]:
        """Cards read from ``guesses`` (the splitter's, none of which read as it was) lined
        up first. The comparison is sharp: a guess 4 px off a card 60 px wide scores nothing,
        and is not worth lining up (``align_from``). Blurred, the card's face still comes out
        first; lined up with that face (ECC) from up to a quarter of the card's width away,
        the guess reads as any outline does."""
        guesses = [q for q in guesses if not any(near(q, c.corners) for c in cards)]
        if not guesses:
            return []
        points = np.concatenate(guesses)
        x, y, w, h = cv2.boundingRect(points.astype(np.float32))
        pad = int(max(quad_sides(guesses[0])) / 4)
        x0, y0 = max(0, x - pad), max(0, y - pad)
        crop = image[y0:y + h + pad, x0:x + w + pad]
        origin = np.float32([x0, y0])
        blurred = cv2.GaussianBlur(crop, (0, 0), BLUR_FOR_GUESSES * min(quad_sides(guesses[0])))
        hits: list[Detection] = []
        for quad in guesses[:MOST_LINED]:
            if not more():
                break
            if any(near(quad, d.corners) for d in hits):
                continue
            scores = self.library.index.scores(blurred, quad - origin)
            if not scores:
                continue
            aligned = self.library.index.align(image, scores[0].corners + origin,
                                               scores[0].face_number,
                                               reach=self.limits.align_reach[True])
            if aligned is None:
                continue
            hit = self.identify(image, aligned, self.limits.split_score,
                                self.limits.split_margin)
            if hit is not None and not any(overlaps(hit, c) for c in [*cards, *hits]):
                hits.append(hit)
        return hits

    def _split(self, image: np.ndarray, blob: Blob, card_long: float | None,
               known: Sequence[Detection] = (), model: np.ndarray | None = None,
               tried: list[np.ndarray] | None = None, more: Callable[[], bool] = lambda: True
               ) -> list[Detection]:
        """Cards lying against or partly over each other in one blob: try a card-sized
        rectangle from each end of every straight stretch of the blob's outline (and of the
        rectangle round it), both ways round, and keep what is clearly one card. Rows, fans
        and clusters of any shape are found this way, except a card covered at both ends.
        ``known``: cards already read in this blob. ``tried``: filled with the guesses
        tried."""
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
        tried = [] if tried is None else tried
        hits: list[Detection] = []
        for corner, du, dv, length in sides:
            if not more():
                break
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
                if any(corners_within(quad, t, reach) for t in guessed) or any(
                        near(quad, d.corners) for d in [*known, *hits]):
                    continue  # tried already, or where a card has been read
                guessed.append(quad)
                quad = snap_to_outline(quad, blob.contour)
                if any(corners_within(quad, t, reach) for t in tried):
                    continue
                tried.append(quad)
                hit = self.identify(image, quad, self.limits.split_score,
                                    self.limits.split_margin)
                if hit is not None:
                    hits.append(hit)
        if model is not None:
            hits += self._laid_like(image, blob, model, reach, guessed, tried, [*known, *hits])
        return self._under_read(image, tried, list(known) + strongest(hits, list(known))
                                )[len(known):]

    def _laid_like(self, image: np.ndarray, blob: Blob, model: np.ndarray, reach: float,
                   guessed: list[np.ndarray], tried: list[np.ndarray],
                   cards: Sequence[Detection]) -> list[Detection]:
        """The outline of a card read nearby (``model``), laid on each corner of the blob:
        the shape a card has here, perspective and all; the cards read so."""
        inside = blob.contour.reshape(-1, 1, 2)
        hits: list[Detection] = []
        for quad in laid_like(model, blob.contour, min(quad_sides(model))):
            middle = quad.mean(axis=0)
            if (cv2.pointPolygonTest(inside, (float(middle[0]), float(middle[1])), False) < 0
                    or any(corners_within(quad, t, reach) for t in guessed)
                    or any(near(quad, d.corners) for d in [*cards, *hits])):
                continue
            guessed.append(quad)
            tried.append(quad)
            hit = self.identify(image, quad, self.limits.split_score, self.limits.split_margin)
            if hit is not None:
                hits.append(hit)
        return hits

    def _under_read(self, image: np.ndarray, tried: Sequence[np.ndarray],
                    kept: list[Detection]) -> list[Detection]:
        """The cards found lie on top: the guesses tried are read again under them, what
        they hide left out; ``kept`` and what is read so."""
        if not kept:
            return kept
        for quad in tried:
            hidden_by = [k.corners for k in kept if intersect(k.corners, quad)]
            if not hidden_by:
                continue
            hit = self.identify(image, quad, self.limits.split_score, self.limits.split_margin,
                                on_top=hidden_by)
            if hit is not None and not any(overlaps(hit, k) for k in kept):
                kept.append(hit)
        return kept

    # --- fast path ---------------------------------------------------------------------
    def fits_a_face(self, quad: np.ndarray) -> bool:
        """Could this quad be an enrolled face seen at a slant? Perspective squeezes a card
        towards a square (a card seen at a slant can look square), so only a quad longer than
        any face could look is ruled out."""
        top, side = quad_sides(quad)
        elongation = max(top, side) / max(min(top, side), 1.0)
        return elongation <= self.library.index.longest_aspect * 1.45

    def identify(self, image: np.ndarray, quad: np.ndarray, min_score: float | None = None,
                 margin: float | None = None, on_top: Sequence[np.ndarray] = (),
                 outline: bool = False, least_in_view: float = 0.55, in_part: bool = False
                 ) -> Detection | None:
        """The enrolled face in one quad, or None if no face stands clear of the rest.

        ``outline``: the quad is a card's whole outline found on a small copy of the frame
        (not a guess inside a blob): on a close call, it is first put on the card's edges.

        ``on_top``: outlines (image pixels) of cards known to lie over this one; what they
        hide is left out of the comparison (and less than ``least_in_view`` of it in view is
        no read at all). ``in_part``: a card laid at a corner of a cluster, read on its part
        in view (``layers.py``): every face near the best is told apart by the print.
        """
        if on_top and share_in_view(quad, on_top) < least_in_view:
            return None
        index = self.library.index
        scores = index.scores(image, order_corners(quad), list(on_top) or None,
                              self.limits.detail)
        if not scores or scores[0].score < self.limits.align_from:
            return None
        min_score = self.limits.min_score if min_score is None else min_score
        if in_part and scores[0].score < min_score:
            return None  # a part is read at the bar, not below it: nothing to tell apart
        if in_part and len(scores) >= index.SHORTLIST and (
                scores[0].score - scores[index.SHORTLIST - 1].score < self.limits.sure_margin):
            # The part in view is alike in every face shortlisted (a colour-and-number card's
            # strip: only its small index differs): the card may be one further down. Every
            # face is scored, and the print tells them apart.
            scores = index.scores(image, order_corners(quad), list(on_top), self.limits.detail,
                                  only=[n for shape in index.classes for n in shape.face_numbers])
        below = scores[0].score < self._bar(scores[0].face_number, 0.0)
        margin = self.limits.margin if margin is None else margin
        if outline and not on_top and (gap(scores) < margin or below):
            # An outline a pixel or three off (found on a small copy) costs the best face
            # several hundredths: on the card's edges in the frame, it may stand clear.
            again = index.scores(image, order_corners(on_edges(image, quad)), None,
                                 self.limits.detail, only=[s.face_number for s in scores])
            if again and again[0].score > scores[0].score:
                scores = again
                below = scores[0].score < self._bar(scores[0].face_number, 0.0)
        on_print = (not below and scores[0].score >= self.limits.on_print
                    and gap(scores) >= margin)
        if not on_top and not on_print and (gap(scores) < self.limits.sure_margin or below):
            # A close call: line the likeliest face up with the print and compare again. An
            # outline that reads as no face may be further off (a shadow taken in): it may
            # move further.
            aligned = index.align(image, scores[0].corners, scores[0].face_number,
                                  reach=self.limits.align_reach[below])
            if aligned is not None:
                # Lined up, the card may read as a near twin of the face it was lined up
                # with that the quad as found did not shortlist (from a rough outline, the
                # nine of clubs and nothing of the spade's): those are scored too; and the
                # faces likeliest on the print lined up (a guess half a pip off, lined up
                # with the five of clubs, is the four's outline: the four scores best there).
                shortlist = [s.face_number for s in scores]
                shortlist += [n for n in index.most_alike(scores[0].face_number, ALIKE_RESCORED)
                              if n not in shortlist]
                again = index.scores(image, aligned, None, self.limits.detail,
                                     besides=shortlist, upright=True)
                if again and again[0].score > scores[0].score:
                    scores = again
        library = self.library
        scores = library.one_per_card(scores)

        def tell(first: Score, second: Score) -> tuple[float, float]:
            return library.twins.tell(image, first.corners, first.face_number,
                                      second.face_number, on_top)

        def shows_apart(first: Score, second: Score) -> bool:
            return library.twins.shows_apart(image, first.corners, first.face_number,
                                             second.face_number)

        def among(near: list[Score]) -> tuple[Score, float, float]:
            pick, lean, fit = library.twins.among(image, near[0].corners,
                                                  [s.face_number for s in near], on_top,
                                                  self.limits.part_fit,
                                                  self.limits.twin_fit,
                                                  (self.limits.inks_apart,
                                                   self.limits.ink_turn))
            return next(s for s in near if s.face_number == pick), lean, fit

        if not on_top and not in_part:
            scores = self._ink_struck(image, scores)
        if not on_top and not in_part and not on_print:
            scores = self._twin_against(scores, margin, tell, shows_apart)
        return self._decide(scores, min_score, margin, "template", tell,
                            among if in_part else None)

    def _decide(self, scores: list[Score], min_score: float, margin: float, method: str,
                tell: Callable[[Score, Score], tuple[float, float]],
                among: Callable[[list[Score]], tuple[Score, float, float]] | None = None
                ) -> Detection | None:
        """The likeliest face, if it scores well enough and stands clear of the others; a
        face within ``margin`` of it stands clear only if it is a near twin that ``tell``
        (``Twins.tell`` on this quad) sets clearly apart. ``among`` (``Twins.among`` on
        this quad) is given for a card read on its part in view: there every face near the
        best is told apart from every other at once."""
        if not scores:
            return None
        best, clear = scores[0], gap(scores)
        sure = clear / self.limits.sure_margin
        if among is not None:
            # A part of a card can look much like the same part of a look-alike (the 2 and 3
            # of clubs but for their index): every face near it is told apart by the print.
            margin = self.limits.sure_margin
        if clear < margin or (among is not None and self._twins_below(scores, margin)):
            told = (self._twins_told(scores, margin, tell) if among is None
                    else self._told_among(scores, margin, among))
            if told is None:
                return None
            best, sure = told
        # A card partly in view is as alike to its look-alikes as their parts in view are,
        # not as their whole faces: there the print's lean between them and its fit decide,
        # above ``min_score``.
        # A face clear of every other by twice the sure margin is not another deck's card
        # that looks as much like any of them (the bar's guard): it too reads above
        # ``min_score``.
        # A face left alone (its rivals struck by ink, or not on a shortlist) is clear of
        # none measured: it reads at its own bar.
        far_clear = len(scores) > 1 and clear >= 2 * self.limits.sure_margin
        bar = (min_score if among is not None or far_clear
               else self._bar(best.face_number, min_score))
        if best.score < bar:
            return None
        card = self.library.card_of(best.face_number)
        if card == NOT_A_CARD:
            return None  # the table taught that this looks like no card
        confidence = float(np.clip(sure, 0.0, 1.0))
        return Detection(card, best.corners.astype(np.float32), confidence, method, best.score)

    def _twin_against(self, scores: list[Score], margin: float,
                      tell: Callable[[Score, Score], tuple[float, float]],
                      shows_apart: Callable[[Score, Score], bool]) -> list[Score]:
        """A call not on the print: faces between ``margin`` and ``TWIN_CUT_REACH`` below the
        best. The whole faces' comparison weighs how each enrolment image was cut as much as
        the pip that tells near twins apart (a club in a lamp's shadow read as the spade, 0.1
        clear; a two of clubs as the spade, 0.158 clear).
        The first near twin of the best among them to which the print leans at all
        (``TWIN_DOUBT``), or where what sets the two apart may be clipped away
        (``shows_apart``), comes first, and ``_decide`` tells the two apart as it does twins
        within ``margin``: read as the twin if the print leans clearly to it, else left out."""
        limits = self.limits
        if len(scores) < 2 or gap(scores) < margin:
            return scores
        first = scores[0]
        for k, other in enumerate(scores[1:], start=1):
            if first.score - other.score >= TWIN_CUT_REACH:
                break
            one, two = first.face_number, other.face_number
            if (not self._near_twins(one, two) or self._colour_twins(one, two)
                    or self.library.twins.inks_apart(one, two) >= limits.inks_apart):
                continue  # not twins, or twins the grey print cannot tell (a colour's)
            lean, fit = tell(first, other)
            if fit >= limits.twin_fit and -TWIN_BEYOND <= lean <= -TWIN_DOUBT:
                return [other, *scores[:k], *scores[k + 1:]]
            if lean == 0.0 and not shows_apart(first, other):
                # Untold (``tell`` is so where it may be): where they differ, light print may
                # be clipped away, and the whole faces' gap weighs lost stripes as none. The
                # twin comes first, and the two are left out as twins untold.
                return [other, *scores[:k], *scores[k + 1:]]
        return scores

    def _ink_struck(self, image: np.ndarray, scores: list[Score]) -> list[Score]:
        """The scores less the faces printed in an ink other than the card's. Where the best
        face's print (``colour_twin_alike``) lies down to ``INK_TWIN_BELOW`` under it in inks
        ``inks_apart`` or more from its own, each face printed in one ink, the card's own ink
        (``Twins.ink_in``, its paper set to grey) is compared with theirs by its hue: the
        faces whose ink carries it ``ink_turn`` less than the closest's (``twins.hue_fit``; black
        ink none) are struck out, with every one-ink face printed in their ink; where that
        makes a close call sure, every face not struck is scored on the quad. A card
        whose print shows no colour is left as it is (a red washed out is not black). The
        whole faces' comparison weighs a thin print's colour little, and how two crops were
        cut can weigh more: a green outline scored 0.86 as its purple twin, 0.70 as itself."""
        limits, twins = self.limits, self.library.twins
        first = scores[0].face_number
        if not twins.one_ink(first):
            return scores  # a picture in many inks: its most saturated is a detail's
        inked = [s for s in scores[1:] if scores[0].score - s.score < INK_TWIN_BELOW
                 and twins.inks_apart(first, s.face_number) >= limits.inks_apart
                 and twins.one_ink(s.face_number)
                 and twins.print_alike(first, s.face_number) >= limits.colour_twin_alike]
        if not inked:
            return scores  # no print of the best's in another ink: nothing for ink to tell
        seen = hue(twins.ink_in(image, scores[0].corners, first))
        if seen is None:
            return scores
        fits = {s.face_number: hue_fit(seen, twins.ink(s.face_number))
                for s in [scores[0], *inked]}
        closest = max(fits.values())
        off = [n for n, fit in fits.items() if fit < closest - limits.ink_turn]

        def struck(face: int) -> bool:
            return twins.one_ink(face) and any(
                twins.inks_apart(face, n) < limits.inks_apart for n in off)

        kept = [s for s in scores if not struck(s.face_number)]
        if not kept or gap(kept) < limits.sure_margin or gap(scores) >= limits.sure_margin:
            return kept
        # The ink made a close call sure, but the shortlist was drawn up before the ink was
        # known: struck, it may hold too few of the card's rivals in its own ink (a red
        # card shortlisted among black faces). Every face not struck is compared on the
        # quad as the best lies: how clear the best stands is measured against them.
        listed = {s.face_number for s in kept}
        rest = [n for shape in self.library.index.classes for n in shape.face_numbers
                if n not in listed and not struck(n)]
        if rest:
            kept += self.library.index.scores(image, kept[0].corners, None, limits.detail,
                                              only=rest, upright=True)
            kept = self.library.one_per_card(sorted(kept, key=lambda s: -s.score))
        return kept

    def _near_twins(self, one: int, other: int) -> bool:
        """Are two faces near twins (``twin_likeness``), as whole faces or in their grey
        print lined up? Two crops cut otherwise make a seven of spades and of clubs only 0.77
        alike whole, 0.94 lined up."""
        library, bar = self.library, self.limits.twin_likeness
        return (library.index.likeness(one, other) >= bar
                or library.twins.print_alike(one, other) >= bar)

    def _twins_told(self, scores: list[Score], margin: float,
                    tell: Callable[[Score, Score], tuple[float, float]]
                    ) -> tuple[Score, float] | None:
        """Faces within ``margin`` of the best are near twins of it (the 5 of spades and
        of clubs: a pip's shape apart), and the print leans clearly to one of them: that
        face, and how sure (the weakest lean's share of the way from the least lean to a
        face exactly). Else None: the quad is left out."""
        limits = self.limits
        pick, leans = scores[0], []
        for other in scores[1:]:
            if scores[0].score - other.score >= margin:
                break
            if (not self._near_twins(pick.face_number, other.face_number)
                    or self.library.twins.inks_apart(pick.face_number, other.face_number)
                    >= limits.inks_apart):
                return None  # not twins, or in inks grey sets apart by their darkness
            lean, fit = tell(pick, other)
            if fit < limits.twin_fit or abs(lean) < limits.twin_lean:
                return None
            pick = pick if lean > 0 else other
            leans.append(abs(lean))
        if not leans:
            return None  # a lone face scoring under the margin: nothing read
        return pick, (min(leans) - limits.twin_lean) / (0.5 - limits.twin_lean)

    def _told_among(self, scores: list[Score], margin: float,
                    among: Callable[[list[Score]], tuple[Score, float, float]]
                    ) -> tuple[Score, float] | None:
        """A card partly in view: the faces alike in the part in view are look-alikes there,
        however much they differ where it is covered (the 2 and 3 of hearts). Every face
        within ``margin`` of the best is set against every other where the two differ; the
        face the print leans clearly to against all of them, and how sure. Else None."""
        limits = self.limits
        near = [score for score in scores if scores[0].score - score.score < margin]
        near += self._twins_below(scores, margin)
        told = self._colours_told(near)
        if told is None:
            return None
        near, colour_sure = told
        pick, lean, fit = among(near)
        if fit < limits.part_fit or lean < limits.twin_lean:
            return None
        return pick, min(colour_sure, (lean - limits.twin_lean) / (0.5 - limits.twin_lean))

    def _twins_below(self, scores: list[Score], margin: float) -> list[Score]:
        """The near twins of the best face (``_near_twins``) scoring ``margin`` to
        ``TWIN_REACH`` times it below it. A part in view is compared on an outline lined up
        with the best face's print: a twin whose enrolment image was cut otherwise (a sliver
        of table at a side) scores further below it there than the pip they differ by makes
        it (a four of diamonds 0.17 below the five, its fifth pip hidden)."""
        best = scores[0]
        return [s for s in scores[1:] if margin <= best.score - s.score < TWIN_REACH * margin
                and self._near_twins(best.face_number, s.face_number)]

    def _colours_told(self, near: list[Score]) -> tuple[list[Score], float] | None:
        """Of faces printed alike in grey (a red 8 and a green 8), the one whose colours fit
        (``near``: best first; the scores weigh the colours): it must score
        ``colour_apart`` above each such twin, else None (the colour does not tell, and
        the print cannot). The faces left, and how sure the colours were (1 if no twins)."""
        limits = self.limits
        kept: list[Score] = []
        sure = 1.0
        for score in near:
            twin = next((k for k in kept
                         if self._colour_twins(k.face_number, score.face_number)), None)
            if twin is None:
                kept.append(score)
                continue
            apart = twin.score - score.score
            if apart < limits.colour_apart:
                return None
            sure = min(sure, apart / limits.sure_margin)
        return kept, sure

    def _colour_twins(self, one: int, other: int) -> bool:
        """Are two faces one print in two colours, told apart by colour alone? Their grey
        print alike (``print_alike``), or broadly alike in colours far apart."""
        twins, limits = self.library.twins, self.limits
        alike = twins.print_alike(one, other)
        return alike >= limits.print_alike or (
            alike >= limits.colour_twin_alike
            and twins.colours_apart(one, other) >= limits.colour_twin_apart)

    def _card_aspect(self) -> float:
        """The enrolled cards' long side over their short (the first face's)."""
        aspect = self.library.aspect(0)
        return max(aspect, 1 / aspect)

    def _bar(self, face_number: int, min_score: float) -> float:
        """The least score that reads as this face: above ``min_score``, and above how alike
        the face is to its nearest enrolled neighbour (cards of one deck share a layout, so
        a card of another deck can look that much like any of them)."""
        nearest = self.library.index.nearest(face_number)
        # Near twins (likeness above twin_score) are told apart where they differ instead.
        bar = min(nearest + self.limits.beyond_nearest * (1.0 - nearest), self.limits.twin_score)
        return max(min_score, bar)

    # --- fallback ----------------------------------------------------------------------


def _on_cluster(outlines: Sequence[np.ndarray], blob: Blob) -> np.ndarray:
    """Of a card's outlines read from its index (at each corner printing it alike), the one
    lying most on the cluster its index is in (a card under others lies under them, not on
    the bare table); the first of those equally on it."""
    if len(outlines) == 1:
        return outlines[0].astype(np.float32)
    everything = np.concatenate([blob.contour.reshape(-1, 2), *outlines]).astype(np.float32)
    x0, y0 = np.floor(everything.min(axis=0)).astype(int)
    x1, y1 = np.ceil(everything.max(axis=0)).astype(int)
    cluster = np.zeros((y1 - y0 + 1, x1 - x0 + 1), np.uint8)
    cv2.fillPoly(cluster, [(blob.contour.reshape(-1, 2) - (x0, y0)).round().astype(np.int32)],
                 1)
    shares = []
    for outline in outlines:
        card = np.zeros_like(cluster)
        cv2.fillConvexPoly(card, (outline - (x0, y0)).round().astype(np.int32), 1)
        shares.append(float((card & cluster).sum()) / max(1.0, float(card.sum())))
    return outlines[int(np.argmax(np.round(shares, 2)))].astype(np.float32)


#: A card read from its index with more than this share of its outline (in the frame) on
#: bare table (``ground.py``: the table's colour, on no cluster, under no card read) is not
#: there: a card would show there. Cards read rightly lie up to 0.47 on it (an outline laid
#: from a corner is a little off, and a mounted card's dark rim looks like cloth:
#: `anima-pairs` and its retakes), those laid from another card's index 0.64-0.85.
BARE_AT_MOST = 0.6
#: A cluster with no card read on it, smaller than this share of a card as read in the
#: frame, is not searched for cards: no card shows ``LEAST_IN_VIEW`` of itself there, even
#: one seen a third smaller (further from the camera). Its index is still looked for.
SMALLEST_CLUSTER = 0.2
#: An index read this near (share of the card's short side) to one read already is the
#: same print read again: a fan's next index lies a good deal further.
SAME_PRINT = 0.05
#: A window's index read this near (share of the card's short side) to a rank and suit
#: read as another card lies on that print: the rank and suit are the better read.
ON_ITS_PRINT = 0.2
#: A card read from its index where a surer read card prints another index (within this
#: share of its short side) is that card read at two of its corners: the surer read is kept.
ONE_CARD_REACH = 0.25
#: Two cards read from their indices whose outlines lie this near (every corner within this
#: share of the short side, either way round) are one card read twice (from two clusters
#: that overlap): a fan's next card lies at least an index's width further.
ONE_PLACE_REACH = 0.1
#: An index read this near (a share of the short side) where a card read from its index
#: prints its index turned round, on an outline that is that card's, is that card again: both
#: corners of a covered six read the index 0.05 from where the other put it, while a fan's
#: next card read 0.13 from there.
TURNED_INDEX_REACH = 0.08


def _inside(corners: np.ndarray, at: np.ndarray) -> float:
    """How far ``at`` lies inside the outline ``corners``, as a share of its short side
    (below 0: outside)."""
    return cv2.pointPolygonTest(corners.reshape(-1, 1, 2).astype(np.float32),
                                (float(at[0]), float(at[1])), True) / min(quad_sides(corners))


def _index_on(card: Detection, at: np.ndarray, confidence: float) -> bool:
    """Does an index read at ``at`` with ``confidence`` lie on ``card``'s outline (read
    unsure, on its rim too: ``INDEX_ON_EDGE``)?"""
    return _inside(card.corners, at) >= -(INDEX_ON_EDGE if confidence < DISPUTED[1] else 0.0)


def _one_index_read_per_card(detections: list[Detection], both_tops: Collection[str] = ()
                             ) -> list[Detection]:
    """A card read from its index only once in a frame, where it reads best, and not where
    it is read whole: a corner is little to go on. One card read as two (at one place, or
    at two of its corners) is a misreading at one of them: the surer read stands if it is
    clearly surer (``INDEX_SURER``), else neither does: left out, never guessed."""
    whole = {d.item_id for d in detections if d.method != "index"}
    best: dict[str, Detection] = {}
    for d in detections:
        if d.method == "index" and d.item_id not in whole:
            held = best.get(d.item_id)
            if held is None or (d.confidence, d.fit) > (held.confidence, held.fit):
                best[d.item_id] = d
    kept: list[Detection] = []
    disputed: list[Detection] = []
    for d in sorted(best.values(), key=lambda d: (-d.confidence, -d.fit)):
        if any(_one_card(d, k, both_tops) for k in disputed):
            continue
        rivals = [k for k in kept if _one_card(d, k, both_tops)]
        if not rivals:
            kept.append(d)
        unsure = [k for k in rivals if k.confidence - d.confidence < INDEX_SURER]
        kept = [k for k in kept if not any(k is u for u in unsure)]
        disputed += unsure
    return [d for d in detections if d.method != "index" or any(d is k for k in kept)]


def _one_card(read: Detection, card: Detection, both_tops: Collection[str]) -> bool:
    """Is ``read`` (from an index) ``card`` (read from its index, no less sure) again: at
    one place (``ONE_PLACE_REACH``), at the index it prints turned round, or on a deck that
    prints its index at both top corners, at its other one?"""
    if same_card(read.corners, card.corners, ONE_PLACE_REACH):
        return True
    return (read.index_at is not None and card.index_at is not None
            and (_at_its_turned_index(read, card)
                 or (card.item_id in both_tops and _at_its_other_index(read.index_at, card))))


def _at_its_other_index(at: np.ndarray, card: Detection) -> bool:
    """Does ``at`` lie where ``card`` (read from its index, on a deck printing its index at
    both top corners) prints its other index? An index read there is the same card."""
    assert card.index_at is not None
    other = card.index_at + to_other_top(card.corners, card.index_at)
    return _near_print(at, other, card.corners, ONE_CARD_REACH)


def _at_its_turned_index(read: Detection, card: Detection) -> bool:
    """Is ``read`` (from an index) ``card`` (read from its index) again, read at the index
    it prints turned round at the opposite corner (most decks print one there): the two
    outlines one (``ONE_CARD_REACH``), the index there? (A covered six's two corners read
    as a six of spades and of clubs.)"""
    assert read.index_at is not None and card.index_at is not None
    turned = 2.0 * card.corners.reshape(-1, 2).mean(axis=0) - card.index_at
    return (same_card(read.corners, card.corners, ONE_CARD_REACH)
            and _near_print(read.index_at, turned, card.corners, TURNED_INDEX_REACH))


def _near_print(at: np.ndarray, other: np.ndarray, corners: np.ndarray, share: float) -> bool:
    """Do two index reads lie within ``share`` of the short side of ``corners`` (a card's
    outline) of each other?"""
    return float(np.linalg.norm(at - other)) < share * min(quad_sides(corners))


def _card_short(detections: Sequence[Detection]) -> float | None:
    """The short side of the cards read (their median, pixels), if any."""
    return (float(np.median([min(quad_sides(d.corners)) for d in detections]))
            if detections else None)


def _same_box(one: Blob, other: Blob) -> bool:
    """Are two clusters one, outlined by two cues (``SAME_BOX``)?"""
    return box_overlap(one.box, other.box) >= SAME_BOX


def _boxes_meet(corners: np.ndarray, box: tuple[int, int, int, int], grow: float) -> bool:
    """Does the box round ``corners`` meet ``box`` (x, y, w, h) grown by ``grow`` of its
    longer side?"""
    x, y, w, h = box
    pad = grow * max(w, h)
    (x0, y0), (x1, y1) = corners.min(axis=0), corners.max(axis=0)
    return bool(x0 <= x + w + pad and x1 >= x - pad and y0 <= y + h + pad and y1 >= y - pad)

