"""Telling near twins apart: two faces alike but for a detail (the 5 of spades and the 5 of
clubs: the pips' shape; the 7 and the 8 of clubs: one pip; one creature at two values).

The comparison of whole faces (``faces.py``) is coarse on purpose, so twins score within a
few hundredths of each other there. Here the two faces are compared where they differ, in
finer detail: the twin is first lined up with the likelier face (so that what differs is
the print, not how each photo was cropped), and the quad's print is placed on the line
between the two: +0.5 is the first face exactly, -0.5 the second, 0 halfway.

>>> import cv2
>>> card = np.full((140, 100, 3), 255, np.uint8)
>>> _ = cv2.rectangle(card, (6, 6), (93, 133), (0, 0, 160), 2)
>>> _ = cv2.putText(card, "K", (10, 30), 0, 0.8, (0, 0, 0), 2)
>>> five, six = card.copy(), card.copy()
>>> _ = cv2.putText(five, "5", (35, 90), 0, 1.5, (0, 0, 0), 4)
>>> _ = cv2.putText(six, "6", (35, 90), 0, 1.5, (0, 0, 0), 4)
>>> twins = Twins([five, six])
>>> quad = np.float32([[0, 0], [100, 0], [100, 140], [0, 140]])
>>> lean, fit = twins.tell(five, quad, 0, 1)
>>> lean > 0.4, fit > 0.9
(True, True)
>>> twins.tell(six, quad, 0, 1)[0] < -0.4
True
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

import cv2
import numpy as np

from companion.vision.agreement import high_pass
from companion.vision.faces import (
    in_view,
    moved_corners,
    pattern_mask,
    sample,
    unit,
    widened,
)
from companion.vision.quads import quad_sides

#: The finer grid the twins are compared on: twice the coarse one, where a pip's shape shows.
DETAIL_LONG = 268
#: A face is lined up with a look-alike turned round only if it fits this much better so
#: (ECC's correlation): a colour-and-number deck's faces enrolled either way up fit 0.15-0.4
#: better the right way; a standard deck's fit within 0.02 either way.
TURNED_BETTER = 0.1
#: A face's look-alike is also compared with a card turned round where its print fits the
#: face within this as well so as the way it is lined up (``Twins.tell``).
TURN_AS_ALIKE = 0.0
#: A pixel whose channel shares lie this far from a grey's is coloured (``colours_apart``).
COLOURED = 30.0
#: Two faces' colours are compared only where both are coloured, if that is at least this
#: share of the card.
BOTH_COLOURED = 0.05
#: The light across a photographed face (a lamp's fall-off, a vignette) changes over this
#: share of the detail grid's length or more: a face is lined up with its look-alike turned
#: round only if its print finer than that fits better so too (a nearly blank ace was lined
#: up turned round by its light, and read as its twin).
LIGHT_SCALE = 0.06
#: Grid length two faces' grey print is compared on by ``Twins.print_alike``.
ALIKE_LONG = 96
#: A part in view is lined up with a face on detail between these scales (grid cells): the
#: print's strokes, not the light across the card.
PART_DETAIL = (1.0, 8.0)
#: The farthest a corner of a part in view may move when lined up, as a share of its width.
PART_REACH = 0.15
#: Pairs kept high-passed (the twins a table has met lately).
PATTERNS_KEPT = 8
#: Faces kept high-passed on their own, for ``among`` (the look-alikes a table has met lately).
DETAILS_KEPT = 64
#: The least share of where two faces differ that must be in view for the print to lean
#: either way: below it, what differs is covered.
LEAST_APART_IN_VIEW = 0.02
#: ``tell`` compares the print again this many times coarser; a lean there this strong
#: the other way makes the twins untold.
COARSE = 4
COARSE_DISSENT = 0.15
#: A pixel this light in every channel is clipped (an overexposed photo, a glare spot). Light
#: print (``LIGHT_PRINT`` of its face's paper, its grey's ``INK_PAPER`` percentile, or lighter) may
#: have been lost there, and where the picture is ``FAINT`` or lighter ``CLIPPED_REACH``
#: image pixels round it (a thin stripe's core pressed up against clipped paper: its
#: pattern no longer shows); dark print does not clip. Where less than ``SHOWN_APART`` of where
#: two faces differ is seen so, the print does not tell them apart.
CLIPPED = 250
FAINT = 235
CLIPPED_REACH = 2.0
LIGHT_PRINT = 0.5
SHOWN_APART = 0.5
#: The coarse grid colours are compared on: a strip shows its colour long before its detail.
COLOUR_LONG = 34
#: Cells left out at each side of that grid (the white border and the rounded corners).
COLOUR_INSET = 2
#: A face's ink is the colour of its most saturated print (``ink_of``): the median channel
#: shares of this top share of its pixels, on a grid this long with this many cells left
#: out at each side, the paper (this percentile of each channel) set to grey first. A thin
#: stripe shows its colour there; black ink is grey.
INK_SHARE = 0.01
#: A face printed in one ink: its ink, and that of every pixel at least ``INK_HALF`` as
#: saturated, lie within ``ONE_INK`` (a SET card's within 20, a pip card's 4-24; a court
#: card's 29-111, a coloured field with a red detail's up to 215).
INK_HALF = 0.5
ONE_INK = 30.0
INK_LONG = 96
INK_INSET = 4
INK_PAPER = 90
#: An ink whose channel shares lie less than this from a grey's has no hue (0-255 scale).
INK_GREY = 30.0


def _blurred(picture: np.ndarray) -> np.ndarray:
    return cv2.GaussianBlur(picture.astype(np.float32), (0, 0), 1.0)


def on_grid(warp: np.ndarray, found_on: tuple[int, int], size: tuple[int, int]
            ) -> np.ndarray:
    """An affine move found on a grid of ``found_on`` (width, height; ``WARP_INVERSE_MAP``,
    pixel centres at integers) as the same move on a grid of ``size``: a turn moves about
    the grid's middle, so the shift is not merely scaled."""
    scale = np.float32([size[0] / found_on[0], size[1] / found_on[1]])
    centre = (scale - 1.0) / 2.0  # where a pixel centre of the first grid lands
    moved = warp.astype(np.float32).copy()
    moved[:, :2] = warp[:, :2] * scale[:, None] / scale[None, :]
    moved[:, 2] = scale * warp[:, 2] + centre - moved[:, :2] @ centre
    return moved


def _saturation(shares: np.ndarray) -> np.ndarray:
    """How far each pixel's channel shares (``_chroma``) lie from a grey's."""
    return np.linalg.norm(shares - shares.mean(axis=-1, keepdims=True), axis=-1)


def ink_of(picture: np.ndarray, broad: bool = False) -> np.ndarray:
    """The colour of a card's most saturated print, as channel shares (0-255 scale): the
    median of the top ``INK_SHARE`` of its pixels by saturation (``broad``: of every pixel
    at least ``INK_HALF`` as saturated as those), on a grid ``INK_LONG`` long
    less ``INK_INSET`` cells at each side, after the paper (each channel's ``INK_PAPER``
    percentile) is set to grey: a room's cast or a crop's tint is not the ink's. A purple
    stripe's purple, a red pip's red, a black pip's grey.

    >>> card = np.full((90, 60, 3), (200, 230, 220), np.uint8)  # paper under a green cast
    >>> card[30:60, 20:40] = (120, 40, 110)  # a purple shape
    >>> [int(v) for v in ink_of(card)]
    [108, 31, 90]
    """
    picture = np.asarray(picture).astype(np.float32)
    height, width = picture.shape[:2]
    small = cv2.resize(picture, (max(2 * INK_INSET + 2, INK_LONG * width // height), INK_LONG),
                       interpolation=cv2.INTER_AREA)[INK_INSET:-INK_INSET, INK_INSET:-INK_INSET]
    paper = np.percentile(small.reshape(-1, 3), INK_PAPER, axis=0) + 1.0
    shares = _chroma(small * (paper.mean() / paper)).reshape(-1, 3)
    saturation = _saturation(shares)
    most = float(np.quantile(saturation, 1.0 - INK_SHARE))
    return np.median(shares[saturation >= (INK_HALF * most if broad else most)], axis=0)


def hue(ink: np.ndarray) -> np.ndarray | None:
    """An ink's hue: its channel shares less their grey, as a unit vector; None for an ink
    too near grey (``INK_GREY``) to have one (black, or a colour washed out)."""
    offset = ink - ink.mean()
    length = float(np.linalg.norm(offset))
    return offset / length if length >= INK_GREY else None


def hue_fit(seen: np.ndarray, ink: np.ndarray) -> float:
    """How well an ink carries the hue ``seen`` (``hue``): the cosine of their hues, scaled
    down for an ink nearer grey than ``INK_GREY`` (black ink carries no hue)."""
    offset = ink - ink.mean()
    return float(seen @ offset) / max(float(np.linalg.norm(offset)), INK_GREY)


def _chroma(colour: np.ndarray) -> np.ndarray:
    """Each pixel's share of each channel (0-255 scale): a shadow or a dimmer light changes
    a colour's brightness, not its shares. Dark pixels are damped, their shares are noise."""
    return colour * (255.0 / (colour.sum(axis=2, keepdims=True) + 30.0))


def _high(grey: np.ndarray, scale: float = 1.0) -> np.ndarray:
    """Detail of a grey grid between 1 and 6 cells (times ``scale``: a card seen smaller than
    the grid has no finer detail), inset (rounded corners and table out)."""
    return pattern_mask(high_pass(grey, (scale, 6.0 * scale)))


def _fits(view: np.ndarray, visible: np.ndarray, faces: Sequence[np.ndarray]) -> list[float]:
    """Each face's correlation with the view over the part in view."""
    at = unit(view, visible)
    return [float(at @ unit(face, visible)) for face in faces]


def _lean_where_apart(view: np.ndarray, visible: np.ndarray, one: np.ndarray, other: np.ndarray
                      ) -> float:
    """Where the view lies between face ``one`` (+0.5) and ``other`` (-0.5), compared where
    the two differ: the part in view weighted by their difference, spread a little (a print
    a pixel or two off still meets it). Both faces are weighed alike."""
    apart = cv2.GaussianBlur(((one - other) ** 2).reshape(view.shape), (0, 0), 1.5)
    if float((visible * apart).sum()) < LEAST_APART_IN_VIEW * float(apart.sum()):
        return 0.0  # they differ where the card is covered: nothing in view tells them apart
    weight = visible * np.sqrt(apart / max(float(apart.max()), 1e-6))
    a, b, at = unit(one, weight), unit(other, weight), unit(view, weight)
    return float(at @ a - at @ b) / (2.0 * max(1.0 - float(a @ b), 1e-6))


class _PairPatterns(NamedTuple):
    """Two faces' detail for ``Twins.tell``: on the detail grid (``shape``, h x w) and
    ``COARSE`` times coarser (``coarse``, w x h)."""

    one: np.ndarray
    other: np.ndarray
    shape: tuple[int, int]
    one_coarse: np.ndarray
    other_coarse: np.ndarray
    coarse: tuple[int, int]
    #: The second face lined up the other way round (None: no such move found).
    other_turned: np.ndarray | None
    other_turned_coarse: np.ndarray | None


def _kept(kept: OrderedDict, key: tuple, make: Callable[[], Any], most: int) -> Any:
    """``kept[key]``, made by ``make`` if it is not kept; the last ``most`` asked for are
    kept (a table meets a few look-alikes at a time)."""
    if key in kept:
        kept.move_to_end(key)
    else:
        kept[key] = make()
        if len(kept) > most:
            kept.popitem(last=False)
    return kept[key]


def _detail_scale(corners: np.ndarray) -> float:
    """Detail grid cells per image pixel of a card seen so (at least 1): a card seen smaller
    than the grid is compared at the detail its picture has (in quarter steps, so that the
    faces' patterns can be kept)."""
    return max(1.0, round(4 * DETAIL_LONG / max(max(quad_sides(corners)), 1.0)) / 4)


def _lost(colour: np.ndarray, scale: float) -> np.ndarray | None:
    """Where a picture of a card (on a face's detail grid; ``scale``: grid cells per image
    pixel) may have lost light print to clipping (``CLIPPED``), inset as a pattern is, or
    None: nowhere."""
    light = colour.min(axis=2)
    clipped = (light >= CLIPPED).astype(np.uint8)
    if not clipped.any():
        return None
    reach = max(1, int(np.ceil(CLIPPED_REACH * scale)))
    round_it = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * reach + 1, 2 * reach + 1))
    return pattern_mask(cv2.dilate(clipped, round_it) * (light >= FAINT)).astype(np.float32)


def _lean(view: np.ndarray, faces: tuple[np.ndarray, np.ndarray], weight: np.ndarray | None
          ) -> tuple[float, float]:
    """(lean, fit) of a view between two faces' patterns (flattened), either way up."""
    best = (0.0, -1.0)
    # Either way up: a card looks alike turned round, and the turn is not known here. The
    # print turned round is its pattern turned round (both blurs and the inset are
    # symmetric): one pattern serves both ways up.
    for turned in (False, True):
        q = (view[::-1, ::-1] if turned else view).reshape(-1)
        # The mask turns with the print: it was drawn on the quad as given.
        kept = weight if weight is None or not turned else weight[::-1]
        a, b = (unit(f, kept) for f in faces)
        q = unit(q, kept)
        fit = float(max(q @ a, q @ b))
        if fit > best[1]:
            apart = a - b
            lean = float((q - (a + b) / 2) @ apart / max(float(apart @ apart), 1e-6))
            best = (lean, fit)
    return best


class Twins:
    """Compares a quad with two enrolled faces where they differ."""

    def __init__(self, faces: Sequence[np.ndarray]) -> None:
        self.faces = faces
        self._warps: dict[tuple[int, int], np.ndarray | None] = {}
        #: The move lining the second face up the other way round from ``_warps``'s.
        self._other_turns: dict[tuple[int, int], np.ndarray | None] = {}
        #: How well the second face's print fits the first's lined up so, and the other way.
        self._turn_prints: dict[tuple[int, int], tuple[float, float]] = {}
        self._patterns: OrderedDict[tuple, _PairPatterns] = OrderedDict()
        self._light_aparts: OrderedDict[tuple[int, int], np.ndarray] = OrderedDict()
        self._details: OrderedDict[tuple, np.ndarray] = OrderedDict()
        #: Faces blurred at the coarse size their colours are compared at (``colour_lean``).
        self._colours: dict[tuple[int, tuple[int, int]], np.ndarray] = {}
        self._alike: dict[tuple[int, int], float] = {}
        self._apart: dict[tuple[int, int], float] = {}
        self._inks: dict[int, np.ndarray] = {}
        self._one_ink: dict[int, bool] = {}

    def _size(self, face_number: int) -> tuple[int, int]:
        h, w = self.faces[face_number].shape[:2]
        return max(8, int(round(DETAIL_LONG * w / h))), DETAIL_LONG

    def _grey(self, face_number: int, size: tuple[int, int]) -> np.ndarray:
        face = cv2.resize(np.asarray(self.faces[face_number]), size, interpolation=cv2.INTER_AREA)
        return cv2.cvtColor(face, cv2.COLOR_BGR2GRAY).astype(np.float32)

    def _pair(self, first: int, second: int, other_turn: bool = False
              ) -> tuple[np.ndarray, np.ndarray | None]:
        """Both faces' grey at the detail grid (float), the second lined up with the first
        (an affine move found once per pair and kept). ``other_turn``: the second lined up
        the other way round (None where no such move is found)."""
        size = self._size(first)
        one, other = self._grey(first, size), self._grey(second, size)
        warp = self._warp(first, second, one, other)
        if other_turn:
            warp = self._other_turns[first, second]
            if warp is None:
                return one, None
        if warp is not None:
            other = cv2.warpAffine(other, warp, size,
                                   flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                                   borderMode=cv2.BORDER_REPLICATE)
        return one, other

    def _warp(self, first: int, second: int, one: np.ndarray | None = None,
              other: np.ndarray | None = None) -> np.ndarray | None:
        """The affine move lining face ``second`` up with ``first`` (found once per pair and
        kept), or None where none is found (compared as they are). ``one``, ``other``: the
        faces' grey at the detail grid, if at hand."""
        if (first, second) not in self._warps:
            size = self._size(first)
            one = self._grey(first, size) if one is None else one
            other = self._grey(second, size) if other is None else other
            # An affine move only: enough for two photos cropped a little differently, too
            # stiff to bend one face's print into the other's. Either way up: a card that
            # looks alike turned round may have been enrolled the other way up from its
            # look-alikes (a photo of it lying on the table); turned round it is lined up
            # only if it fits clearly better so (``TURNED_BETTER``): a standard deck's
            # faces fit about as well either way, and are compared as enrolled.
            criteria = (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, 30, 1e-4)
            w, h = size

            def lined_up(start: np.ndarray) -> tuple[float, np.ndarray | None]:
                try:
                    return cv2.findTransformECC(one, other, start, cv2.MOTION_AFFINE,
                                                criteria, None, 5)
                except cv2.error:
                    return -1.0, None

            upright, warp = lined_up(np.eye(2, 3, dtype=np.float32))
            turned, turn = lined_up(np.float32([[-1, 0, w - 1], [0, -1, h - 1]]))
            print_turned = self._print_fit(one, other, turn, size)
            print_upright = self._print_fit(one, other, warp, size)
            prints = (print_upright, print_turned)
            if turned >= upright + TURNED_BETTER and print_turned > print_upright:
                warp, turn, prints = turn, warp, prints[::-1]
            self._warps[first, second] = warp
            self._other_turns[first, second] = turn
            self._turn_prints[first, second] = prints
        return self._warps[first, second]

    def _turned_as_alike(self, first: int, second: int) -> bool:
        """Is face ``second``'s print lined up the other way round as like ``first``'s
        (``TURN_AS_ALIKE``) as the way it is lined up? An eight turned round shows a seven's
        pips but one; an ace's pip turned is another shape."""
        self._warp(first, second)
        lined, other_way = self._turn_prints[first, second]
        return other_way >= lined - TURN_AS_ALIKE

    @staticmethod
    def _print_fit(one: np.ndarray, other: np.ndarray, warp: np.ndarray | None,
                   size: tuple[int, int]) -> float:
        """How well face ``other``'s print, moved by ``warp``, fits face ``one``'s: their
        correlation with the light across each photo (coarser than ``LIGHT_SCALE``) taken
        out. A lamp's fall-off fits a nearly blank face to its twin turned round better than
        upright; their print does not."""
        if warp is None:
            return -1.0
        moved = cv2.warpAffine(other, warp, size, flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                               borderMode=cv2.BORDER_REPLICATE)
        a, b = (grey - cv2.GaussianBlur(grey, (0, 0), LIGHT_SCALE * size[1])
                for grey in (one, moved))
        return float(unit(a.reshape(-1), None) @ unit(b.reshape(-1), None))

    def _lined_up(self, first: int, other: int, size: tuple[int, int]) -> np.ndarray:
        """Face ``other``'s detail on a grid of ``size`` (``_high`` at one cell per pixel),
        lined up with face ``first``, flattened. Each face's detail is kept on its own (half
        precision) and moved by the pair's warp: a face met with several look-alikes is
        high-passed once."""
        def make() -> np.ndarray:
            return high_pass(self._grey(other, size), (1.0, 6.0)).astype(np.float16)

        detail = _kept(self._details, (other, size), make, DETAILS_KEPT).astype(np.float32)
        warp = None if other == first else self._warp(first, other)
        if warp is not None:
            # The warp was found on the detail grid: the same move on this grid.
            warp = on_grid(warp, self._size(first), size)
            detail = cv2.warpAffine(detail, warp, size,
                                    flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                                    borderMode=cv2.BORDER_REPLICATE)
        return pattern_mask(detail).reshape(-1)

    def _patterns_of(self, first: int, second: int, scale: float) -> _PairPatterns:
        """The pair's high-passed grey, flattened, on the detail grid (half precision) and
        ``COARSE`` times coarser (``tell``); the last few pairs asked for are kept."""
        def make() -> _PairPatterns:
            one, other = self._pair(first, second)
            turned = self._pair(first, second, other_turn=True)[1]
            h, w = one.shape
            coarse = (max(8, w // COARSE), max(8, h // COARSE))

            def coarser(grid: np.ndarray | None) -> np.ndarray | None:
                return None if grid is None else _high(
                    cv2.resize(grid, coarse, interpolation=cv2.INTER_AREA),
                    max(1.0, scale / COARSE)).reshape(-1)

            def fine(grid: np.ndarray | None) -> np.ndarray | None:
                return None if grid is None else _high(grid, scale).reshape(-1).astype(
                    np.float16)

            return _PairPatterns(fine(one), fine(other), (h, w), coarser(one), coarser(other),
                                 coarse, fine(turned), coarser(turned))

        return _kept(self._patterns, (first, second, scale), make, PATTERNS_KEPT)

    def tell(self, image: np.ndarray, corners: np.ndarray, first: int, second: int,
             on_top: Sequence[np.ndarray] = ()) -> tuple[float, float]:
        """(lean, fit): where the quad's print lies between face ``first`` (+0.5) and face
        ``second`` (-0.5), and how well it fits the closer of the two (a correlation).
        ``corners``: the quad in ``first``'s order (either way up); ``on_top``: outlines
        (image pixels) of cards lying over it: only the part in view is compared."""
        scale = _detail_scale(corners)
        pair = self._patterns_of(first, second, scale)
        h, w = pair.shape
        colour = sample(image, corners.astype(np.float32), (w, h))
        patch = cv2.cvtColor(colour, cv2.COLOR_BGR2GRAY).astype(np.float32)

        def in_view_on(size: tuple[int, int]) -> np.ndarray | None:
            return pattern_mask(in_view(corners, size, on_top)).reshape(-1) if on_top else None

        view, mask = _high(patch, scale), in_view_on((w, h))
        fine = _lean(view, (widened(pair.one), widened(pair.other)), mask)
        other_coarse = pair.other_coarse
        if pair.other_turned is not None and self._turned_as_alike(first, second):
            # The second face either way round against the first: the quad was put in the
            # first's order, and a look-alike may show its likeness to it turned round (an
            # eight of clubs turned shows a seven's pips but one, upright two turned).
            turned = _lean(view, (widened(pair.one), widened(pair.other_turned)), mask)
            if turned[0] < fine[0]:
                fine, other_coarse = turned, pair.other_turned_coarse
        # The same comparison COARSE times coarser: a detail the lens blurred away (thin
        # stripes gone grey) no longer shows finely, yet still darkens its shape. Where the
        # two disagree, the print is not clear enough to tell the twins apart.
        coarse = _lean(_high(cv2.resize(patch, pair.coarse, interpolation=cv2.INTER_AREA),
                             max(1.0, scale / COARSE)), (pair.one_coarse, other_coarse),
                       in_view_on(pair.coarse))
        if fine[0] * coarse[0] < 0 and abs(coarse[0]) >= COARSE_DISSENT:
            return 0.0, fine[1]
        if self._shown_apart(colour, first, second, scale) < SHOWN_APART:
            return 0.0, fine[1]  # what sets them apart may be clipped away
        return fine

    def shows_apart(self, image: np.ndarray, corners: np.ndarray, first: int, second: int
                    ) -> bool:
        """Is the print seen where faces ``first`` and ``second`` differ (``SHOWN_APART``)?
        Not where light print there may have been clipped away (an overexposed photo, a
        glare spot): both the whole faces' comparison and ``tell`` then read a stripe lost
        in clipped paper as no stripe."""
        colour = sample(image, corners.astype(np.float32), self._size(first))
        return self._shown_apart(colour, first, second, _detail_scale(corners)) >= SHOWN_APART

    def _shown_apart(self, colour: np.ndarray, first: int, second: int, scale: float) -> float:
        """The share of where faces ``first`` and ``second`` differ that a picture of the card
        (``colour``, on ``first``'s detail grid) shows: all of it, but where light print
        (``LIGHT_PRINT``) may have been clipped away, either way up."""
        lost = _lost(colour, scale)
        if lost is None:
            return 1.0
        light_apart = self._light_apart(first, second)
        return max(1.0 - float((light_apart * lost).sum()),
                   1.0 - float((light_apart * lost[::-1, ::-1]).sum()))

    def _light_apart(self, first: int, second: int) -> np.ndarray:
        """Where two faces differ (their grey's squared difference, spread a little, summing
        to 1; on ``first``'s detail grid, inset), where neither prints darker there than
        ``LIGHT_PRINT`` of its paper; the last few pairs asked for are kept."""
        def make() -> np.ndarray:
            one, other = self._pair(first, second)
            apart = pattern_mask(cv2.GaussianBlur((one - other) ** 2, (0, 0), 1.5))
            light = pattern_mask(np.minimum(
                one / max(float(np.percentile(one, INK_PAPER)), 1.0),
                other / max(float(np.percentile(other, INK_PAPER)), 1.0)) >= LIGHT_PRINT)
            return apart * light / max(float(apart.sum()), 1e-6)

        return _kept(self._light_aparts, (first, second), make, PATTERNS_KEPT)

    def among(self, image: np.ndarray, corners: np.ndarray, face_numbers: Sequence[int],
              on_top: Sequence[np.ndarray] = (), least_fit: float = -1.0,
              well_fit: float = -1.0, inks: tuple[float, float] | None = None
              ) -> tuple[int, float, float]:
        """(pick, lean, fit) among several look-alikes at once (``face_numbers``; ``corners`` in
        the first one's order, either way up): each two faces are compared where they
        differ, in the part in view, and ``pick`` is the face the print leans to against
        every other. ``lean``: its weakest lean, on ``tell``'s scale (+0.5: that face
        exactly, 0: halfway, below 0: no face leans to against all others); ``fit``: how
        well it fits the whole part in view (a correlation). Every face is weighed alike:
        none is favoured for being listed first. Where no face fits the part in view at
        ``well_fit`` (or ``least_fit``, the higher), the part is lined up with the first face
        and compared again; below ``least_fit`` still, they are not compared further: (the
        first, 0, the best fit).

        ``inks``: (inks apart, turn). Two faces each printed in one ink, their inks at least
        that far apart (``inks_apart``), are told by the hue of the print where they differ
        in view (a red index pip against a black one: in grey a few pixels alike) if it
        carries one and fits one face's ink by ``turn`` more than the other's (``hue_fit``):
        a grey lean against it counts as none."""
        first = face_numbers[0]
        # Compared on a grid of about one cell per pixel of the card in the image (the
        # detail grid at most): finer would add no detail, only work. Its length in steps
        # of 8 cells, so that the faces' detail on it can be kept.
        width, height = self._size(first)
        h = int(np.clip(8 * round(max(quad_sides(corners)) / 8), 32, height))
        w = max(8, int(round(width * h / height)))
        faces = [self._lined_up(first, face_number, (w, h)) for face_number in face_numbers]
        view, visible, fits, turned, colour = self._part_fits(image, corners, faces, on_top,
                                                               (w, h))
        if max(fits) < max(least_fit, well_fit):
            # A part guessed from the edges in view may be a few pixels off, or a few
            # hundredths too long or short: its fine detail then fits no face. Lined up
            # with the likeliest face (the first: the others are lined up with it; on
            # detail: a shadow across the card does not pull), it is compared again.
            half_turn = [2, 3, 0, 1]
            moved = self._part_lined_up(image, corners[half_turn] if turned else corners,
                                        first, on_top, (w, h))
            if moved is not None:
                view, visible, fits, turned, colour = self._part_fits(
                    image, moved[half_turn] if turned else moved, faces, on_top, (w, h))
        if max(fits) < least_fit:
            return first, 0.0, max(fits)
        count = len(faces)
        leans = np.zeros((count, count), np.float32)
        for i in range(count):
            for j in range(i + 1, count):
                leans[i, j] = _lean_where_apart(view, visible, faces[i], faces[j])
                if inks is not None:
                    leans[i, j] *= self._ink_agrees(colour, visible, faces[i], faces[j],
                                                    face_numbers[i], face_numbers[j],
                                                    float(leans[i, j]), inks)
                leans[j, i] = -leans[i, j]
        # A face with no look-alike left (its colour twins set aside) leans wholly to itself.
        weakest = [min((float(leans[i, k]) for k in range(count) if k != i), default=0.5)
                   for i in range(count)]
        pick = int(np.argmax(weakest))
        return face_numbers[pick], weakest[pick], fits[pick]

    def _ink_agrees(self, colour: np.ndarray, visible: np.ndarray, one: np.ndarray,
                    other: np.ndarray, first: int, second: int, lean: float,
                    inks: tuple[float, float]) -> float:
        """1, or 0 where two faces in inks apart (``among``'s ``inks``) differ in view in
        a hue that fits the ink of the face the grey ``lean`` is against."""
        least_apart, turn = inks
        if (lean == 0.0 or self.inks_apart(first, second) < least_apart
                or not (self.one_ink(first) and self.one_ink(second))):
            return 1.0
        apart = cv2.GaussianBlur(((one - other) ** 2).reshape(visible.shape), (0, 0), 1.5)
        apart *= visible
        where = apart >= 0.5 * float(apart.max()) if apart.max() > 0 else None
        if where is None or not where.any():
            return 1.0
        paper = np.percentile(colour[visible > 0].reshape(-1, 3), INK_PAPER, axis=0) + 1.0
        shares = _chroma(colour * (paper.mean() / paper))[where]
        saturation = _saturation(shares)
        seen = hue(np.median(shares[saturation >= np.quantile(saturation, 0.75)], axis=0))
        if seen is None:
            return 1.0  # no hue where they differ: black, or a colour washed out
        fit_one = hue_fit(seen, self.ink(first))
        fit_other = hue_fit(seen, self.ink(second))
        against = fit_other - fit_one if lean > 0 else fit_one - fit_other
        return 0.0 if against >= turn else 1.0

    @staticmethod
    def _part_fits(image: np.ndarray, corners: np.ndarray, faces: Sequence[np.ndarray],
                   on_top: Sequence[np.ndarray], size: tuple[int, int]
                   ) -> tuple[np.ndarray, np.ndarray, list[float], bool, np.ndarray]:
        """The quad's detail and which of it is in view (``faces``' grid, flattened), each
        face's fit to it, whether it fits turned round (the detail is then turned), and its
        colour (BGR, on the detail's grid, turned alike)."""
        sampled = sample(image, corners.astype(np.float32), size)
        patch = cv2.cvtColor(sampled, cv2.COLOR_BGR2GRAY).astype(np.float32)
        view = _high(patch)
        visible = (pattern_mask(in_view(corners, size, on_top)) if on_top
                   else np.ones(view.shape, np.float32))
        fits, turned = max(((_fits(view[::-1, ::-1] if t else view,
                                   visible[::-1, ::-1] if t else visible, faces), t)
                            for t in (False, True)), key=lambda told: max(told[0]))
        colour = pattern_mask(sampled).astype(np.float32)
        if turned:
            view, visible, colour = view[::-1, ::-1], visible[::-1, ::-1], colour[::-1, ::-1]
        return view, visible, fits, turned, colour

    def _part_lined_up(self, image: np.ndarray, corners: np.ndarray, face_number: int,
                       on_top: Sequence[np.ndarray], size: tuple[int, int]
                       ) -> np.ndarray | None:
        """The corners of a card in part view moved so that its print in view lines up with
        face ``face_number``'s (ECC, affine, on both's detail over the part in view), or None
        if it does not converge or moves a corner more than ``PART_REACH`` of the width."""
        patch = cv2.cvtColor(sample(image, corners.astype(np.float32), size),
                             cv2.COLOR_BGR2GRAY).astype(np.float32)
        view = high_pass(patch, PART_DETAIL).astype(np.float32)
        face = high_pass(self._grey(face_number, size), PART_DETAIL).astype(np.float32)
        visible = ((in_view(corners, size, on_top) > 0).astype(np.uint8) * 255 if on_top
                   else None)
        criteria = (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, 50, 1e-4)
        try:
            _, warp = cv2.findTransformECC(face, view, np.eye(2, 3, dtype=np.float32),
                                           cv2.MOTION_AFFINE, criteria, visible, 5)
        except cv2.error:
            return None
        return moved_corners(corners, warp, size, PART_REACH)

    def print_alike(self, first: int, second: int) -> float:
        """How alike two faces' grey print is where they are lined up (a correlation of
        their detail; near 1 for one print in two colours: a red 8 and a green 8). Grey
        cannot tell such faces apart; only their colours can."""
        key = (min(first, second), max(first, second))
        if key not in self._alike:
            one, other = key  # one way round whichever is asked first: the same figure
            width, height = self._size(one)
            size = (max(8, width * ALIKE_LONG // height), ALIKE_LONG)
            self._alike[key] = float(unit(self._lined_up(one, one, size))
                                     @ unit(self._lined_up(one, other, size)))
        return self._alike[key]

    def _colour_face(self, face_number: int, size: tuple[int, int]) -> np.ndarray:
        """The face blurred at the coarse size colours are compared at (kept)."""
        if (face_number, size) not in self._colours:
            self._colours[face_number, size] = _blurred(cv2.resize(
                np.asarray(self.faces[face_number]), size, interpolation=cv2.INTER_AREA))
        return self._colours[face_number, size]

    def colours_apart(self, first: int, second: int) -> float:
        """How far apart two faces' colours lie where they are lined up: the mean distance
        of their channel shares (0-255 scale) over the pixels coloured in both (``COLOURED``;
        0 if under ``BOTH_COLOURED`` of the card), compared blurred and coarse. Large for one
        print in two colours of field (a green 0 and a blue 0), small for two prints in one
        colour (a red 0 and a red 8); black ink is no colour (a red 8 and a black 8: 0)."""
        key = (min(first, second), max(first, second))
        if key not in self._apart:
            one, other = key
            h0, w0 = self.faces[one].shape[:2]
            size = (max(8, int(round(COLOUR_LONG * w0 / h0))), COLOUR_LONG)
            a, b = self._colour_face(one, size), self._colour_face(other, size)
            warp = self._warp(one, other)
            if warp is not None:
                b = cv2.warpAffine(b, on_grid(warp, self._size(one), size), size,
                                   flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                                   borderMode=cv2.BORDER_REPLICATE)
            inset = (slice(COLOUR_INSET, -COLOUR_INSET), slice(COLOUR_INSET, -COLOUR_INSET))
            a, b = _chroma(a)[inset].reshape(-1, 3), _chroma(b)[inset].reshape(-1, 3)
            # Where both are coloured (a field, a shape), not paper or black ink.
            both = (_saturation(a) >= COLOURED) & (_saturation(b) >= COLOURED)
            self._apart[key] = (float(np.linalg.norm(a[both] - b[both], axis=1).mean())
                                if both.mean() >= BOTH_COLOURED else 0.0)
        return self._apart[key]

    def ink(self, face_number: int) -> np.ndarray:
        """The colour of a face's most saturated print (``ink_of``; kept)."""
        if face_number not in self._inks:
            self._inks[face_number] = ink_of(np.asarray(self.faces[face_number]))
        return self._inks[face_number]

    def one_ink(self, face_number: int) -> bool:
        """Is the face printed in one ink (``ONE_INK``): its ink all its colour, not the
        most saturated detail of a picture in many (kept)?"""
        if face_number not in self._one_ink:
            face = np.asarray(self.faces[face_number])
            self._one_ink[face_number] = bool(np.linalg.norm(
                ink_of(face, broad=True) - self.ink(face_number)) < ONE_INK)
        return self._one_ink[face_number]

    def ink_in(self, image: np.ndarray, corners: np.ndarray, face_number: int) -> np.ndarray:
        """The colour of the most saturated print on the card at ``corners`` (``ink_of``),
        sampled at face ``face_number``'s shape."""
        height, width = self.faces[face_number].shape[:2]
        size = (max(8, INK_LONG * width // height), INK_LONG)
        return ink_of(sample(image, corners.astype(np.float32), size))

    def inks_apart(self, first: int, second: int) -> float:
        """How far apart two faces' inks lie (``ink``; 0-255 scale): a SET card's purple
        and green stripes 55 and more apart, one colour's stripes and outline within 32."""
        return float(np.linalg.norm(self.ink(first) - self.ink(second)))

    def colour_lean(self, image: np.ndarray, corners: np.ndarray, first: int, second: int,
                    on_top: Sequence[np.ndarray], whole_outline: np.ndarray
                    ) -> tuple[float, float]:
        """(lean, apart): where the colour of the part in view of ``corners`` lies between
        face ``first`` (+0.5) and face ``second`` (-0.5), either way up, and how far apart
        the two faces' colours lie there (mean distance of the pixels' channel shares, 0-255
        scale). Compared blurred and coarse, so that a strip a few pixels wide counts. The
        light is taken from a card of face ``first`` seen whole in the same image at
        ``whole_outline`` (its channels against the enrolled face's): both faces are compared
        as they would look there."""
        h0, w0 = self.faces[first].shape[:2]
        size = (max(8, int(round(COLOUR_LONG * w0 / h0))), COLOUR_LONG)
        w, h = size
        inset = (slice(COLOUR_INSET, h - COLOUR_INSET), slice(COLOUR_INSET, w - COLOUR_INSET))

        one, other = self._colour_face(first, size), self._colour_face(second, size)
        whole = sample(image, whole_outline.astype(np.float32), size).astype(np.float32)
        light = (whole[inset].reshape(-1, 3).sum(axis=0)
                 / np.maximum(one[inset].reshape(-1, 3).sum(axis=0), 1.0))
        one, other = _chroma(one * light), _chroma(other * light)
        view = _chroma(_blurred(sample(image, corners.astype(np.float32), size)))
        visible = cv2.erode(in_view(corners, size, on_top), np.ones((3, 3), np.uint8))
        inside = np.zeros_like(visible)
        inside[inset] = 1.0
        visible = (visible * inside) > 0
        if visible.sum() < 4:
            return 0.0, 0.0
        q = view[visible]
        best = (0.0, 0.0, np.inf)
        for turned in (False, True):
            a, b = ((f[::-1, ::-1] if turned else f)[visible] for f in (one, other))
            apart = a - b
            miss = min(float(np.linalg.norm(q - a, axis=1).mean()),
                       float(np.linalg.norm(q - b, axis=1).mean()))
            if miss < best[2]:
                lean = float(((q - (a + b) / 2) * apart).sum()
                             / max(float((apart * apart).sum()), 1e-6))
                best = (lean, float(np.linalg.norm(apart, axis=1).mean()), miss)
        return best[0], best[1]
