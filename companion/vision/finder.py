"""Where the cards may be: candidate outlines from three independent cues, and clusters.

- **Edges**: a card's outline is a closed, four-sided edge; wood grain, cloth folds and
  keyboards are not. Found on the lightness channel, so any table colour works.
- **Light blobs** (``QuadFinder``): cards lighter than the table round them; also gives
  the blobs of cards touching or lying on each other, for the splitter.
- **The table's own colour**: with a fixed camera, the empty table seen before play
  (``TableBackground``), else the photo's dominant colour; a card is whatever is far from
  it in Lab, lit or in shadow alike. On a table of many colours (grained wood), its spread
  of colours modelled: what it does not explain gives outlines, and the blobs of cards
  touching or overlapping there (the light blobs follow the grain).
- **What the edges enclose**, on a light table: the clusters no other cue outlined (a row of
  white cards touching on grained wood whose lines run into their edges).

Every cue works on a copy ``WORK_WIDTH`` wide (shape, not detail, is wanted here); outlines
come back in the pixels of the image given.

>>> frame = np.full((480, 640, 3), (30, 60, 30), np.uint8)
>>> cv2.rectangle(frame, (100, 100), (190, 226), (235, 235, 235), -1) is not None
True
>>> [q.round().astype(int).tolist() for q in CardFinder().find(frame).quads][:1]
[[[100, 100], [190, 100], [190, 226], [100, 226]]]
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from companion.vision.quads import (
    WORK_WIDTH,
    Blob,
    QuadFinder,
    box_share,
    order_corners,
    quad_sides,
)

#: Most height of the work copy: a portrait photo is not worked on at twice a landscape
#: frame's size, nor so small that cards touching each other merge.
WORK_HEIGHT = 900


@dataclass
class Candidates:
    """Quads that may each be one card (best first), and blobs to split if they are not."""

    quads: list[np.ndarray] = field(default_factory=list)
    blobs: list[Blob] = field(default_factory=list)
    #: Light regions too large to be a cluster of cards (x, y, w, h): a light table, the
    #: light beyond the table, or cards touching a sheet of paper. Cards in them show at most
    #: their print.
    beyond: list[tuple[int, int, int, int]] = field(default_factory=list)
    #: Clusters only what the edges enclose outlines (``enclosed``): searched after the rest.
    late: list[Blob] = field(default_factory=list)


def work_scale(shape: tuple[int, ...]) -> float:
    """The work copy fits in WORK_WIDTH x WORK_HEIGHT."""
    return min(1.0, WORK_WIDTH / shape[1], WORK_HEIGHT / shape[0])


def to_work(image: np.ndarray) -> np.ndarray:
    return shrink(image, work_scale(image.shape))


def shrink(image: np.ndarray, scale: float) -> np.ndarray:
    """The image at ``scale`` (<= 1) without aliasing: halved by Gaussian pyramid steps, then
    the rest by linear interpolation (OpenCV's area averaging is several times slower at a
    scale that is not a whole fraction)."""
    if scale >= 1.0:
        return image
    h, w = image.shape[:2]
    size = (max(1, round(w * scale)), max(1, round(h * scale)))
    while image.shape[1] >= 2 * size[0] and image.shape[0] >= 2 * size[1]:
        image = cv2.pyrDown(image)
    if (image.shape[1], image.shape[0]) == size:
        return image
    return cv2.resize(image, size, interpolation=cv2.INTER_LINEAR)


class TableBackground:
    """The empty table as the fixed camera sees it, in Lab at work size.

    Seen before play, then refreshed from frames where nothing is on the table, so a lamp
    switched on or the daylight fading does not turn the whole table into 'card'.

    >>> empty = np.full((480, 640, 3), (30, 60, 30), np.uint8)
    >>> background = TableBackground(empty)
    >>> frame = empty.copy(); frame[100:200, 100:170] = 230
    >>> int(background.mask(frame)[150, 130] > 0), int(background.mask(frame)[10, 10] > 0)
    (1, 0)
    """

    #: Lab distance (after a light blur) that counts as not table.
    THRESHOLD = 22.0

    def __init__(self, empty_frame: np.ndarray) -> None:
        self.lab = self._lab(empty_frame)

    @staticmethod
    def _lab(frame: np.ndarray) -> np.ndarray:
        small = cv2.GaussianBlur(to_work(frame), (5, 5), 0)
        return cv2.cvtColor(small, cv2.COLOR_BGR2LAB).astype(np.float32)

    def distance(self, frame: np.ndarray) -> np.ndarray:
        lab = self._lab(frame)
        if lab.shape != self.lab.shape:
            raise ValueError("the frame's size differs from the empty table's")
        return np.linalg.norm(lab - self.lab, axis=2)

    def fits(self, frame: np.ndarray) -> bool:
        """Was the empty table seen at this frame's size (the camera's mode unchanged)?"""
        scale = work_scale(frame.shape)
        size = (frame.shape[0], frame.shape[1]) if scale >= 1.0 else (
            max(1, round(frame.shape[0] * scale)), max(1, round(frame.shape[1] * scale)))
        return self.lab.shape[:2] == size

    def mask(self, frame: np.ndarray) -> np.ndarray:
        return np.uint8(self.distance(frame) > self.THRESHOLD) * 255

    def refresh(self, frame: np.ndarray, rate: float = 0.2) -> None:
        """Blend a frame of the bare table in (call only when nothing lies on it)."""
        lab = self._lab(frame)
        if lab.shape != self.lab.shape:
            self.lab = lab
        else:
            self.lab = (1 - rate) * self.lab + rate * lab


def dominant_colour_mask(lab: np.ndarray) -> np.ndarray | None:
    """Pixels far from the photo's most common colour (``lab``: the work copy, blurred, in
    Lab), split by Otsu; None when the split is not card-like (no clear table colour, or
    'not table' covers most of the photo)."""
    # The most common colour: the mean of the fullest cell of a coarse histogram (16 steps
    # a plane) of a quarter-size copy.
    downscaled = cv2.resize(lab, None, fx=0.25, fy=0.25, interpolation=cv2.INTER_NEAREST)
    cells = cv2.calcHist([downscaled], [0, 1, 2], None, [16, 16, 16], [0, 256, 0, 256, 0, 256])
    histogram_peak = np.float64(np.unravel_index(int(cells.argmax()), cells.shape)) * 16
    table = cv2.mean(downscaled, cv2.inRange(downscaled, histogram_peak, histogram_peak + 15))[:3]
    diff = cv2.absdiff(lab, tuple(float(round(v)) for v in table) + (0.0,))
    squares = cv2.multiply(diff, diff, dtype=cv2.CV_32F)
    distance = cv2.sqrt(cv2.transform(squares, np.ones((1, 3), np.float32)))
    scaled = cv2.convertScaleAbs(distance, alpha=2.0)
    level, mask = cv2.threshold(scaled, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    if level < 40 or cv2.countNonZero(mask) > 0.6 * mask.size:
        return None
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((5, 5), np.uint8))
    return cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))


#: A pixel the table's colour model explains: within this Mahalanobis distance squared
#: (3 degrees of freedom: 99 % of a Gaussian's colours).
TABLE_FIT = 11.3
#: A pixel that is not table lies further out than this (5 standard deviations).
NOT_TABLE = 25.0
#: Least share of its hull a cluster the table's spread outlines must fill to be searched
#: for cards: pairs, runs and hands of cards fill 0.8-0.99 of theirs in the dev photos; the
#: floor round a table, a cup or a bottle 0.5-0.7.
CLUSTER_SOLIDITY = 0.75
#: The table's spread is fitted on every this many pixels each way of the work copy.
SAMPLE_STEP = 8
#: A table whose colours spread less than this (their widest standard deviation, Lab
#: steps) is about one colour, as the photo's most common colour models it: black cloth
#: 6-10 in the dev photos, grained light wood 16-36, a café's bamboo table 21.
WIDE_SPREAD = 12.0
#: Lines thinner than this share of the work copy's width that run into what the edges
#: enclose are opened away (``enclosed``): wood grain 2-5 px wide at 640, a card 40 or more.
GRAIN_WIDTH = 0.014
#: A cluster the edges enclose is searched if no other cue's blob covers this share of its
#: box (``_clusters_unseen``),
UNSEEN = 0.5
#: and the outlines found leave this share of it, less strips narrower than
#: ``STRIP_WIDTH`` of the work copy's width: the cards read whole round it leave a quarter
#: to four fifths of a row of cards touching, 5 % of a table's grain closed round them.
LEFT_UNSEEN = 0.25
STRIP_WIDTH = 0.04
#: Canny's two thresholds on the work copy's blurred Lab planes for a card's edge.
EDGE_STEPS = (40, 100)
#: Lower ones, for the faint edges of a light grained table (``WIDE_SPREAD``, ``LIGHT_TABLE``)
#: in a second pass: a white rim in a lamp's shadow on pale maple steps from the wood by less
#: than the first pass's, and the grain's lines cross it.
FAINT_EDGE_STEPS = (20, 60)
#: A table whose lightness (Lab, 0-255) is at least this is light: only there is a card's
#: edge faint, and do the light blobs miss clusters (the dev photos' dark rug and wood 27-30,
#: a laptop 66, cork 101-107, a café's table 114, a white table 182-204, pale maple in a
#: lamp's shadow from 113).
LIGHT_TABLE = 100.0


def table_colour_mask(lab: np.ndarray) -> np.ndarray | None:
    """Pixels the table's spread of colours does not explain (``lab``: the work copy,
    blurred, in Lab); None when no spread covers a table's share of the photo, or the
    table is about one colour (``WIDE_SPREAD``: the photo's most common colour serves).

    Wood's grain runs from light to dark along one line of colours, a cloth's folds along
    another: the table is modelled as a Gaussian (mean and covariance), fitted round each of
    the photo's three most common colours in turn, the first explaining half the photo (else
    the one explaining most) kept. A white rim on light wood lies off the grain's line,
    though near its colours."""
    # Fitted on every eighth pixel each way (8,000 colours at 640 x 854): the table's
    # colours are a large share of the photo, and a sample shows their spread as well.
    sample = np.ascontiguousarray(lab[::SAMPLE_STEP, ::SAMPLE_STEP])
    colours = sample.reshape(-1, 3).astype(np.float32)
    cells = cv2.calcHist([sample], [0, 1, 2], None, [16, 16, 16], [0, 256, 0, 256, 0, 256])
    best: tuple[float, np.ndarray, np.ndarray, float] | None = None
    seeds: list[np.ndarray] = []
    fullest = np.argpartition(cells.ravel(), -40)[-40:]
    for cell in fullest[np.argsort(cells.ravel()[fullest])[::-1]]:
        seed = np.float32(np.unravel_index(int(cell), cells.shape)) * 16 + 8
        if any(np.linalg.norm(seed - s) < 40 for s in seeds):
            continue  # the same colour's neighbouring cell
        seeds.append(seed)
        fitted = _fitted_spread(colours, seed)
        if fitted is not None and (best is None or fitted[0] > best[0]):
            best = fitted
        if len(seeds) == 3 or best is not None and best[0] >= 0.5:
            break  # a spread explaining half the photo is the table
    if best is None or best[0] < 0.3 or best[3] < WIDE_SPREAD:
        return None  # no table's share, or a table of about one colour (the other cues')
    _, mean, whitening, _ = best
    distance = _mahalanobis_squared(lab, mean, whitening)
    mask = np.uint8(distance > NOT_TABLE) * 255
    if cv2.countNonZero(mask) > 0.6 * mask.size:
        return None
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((5, 5), np.uint8))
    return cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))


def _fitted_spread(colours: np.ndarray, seed: np.ndarray
                   ) -> tuple[float, np.ndarray, np.ndarray, float] | None:
    """The Gaussian of the colours round ``seed``, refitted up to four times to the colours
    it explains: the share it explains, its mean, its whitening matrix and its widest
    standard deviation."""
    offset = colours - seed
    near = np.einsum("ij,ij->i", offset, offset) < 16.0 ** 2
    for _ in range(4):
        weight = near.astype(np.float32)
        count = float(weight.sum())
        if count < 30:
            return None
        mean = weight @ colours / count
        covariance = ((colours * weight[:, None]).T @ colours / count - np.outer(mean, mean)
                      + 4.0 * np.eye(3))  # at least 2 Lab steps each way
        whitening = np.linalg.cholesky(np.linalg.inv(covariance)).T.astype(np.float32)
        explained = _mahalanobis_squared(colours[:, None], mean, whitening).ravel() < TABLE_FIT
        if np.array_equal(explained, near):
            break  # settled
        near = explained
    widest = float(np.sqrt(np.linalg.eigvalsh(covariance)[-1]))
    return float(explained.mean()), mean.astype(np.float32), whitening, widest


def _mahalanobis_squared(lab: np.ndarray, mean: np.ndarray, whitening: np.ndarray
                         ) -> np.ndarray:
    """Each pixel's squared Mahalanobis distance from ``mean`` (``whitening``: the upper
    Cholesky factor of the inverse covariance, so the distance is its product's length)."""
    centred = cv2.subtract(lab.astype(np.float32), tuple(float(v) for v in mean) + (0.0,))
    white = cv2.transform(centred, whitening)
    return cv2.transform(cv2.multiply(white, white), np.ones((1, 3), np.float32))


def quads_in_mask(mask: np.ndarray, min_area: float, max_area: float,
                  retrieval: int = cv2.RETR_EXTERNAL, fill: float = 0.88) -> list[np.ndarray]:
    """Four-sided outlines in a binary mask (work pixels): contours that fill at least
    ``fill`` of the quadrilateral that best encloses them."""
    contours, _ = cv2.findContours(mask, retrieval, cv2.CHAIN_APPROX_SIMPLE)
    found = []
    for contour in contours:
        _, _, w, h = cv2.boundingRect(contour)
        if w * h < min_area:
            continue  # a speck: its hull is smaller still
        hull = cv2.convexHull(contour)
        hull_area = cv2.contourArea(hull)
        if not min_area <= hull_area <= max_area:
            continue
        area = cv2.contourArea(contour)
        if area < fill * hull_area:
            continue
        quad = cv2.approxPolyN(hull, 4, epsilon_percentage=-1, ensure_convex=True)
        quad = quad.reshape(-1, 2).astype(np.float32)
        if len(quad) != 4 or area < fill * cv2.contourArea(quad):
            continue
        top, side = quad_sides(quad)
        if max(top, side) > 2.2 * min(top, side):
            continue  # no card or tile is that long, even foreshortened
        found.append(order_corners(quad))
    return found


def edge_mask(lab: np.ndarray, colour: bool = True, steps: tuple[int, int] = EDGE_STEPS
              ) -> np.ndarray:
    """Closed outlines of steps in lightness or (``colour``) in colour: a white card on
    light, warm wood differs little in lightness, much in colour. Canny on the blurred Lab
    planes (``steps``: its two thresholds), bridged by a pixel."""
    low, high = steps
    edges = cv2.Canny(lab[..., 0], low, high)
    # Colour steps: the a and b planes stretched, so a step from white to wood counts.
    for plane in (lab[..., 1], lab[..., 2]) if colour else ():
        edges |= cv2.Canny(cv2.convertScaleAbs(plane, alpha=3.0, beta=-3.0 * 128 + 128),
                           low, high)
    return cv2.dilate(edges, np.ones((3, 3), np.uint8))


def closed_at_frame(edges: np.ndarray) -> np.ndarray:
    """An edge mask with the photo's own border drawn in (in place): a card cut by the edge
    of the photo has no edge there, and its outline closes on the border instead."""
    cv2.rectangle(edges, (0, 0), (edges.shape[1] - 1, edges.shape[0] - 1), 255, 1)
    return edges


def work_lab(small: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(cv2.GaussianBlur(small, (5, 5), 0), cv2.COLOR_BGR2LAB)


class CardFinder:
    """Candidate card outlines and blobs in a BGR frame (see the module's docstring)."""

    def __init__(self, min_fraction: float = 0.003, max_fraction: float = 0.6) -> None:
        self.min_fraction = min_fraction
        self.max_fraction = max_fraction
        self.blobs = QuadFinder(min_fraction=min_fraction, max_fraction=max_fraction)

    def find(self, image: np.ndarray, background: TableBackground | None = None
             ) -> Candidates:
        scale = work_scale(image.shape)
        small = to_work(image)
        frame_area = small.shape[0] * small.shape[1]
        limits = (self.min_fraction * frame_area, self.max_fraction * frame_area)
        quads: list[np.ndarray] = []
        spread = None
        if background is not None:
            mask = background.mask(image)
            mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((5, 5), np.uint8))
            quads += quads_in_mask(mask, *limits)
        lab = work_lab(small)
        if background is None:
            mask = dominant_colour_mask(lab)
            if mask is not None:
                quads += quads_in_mask(mask, *limits)
            spread = table_colour_mask(lab)
        grey = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
        blobs, beyond = self.blobs.find_with_beyond(grey)  # in work pixels, as is all here
        for blob in blobs:
            quads += ([blob.outline] if blob.outline is not None else []) + blob.inner
        # Then the edges: an edge band's outer outline lies a pixel or two outside the card.
        edges = edge_mask(lab)
        inside_edges = enclosed(edges)
        quads += _edge_quads(edges, limits)
        if spread is not None:
            # Last, the outlines only the table's spread of colours shows (a white rim on
            # light grained wood), and the faint edges there: where another cue outlined a
            # card, its outline is kept.
            quads += quads_in_mask(spread, *limits)
            if cv2.mean(lab[..., 0], cv2.bitwise_not(spread))[0] >= LIGHT_TABLE:
                quads += _edge_quads(edge_mask(lab, steps=FAINT_EDGE_STEPS), limits)
        if background is not None:
            blobs += _blobs_of(mask, limits)
        if spread is not None:
            # On grained wood the light blobs follow the grain; the spread's are the cards,
            # which lie together in compact clusters (a pair, a run, a fan). What else the
            # spread leaves is ragged: the floor round the table, a cup, a bottle.
            # A cluster the light blobs found too is searched again, after every other, if
            # the cards read there leave it unexplained: its outline here differs.
            blobs += [b for b in _blobs_of(spread, limits) if _solidity(b) >= CLUSTER_SOLIDITY]
        # Last, what the edges enclose where no other cue outlined a cluster: on light wood
        # whose grain runs into the cards' edges, neither the light nor the table's colour
        # may tell a row of cards touching from the table.
        # (On a light table only: on a dark one the light blobs outline every cluster.)
        table_lightness = cv2.mean(lab[..., 0], cv2.bitwise_not(inside_edges))[0]
        late = (_clusters_unseen(inside_edges, blobs, quads, limits)
                if table_lightness >= LIGHT_TABLE else [])
        return Candidates(_distinct([q / scale for q in quads]),
                          [_scaled(b, 1 / scale) for b in blobs],
                          [tuple(int(v / scale) for v in box) for box in beyond],
                          [_scaled(b, 1 / scale) for b in late])


def _edge_quads(edges: np.ndarray, limits: tuple[float, float]) -> list[np.ndarray]:
    """The outlines the ``edges`` (``edge_mask``) close, the photo's border closing those
    it cuts."""
    return quads_in_mask(closed_at_frame(edges.copy()), *limits, retrieval=cv2.RETR_LIST,
                         fill=0.85)


def enclosed(edges: np.ndarray) -> np.ndarray:
    """What the ``edges`` (``edge_mask``) enclose, filled, less the lines that only touch it
    (wood grain running into a card's edge: thinner than ``GRAIN_WIDTH``)."""
    contours, _ = cv2.findContours(edges, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    filled = np.zeros_like(edges)
    cv2.drawContours(filled, contours, -1, 255, -1)
    width = max(3, round(GRAIN_WIDTH * edges.shape[1]) | 1)
    return cv2.morphologyEx(filled, cv2.MORPH_OPEN, cv2.getStructuringElement(
        cv2.MORPH_ELLIPSE, (width, width)))


def _blobs_of(mask: np.ndarray, limits: tuple[float, float]) -> list[Blob]:
    """The background mask's blobs that are not one quad: cards touching or overlapping."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    blobs = []
    for contour in contours:
        area = cv2.contourArea(cv2.convexHull(contour))
        if not limits[0] <= area <= 3 * limits[1]:
            continue
        rect = cv2.boxPoints(cv2.minAreaRect(contour)).astype(np.float32)
        blobs.append(Blob(None, [], cv2.boundingRect(contour), rect,
                          contour.reshape(-1, 2).astype(np.float32)))
    return blobs


def _clusters_unseen(inside: np.ndarray, blobs: list[Blob], quads: list[np.ndarray],
                     limits: tuple[float, float]) -> list[Blob]:
    """The compact clusters ``enclosed`` gave (``inside``) that the other cues missed: no
    blob of theirs covers half its box (``UNSEEN``), and the outlines they found leave a
    part of it (``LEFT_UNSEEN``) wider than a strip of grain the edges closed round."""
    found = np.zeros(inside.shape, np.uint8)
    for quad in quads:
        cv2.fillConvexPoly(found, quad.astype(np.int32), 255)
    width = round(STRIP_WIDTH * inside.shape[1]) | 1
    strip = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (width, width))
    unseen = []
    for blob in _blobs_of(inside, limits):
        if _solidity(blob) < CLUSTER_SOLIDITY or any(
                box_share(blob.box, other.box) >= UNSEEN for other in blobs):
            continue
        region = np.zeros(inside.shape, np.uint8)
        cv2.drawContours(region, [blob.contour.astype(np.int32)], -1, 255, -1)
        left = cv2.morphologyEx(cv2.bitwise_and(region, cv2.bitwise_not(found)),
                                cv2.MORPH_OPEN, strip)
        if cv2.countNonZero(left) >= LEFT_UNSEEN * cv2.countNonZero(region):
            unseen.append(blob)
    return unseen


def _solidity(blob: Blob) -> float:
    """The share of its hull a blob's outline fills."""
    hull = cv2.contourArea(cv2.convexHull(blob.contour))
    return cv2.contourArea(blob.contour) / max(hull, 1.0)


def _scaled(blob: Blob, factor: float) -> Blob:
    if factor == 1.0:
        return blob
    x, y, w, h = blob.box
    return Blob(None if blob.outline is None else blob.outline * factor,
                [q * factor for q in blob.inner],
                (int(x * factor), int(y * factor), int(w * factor) + 1, int(h * factor) + 1),
                blob.rect * factor, blob.contour * factor)


def _distinct(quads: list[np.ndarray]) -> list[np.ndarray]:
    """Quads with near-duplicates (the same card seen by two cues) dropped: the first cue's
    outline is kept."""
    kept: list[np.ndarray] = []
    for quad in quads:
        reach = 0.08 * min(quad_sides(quad))
        if not any(float(np.abs(quad[:, None] - k[None]).sum(axis=2).min(axis=1).max()) < reach
                   for k in kept):
            kept.append(quad)
    return kept
