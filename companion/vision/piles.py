"""Copies of one card lying under it: the cards of a pile (a play of several cards of one
kind, fanned or laid in a row).

Once the top card of a pile is read, the copies under it are the same face: only where each
lies is unknown. The face, high-passed and posed like the top card, is turned on the table
through a range of angles (seen through the top card's perspective: a card turned at a slant
changes shape) and slid over the rest of the pile (``cv2.matchTemplate``), scored only on
what is not under the top card, so a strip of a few pixels of each copy is enough to place
it. The caller then checks each place found, topmost first, on the part of it in view.

>>> import numpy as np
>>> face = np.zeros((140, 100, 3), np.uint8)
>>> _ = cv2.putText(face, "7", (20, 110), 0, 4, (255,) * 3, 8)
>>> image = np.zeros((300, 400, 3), np.uint8)
>>> under = np.float32([[100, 80], [200, 80], [200, 220], [100, 220]])
>>> top = under + np.float32([60, 0])
>>> box = np.float32([[0, 0], [100, 0], [100, 140], [0, 140]])
>>> to_image = lambda q: cv2.getPerspectiveTransform(box, q)
>>> for quad in (under, top):
...     card = cv2.warpPerspective(face, to_image(quad), (400, 300))
...     _ = cv2.fillConvexPoly(image, quad.astype(np.int32), (0, 0, 0))
...     image = np.maximum(image, card)
>>> region = np.float32([[100, 80], [260, 80], [260, 220], [100, 220]])
>>> [bool(np.abs(q - under).max() < 3) for q, _ in copies_under(image, region, top, face)][:1]
[True]
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import NamedTuple

import cv2
import numpy as np

from companion.vision.agreement import Agreement, Fit, high_pass, turn_on_table, turned_on_table
from companion.vision.detection import (
    SAME_CARD_REACH,
    Detection,
    Thresholds,
    gap,
    intersect,
    same_card,
    share_in_view,
    share_inside,
    touches,
)
from companion.vision.library import CardLibrary
from companion.vision.quads import Blob, quad_sides, uncovered

#: The most copies of one card looked for under it.
PILE_MOST = 8
#: The work of the search, counted against the recogniser's bound per frame in face
#: comparisons (``FaceIndex.compared``; about 4 ms each here): a round of the search costs
#: about as much as this many, and this many places lined up (``Fit``) as one.
ROUND_COST = 18
FITS_PER_COMPARISON = 25
#: The search runs on a copy where the top card's long side is about this many pixels.
SEARCH_LONG = 80
#: Turns of a copy against the top card tried (degrees, on the table): fans turn 8-15° a card.
TURNS = tuple(range(-40, 41, 4))
#: Turns tried as well once those leave a card's worth of the pile uncovered: a copy of a
#: loose heap can lie up to 50° from the one over it.
WIDE_TURNS = (-52, -48, -44, 44, 48, 52)
#: Then finer turns near the best places (degrees either side), and how far they may move
#: (pixels of the search copy).
FINE_STEPS = (2.0, 1.0)
FINE_REACH = 3
#: A top card that fits its print this closely is not lined up again.
TOP_FITS = 0.9
#: A place near a loosely fitting top that fits its print, as a whole card, this much
#: better than the top is the top card itself, read off.
TOP_BETTER = 0.15
#: Places taken from the search in each round (a wrong place, part on one copy and part
#: on the next, can outscore the right one: three were too few).
ROUND_PLACES = 6
#: Places tried as a card held among copies (``PileReader._between``), bar a sliver over a
#: copy found (every place is tried as that): the search's best, as found and as lined up.
HELD_TRIED = 2
#: A copy found lies over a card read whole if, where the two overlap, its print fits this
#: much better than the card's.
OVER_BY = 0.2
#: The top card, lined up with its print, is one place within this share of its short side
#: (``same_card``'s reach is 0.15): a copy of a loose heap can lie 5 px out from under it.
TOP_REACH = 0.07
#: A card of the pile's kind read whole, not lined up, is one place within a fifth of its
#: short side (the reach places are told apart by): a copy read whole 4° off was found
#: again 10 px from it, as a copy lying over it, and counted twice.
KIND_REACH = 0.2
#: A copy found, lined up with its print, is one place within this share of its short side
#: (a card read whole, within ``same_card``'s 0.15): the lowest of a tight row of five Red
#: Lotuses lay 7 px (0.12) from the copy over it, and was passed over as that copy.
COPY_REACH = 0.1
#: A place needs this share of the card in view, and this score, to be a candidate. The
#: search leaves out a pixel round each covering card and the posed face's rim: there a
#: sliver a ninth in view shows under 0.08 of itself.
LEAST_IN_VIEW = 0.05
LEAST_SCORE = 0.35
#: The margin round the pile's box that is searched (share of the card's short side).
SEARCH_MARGIN = 0.1
#: A place lies inside the pile's outline (this share of it), and so does its part in view
#: (this share): what lies outside is table. Posed in the search's margin, a place whose
#: part in view was the table's grain past the pile's end agreed with the card 0.66.
INSIDE = 0.85
VIEW_INSIDE = 0.8


def copies_under(image: np.ndarray, region: np.ndarray, top: np.ndarray, face: np.ndarray,
                 most: int = 8, above: tuple[np.ndarray, ...] = (),
                 after: np.ndarray | None = None, turns: tuple[float, ...] = TURNS,
                 copies: int = 0) -> list[tuple[np.ndarray, float]]:
    """Places (corners in image pixels, in the face's order, and a score) where a copy of
    ``face`` could lie under the card read at ``top`` inside ``region`` (the outline of the
    pile; its box is searched with a margin, ``SEARCH_MARGIN``, and a place reaching past
    the outline is judged later, by ``_within``), best first. Places whose corners lie within
    a fifth of a card of a better one's are left out, and so are places of a card above
    (within ``same_card``'s reach of it: a copy in a loose heap can lie closer than a fifth)
    or of the top card (within ``TOP_REACH``). ``above``: cards found already, lying over the
    copies still to find (what they cover is left out, like the top card). ``after``: the
    copy found last, which the next is turned against (a fan turns a little more with each
    card; default: the top). ``turns``: the turns against it tried (degrees). ``copies``: how
    many of ``above``, the last, are copies found (one place within ``COPY_REACH``).
    """
    long_side = max(quad_sides(top))
    f = min(1.0, SEARCH_LONG / max(long_side, 1.0))
    x, y, w, h = cv2.boundingRect(region.reshape(-1, 1, 2).astype(np.float32))
    # The pile's box with a margin: a copy that spans the pile (turned across it, its
    # corners thin and blurred past the outline) still fits, posed, in what is searched.
    pad = max(2, int(round(SEARCH_MARGIN * min(quad_sides(top)))))
    x0, y0 = max(0, x - pad), max(0, y - pad)
    crop = image[y0:y + h + pad, x0:x + w + pad]
    if crop.size == 0:
        return []
    small = cv2.resize(crop, None, fx=f, fy=f, interpolation=cv2.INTER_AREA)
    grey = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY).astype(np.float32)
    origin = np.float32([x0, y0])
    to_small = lambda q: (q - origin) * f  # noqa: E731
    valid = np.zeros(grey.shape, np.float32)
    cv2.fillPoly(valid, [to_small(region).round().astype(np.int32)], 1.0)
    covered = np.zeros(grey.shape, np.uint8)
    for quad in (top, *above):
        cv2.fillConvexPoly(covered, to_small(quad).round().astype(np.int32), 255)
    # A pixel round what is covered is left out too (the covering card's edge), not two: a
    # copy showing a tenth of itself is a strip a few pixels wide.
    valid[cv2.dilate(covered, np.ones((3, 3), np.uint8)) > 0] = 0.0
    # Turned against the copy found last: a fan turns a little more with each card.
    search = _Search(high_pass(grey) * valid, valid,
                     to_small(top if after is None else after), face)
    # Every turn in coarse steps over the whole pile, then finer turns near the best places.
    found: list[tuple[float, np.ndarray]] = []
    for degrees in turns:
        found += search.peaks(degrees)
    found.sort(key=lambda item: -item[0])
    finer: list[tuple[float, np.ndarray]] = []
    # Places at the cards found already are passed over here, not only once refined: they
    # still match on the strips that the copies under them show, and would take every slot.
    small_top, small_above = to_small(top), tuple(to_small(q) for q in above)
    for value, place in _distinct(found, small_top, small_above, most * 2, copies):
        best = (value, place)
        for step in FINE_STEPS:
            best = max([best, *search.near(place, step)], key=lambda item: item[0])
        finer.append(best)
    finer.sort(key=lambda item: -item[0])
    kept = _distinct(finer, small_top, small_above, most, copies)
    return [((place / f + origin).astype(np.float32), value) for value, place in kept]


class _Search:
    """The masked correlation of the posed face with the pile, one turn at a time."""

    def __init__(self, picture: np.ndarray, valid: np.ndarray, top: np.ndarray,
                 face: np.ndarray) -> None:
        self.picture, self.valid, self.top = picture, valid, top
        self.energy = picture * picture
        self.card = tuple(max(2, int(round(v))) for v in quad_sides(top))
        grey = cv2.cvtColor(cv2.resize(face, self.card, interpolation=cv2.INTER_AREA),
                            cv2.COLOR_BGR2GRAY).astype(np.float32)
        self.face = high_pass(grey)
        self.aspect = face.shape[0] / face.shape[1]
        self.turns: dict[float, tuple | None] = {}

    def _posed(self, degrees: float) -> tuple | None:
        """The face turned by ``degrees`` against the top card: corners (in the template's
        frame), template, mask; None if it does not fit in the pile's box."""
        if degrees not in self.turns:
            w, h = self.card
            corners = turned_on_table(self.top, degrees, self.aspect)
            lo = np.floor(corners.min(axis=0))
            size = tuple(int(v) + 1 for v in np.ceil(corners.max(axis=0) - lo))
            if size[0] >= self.picture.shape[1] or size[1] >= self.picture.shape[0]:
                self.turns[degrees] = None
            else:
                box = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
                posed = cv2.getPerspectiveTransform(box, corners - lo)
                template = cv2.warpPerspective(self.face, posed, size, flags=cv2.INTER_LINEAR)
                mask = cv2.warpPerspective(np.ones((h, w), np.float32), posed, size,
                                           flags=cv2.INTER_NEAREST)
                mask = cv2.erode(mask, np.ones((3, 3), np.uint8))
                self.turns[degrees] = (None if mask.sum() < 10 else
                                       (corners - lo, template * mask, mask))
        return self.turns[degrees]

    def _scores(self, posed: tuple, box: tuple[int, int, int, int] | None = None
                ) -> np.ndarray:
        _, template, mask = posed
        picture, valid, energy = self.picture, self.valid, self.energy
        if box is not None:
            x, y, w, h = box
            picture, valid, energy = (a[y:y + h, x:x + w] for a in (picture, valid, energy))
        both = cv2.matchTemplate(picture, template, cv2.TM_CCORR)
        of_template = cv2.matchTemplate(valid, template * template, cv2.TM_CCORR)
        of_picture = cv2.matchTemplate(energy, mask, cv2.TM_CCORR)
        in_view = cv2.matchTemplate(valid, mask, cv2.TM_CCORR) / float(mask.sum())
        score = both / np.sqrt(np.maximum(of_template * of_picture, 1e-6))
        score[in_view < LEAST_IN_VIEW] = -1.0
        return score

    def peaks(self, degrees: float) -> list[tuple[float, np.ndarray]]:
        posed = self._posed(degrees)
        if posed is None:
            return []
        score = self._scores(posed)
        peaks = (score >= cv2.dilate(score, np.ones((5, 5), np.uint8))) & (score >= LEAST_SCORE)
        return [(float(score[py, px]), posed[0] + np.float32([px, py]))
                for py, px in zip(*np.nonzero(peaks), strict=True)]

    def near(self, place: np.ndarray, step: float) -> list[tuple[float, np.ndarray]]:
        """The best place within a few pixels of ``place`` at the turns ``step`` degrees
        either side of it."""
        now = turn_on_table(place, self.top, self.aspect)
        out = []
        for degrees in (now - step, now + step):
            posed = self._posed(round(degrees, 1))
            if posed is None:
                continue
            corners, template, _ = posed
            shift = place.mean(axis=0) - corners.mean(axis=0)
            x = int(round(shift[0])) - FINE_REACH
            y = int(round(shift[1])) - FINE_REACH
            th, tw = template.shape
            box = (max(0, x), max(0, y), tw + 2 * FINE_REACH, th + 2 * FINE_REACH)
            if (box[0] + box[2] > self.picture.shape[1]
                    or box[1] + box[3] > self.picture.shape[0]):
                continue
            score = self._scores(posed, box)
            py, px = np.unravel_index(int(score.argmax()), score.shape)
            if score[py, px] > -1.0:
                out.append((float(score[py, px]),
                            corners + np.float32([box[0] + px, box[1] + py])))
        return out


#: A top card's outline shorter than the face's proportions by more than this share may
#: have lost a strip at one end (a dark title band taken for the table: read 10 px short, it
#: was lined up in place and hid the wrong part of the copies). Seen at a slant a card's
#: proportions change by a few percent too: the outline lengthened is only one more place
#: to line the top up from, and the best fit wins.
SHORT_BY = 0.04


def _lengthened(quad: np.ndarray, aspect: float) -> list[np.ndarray]:
    """``quad`` (corners in the face's order) lengthened to the face's proportions
    (``aspect``: height per width) at either end of its short dimension; none if its
    proportions are the face's already."""
    width, height = quad_sides(quad)
    down = ((quad[3] - quad[0]) + (quad[2] - quad[1])) / 2  # top edge -> bottom edge
    across = ((quad[1] - quad[0]) + (quad[2] - quad[3])) / 2  # left edge -> right edge
    if height < (1 - SHORT_BY) * aspect * width:
        grow, ends = down * (aspect * width / height - 1), ((0, 1), (3, 2))
    elif width < (1 - SHORT_BY) * height / aspect:
        grow, ends = across * (height / aspect / width - 1), ((0, 3), (1, 2))
    else:
        return []
    near_end, far_end = quad.copy(), quad.copy()
    near_end[list(ends[0])] -= grow
    far_end[list(ends[1])] += grow
    return [near_end.astype(np.float32), far_end.astype(np.float32)]


def _distinct(found: list[tuple[float, np.ndarray]], top: np.ndarray,
              above: tuple[np.ndarray, ...], most: int, copies: int = 0
              ) -> list[tuple[float, np.ndarray]]:
    """The best places, each apart from the top card, the cards above (the last ``copies``
    of them copies found) and the better ones (a fanned copy's centre can lie close to the
    top card's: places are told apart by their corners)."""
    short = min(quad_sides(top))
    reach = short / 5
    # A card read is one place (``same_card``'s reach), the top card and the copies found,
    # lined up with their print, closer ones (``TOP_REACH``, ``COPY_REACH``): a copy of a
    # loose heap can lie closer to the card over it than a fifth of a card.
    reaches = [(SAME_CARD_REACH if at < len(above) - copies else COPY_REACH) * short
               for at in range(len(above))]
    kept: list[tuple[float, np.ndarray]] = []
    for value, place in found:
        if (_apart(place, top) < TOP_REACH * short
                or any(_apart(place, q) < r for q, r in zip(above, reaches, strict=True))
                or any(_apart(place, k) < reach for _, k in kept)):
            continue
        kept.append((value, place))
        if len(kept) == most:
            break
    return kept


def _apart(a: np.ndarray, b: np.ndarray) -> float:
    """How far apart two outlines lie: their farthest pair of matching corners."""
    return float(np.linalg.norm(a - b, axis=1).max())


class PileReader:
    """Copies of the cards read in a blob, lying under them (see the module docstring)."""

    def __init__(self, library: CardLibrary, limits: Thresholds) -> None:
        self.library = library
        self.limits = limits
        self._strips: Agreement | None = None

    def _agreement(self) -> Agreement:
        if self._strips is None or self._strips.faces is not self.library.faces:
            self._strips = Agreement(self.library.faces)
        return self._strips

    def copies(self, image: np.ndarray, blob: Blob, top: Detection,
               read: Sequence[Detection], more: Callable[[], bool] = lambda: True
               ) -> list[Detection]:
        """Copies of ``top`` lying under it in the blob (a pile of one card), one a round: of
        the places the search finds, the one whose part in view agrees best with the card is
        the copy next under the ones found (it shows all of what they leave uncovered)."""
        return _CopySearch(self, image, blob, top, read).run(more)

    def _verdict(self, image: np.ndarray, outline: np.ndarray, place: np.ndarray,
                 on_top: list[np.ndarray], face_number: int, by_index: bool = True
                 ) -> tuple[float, float]:
        """(value, how clear): how well the part in view of a place agrees with the pile's
        card, 0 if it is not clearly that card (or too little of it shows). ``by_index``: the
        face index's word may be enough."""
        limits = self.limits
        in_view = share_in_view(place, on_top)
        if in_view < 0.1 or not _within(place, outline, on_top):
            return 0.0, 0.0
        # Which card it is, is known: the part in view must agree with it, clearly more than
        # with any other face (by the face index's comparison, or by the colour of that part
        # alone: a thin strip). The copy next under shows all of its part in view, so it
        # agrees best of the places.
        agree = self._agreement()(image, place, on_top)
        rest = np.delete(agree, face_number)
        clear = agree[face_number] - (rest.max() if rest.size else -1.0)
        value = float(agree[face_number]) if (
            (agree[face_number] >= limits.copy_score and clear >= limits.copy_margin)
            or (agree[face_number] >= limits.copy_close_score
                and clear >= limits.copy_close_margin)) else 0.0
        # Another face close behind (a strip of the layout two creatures share): told apart
        # where the two differ, as near twins read whole are (``twins.py``). A strip agreeing
        # less closely must show more of itself: a sliver of a copy found, a few pixels off,
        # agrees as well and leans the same way.
        least = (limits.copy_told_score if in_view >= limits.copy_told_view
                 else limits.copy_close_score)
        if not value and agree[face_number] >= least and rest.size and clear > 0:
            other = int(np.argmax(rest))
            other += other >= face_number
            if self._told(image, place, on_top, face_number, other):
                value, clear = float(agree[face_number]), limits.copy_close_margin
        scores = (self.library.one_per_card(
            self.library.index.scores(image, place, on_top, limits.detail)) if by_index else [])
        if (scores and self.library.card_of(scores[0].face_number) == self.library.ids[face_number]
                and scores[0].score >= limits.copy_index_score
                and gap(scores) >= limits.copy_margin
                and agree[face_number] >= limits.copy_index_agree):
            value = max(value, scores[0].score)
            clear = max(clear, gap(scores))
        return value, float(clear)

    def _between(self, image: np.ndarray, outline: np.ndarray, face_number: int,
                 on_top: list[np.ndarray], searched: dict[tuple, float],
                 places: dict[tuple, np.ndarray], fit: Fit, hits: list[Detection],
                 fits: dict[int, Fit]) -> _Held | None:
        """A place no round took that lies among the copies: a sliver lying over a copy
        found (where the two overlap, its print shows, not the copy's: a sliver just under
        the top card, which a strip's own comparison cannot tell from another face); or,
        where the search matched the posed face closely (``held_search``), a sliver under
        them all whose strip agrees closely with the pile's card and as well as with any
        face (``sliver_agree``: the frame every face shares), or a strip agreeing with the
        pile's card as well as with any face (a strip of the layout two faces share) that,
        taken to lie on top, leaves a place under it clearly a copy. A card among
        copies of a pile, looking like them, is one: just over the copy it lies over, else
        under them all, with no confidence; None if there is none."""
        limits = self.limits
        by_search = sorted(places, key=lambda key: -searched.get(key[0], 0.0))
        # A sliver over a copy found is told where the two overlap, however well the search
        # matched it: just under the top card, it was judged first under no copy, where its
        # frame agreed with other faces as well, and then under the copies found below it.
        for key in by_search:
            place = places[key]
            least = (limits.copy_score if searched.get(key[0], 0.0) >= limits.held_search
                     else limits.sliver_fit)
            for at, hit in enumerate(hits):
                # A sliver only: a strip a fifth of the card or more is told by its own
                # comparison (a place showing a third of itself, a card away from every copy,
                # lay over one where its print fitted 0.78).
                hiding = _covering(on_top, hits, at)
                if (intersect(hit.corners, place, 0.0)
                        and 0.1 <= share_in_view(place, hiding) < limits.copy_told_view
                        and _within(place, outline, hiding)
                        and self._lies_over(image, outline, fit, place, hit, hiding, fits,
                                            limits.sliver_over, least)):
                    return _Held(place, at, 0.0)
        held = [key for key in by_search if searched.get(key[0], 0.0) >= limits.held_search]
        for key in held[:HELD_TRIED]:
            place = places[key]
            in_view = share_in_view(place, on_top)
            if in_view < 0.1 or not _within(place, outline, on_top):
                continue
            agree = self._agreement()(image, place, on_top)
            rest = np.delete(agree, face_number)
            best_other = float(rest.max()) if rest.size else -1.0
            if (in_view < limits.copy_told_view and agree[face_number] >= limits.sliver_agree
                    and agree[face_number] >= best_other - limits.sliver_tie):
                # A sliver under the copies found that agrees closely with the pile's card,
                # as well as with any face: its frame, which every face shares.
                return _Held(place, len(hits), 0.0, lowest=True)
            if agree[face_number] < limits.copy_told_score or agree[face_number] < best_other:
                continue
            for other, below in places.items():
                if (other[0] == key[0] or same_card(below, place)
                        or not intersect(below, place, 0.0)):
                    continue
                if self._verdict(image, outline, below, [*on_top, place], face_number)[0] > 0:
                    return _Held(place, len(hits), 0.0)
        return None

    def _over_copy(self, image: np.ndarray, outline: np.ndarray, face_number: int,
                   on_top: list[np.ndarray], places: dict[tuple, np.ndarray], fit: Fit,
                   hits: list[Detection], fits: dict[int, Fit]
                   ) -> _Held | None:
        """A copy found after one it lies over: a round takes the place showing the most of
        itself, and a copy in a loose heap can show less than one under it. Judged as if
        under that copy, part of its own print is taken for covered, and what is left may
        not tell it. A place whose print shows where it overlaps a copy found (``_lies_over``)
        is judged again as lying just over it, by its own comparison, with a fifth of it or
        more in view (a sliver is ``_between``'s); None if there is none."""
        limits = self.limits
        for place in places.values():
            for at, hit in enumerate(hits):
                hiding = _covering(on_top, hits, at)
                if (not intersect(hit.corners, place, 0.0)
                        or share_in_view(place, hiding) < limits.copy_told_view
                        or not self._lies_over(image, outline, fit, place, hit, hiding, fits)):
                    continue
                value, clear = self._verdict(image, outline, place, hiding, face_number)
                if value > 0:
                    return _Held(place, at, self._sure(clear))
                # Judged once, just over the topmost copy it lies over.
                break
        return None

    def _sure(self, clear: float) -> float:
        """A copy's confidence: how clearly its part in view is the pile's card."""
        return float(np.clip(clear / self.limits.sure_margin, 0.0, 1.0))

    def _lies_over(self, image: np.ndarray, outline: np.ndarray, fit: Fit, place: np.ndarray,
                   card: Detection, on_top: list[np.ndarray], fits: dict[int, Fit],
                   by: float = OVER_BY, least: float = -1.0) -> bool:
        """Does a copy at ``place`` lie over ``card``? Where the two overlap, the copy's
        print fits ``by`` better than the card's, and at least ``least`` (``fit``: the pile's
        face; ``fits``: the cards' faces, posed once each)."""
        hidden = [q for q in on_top if q is not card.corners]
        if id(card) not in fits:
            face = self.library.faces[self.library.ids.index(card.item_id)]
            fits[id(card)] = Fit(image, face, outline, max(quad_sides(card.corners)))
        copy_fit = fit(place, hidden, within=card.corners)
        card_fit = fits[id(card)](card.corners, hidden, within=place)
        # (-1: too little of the overlap in view to tell.)
        return card_fit > -1.0 and copy_fit > max(card_fit + by, least)

    def _told(self, image: np.ndarray, place: np.ndarray, on_top: list[np.ndarray],
              face_number: int, other: int) -> bool:
        """Is the part in view of ``place`` clearly face ``face_number`` rather than
        ``other``, the face it agrees with nearly as well? Two faces need not be alike as a
        whole to be twins in a strip: the part in view is compared where the two differ, and
        must lean as far to ``face_number`` as a near twin read whole (``twin_lean``); a
        strip, mostly edge, need not fit as closely (``copy_twin_fit``). Where the two faces'
        colours differ there, a strip whose detail leans to neither is told by its colour, and
        a strip of the other's colour is refused however its detail leans."""
        limits = self.limits
        twins = self.library.twins
        lean, fit = twins.tell(image, place, face_number, other, on_top)
        if fit < limits.copy_twin_fit or lean <= -limits.twin_lean:
            return False
        # Their colours there, as the top card (face ``face_number`` under this light) shows:
        # where the two differ in colour, a strip of the other's colour is not a copy, and a strip
        # alike in detail (the same layout, a few pixels of it) is told by its colour.
        shade, apart = twins.colour_lean(image, place, face_number, other, on_top, on_top[0])
        if apart >= limits.copy_colour_apart:
            if shade <= -limits.copy_colour_lean:
                return False
            if lean < limits.twin_lean:
                return shade >= limits.copy_colour_lean
        return lean >= limits.twin_lean


class _CopySearch:
    """One search for the copies under a pile's top card (``PileReader.copies``): what it has
    found and ruled on so far, round after round."""

    def __init__(self, reader: PileReader, image: np.ndarray, blob: Blob, top: Detection,
                 read: Sequence[Detection]) -> None:
        self.reader, self.image, self.blob = reader, image, blob
        self.face_number = reader.library.ids.index(top.item_id)
        self.face = reader.library.faces[self.face_number]
        # Cards read whole lie over whatever they overlap, until a copy found shows over one
        # (a play laid on an earlier one, or on a card beside it).
        self.over = [d for d in read if d is not top and touches(d.corners, blob)]
        # The top card is lined up below: it is one place within ``TOP_REACH`` of where it
        # lies then; cards of its kind read whole, within ``KIND_REACH``.
        self.elsewhere = [d for d in read if d is not top]
        self.kind = [d for d in self.elsewhere if d.item_id == top.item_id]
        others = [d.corners for d in self.over]
        # The pile's outline with the cards read in it taken in whole, its narrow gaps closed
        # and its holes filled: a card the colour of the table stands out by its border only,
        # and the blob can leave out what lies inside it.
        self.sides = quad_sides(top.corners)
        self.outline = closed(blob.contour, min(self.sides) / 4, [top.corners, *others])
        self.fit = Fit(image, self.face, self.outline, max(self.sides))
        self.top, self.now = self._lined_up_top(top, others)
        self.hits: list[Detection] = []
        # Places found in one round come back in the next: each is refined once, and kept
        # with the search's own place (lining up can slide a copy in a tight row onto its
        # neighbour's print). A place's verdict holds until a copy found covers part of it.
        self.places: dict[tuple, np.ndarray] = {}
        # Cards read whole that a copy found lies over, and their faces posed for comparing.
        self.beneath: list[Detection] = []
        self.card_fits: dict[int, Fit] = {}
        self.verdicts: dict[tuple, tuple[float, float]] = {}
        # How well each place's part in view matched the posed face in the search.
        self.searched: dict[tuple, float] = {}
        # Slivers held as the lowest copy on their strip alone (``_between``).
        self.lowest: list[Detection] = []
        self.wide = False
        self.charged = 0

    def _lined_up_top(self, top: Detection, others: list[np.ndarray]
                      ) -> tuple[Detection, float]:
        """The top card and how well it fits its print. Its outline, read from a guess inside
        the blob, can be several pixels off: lined up with its print, it hides what it hides,
        and poses the copies right. (A top that fits its print closely already is left as it
        is.)"""
        now = self.fit(top.corners, others)
        if now < TOP_FITS:
            starts = [top.corners,
                      *_lengthened(top.corners, self.face.shape[0] / self.face.shape[1])]
            lined, placed = max((self.fit.best_near(start, others, stretch=True)
                                 for start in starts), key=lambda found: found[0])
            if lined > now:
                return replace(top, corners=placed.astype(np.float32)), lined
        return top, now

    def taken(self, place: np.ndarray) -> bool:
        """Is ``place`` a card read or a copy found (within its reach)?"""
        return (same_card(place, self.top.corners, TOP_REACH)
                or any(same_card(place, d.corners, KIND_REACH) for d in self.kind)
                or any(same_card(place, d.corners) for d in self.elsewhere)
                or any(same_card(place, d.corners, COPY_REACH) for d in self.hits))

    def under_pile(self, place: np.ndarray) -> bool:
        """Does ``place`` lie under the top card or a copy found? One clear of them all may
        be another card of this kind in the blob, but not one taken on the face index's
        word alone (a strip of a card under a pile beside this one was)."""
        return any(intersect(q, place, 0.0)
                   for q in [self.top.corners, *(h.corners for h in self.hits)])

    def charge(self, rounds: int = 0) -> None:
        """Count the rounds and the fits done so far into the frame's bound of work."""
        fits = self.fit.compared - self.charged
        self.reader.library.index.compared += (rounds * ROUND_COST
                                               + fits // FITS_PER_COMPARISON)
        self.charged += fits // FITS_PER_COMPARISON * FITS_PER_COMPARISON

    def run(self, more: Callable[[], bool]) -> list[Detection]:
        """The copies found, round after round, while ``more()`` says there is work left."""
        while len(self.hits) < PILE_MOST and more():
            self.charge(1)
            # The copy next under the ones found shows all of what they leave uncovered of
            # it: it is the best place of each round.
            on_top = [self.top.corners, *(d.corners for d in self.over),
                      *(h.corners for h in self.hits)]
            self._gather(on_top)
            best = self._best(on_top)
            if best is None:
                # A card of this kind read whole (the lowest copy of a row, showing the most
                # of itself) may lie under copies still to find, though none found so far
                # shows over it: it is taken to lie under the pile, as below.
                under = [card for card in self.over if card.item_id == self.top.item_id]
                if not under:
                    if self._hold(on_top):
                        break
                    continue
            else:
                if self._top_instead(best[1]):
                    continue
                under = self._take(best, on_top)
            self._settle(under)
        return _lowest_kept(self.hits, self.lowest)

    def _gather(self, on_top: list[np.ndarray]) -> None:
        """The places this round's search finds, each lined up with the print once."""
        for place, score in copies_under(self.image, self.outline, self.top.corners, self.face,
                                         ROUND_PLACES, tuple(on_top[1:]),
                                         self.hits[-1].corners if self.hits else None,
                                         TURNS + WIDE_TURNS if self.wide else TURNS,
                                         len(self.hits)):
            if self.taken(place):
                continue
            key = tuple(np.round(place / 2).astype(int).reshape(-1))
            if (key, "lined") not in self.places:
                self.places[key, "lined"] = self.fit.best_near(place, on_top)[1]
                self.places[key, "found"] = place
                self.searched[key] = score

    def _best(self, on_top: list[np.ndarray]) -> tuple[float, np.ndarray, float] | None:
        """The place that reads best as the copy next under (its value, place, how clear).
        Every place found so far is tried: one passed over in an earlier round may have
        shown, then, a part that a copy found since turns out to cover."""
        reader = self.reader
        best: tuple[float, np.ndarray, float] | None = None
        for key, place in self.places.items():
            if self.taken(place):
                continue
            if key not in self.verdicts:
                # A card found to lie under the pile still hides a place, unless the place's
                # print shows over it, as a copy found did.
                hiding = [card.corners for card in self.beneath
                          if intersect(card.corners, place, 0.0) and not reader._lies_over(
                              self.image, self.outline, self.fit, place, card, on_top,
                              self.card_fits)]
                self.verdicts[key] = reader._verdict(self.image, self.outline, place,
                                                     [*on_top, *hiding], self.face_number,
                                                     by_index=self.under_pile(place))
            value, clear = self.verdicts[key]
            if value > 0 and (best is None or value > best[0]):
                best = (value, place, clear)
        return best

    def _hold(self, on_top: list[np.ndarray]) -> bool:
        """No place reads as the next copy: one held by how it lies (over a copy, or
        between two), else the wide turns searched next. True: the search is over."""
        if self.wide:
            # What the wide turns offer counts by its own comparison only.
            return True
        reader = self.reader
        left = {key: place for key, place in self.places.items()
                if not self.taken(place) and self.under_pile(place)}
        held = (reader._over_copy(self.image, self.outline, self.face_number, on_top, left,
                                  self.fit, self.hits, self.card_fits)
                or reader._between(self.image, self.outline, self.face_number, on_top,
                                   self.searched, left, self.fit, self.hits, self.card_fits))
        if held is None:
            if uncovered(self.blob, [*on_top, *(c.corners for c in self.beneath)]) is None:
                return True
            # A card's worth of the pile uncovered yet: a copy may lie turned further than a
            # fan turns. Searched that wide from the first round, the wide turns invented
            # copies; a place they offered, held on its strip as the lowest copy, was a
            # sixth of five.
            self.wide = True
            return False
        self.hits.insert(held.at, Detection(self.top.item_id, held.place, held.confidence,
                                            "template"))
        if held.lowest:
            self.lowest.append(self.hits[held.at])
        self.verdicts = {key: verdict for key, verdict in self.verdicts.items()
                         if not intersect(self.places[key], held.place, 0.0)}
        return False

    def _top_instead(self, place: np.ndarray) -> bool:
        """A place this close to a top that fits its print loosely may be the top card
        itself, read off (lining up from the outline read can stall a few pixels short):
        lined up as a whole card, it fits clearly better than the top, which a copy lying
        under the top, covered in part, cannot. It is the top from here on (True)."""
        if self.now >= TOP_FITS or _apart(place, self.top.corners) >= min(self.sides) / 3:
            return False
        as_top, placed = self.fit.best_near(place, [d.corners for d in self.over],
                                            stretch=True)
        if as_top <= self.now + TOP_BETTER:
            return False
        self.top, self.now = replace(self.top, corners=placed.astype(np.float32)), as_top
        self.places, self.verdicts = {}, {}
        return True

    def _take(self, best: tuple[float, np.ndarray, float], on_top: list[np.ndarray]
              ) -> list[Detection]:
        """The best place is the next copy; the cards read whole it lies over (its print
        shows where it overlaps them: a card of another kind, or the lowest copy read
        whole)."""
        _, place, clear = best
        self.hits.append(Detection(self.top.item_id, place, self.reader._sure(clear),
                                   "template"))
        return [card for card in self.over
                if intersect(card.corners, place, 0.0) and self.reader._lies_over(
                    self.image, self.outline, self.fit, place, card, on_top, self.card_fits)]

    def _settle(self, under: list[Detection]) -> None:
        """After a round: cards found to lie under the pile hide a place only where the
        place's print does not show over them, and every place is looked at again; else the
        verdicts the last copy found covers are taken again."""
        if under:
            self.over = [d for d in self.over if not any(d is u for u in under)]
            self.beneath += under
            self.verdicts = {}
        else:
            self.verdicts = {key: verdict for key, verdict in self.verdicts.items()
                             if not intersect(self.places[key], self.hits[-1].corners, 0.0)}


class _Held(NamedTuple):
    """A place no round took, held to be a copy (``PileReader._between``, ``_over_copy``)."""

    place: np.ndarray
    #: Where it lies among the copies found, topmost first.
    at: int
    confidence: float
    #: Held as the lowest copy on its own strip (``_lowest_kept``).
    lowest: bool = False


def _within(place: np.ndarray, outline: np.ndarray, on_top: list[np.ndarray]) -> bool:
    """Do ``place`` and its part in view (``on_top`` covering the rest) lie inside the pile's
    ``outline`` (``INSIDE``, ``VIEW_INSIDE``)?"""
    return (share_inside(place, outline) >= INSIDE
            and share_inside(place, outline, on_top) >= VIEW_INSIDE)


def _covering(on_top: list[np.ndarray], hits: list[Detection], at: int
              ) -> list[np.ndarray]:
    """What lies over ``hits[at]`` (``on_top``: the cards over every copy, the top card and
    cards of other kinds read whole, then ``hits``' outlines, topmost first)."""
    return on_top[:len(on_top) - len(hits)] + [h.corners for h in hits[:at]]


def _lowest_kept(hits: list[Detection], lowest: list[Detection]) -> list[Detection]:
    """``hits`` (topmost first) less the slivers held as the lowest copy (``lowest``) that a
    copy found afterwards lies under: such a sliver was not the lowest, but a strip of that
    copy slid along its length."""
    return [hit for at, hit in enumerate(hits)
            if not (any(hit is held for held in lowest)
                    and any(intersect(hit.corners, under.corners, 0.0) for under in hits[at + 1:]))]


def closed(contour: np.ndarray, gap: float, cards: Sequence[np.ndarray] = ()) -> np.ndarray:
    """``contour`` (image pixels), with the outlines of ``cards`` read in it added, gaps
    narrower than ``gap`` closed and holes filled."""
    k = max(3, int(round(gap)) | 1)
    points = np.concatenate([contour.reshape(-1, 2), *(q.reshape(-1, 2) for q in cards)])
    x, y, w, h = cv2.boundingRect(points.astype(np.float32))
    origin = np.float32([x - k, y - k])
    mask = np.zeros((h + 2 * k, w + 2 * k), np.uint8)
    cv2.fillPoly(mask, [(contour - origin).round().astype(np.int32)], 255)
    for quad in cards:
        cv2.fillConvexPoly(mask, (quad - origin).round().astype(np.int32), 255)
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE,
                            cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    found, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not found:
        return contour
    return max(found, key=cv2.contourArea).reshape(-1, 2).astype(np.float32) + origin
