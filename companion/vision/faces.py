"""Telling enrolled faces apart: an aligned comparison of high-passed colour.

A quad seen in a frame is warped onto a face-sized grid in all four turns (no assumption of
which side is long: a foreshortened card can look square) and compared with every enrolled
face of a similar shape. The pattern is the colour planes less their slow slope (the light's
gradient, vignetting, a cast shadow), lightly blurred so that a corner fitted a pixel or two
off still lines up. A face and the same face turned 180° are one card: most printed cards
look alike both ways round, so that turn is never held against a match.

>>> face = np.zeros((134, 96, 3), np.uint8); face[20:60, 20:50] = 255
>>> index = FaceIndex([face])
>>> quad = np.float32([[0, 0], [96, 0], [96, 134], [0, 134]])
>>> [(s.face_number, round(s.score, 2)) for s in index.scores(face, quad)][:1]
[(0, 1.0)]
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import cv2
import numpy as np

#: Size of the compared grid for a card's shape (width, height): fine enough to count pips
#: and tell a diamond from a heart, coarse enough to forgive a corner fitted a little off.
CARD_GRID = (96, 134)
#: Faces whose long / short side is below this are square (tiles) and kept in four turns.
SQUARE_ASPECT = 1.15
#: Share of each side left out of the comparison: rounded corners and the table round them.
INSET = 0.05
#: Blur (grid cells) of both sides before comparing: a sharp enrolment photo and a softer
#: camera frame must look alike.
SHARPNESS = 2.0
#: Blur (grid cells) that gives the slow slope of light across a card (lamp, vignetting,
#: shadow), taken off before comparing or lining up.
SLOPE = 6.0


@dataclass(frozen=True)
class Score:
    """How well a quad matches one enrolled face: the face's index, the score (a correlation,
    -1..1), and the quad's corners in the face's own order (top-left first)."""

    face_number: int
    score: float
    corners: np.ndarray


def grid_for(aspect: float) -> tuple[int, int]:
    """The compared grid (width, height) of a face whose height / width is ``aspect``: the
    same number of cells as a card's, shaped like the face."""
    cells = CARD_GRID[0] * CARD_GRID[1]
    width = int(round(np.sqrt(cells / aspect)))
    return width, int(round(cells / width))


def sample(image: np.ndarray, quad: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """The quad's content warped to ``size`` (width, height), without aliasing: a quad twice
    the grid or more is first averaged down (its bounding box only) to less than twice it,
    and warped from there (a warp's bilinear sampling of a larger step skips rows and turns
    a fine print, a SET card's stripes, into another pattern)."""
    return samples(image, [quad], size)[0]


def moved_corners(corners: np.ndarray, warp: np.ndarray, size: tuple[int, int],
                  reach: float) -> np.ndarray | None:
    """The corners of a quad ``sample``d on a grid of ``size``, moved by ``warp`` (found by
    ECC on that grid: affine 2x3 or homography 3x3, grid to sample), or None if a corner
    moves more than ``reach`` of the grid's width (a jump that large is no refinement)."""
    w, h = size
    box = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    full = warp if warp.shape[0] == 3 else np.vstack([warp, [0.0, 0.0, 1.0]])
    moved = cv2.perspectiveTransform(box.reshape(-1, 1, 2), full.astype(np.float32))
    moved = moved.reshape(4, 2)
    if float(np.abs(moved - box).max()) > reach * w:
        return None
    to_image = cv2.getPerspectiveTransform(box, corners.astype(np.float32))
    return cv2.perspectiveTransform(moved.reshape(-1, 1, 2), to_image).reshape(4, 2)


def samples(image: np.ndarray, turns: Sequence[np.ndarray], size: tuple[int, int]
            ) -> list[np.ndarray]:
    """``sample`` of one quad in several turns (its corners in another order each), the
    image averaged down once for all of them."""
    w, h = size
    quad = turns[0]
    corners = quad.reshape(4, 2).tolist()
    longest = max(math.dist(corners[k - 1], corners[k]) for k in range(4))
    # A whole factor keeps OpenCV's averaging on its fast path.
    step = int(longest // max(w, h))
    if step >= 2:
        x, y, bw, bh = cv2.boundingRect(quad.astype(np.float32))
        x0, y0 = max(0, x - 2), max(0, y - 2)
        box = image[y0:y + bh + 2, x0:x + bw + 2]
        if box.size:
            image = cv2.resize(box, None, fx=1 / step, fy=1 / step,
                               interpolation=cv2.INTER_AREA)
            turns = [(turn - np.float32([x0, y0])) / step for turn in turns]
    dst = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    return [cv2.warpPerspective(image, cv2.getPerspectiveTransform(turn.astype(np.float32), dst),
                                (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
            for turn in turns]


def slope_less(grey: np.ndarray) -> np.ndarray:
    """A grey grid less its slow slope of light (as ``pattern``), float32: what lining up
    compares, so that a glare spot or a lamp's gradient across the card does not outweigh
    the print."""
    planes = grey.astype(np.float32)
    return planes - cv2.GaussianBlur(planes, (0, 0), SLOPE)


def pattern(grid: np.ndarray) -> np.ndarray:
    """The high-passed colour planes of a sampled face, inset, as float32 (h, w, 3)."""
    planes = grid.astype(np.float32)
    planes = cv2.GaussianBlur(planes, (0, 0), SHARPNESS)
    # Less the slow slope of light across the card (lamp to one side, vignetting, shadow).
    planes -= cv2.GaussianBlur(planes, (0, 0), SLOPE)
    h, w = planes.shape[:2]
    dy, dx = max(1, int(round(INSET * h))), max(1, int(round(INSET * w)))
    planes = planes[dy:h - dy, dx:w - dx]
    # Soft-limited: a few very strong steps (a sliver of dark table at the edge, a glare
    # spot's rim) must not outweigh the print.
    limit = 2.5 * float(np.abs(planes).mean()) + 1e-3
    soft = planes / limit  # a new, contiguous array: the rest works in place
    np.tanh(soft, out=soft)
    soft *= limit
    return soft


def unit(values: np.ndarray, weight: np.ndarray | None = None) -> np.ndarray:
    """Zero-mean, unit-length flattening (over the weighted part, if a weight is given)."""
    # No copy of a float32 pattern: the arithmetic below makes new arrays.
    flat = values.reshape(-1).astype(np.float32, copy=False)
    if weight is not None:
        w = np.repeat(weight.reshape(-1).astype(np.float32), values.size // weight.size)
        flat = (flat - float((flat * w).sum() / max(w.sum(), 1.0))) * w
    else:
        flat = flat - float(flat.mean())
    return flat / (float(np.linalg.norm(flat)) + 1e-6)


def detail(grid: np.ndarray, planes: np.ndarray | None = None) -> float:
    """How much is printed on a sampled face, relative to its brightness: high on a card,
    low on bare table or a blank sheet, the same under dim or bright light."""
    planes = pattern(grid) if planes is None else planes
    return float(np.abs(planes).mean() / (float(grid.mean()) + 8.0))


def tint(grid: np.ndarray) -> np.ndarray:
    """Blue and green shares of brightness in a 3 x 4 grid of cells, less their average: the
    colour layout the high-pass leaves out (a blue panel or a green one on the same card),
    without the light's level or colour."""
    cells = cv2.resize(grid, (3, 4), interpolation=cv2.INTER_AREA).astype(np.float32)
    shares = cells[..., :2] / (cells.sum(axis=2, keepdims=True) + 1.0)
    # Less the card's own average: the light's colour (a warm lamp, daylight) is not the card's.
    return (shares - shares.mean(axis=(0, 1))).reshape(-1)


def print_level(grey: np.ndarray, mask: np.ndarray) -> float:
    """How much is printed where ``mask`` is set: mean high-pass strength over brightness."""
    if cv2.countNonZero(mask) == 0:
        return 0.0
    values = grey.astype(np.float32)
    high = np.abs(cv2.GaussianBlur(values, (0, 0), 1.0) - cv2.GaussianBlur(values, (0, 0), 5.0))
    inside = mask > 0
    return float(high[inside].mean() / (values[inside].mean() + 8.0))



def coarse(planes: np.ndarray) -> np.ndarray:
    """A pattern at half its size: a quick first comparison with every face."""
    h, w = planes.shape[:2]
    return cv2.resize(planes, (w // 2, h // 2), interpolation=cv2.INTER_AREA)


def _classes_by_aspect(faces: Sequence[np.ndarray]) -> list[list[int]]:
    """Faces of one shape share a grid: aspects within 20 % of each other (a deck's cards,
    each photographed at its own slight slant, stay together; cards and square tiles
    part)."""
    aspects = [face.shape[0] / face.shape[1] for face in faces]
    groups: list[list[int]] = []
    for n in sorted(range(len(faces)), key=lambda n: aspects[n]):
        if groups and aspects[n] <= 1.2 * aspects[groups[-1][0]]:
            groups[-1].append(n)
        else:
            groups.append([n])
    return groups


@dataclass
class _ShapeClass:
    size: tuple[int, int]
    face_numbers: list[int]
    rows: np.ndarray  # (len(face_numbers), features): each face's pattern, unit length (float16)
    quick: np.ndarray  # the same at half size
    tints: np.ndarray  # (len(face_numbers), 24): each face's tint
    least_detail: float
    pattern_shape: tuple[int, ...]


class FaceIndex:
    """Every enrolled face as a pattern, grouped by shape, ready to score quads against."""

    #: Faces compared at full size after the quick comparison: the likeliest few.
    SHORTLIST = 6
    #: Weight of the difference in tint (a share of brightness per cell) against the pattern.
    TINT_WEIGHT = 2.0

    #: Rows of the patterns compared at once in ``nearest``: about a megabyte of float32
    #: at a time instead of every row, every row turned and an N x N matrix.
    BLOCK = 4

    def __init__(self, faces: Sequence[np.ndarray],
                 done: Callable[[np.ndarray], None] | None = None,
                 cards: Sequence[str] | None = None) -> None:
        """``faces``: each enrolled face, upright. ``done``: called with each face once its
        pattern is made (the library lets a face read in place leave memory): the faces are
        read one by one, so that building never holds every face's pattern at once.
        ``cards``: the card each face shows, where several show one (a card's samples): two
        faces of one card are not each other's nearest neighbour."""
        self.classes: list[_ShapeClass] = []
        self._cards = None if cards is None else np.array(
            [hash(card) for card in cards], np.int64)
        #: Quads compared (``scores``) and lined up (``align``) so far: the recogniser bounds
        #: its work per frame by it.
        self.compared = 0
        self._faces = list(faces)
        self._grey: dict[int, np.ndarray] = {}
        self._alike: dict[tuple[int, int], list[int]] = {}
        self._nearest: dict[int, float] = {}
        #: The longest face (long side over short): a quad longer still is no face.
        self.longest_aspect = max((max(f.shape[0] / f.shape[1], f.shape[1] / f.shape[0])
                                   for f in faces), default=1.0)
        #: How much the plainest face has printed on it (``print_level``), for telling a
        #: patch of bare table from part of a card.
        self.least_print = 0.0
        prints = [self._add_class(numbers, done) for numbers in _classes_by_aspect(faces)]
        self.least_print = min(prints, default=0.0)

    def _add_class(self, face_numbers: list[int], done: Callable[[np.ndarray], None] | None
                   ) -> float:
        """The faces of one shape as rows of preallocated arrays, written face by face;
        returns the least ``print_level`` among them."""
        faces = self._faces
        aspects = [faces[n].shape[0] / faces[n].shape[1] for n in face_numbers]
        size = grid_for(float(np.median(aspects)))
        shape: _ShapeClass | None = None
        least_print = math.inf
        for row, n in enumerate(face_numbers):
            face = faces[n]
            grey = cv2.cvtColor(cv2.resize(face, CARD_GRID), cv2.COLOR_BGR2GRAY)
            least_print = min(least_print, print_level(grey, np.full(grey.shape, 255, np.uint8)))
            grid = cv2.resize(face, size, interpolation=cv2.INTER_AREA)
            if done is not None:
                done(face)
            planes = pattern(grid)
            full, half, colour = unit(planes), unit(coarse(planes)), tint(grid)
            if shape is None:
                # The full-size patterns, compared only with the few likeliest faces, are
                # kept at half precision (half the memory; a correlation moves by ~1e-5).
                shape = _ShapeClass(size, face_numbers,
                                    np.empty((len(face_numbers), full.size), np.float16),
                                    np.empty((len(face_numbers), half.size), np.float32),
                                    np.empty((len(face_numbers), colour.size), np.float32),
                                    math.inf, planes.shape)
            shape.rows[row], shape.quick[row], shape.tints[row] = full, half, colour
            shape.least_detail = min(shape.least_detail, detail(grid, planes))
        assert shape is not None  # a class has at least one face
        self.classes.append(shape)
        return least_print

    @property
    def least_detail(self) -> float:
        return min((c.least_detail for c in self.classes), default=0.0)

    def nearest(self, face_number: int) -> float:
        """How alike a face is to the most alike other face of its shape (-1 if alone)."""
        if not self._nearest:
            for shape in self.classes:
                for e, alike in zip(shape.face_numbers, self._most_alike(shape), strict=True):
                    self._nearest[e] = float(alike) if len(shape.face_numbers) > 1 else -1.0
        return self._nearest[face_number]

    def _most_alike(self, shape: _ShapeClass) -> np.ndarray:
        """Each face's likeness (either way round) to the most alike other face of its shape,
        compared a block of rows against a block at a time."""
        count, block = len(shape.face_numbers), self.BLOCK
        most = np.full(count, -np.inf, np.float32)
        for start in range(0, count, block):
            rows = widened(shape.rows[start:start + block])
            turned = np.ascontiguousarray(
                rows.reshape(-1, *shape.pattern_shape)[:, ::-1, ::-1].reshape(len(rows), -1))
            for other in range(0, count, block):
                others = widened(shape.rows[other:other + block])
                alike = np.maximum(rows @ others.T, turned @ others.T)
                if other == start:
                    np.fill_diagonal(alike, -1.0)
                if self._cards is not None:
                    mine = self._cards[np.asarray(shape.face_numbers[start:start + block])]
                    theirs = self._cards[np.asarray(shape.face_numbers[other:other + block])]
                    alike[mine[:, None] == theirs[None, :]] = -1.0
                np.maximum(most[start:start + len(rows)], alike.max(axis=1),
                           out=most[start:start + len(rows)])
        return most

    def most_alike(self, face_number: int, count: int) -> list[int]:
        """The ``count`` faces of its shape most alike to a face (``likeness``), best first,
        of cards other than its own (kept: asked again for each close call)."""
        key = (face_number, count)
        if key not in self._alike:
            shape = next(c for c in self.classes if face_number in c.face_numbers)
            others = [n for n in shape.face_numbers if n != face_number and (
                self._cards is None or self._cards[n] != self._cards[face_number])]
            self._alike[key] = sorted(
                others, key=lambda n: -self.likeness(face_number, n))[:count]
        return self._alike[key]

    def likeness(self, first: int, second: int) -> float:
        """How alike two faces are (their patterns' correlation, either way round); -1 for
        faces of different shapes."""
        for shape in self.classes:
            if first in shape.face_numbers and second in shape.face_numbers:
                a = widened(shape.rows[shape.face_numbers.index(first)])
                b = widened(shape.rows[shape.face_numbers.index(second)])
                turned = b.reshape(shape.pattern_shape)[::-1, ::-1].reshape(-1)
                return float(max(a @ b, a @ turned))
        return -1.0

    def _tint_penalty(self, faces: np.ndarray, tints: np.ndarray, cells: np.ndarray
                      ) -> np.ndarray:
        """(faces, turns): the weighted mean tint difference over the cells in view."""
        diff = np.abs(faces[:, None, :] - tints[None, :, :]) * cells[None]
        return self.TINT_WEIGHT * diff.sum(axis=2) / np.maximum(cells.sum(axis=1), 1.0)[None]

    def align(self, image: np.ndarray, corners: np.ndarray, face_number: int,
              on_top: Sequence[np.ndarray] = (), reach: float = 0.15) -> np.ndarray | None:
        """The corners of a quad read as face ``face_number``, moved so that the face's print
        lines up with the image's (ECC on the grey grid): outlines found on a small copy, rounded
        card corners and a slight bend are each a pixel or two off. ``on_top``: outlines of
        cards lying over it (only the part in view is lined up). ``reach``: the farthest a
        corner may move, as a share of the face's width. None if it does not converge or
        wanders off."""
        self.compared += 1
        shape = next(c for c in self.classes if face_number in c.face_numbers)
        w, h = shape.size
        if face_number not in self._grey:
            face = cv2.resize(self._faces[face_number], (w, h), interpolation=cv2.INTER_AREA)
            self._grey[face_number] = cv2.cvtColor(face, cv2.COLOR_BGR2GRAY).astype(np.float32)
        patch = cv2.cvtColor(sample(image, corners, (w, h)), cv2.COLOR_BGR2GRAY).astype(
            np.float32)
        criteria = (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, 25, 1e-3)
        visible = (None if not on_top else
                (in_view(corners, (w, h), on_top) > 0).astype(np.uint8) * 255)
        face = self._grey[face_number]
        try:
            _, warp = cv2.findTransformECC(face, patch, np.eye(3, dtype=np.float32),
                                           cv2.MOTION_HOMOGRAPHY, criteria, visible, 5)
        except cv2.error:
            # No fit of the light as it falls (a glare spot or a lamp's gradient across the
            # card outweighs its print): the print alone, the slow slope taken off both.
            try:
                _, warp = cv2.findTransformECC(slope_less(face), slope_less(patch),
                                               np.eye(3, dtype=np.float32),
                                               cv2.MOTION_HOMOGRAPHY, criteria, visible, 5)
            except cv2.error:
                return None
        return moved_corners(corners, warp, (w, h), reach)

    def scores(self, image: np.ndarray, quad: np.ndarray,
               on_top: Sequence[np.ndarray] | None = None, min_detail: float = 0.0,
               only: int | Sequence[int] | None = None, upright: bool = False,
               besides: Sequence[int] = ()) -> list[Score]:
        """The likeliest enrolled faces' best scores over the quad's four turns, best first.

        ``on_top``: outlines (image pixels) of cards known to lie on top of this quad; what they
        hide is left out. ``min_detail``: a quad with less print than this share of the
        plainest face's is bare table, whatever its shape, and scores nothing. ``only``: the
        scores of this face (its index) or these faces, whether likely or not; ``besides``:
        these faces' scores as well as the likeliest (not with ``only``). ``upright``:
        the corners are in a face's own order already (a second look at a quad read before,
        its corners moved a little): that turn and its half turn only, not the quarter turns.
        """
        self.compared += 1
        found: list[Score] = []
        quad = quad.astype(np.float32)
        wanted = None if only is None else {only} if isinstance(only, int) else set(only)
        for shape in self.classes:
            if wanted is not None and not wanted & set(shape.face_numbers):
                continue
            # The turns compared, each as the corners rolled: the first half warped, the rest
            # their half turns (the grid turned round: two warps give all four).
            rolls = [quad[[k, (k + 1) % 4, (k + 2) % 4, (k + 3) % 4]]
                     for k in ((0, 2) if upright else (0, 1, 2, 3))]
            grids = samples(image, rolls[:len(rolls) // 2], shape.size)
            planes = [pattern(g) for g in grids]
            if detail(grids[0], planes[0]) < min_detail * shape.least_detail:
                continue
            planes += [p[::-1, ::-1] for p in planes]
            views = ([in_view(r, shape.size, on_top) for r in rolls] if on_top
                     else [None] * len(rolls))
            masks = [None if v is None else pattern_mask(v) for v in views]
            # (turns, 24) tints and which cells of each are mostly in view.
            # Half a turn of a 3 x 4 grid of cells is the cells in reverse order.
            halves = [tint(g) for g in grids]
            tints = np.stack(halves + [t.reshape(4, 3, 2)[::-1, ::-1].reshape(-1)
                                       for t in halves])
            cells = np.stack([np.ones(24, np.float32) if v is None else np.repeat(
                cv2.resize(v, (3, 4), interpolation=cv2.INTER_AREA).reshape(-1) > 0.6, 2)
                for v in views]).astype(np.float32)
            if wanted is not None:
                rows = [row for row, e in enumerate(shape.face_numbers) if e in wanted]
            else:
                quick = np.stack(_units(planes, masks, coarse))
                # One matrix-vector product per turn: far quicker here than one product of
                # two matrices (a transposed operand is copied first).
                first = (np.stack([shape.quick @ v for v in quick], axis=1)
                         - self._tint_penalty(shape.tints, tints, cells))
                rows = list(np.argsort(first.max(axis=1))[::-1][:self.SHORTLIST])
                rows += [row for row, e in enumerate(shape.face_numbers)
                         if e in besides and row not in rows]
            queries = np.stack(_units(planes, masks))
            chosen = widened(shape.rows[rows])
            table = np.stack([chosen @ v for v in queries], axis=1)  # (rows, turns)
            if on_top:
                # A face's own hidden part must not count: renormalise over what shows.
                # (rows, turns): each face's length over the part in view of each turn.
                view_weights = np.stack([np.repeat((m * m).reshape(-1).astype(np.float32), 3)
                                  for m in masks], axis=1)
                norms = np.sqrt(np.maximum((chosen * chosen) @ view_weights, 0.0))
                table = table / np.maximum(norms, 1e-3)
            table = table - self._tint_penalty(shape.tints[rows], tints, cells)
            turn = table.argmax(axis=1)
            for k, row in enumerate(rows):
                found.append(Score(shape.face_numbers[row], float(table[k, turn[k]]),
                                   rolls[turn[k]]))
        found.sort(key=lambda s: -s.score)
        return found


def widened(rows: np.ndarray) -> np.ndarray:
    """Half-precision rows (or one row) as float32, exactly, by OpenCV: several times
    quicker than numpy's cast (0.05 against 0.19 ms for a shortlist here; 0.03 against 0.28
    with OpenCV 4.11 and numpy 1.26)."""
    return _widen(np.ascontiguousarray(rows)).reshape(rows.shape)


if hasattr(cv2, "convertFp16"):
    # OpenCV 4.x (Raspberry Pi OS Bookworm's numpy 1 stack): its arithmetic takes no half
    # floats.
    def _widen(rows: np.ndarray) -> np.ndarray:
        return cv2.convertFp16(rows.view(np.int16))
else:
    # OpenCV 5: convertFp16 is gone, and arithmetic takes half floats.
    def _widen(rows: np.ndarray) -> np.ndarray:
        return cv2.add(rows, 0.0, dtype=cv2.CV_32F)


def _units(planes: Sequence[np.ndarray], masks: Sequence[np.ndarray | None],
           scale: Callable[[np.ndarray], np.ndarray] | None = None) -> list[np.ndarray]:
    """``unit`` of each pattern (``scale``d first, if given: ``coarse``) over its mask.
    ``planes``: the patterns of the turns warped, then their half turns. With nothing masked,
    a half turn's vector is the warped turn's turned round: the same numbers in the other
    order (averaging down by area is the same either way round)."""
    scale = scale or (lambda p: p)
    if any(m is not None for m in masks):
        return [unit(scale(p), None if m is None else scale(m))
                for p, m in zip(planes, masks, strict=True)]
    scaled = [scale(p) for p in planes[:len(planes) // 2]]
    vectors = [unit(p) for p in scaled]
    return vectors + [v.reshape(p.shape)[::-1, ::-1].reshape(-1)
                      for v, p in zip(vectors, scaled, strict=True)]


def pattern_mask(visible: np.ndarray) -> np.ndarray:
    """The in-view mask cut to the pattern's inset (1 where compared)."""
    h, w = visible.shape[:2]
    dy, dx = max(1, int(round(INSET * h))), max(1, int(round(INSET * w)))
    return visible[dy:h - dy, dx:w - dx]


def in_view(quad: np.ndarray, size: tuple[int, int], on_top: Sequence[np.ndarray]
             ) -> np.ndarray:
    """1 where the face warped from ``quad`` is not under one of the ``on_top`` outlines."""
    w, h = size
    to_face = cv2.getPerspectiveTransform(
        quad.astype(np.float32), np.float32([[0, 0], [w, 0], [w, h], [0, h]]))
    visible = np.ones((h, w), np.float32)
    for outline in on_top:
        hidden = cv2.perspectiveTransform(outline.reshape(-1, 1, 2).astype(np.float32), to_face)
        cv2.fillConvexPoly(visible, hidden.reshape(-1, 2).round().astype(np.int32), 0.0)
    return visible
