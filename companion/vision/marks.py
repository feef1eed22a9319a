"""Cards read from the two marks of their corner index: a rank printed over a suit. Where a
card shows no more than its corner (a fanned hand, a card under others) a person reads it from
those two marks, whichever way the card is turned; so does this reader.

The line from the rank's ink to the suit's is the card's way down, and its length the card's
size: each pair of marks the frame shows that could be a rank over a suit is turned upright
and brought to one size by those two points alone, then compared with every index of the
deck brought there the same way. The rank and the suit are compared each on its own
(normalised correlation inside the outline of the mark as printed, so what lies round it,
another card's edge or its body's print, does not count): a pair reads as the card whose rank
*and* suit both fit, and stands clear of every other card's by what the two differ in (the
suit of a rank printed over four suits, the rank of one suit); a pair no index fits so is
compared again with its rank a tenth larger and smaller (a few pixels high, a blot's centre
lies a pixel off). Nothing is asked of the card's edges, so cards fanned in an arc, each
turned its own way, read as well as a straight row.

What a deck's index looks like is learnt from its enrolled faces (the small print at a
corner, as ``indices.py`` finds it, split at its widest empty row into the rank above and
the suit below); a deck whose corners print no such pair (SET, UNO) gives no marks, nor one
where only a few faces seem to (an UNO 8's two loops split like a rank over a suit): a deck
prints its index on every card.

>>> MarkReader([]).read(np.zeros((120, 160, 3), np.uint8))
[]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from companion.vision.indices import (
    CORNER,
    SHARED,
    IndexHit,
    index_box,
    ink_colour,
    paper_and_ink,
)

#: A card's index at another corner fitting within this of the best may be the one seen
#: (``IndexHit.others``: a deck printing its index at all four corners).
ALIKE = 0.1
#: The rank-to-suit distance (pixels) the marks are compared at: first coarsely, every pair
#: the frame shows, then finely, the pairs that came near some index.
COARSE, FINE = 12.0, 32.0
#: Pairs whose rank and suit both fit some index this well at the coarse size are compared
#: finely.
COARSE_LEAST = 0.6
#: A mark's outline is grown by this share of the rank-to-suit distance before comparing (a
#: seven and a nine differ inside the outline of either).
GROW = 0.15
#: A card is read where its rank and suit both fit its index this well (normalised
#: correlation), and where what it differs in from every other card's index fits it this
#: much better.
LEAST_SCORE = 0.78
LEAST_MARGIN = 0.05
#: Two indices whose ranks' prints correlate this well are one rank; whose suits' prints
#: correlate this well are look-alike suits (a club and a spade: 0.89-0.96 on the real fans'
#: deck; a heart and a diamond 0.72-0.77). Between those, a suit's lean (+0.5: exactly one
#: suit, 0: halfway) counts as this many times a lead.
SAME_RANK = 0.9
SUITS_ALIKE = 0.85
LEAN_TO_LEAD = 0.6
#: Only where the suit lies this far from its rank or further (frame pixels): nearer, both
#: suits blur into one blot and the lean is noise (cards 70 px wide read clubs as spades).
LEAN_FROM = 12.0
#: The print is found where it is this much darker than the mean round it (8-bit grey), in
#: a neighbourhood of this share of the frame's long side.
INK_STEP = 20
NEIGHBOURHOOD = 1 / 40
#: A rank and its suit lie within these bounds of what the deck prints (shares of the
#: deck's least and most: a mark's size over the rank-to-suit distance).
SIZE_SLACK = (0.6, 2.2)
#: Index colours this near (Lab chroma less the paper's) are one of the deck's inks; an
#: index seen this much nearer one ink than any other is of that ink alone.
INK_GROUP = 25.0
INK_EITHER = 1.3
#: Where cards are read in the frame, an index is looked for at these shares of their size
#: (a card under others lies further from the camera at a slant, or nearer on a pile).
CARD_SIZES = (0.6, 1.4)
#: At most this many pairs are compared finely in one frame (the likeliest first).
MOST_FINE = 1500
#: A pair no index fits is compared again with its rank at these sizes (shares of what the
#: line to its suit gives): where an index is a few pixels high, a blot's centre lies a pixel
#: off, and the rank seen is a tenth larger or smaller than the line makes it. A card read so
#: must stand this clear of every other (the freedom lets some other print fit too: the
#: fans photographed 800 px wide give two cards invented at 0.1, none at 0.2, which loses
#: five of the real fans as taken).
RANK_SCALES = (0.9, 1.1)
RESCUE_MARGIN = 0.1
#: Two reads whose index centres lie nearer than this share of the card's width are of one
#: place: the better is kept.
PLACE = 0.1
#: A deck reads by marks only if at least this share of its faces print a rank over a suit
#: (a standard deck, a Schnapsen deck: all of them). Found on a few faces only, the pair is
#: some other print, and a card read from it would be compared with none of its colour (an
#: UNO deck's red 8 alone: a covered blue 8 read surely as the red).
MARKED_DECK = 0.5


@dataclass(frozen=True)
class _Index:
    """One index of an enrolled face: its rank's and suit's ink centres (face pixels), their
    heights as shares of the distance between them, and the index's ink alone (face-sized)."""

    face_number: int
    rank: np.ndarray
    suit: np.ndarray
    rank_height: float
    suit_height: float
    ink: np.ndarray
    share: float  # the rank-to-suit distance as a share of the face's short side


class _Size:
    """The deck's indices brought to one rank-to-suit distance: each index's grey print,
    and for its rank and its suit, the outline compared within and the print there
    (zero-mean, unit length inside it)."""

    def __init__(self, faces: Sequence[np.ndarray], indices: Sequence[_Index], distance: float
                 ) -> None:
        self.distance = distance
        self.window = (int(round(1.6 * distance)), int(round(2.3 * distance)))
        self.rank_at = (self.window[0] / 2, 0.65 * distance)
        self.suit_at = (self.rank_at[0], self.rank_at[1] + distance)
        grow = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (max(1, int(GROW * distance)) | 1,) * 2)
        prints, outlines, self.to_size, colours = [], [], [], []
        middle = int(self.rank_at[1] + distance / 2)
        for index in indices:
            face = faces[index.face_number]
            matrix = similarity(index.rank, index.suit, self.rank_at, self.suit_at)
            scale = float(np.hypot(matrix[0, 0], matrix[1, 0]))
            source = cv2.GaussianBlur(face, (0, 0), 0.5 / scale) if scale < 0.7 else face
            patch = cv2.warpAffine(source, matrix, self.window, flags=cv2.INTER_AREA,
                                   borderMode=cv2.BORDER_REPLICATE)
            prints.append(cv2.GaussianBlur(cv2.cvtColor(patch, cv2.COLOR_BGR2GRAY), (0, 0),
                                           BLUR).astype(np.float32))
            ink = cv2.warpAffine(index.ink.astype(np.float32), matrix, self.window,
                                 flags=cv2.INTER_LINEAR) > 0.2
            pair = []
            for upper in (True, False):
                part = np.zeros(self.window[::-1], np.uint8)
                rows = slice(0, middle) if upper else slice(middle, None)
                part[rows] = ink[rows]
                outline = np.zeros_like(part)
                points = cv2.findNonZero(part)
                if points is not None:
                    cv2.fillConvexPoly(outline, cv2.convexHull(points), 1)
                pair.append(cv2.dilate(outline, grow).astype(np.float32).reshape(-1))
            outlines.append(pair)
            # The index's colour, from its own print (not the art or pips round it).
            inside = (pair[0] + pair[1]).reshape(self.window[::-1]) > 0
            colours.append(ink_colour(cv2.cvtColor(patch, cv2.COLOR_BGR2LAB)[inside],
                                      any_light=True))
            self.to_size.append(matrix)
        self.colours = np.array(colours, np.float32).reshape(-1, 2)
        flat = np.array(prints, np.float32).reshape(len(prints), -1)
        self.parts = []
        for which in (0, 1):
            masks = np.array([o[which] for o in outlines], np.float32).reshape(len(flat), -1)
            count = np.maximum(masks.sum(axis=1), 1.0)
            rows = (flat - (flat * masks).sum(axis=1, keepdims=True) / count[:, None]) * masks
            rows /= np.linalg.norm(rows, axis=1, keepdims=True) + 1e-6
            self.parts.append((masks, rows, count))
        self._flat = flat
        self._alike: dict[int, tuple[np.ndarray, np.ndarray]] = {}

    def alike_to(self, index: int) -> tuple[np.ndarray, np.ndarray]:
        """How alike index ``index``'s rank, and its suit, are printed to every index's
        (correlations inside both outlines): worked out when first asked, then kept."""
        if index not in self._alike:
            ranks, suits = (_alike(self._flat, masks, index) for masks, _, _ in self.parts)
            self._alike[index] = (ranks, suits)
        return self._alike[index]

    def inside(self, index: int) -> np.ndarray:
        """Where an index's rank and suit are compared (its outlines), as a window mask."""
        return (self.parts[0][0][index] + self.parts[1][0][index]).reshape(
            self.window[::-1]) > 0

    def patches(self, blurred: np.ndarray, ranks: np.ndarray, suits: np.ndarray,
                scale: float = 1.0) -> tuple[np.ndarray, list[np.ndarray]]:
        """The frame's print at each pair (rank and suit centres, frame pixels) brought to
        this size (times ``scale`` about the rank), one row each, and the matrices that
        brought them."""
        suit_at = (self.suit_at[0], self.rank_at[1] + scale * (self.suit_at[1] - self.rank_at[1]))
        matrices = [similarity(r, s, self.rank_at, suit_at)
                    for r, s in zip(ranks, suits, strict=True)]
        rows = np.array([cv2.warpAffine(blurred, m, self.window, flags=cv2.INTER_LINEAR,
                                        borderMode=cv2.BORDER_REPLICATE) for m in matrices],
                        np.float32).reshape(len(matrices), -1)
        return rows, matrices

    def scores(self, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """How well each row's rank and suit fit each index's (normalised correlation inside
        the index's outlines; 0 where the row is bare there)."""
        both = []
        for masks, prints, count in self.parts:
            sums = rows @ masks.T
            spread = np.maximum(((rows * rows) @ masks.T) - sums * sums / count, 1e-3)
            fit = (rows @ prints.T) / np.sqrt(spread)
            fit[spread < 16.0 * count] = 0.0  # no print: bare paper or table
            both.append(fit)
        return both[0], both[1]


#: The blur both the deck's and the frame's print are compared after (pixels at each size).
BLUR = 0.8


def _alike(flat: np.ndarray, masks: np.ndarray, index: int) -> np.ndarray:
    """How alike index ``index``'s mark is to every index's: the correlation of their prints
    (``flat``, one row each) inside both their outlines (``masks``)."""
    both = np.maximum(masks[index], masks)
    count = np.maximum(both.sum(axis=1, keepdims=True), 1.0)
    one = flat[index] * both
    one -= one.sum(axis=1, keepdims=True) / count * both
    others = flat * both
    others -= others.sum(axis=1, keepdims=True) / count * both
    return (one * others).sum(axis=1) / (
        np.linalg.norm(one, axis=1) * np.linalg.norm(others, axis=1) + 1e-6)


def similarity(rank: np.ndarray, suit: np.ndarray, rank_to: Sequence[float],
               suit_to: Sequence[float]) -> np.ndarray:
    """The turn, scale and shift (2x3) that bring ``rank`` to ``rank_to`` and ``suit`` to
    ``suit_to``."""
    a, b = complex(float(rank[0]), float(rank[1])), complex(float(suit[0]), float(suit[1]))
    a_to, b_to = complex(*rank_to), complex(*suit_to)
    turn = (b_to - a_to) / (b - a) if b != a else 1.0
    shift = a_to - turn * a
    return np.float32([[turn.real, -turn.imag, shift.real], [turn.imag, turn.real, shift.imag]])


def _split_row(ink: np.ndarray) -> int | None:
    """The middle of the widest run of empty rows between an index's first and last print
    (between its rank and its suit), or None."""
    rows = ink.any(axis=1)
    inked = np.nonzero(rows)[0]
    if len(inked) < 4:
        return None
    best, at, run = 0, None, 0
    for y in range(int(inked[0]), int(inked[-1]) + 1):
        run = 0 if rows[y] else run + 1
        if run > best:
            best, at = run, y - run // 2
    return at


def _parts_of(patch: np.ndarray, box: tuple[int, int, int, int]
              ) -> tuple[tuple[int, int, int, int], tuple[int, int, int, int]] | None:
    """An index's rank box and suit box (patch pixels) from the box round both: split at
    the widest empty row between them."""
    bx0, by0, bx1, by1 = box
    split = _split_row(patch[by0:by1, bx0:bx1])
    if split is None:
        return None
    return (bx0, by0, bx1, by0 + split), (bx0, by0 + split, bx1, by1)


def _index_at(face_number: int, turned: np.ndarray, turn: int, x0: int,
              parts: tuple[tuple[int, int, int, int], tuple[int, int, int, int]]
              ) -> _Index | None:
    """The index whose rank and suit lie in ``parts`` (boxes in the corner patch at ``x0``
    of the face turned ``turn`` quarter turns), in the face's own pixels; None where either
    box holds too little print."""
    height, width = turned.shape
    centres, heights = [], []
    alone = np.zeros_like(turned)
    for px0, py0, px1, py1 in parts:
        own = turned[py0:py1, x0 + px0:x0 + px1]
        ys, xs = np.nonzero(own)
        if len(ys) < 4:
            return None
        centres.append(np.float32([xs.mean() + px0 + x0, ys.mean() + py0]))
        heights.append(float(np.ptp(ys) + 1))
        alone[py0:py1, x0 + px0:x0 + px1] = own
    rank, suit = centres
    distance = float(np.linalg.norm(suit - rank))
    if distance < 2:
        return None
    if turn == 2:
        rank = np.float32([width - 1, height - 1]) - rank
        suit = np.float32([width - 1, height - 1]) - suit
        alone = np.ascontiguousarray(np.rot90(alone, 2))
    return _Index(face_number, rank, suit, heights[0] / distance, heights[1] / distance, alone,
                  distance / min(height, width))


def deck_indices(faces: Sequence[np.ndarray]) -> list[_Index]:
    """Every rank-over-suit index printed upright at a top corner of a face, either way up.
    Where most faces print one at a corner and a face's own is not made out there (its suit
    joined to a frame line, say), the face's print at the deck's usual place of the rank and
    the suit is its index: a card with no index of its own would be read as its look-alike."""
    inks = [paper_and_ink(face) for face in faces]
    places: dict[tuple[int, str], dict[int, tuple]] = {}
    for face_number, ink in enumerate(inks):
        for turn in (0, 2):
            turned = np.ascontiguousarray(np.rot90(ink, -turn))
            height, width = turned.shape
            pw, ph = int(round(CORNER * width)), int(round(CORNER * height))
            for anchor in ("tl", "tr"):
                x0 = 0 if anchor == "tl" else width - pw
                box = index_box(turned[:ph, x0:x0 + pw], anchor, max(height, width))
                parts = None if box is None else _parts_of(turned[:ph, x0:x0 + pw], box)
                if parts is not None:
                    places.setdefault((turn, anchor), {})[face_number] = parts
    found = []
    for (turn, anchor), made_out in places.items():
        usual = None
        if len(made_out) >= max(SHARED[0], SHARED[1] * len(faces)):
            # The usual boxes, as shares of the patch (faces differ a little in size).
            usual = np.median([np.float32(parts).reshape(-1) / np.tile(
                _patch_size(inks[number], turn), 4) for number, parts in made_out.items()],
                axis=0)
        for face_number, ink in enumerate(inks):
            turned = np.ascontiguousarray(np.rot90(ink, -turn))
            pw, ph = _patch_size(ink, turn)
            x0 = 0 if anchor == "tl" else turned.shape[1] - pw
            parts = made_out.get(face_number)
            if parts is None and usual is not None:
                boxes = np.round(usual * np.tile([pw, ph], 4)).astype(int).reshape(2, 4)
                parts = (tuple(boxes[0]), tuple(boxes[1]))
            index = None if parts is None else _index_at(face_number, turned, turn, x0, parts)
            if index is not None:
                found.append(index)
    return found


def _patch_size(ink: np.ndarray, turn: int) -> tuple[int, int]:
    """The corner patch's size (w, h) on a face's ink turned ``turn`` quarter turns."""
    height, width = ink.shape[::-1] if turn % 2 else ink.shape
    return int(round(CORNER * width)), int(round(CORNER * height))


def _near(points: np.ndarray, reach: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Every (i, j), i != j, with point j within ``reach[i]`` of point i."""
    firsts, seconds = [], []
    for start in range(0, len(points), 512):
        block = points[start:start + 512]
        apart = np.hypot(block[:, None, 0] - points[None, :, 0],
                         block[:, None, 1] - points[None, :, 1])
        near = apart <= reach[start:start + 512, None]
        near[np.arange(len(block)), np.arange(start, start + len(block))] = False
        i, j = np.nonzero(near)
        firsts.append(i + start)
        seconds.append(j)
    if not firsts:
        return np.zeros(0, np.intp), np.zeros(0, np.intp)
    return np.concatenate(firsts), np.concatenate(seconds)


@dataclass(frozen=True)
class _Marks:
    """The frame's marks: single blots of print and pairs of like blots side by side (a
    "10"), each by its blots' labels (second -1 for one), ink centre and size (pixels)."""

    first: np.ndarray
    second: np.ndarray
    centre: np.ndarray
    size: np.ndarray


def _frame_marks(grey: np.ndarray, long_side: int) -> _Marks:
    """The marks of a frame's part (``long_side``: the whole frame's, which sizes the
    neighbourhood print is told from paper in: a part reads as the whole frame would)."""
    block = max(15, int(long_side * NEIGHBOURHOOD) | 1)
    ink = cv2.adaptiveThreshold(grey, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY_INV,
                                block, INK_STEP)
    _, _, stats, centres = cv2.connectedComponentsWithStats(ink)
    sizes = np.maximum(stats[:, 2], stats[:, 3]).astype(np.float32)
    areas = stats[:, 4].astype(np.float32)
    blots = np.nonzero((areas >= 10) & (sizes >= 5) & (sizes <= long_side / 12))[0]
    blots = blots[blots > 0]
    at, size = centres[blots].astype(np.float32), sizes[blots]
    i, j = _near(at, 1.1 * size)
    apart = np.hypot(*(at[i] - at[j]).T)
    ratio = size[i] / np.maximum(size[j], 1.0)
    side_by_side = (i < j) & (apart < 1.1 * np.maximum(size[i], size[j])) & (ratio > 0.6) & (
        ratio < 1.67)
    i, j = i[side_by_side], j[side_by_side]
    first = np.concatenate([blots, blots[i]])
    second = np.concatenate([np.full(len(blots), -1), blots[j]])
    area_1 = areas[first]
    area_2 = np.where(second >= 0, areas[np.maximum(second, 0)], 0.0)
    centre = ((centres[first] * area_1[:, None] + centres[np.maximum(second, 0)]
               * area_2[:, None]) / (area_1 + area_2)[:, None]).astype(np.float32)
    size = np.maximum(sizes[first], np.where(second >= 0, sizes[np.maximum(second, 0)], 0.0))
    return _Marks(first, second, centre, size)


class _Inks:
    """The colours a deck prints its indices in (red and black, or four), as groups of its
    indices' ink colours: an index seen is compared with those of its colour's group, and of
    a second group nearly as near (a faded red under a warm light lies between red and
    black)."""

    def __init__(self, colours: np.ndarray) -> None:
        # Single linkage: colours within INK_GROUP of any colour of a group join it.
        self.group = np.arange(len(colours))
        apart = np.linalg.norm(colours[:, None] - colours[None], axis=2)
        for a, b in zip(*np.nonzero(apart <= INK_GROUP), strict=True):
            ga, gb = self.group[a], self.group[b]
            if ga != gb:
                self.group[self.group == gb] = ga
        _, self.group = np.unique(self.group, return_inverse=True)
        self.centres = np.array([colours[self.group == k].mean(axis=0)
                                 for k in range(int(self.group.max()) + 1)],
                                np.float32).reshape(-1, 2)

    def like(self, ink: np.ndarray) -> np.ndarray:
        """Which indices may be the one whose ink is of colour ``ink``."""
        apart = np.linalg.norm(self.centres - ink, axis=1)
        groups = np.nonzero(apart <= INK_EITHER * apart.min())[0]
        return np.isin(self.group, groups)


class MarkReader:
    """The deck's rank-over-suit indices (see the module), and reading cards from them."""

    def __init__(self, faces: Sequence[np.ndarray]) -> None:
        self.faces = list(faces)
        self.indices = deck_indices(self.faces)
        if len({index.face_number for index in self.indices}) < MARKED_DECK * len(self.faces):
            self.indices = []  # no rank-over-suit deck: its few pairs are other print
        self.face_numbers = np.array([index.face_number for index in self.indices], np.intp)
        if self.indices:
            ranks = np.array([index.rank_height for index in self.indices])
            suits = np.array([index.suit_height for index in self.indices])
            self.rank_height = (float(ranks.min()), float(ranks.max()))
            shares = [index.share for index in self.indices]
            self.share = (float(min(shares)), float(max(shares)))
            self.suit_height = (float(suits.min()), float(suits.max()))
            self.coarse = _Size(self.faces, self.indices, COARSE)
            self.fine = _Size(self.faces, self.indices, FINE)
            self.inks = _Inks(self.fine.colours)

    def read(self, image: np.ndarray, box: tuple[int, int, int, int] | None = None,
             card_short: float | None = None,
             besides: Sequence[tuple[int, int, int, int]] = ()) -> list[IndexHit]:
        """The cards whose rank and suit show in ``image`` (BGR; within ``box``, x, y, w,
        h, if given; not in the boxes ``besides``): best first, each card once.
        ``card_short``: the short side of the cards read in the frame, if any (pixels): an
        index is looked for at about their size only (``CARD_SIZES`` of it)."""
        if not self.indices:
            return []
        x, y, w, h = box if box is not None else (0, 0, image.shape[1], image.shape[0])
        x, y = max(0, x), max(0, y)
        crop = image[y:y + h, x:x + w]
        if min(crop.shape[:2]) < 16:
            return []
        grey = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY)
        apart = (0.0, np.inf) if card_short is None else (
            card_short * self.share[0] * CARD_SIZES[0], card_short * self.share[1] * CARD_SIZES[1])
        ranks, suits = self._pairs(_frame_marks(grey, max(image.shape[:2])), apart)
        for bx, by, bw, bh in besides:
            inside = ((ranks[:, 0] >= bx - x) & (ranks[:, 0] <= bx - x + bw)
                      & (ranks[:, 1] >= by - y) & (ranks[:, 1] <= by - y + bh))
            ranks, suits = ranks[~inside], suits[~inside]
        if not len(ranks):
            return []
        blurred = cv2.GaussianBlur(grey, (0, 0), BLUR)
        rows, _ = self.coarse.patches(blurred, ranks, suits)
        rank_fit, suit_fit = self.coarse.scores(rows)
        likely = np.minimum(rank_fit, suit_fit).max(axis=1)
        keep = np.argsort(-likely)[:MOST_FINE]
        keep = keep[likely[keep] >= COARSE_LEAST]
        if not len(keep):
            return []
        rows, matrices = self.fine.patches(blurred, ranks[keep], suits[keep])
        rank_fit, suit_fit = self.fine.scores(rows)
        lab = cv2.cvtColor(crop, cv2.COLOR_BGR2LAB)
        found = [self._hit(rank_fit[k], suit_fit[k], matrices[k], lab) for k in range(len(keep))]
        missed = np.array([k for k, hit in enumerate(found) if hit is None], np.intp)
        for scale in RANK_SCALES if len(missed) else ():
            rescaled = self.fine.scores(self.fine.patches(
                blurred, ranks[keep[missed]], suits[keep[missed]], scale)[0])[0]
            for row, k in enumerate(missed):
                hit = self._hit(rescaled[row], suit_fit[k], matrices[k], lab)
                if hit is not None and hit.margin >= RESCUE_MARGIN and (
                        found[k] is None or hit.score > found[k].score):
                    found[k] = hit
        hits = [hit for hit in found if hit is not None]
        shift = np.float32([x, y])
        return _once([hit.moved(shift=shift) for hit in hits])

    def _pairs(self, marks: _Marks, within: tuple[float, float]
               ) -> tuple[np.ndarray, np.ndarray]:
        """The centres of every pair of marks that could be a rank over its suit: their
        sizes as the deck prints them for the distance between them (itself ``within``
        these bounds), two different marks."""
        least_rank = self.rank_height[0] * SIZE_SLACK[0]
        most_rank = self.rank_height[1] * SIZE_SLACK[1]
        rank, suit = _near(marks.centre, np.minimum(marks.size / least_rank, within[1]))
        apart = np.hypot(*(marks.centre[suit] - marks.centre[rank]).T)
        fits = (apart >= max(4.0, within[0])) & (marks.size[rank] >= least_rank * apart) & (
            marks.size[rank] <= most_rank * apart)
        fits &= (marks.size[suit] >= self.suit_height[0] * SIZE_SLACK[0] * apart) & (
            marks.size[suit] <= self.suit_height[1] * SIZE_SLACK[1] * apart)
        first, second = marks.first, marks.second
        fits &= (first[rank] != first[suit]) & (first[rank] != second[suit])
        fits &= (second[rank] < 0) | ((second[rank] != first[suit])
                                      & (second[rank] != second[suit]))
        return marks.centre[rank[fits]], marks.centre[suit[fits]]

    def _hit(self, rank_fit: np.ndarray, suit_fit: np.ndarray, matrix: np.ndarray,
             lab: np.ndarray) -> IndexHit | None:
        """The card a pair reads as, if its rank and suit both fit and it stands clear of
        every other card's index (only indices printed in the colour it shows compared)."""
        score = (rank_fit + suit_fit) / 2
        score[np.minimum(rank_fit, suit_fit) < LEAST_SCORE] = -1.0
        if score.max() < LEAST_SCORE:
            return None
        inside = self.fine.inside(int(np.argmax(score)))
        ink = ink_colour(cv2.warpAffine(lab, matrix, self.fine.window, flags=cv2.INTER_LINEAR,
                                         borderMode=cv2.BORDER_REPLICATE)[inside],
                         any_light=True)
        colour = self.inks.like(ink)
        score[~colour] = -1.0
        best = int(np.argmax(score))
        if score[best] < LEAST_SCORE:
            return None
        others = (self.face_numbers != self.face_numbers[best]) & colour
        # Against each other card, what the two differ in: the better of the rank's and the
        # suit's lead (a card of the same rank is told by its suit alone).
        # A club and a spade a few pixels high print almost alike: their suits' fits stay a
        # few hundredths apart however clear the print. Between two indices of one rank whose
        # suits are that alike, the suit's lead is taken as the share of the way from one
        # suit's print to the other's (its lead over the most it could be: the two prints'
        # distance), as near twins are told apart (``twins.py``).
        suit_lead = suit_fit[best] - suit_fit[others]
        apart = FINE / float(np.hypot(matrix[0, 0], matrix[1, 0]))  # rank to suit, frame px
        if apart >= LEAN_FROM and others.any():
            ranks_alike, suits_alike = (row[others] for row in self.fine.alike_to(best))
            lean = suit_lead / (2.0 * np.maximum(1.0 - suits_alike, 1e-3))
            twin_suits = (ranks_alike >= SAME_RANK) & (suits_alike >= SUITS_ALIKE)
            suit_lead = np.where(twin_suits, LEAN_TO_LEAD * lean, suit_lead)
        margin = float(np.min(np.maximum(rank_fit[best] - rank_fit[others], suit_lead))) \
            if others.any() else 1.0
        if margin < LEAST_MARGIN:
            return None
        fh, fw = self.faces[int(self.face_numbers[best])].shape[:2]
        outline = np.float32([[0, 0], [fw, 0], [fw, fh], [0, fh]])

        def card(index: int) -> np.ndarray:
            face_to_frame = np.linalg.inv(np.vstack([matrix, [0, 0, 1]])) @ np.vstack(
                [self.fine.to_size[index], [0, 0, 1]])
            return (outline @ face_to_frame[:2, :2].T + face_to_frame[:2, 2]).astype(np.float32)
        alike = np.nonzero((self.face_numbers == self.face_numbers[best])
                           & (score >= score[best] - ALIKE) & (np.arange(len(score)) != best))[0]
        back = cv2.invertAffineTransform(matrix)
        middle = np.float32([self.fine.rank_at[0], self.fine.rank_at[1] + FINE / 2, 1.0])
        return IndexHit(int(self.face_numbers[best]), card(best), float(score[best]), margin,
                        (back @ middle).astype(np.float32),
                        tuple(card(int(index)) for index in alike))


def _once(hits: list[IndexHit]) -> list[IndexHit]:
    """The best read of each card and of each place (one index read twice, at its pair and
    at a pair beside it, is one read)."""
    kept: list[IndexHit] = []
    for hit in sorted(hits, key=lambda h: -h.score):
        reach = PLACE * float(np.linalg.norm(hit.corners[1] - hit.corners[0]))
        if any(k.face_number == hit.face_number or np.linalg.norm(hit.at - k.at) < reach
               for k in kept):
            continue
        kept.append(hit)
    return kept
