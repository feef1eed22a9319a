"""The enrolled library: the table's own cards and tiles, each shown to the camera once.

A library file (.npz) holds each enrolled face as an upright image, 448 pixels on its long
side; what the recognizer compares (patterns, SIFT keypoints) is derived on load, so the file
stays plain and a newer matcher reads an older library. The faces' SIFT keypoints (points,
descriptors as the bytes they are, owners) are written beside them and read back instead
of being found again: finding them costs seconds on a Pi and leaves tens of megabytes of
the allocator's heap behind in the daemon. A file without them (an older one) has them
found when the library is prepared, as before.

The file is written uncompressed, so that its faces are read in place (memory-mapped): once
the matching data are derived from them they leave the daemon's memory, and only the pages
of a face still looked at (lining a card up, reading a pile) come back, from the page
cache. A compressed file (an older one) is read into memory, as before.

>>> from companion.vision.art import ArtItem, draw_face
>>> lib = CardLibrary()
>>> lib.enroll("orc", draw_face(ArtItem("orc", "Orc", "2", (60, 140, 60), "card")))
>>> lib.ids, lib.faces[0].shape[0]
(['orc'], 448)
"""

from __future__ import annotations

import json
import mmap
import os
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from companion.errors import CompanionError
from companion.vision.faces import SQUARE_ASPECT, FaceIndex, pattern
from companion.vision.finder import edge_mask, quads_in_mask, work_lab
from companion.vision.indices import IndexReader
from companion.vision.marks import MarkReader
from companion.vision.quads import (
    QuadFinder,
    corners_of,
    order_corners,
    outward_normals,
    quad_sides,
)
from companion.vision.slant import slant
from companion.vision.stored import (
    SIFT_KIND,
    Sift,
    checked_sift,
    mapped_arrays,
    matcher_of,
    sift_of,
)
from companion.vision.twins import Twins

FORMAT = "companion-card-library"
VERSION = 1
#: The file of the samples the table taught (``CardLibrary.samples``), beside the library.
SAMPLES_FORMAT = "companion-card-samples"
#: The id of a sample of what is not a card (a correction answered "not a card").
NOT_A_CARD = "(not a card)"
#: Most samples kept: the oldest goes first (a table's evening teaches a few dozen).
MOST_SAMPLES = 200
#: Long side of a stored face, pixels: detail enough for the feature matcher on part of a card.
FACE_LONG = 448
#: Enrolment looks for the card on a copy this long: outlines need shape, not detail.
FIND_LONG = 800
#: Least Lab distance between the colours just inside and just outside a card's outline.
MIN_CONTRAST = 10.0
#: An outline round the one found, each side this far outside it (shares of its short
#: side), is the card's rim round a field printed on it (a white border on light wood stands
#: out less than the coloured field inside it), if it stands out from the surface this much.
RIM_WIDTH = (0.01, 0.15)
RIM_CONTRAST = 2 * MIN_CONTRAST
#: Most faces a library file may hold, and the largest a face may be (a crafted file).
MAX_FACES = 2000
MAX_FACE_SIDE = 2048
#: Least print (``pattern``'s mean strength) of an image that is a card alone: a white card
#: with one pip (the ace of diamonds: 1.7 in a scan, 0.56 drawn small) has it; a blank sheet
#: with camera noise has ~0.2.
PRINTED_CARD = 0.45
#: Most a corner of a card photographed to be enrolled may differ from square (degrees): a
#: card seen from above, in a phone's perspective; a printed rhombus (a SET card's diamond,
#: 50 and 130 degrees) is not a card.
ENROL_SKEW = 30.0
#: The rim of an image that may be the card alone may be darker than the card's middle by
#: this share of its paper: light falls off to the rim of a phone photo cut down to the card,
#: and a crop cut a little wide takes in a sliver of a light table, near the card's white (a
#: rendered deck cut so on a light grey table: 8-12 of 16 skipped at 0.1, none at 0.2; no
#: dev set's enrolment image is read otherwise). The deck's shape still decides (a photo of a
#: card on a table is not shaped like the card).
RIM_DARKER = 0.2
#: An outline this much of the image or more is the card even in an image that could be the
#: card alone (a tight crop with a sliver of the surface on a side).
FILLS_IMAGE = 0.8


class LibraryError(CompanionError):
    """A library file that cannot be read, or an enrolment that cannot be made."""


def upright(image: np.ndarray) -> np.ndarray:
    """Long side vertical, turned clockwise if needed."""
    h, w = image.shape[:2]
    return cv2.rotate(image, cv2.ROTATE_90_CLOCKWISE) if w > h * SQUARE_ASPECT else image


def find_card(image: np.ndarray) -> np.ndarray | None:
    """The outline (image pixels, clockwise from top-left) of the one card or tile a photo
    shows, lying on any plain surface, also when it fills the photo or touches its edge; None
    if there is none. A scan or artwork that is all card is not found here (see ``crop``)."""
    h, w = image.shape[:2]
    scale = min(1.0, FIND_LONG / max(h, w))
    small = image if scale == 1.0 else cv2.resize(image, None, fx=scale, fy=scale,
                                                   interpolation=cv2.INTER_AREA)
    ring = np.concatenate([small[:4].reshape(-1, 3), small[-4:].reshape(-1, 3),
                           small[:, :4].reshape(-1, 3), small[:, -4:].reshape(-1, 3)])
    surface = np.median(ring, axis=0)
    # A frame of the surface's colour closes the outline of a card that touches the edge.
    pad = max(8, max(small.shape[:2]) // 25)
    framed = cv2.copyMakeBorder(small, pad, pad, pad, pad, cv2.BORDER_CONSTANT,
                                value=[float(v) for v in surface])
    area = framed.shape[0] * framed.shape[1]
    limits = (0.04 * area, 0.95 * area)
    lab = cv2.cvtColor(cv2.GaussianBlur(framed, (5, 5), 0), cv2.COLOR_BGR2LAB).astype(np.float32)
    surface_lab = cv2.cvtColor(np.uint8([[surface]]), cv2.COLOR_BGR2LAB)[0, 0].astype(np.float32)
    distance = np.clip(np.linalg.norm(lab - surface_lab, axis=2) * 2, 0, 255).astype(np.uint8)
    level, mask = cv2.threshold(distance, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    quads = []
    if level >= 30:
        mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((5, 5), np.uint8))
        mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((9, 9), np.uint8))
        quads += quads_in_mask(mask, *limits, fill=0.85)
    quads += quads_in_mask(edge_mask(work_lab(framed), colour=False), *limits,
                           retrieval=cv2.RETR_LIST, fill=0.85)
    grey = cv2.cvtColor(framed, cv2.COLOR_BGR2GRAY)
    for contrast in (30, 18, 50):
        finder = QuadFinder(min_fraction=0.04, max_fraction=0.95, contrast=contrast)
        quads += [b.outline for b in finder.find(grey) if b.outline is not None]
    quads = [q for q in quads if max(quad_sides(q)) <= 2 * min(quad_sides(q))
             and limits[0] <= cv2.contourArea(q) <= limits[1] and _square_enough(q)]
    if not quads:
        return None
    # The largest outline that stands out from what lies round it: the card's, not the art
    # panel printed on it (often the starker outline), nor the card with a patch of table.
    contrast = [_border_contrast(lab, q) for q in quads]
    if max(contrast) < MIN_CONTRAST:
        return None  # only the photo's own edge, or a fold of the cloth
    clear = [q for q, c in zip(quads, contrast, strict=True) if c >= 0.5 * max(contrast)]
    best = max(clear, key=cv2.contourArea)
    # The outline round it that stands out most (one taking in a strip of table on a side
    # stands out less there) is the card's rim, if there is one.
    rims = [(c, q) for q, c in zip(quads, contrast, strict=True)
            if c >= RIM_CONTRAST and _rim_round(q, best)]
    if rims:
        best = max(rims, key=lambda rim: rim[0])[1]
    else:
        best = _grown_to_rim(lab, best)
    return order_corners((snap_sides(lab, best) - pad) / scale)


def _grown_to_rim(lab: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """The card round ``quad`` if ``quad`` is a field printed on it: a band of one colour
    (the rim) runs round it and ends in a sharp step ``RIM_WIDTH`` out, about as wide on
    every side (give or take perspective), and of one colour all round; else ``quad``.
    The step is found along each side and a line fitted to it, as ``snap_sides`` does. A
    card's shadow fades into the table; a grain line or a cloth's weave runs round no card
    on all four sides."""
    short = min(quad_sides(quad))
    offsets = np.arange(max(2.0, RIM_WIDTH[0] * short), RIM_WIDTH[1] * short + 1,
                        dtype=np.float32)
    if len(offsets) < 6:
        return quad
    rims, widths, lines = [], [], []
    for i, normal in enumerate(outward_normals(quad)):
        a, b = quad[i], quad[(i + 1) % 4]
        bases = a + (b - a) * np.linspace(0.12, 0.88, 24, dtype=np.float32)[:, None]
        probe = bases[:, None] + offsets[None, :, None] * normal  # (probes, offsets, 2)
        profiles = cv2.remap(lab, probe[..., 0], probe[..., 1], cv2.INTER_LINEAR,
                             borderMode=cv2.BORDER_REPLICATE)  # (probes, offsets, 3)
        rim = profiles[:, 0]
        # The first step outwards (over two pixels) from a band of the rim's colour to
        # another colour (a grain line further out may be sharper).
        jumps = np.linalg.norm(profiles[:, 2:] - profiles[:, :-2], axis=2)  # at 1 .. n-2
        off_rim = np.linalg.norm(profiles - rim[:, None], axis=2)
        count = len(offsets)
        at = np.arange(2, count - 2)
        step = ((jumps[:, at - 1] >= 0.5 * RIM_CONTRAST) & (off_rim[:, at - 2] < RIM_CONTRAST)
                & (off_rim[:, at + 2] - off_rim[:, at - 2] >= RIM_CONTRAST))
        held = step.any(axis=1)
        if held.sum() < 0.6 * len(held):
            return quad
        steps = at[step.argmax(axis=1)]
        edge = bases[held] + offsets[steps[held]][:, None] * normal
        vx, vy, x0, y0 = cv2.fitLine(edge.astype(np.float32), cv2.DIST_HUBER, 0, 0.01,
                                     0.01).ravel()
        lines.append((np.float32([x0, y0]), np.float32([vx, vy])))
        rims.append(np.median(rim[held], axis=0))
        widths.append(float(np.median(offsets[steps[held]])))
    # The rim's colour alike all round (its chroma: a lamp lights one side more).
    if (max(widths) > 2 * min(widths)
            or max(float(np.linalg.norm(r[1:] - rims[0][1:])) for r in rims) > RIM_CONTRAST):
        return quad
    grown = corners_of(lines)
    return quad if grown is None else grown


def _rim_round(outer: np.ndarray, inner: np.ndarray) -> bool:
    """Does ``outer`` run round ``inner`` as a card's rim runs round a field printed on it:
    each of ``inner``'s sides inside it, ``RIM_WIDTH`` of its short side from its outline, no
    side's rim twice another's (a printed rim is even; a card with a patch of table, its
    shadow, or a card glued off the middle of a mount is wider on a side)?"""
    short = min(quad_sides(inner))
    contour = outer.reshape(-1, 1, 2).astype(np.float32)
    widths = [cv2.pointPolygonTest(contour, tuple(float(v) for v in (inner[i] + inner[(i + 1) % 4])
                                                  / 2), True) for i in range(4)]
    return (RIM_WIDTH[0] * short <= min(widths) and max(widths) <= RIM_WIDTH[1] * short
            and max(widths) <= 2 * min(widths))


def snap_sides(lab: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """The quad with each side moved onto the sharpest colour step near it (within 4 % of
    the card's size): outlines from masks and edge bands sit a pixel or two off, and a
    card's soft shadow widens a mask on one side."""
    light = cv2.GaussianBlur(lab, (3, 3), 0)
    h, w = lab.shape[:2]
    reach = max(3, int(0.04 * min(quad_sides(quad))))
    steps = np.arange(-reach, reach + 1, dtype=np.float32)
    centre = quad.mean(axis=0)
    lines = []
    for i in range(4):
        a, b = quad[i], quad[(i + 1) % 4]
        along = (b - a) / (np.linalg.norm(b - a) + 1e-6)
        normal = np.float32([-along[1], along[0]])
        if np.dot((a + b) / 2 - centre, normal) < 0:
            normal = -normal
        points = []
        for t in np.linspace(0.12, 0.88, 24):
            base = a + (b - a) * t
            probe = base[None] + steps[:, None] * normal[None]
            xs, ys = probe[:, 0], probe[:, 1]
            if xs.min() < 0 or ys.min() < 0 or xs.max() > w - 1 or ys.max() > h - 1:
                continue
            profile = cv2.remap(light, xs.reshape(1, -1).astype(np.float32),
                                ys.reshape(1, -1).astype(np.float32),
                                cv2.INTER_LINEAR)[0].astype(np.float32)
            jump = np.linalg.norm(np.diff(profile, axis=0), axis=1)
            k = int(jump.argmax())
            if jump[k] > 6:
                points.append(base + normal * (steps[k] + 0.5))
        if len(points) < 8:
            return quad
        vx, vy, x0, y0 = cv2.fitLine(np.float32(points), cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
        lines.append((np.float32([x0, y0]), np.float32([vx, vy])))
    snapped = corners_of(lines)
    if snapped is None or float(np.abs(snapped - quad).max()) > 2 * reach:
        return quad  # a side caught on the print or the cloth: keep the outline found
    return snapped


def _border_contrast(lab: np.ndarray, quad: np.ndarray) -> float:
    """How clearly a quad's weakest side stands out: the Lab distance between the mean
    colours of thin bands just inside and just outside each side, the least of the four (a
    quad that cuts across the table on one side is not an outline)."""
    centre = quad.mean(axis=0)
    sides = []
    for i in range(4):
        means = []
        for grow in (0.96, 1.04):
            band = np.zeros(lab.shape[:2], np.uint8)
            ends = (centre + (quad[[i, (i + 1) % 4]] - centre) * grow).round().astype(np.int32)
            cv2.line(band, tuple(ends[0].tolist()), tuple(ends[1].tolist()), 255, 2)
            means.append(np.float32(cv2.mean(lab, band)[:3]))
        sides.append(float(np.linalg.norm(means[0] - means[1])))
    return min(sides)


def _square_enough(quad: np.ndarray) -> bool:
    """Are all four corners of the outline within ``ENROL_SKEW`` of square?"""
    return slant(quad) <= ENROL_SKEW


def _all_card(image: np.ndarray, sure: bool = True) -> bool:
    """Is the image itself a card (a scan or artwork cut to its edge): shaped like one, with
    a light rim all round and print inside? ``sure``: the rim as light as the card's middle
    and plainly light (a scan). Else a rim a little darker than the middle or the lightest
    part (a crop from a photo: a colour cast, a glare spot on the face, a dim room) may still
    be the card's: whether it is, is then for the deck to tell (``enrol_images``)."""
    h, w = image.shape[:2]
    if max(h, w) > 2.0 * min(h, w):
        return False
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY).astype(np.float32)
    band = max(1, min(h, w) // 40)
    edge = float(np.median(np.concatenate([grey[:band].ravel(), grey[-band:].ravel(),
                                           grey[:, :band].ravel(), grey[:, -band:].ravel()])))
    small = cv2.resize(image, (96, 134) if h >= w else (134, 96), interpolation=cv2.INTER_AREA)
    if float(np.abs(pattern(small)).mean()) <= PRINTED_CARD:
        return False
    middle = float(np.median(grey))
    if sure:
        return edge > 150 and edge >= middle
    # The paper's lightness: most of a card is its paper, the print and any glare the rest.
    paper = float(np.percentile(grey, 90))
    return edge >= 0.7 * paper and edge >= middle - RIM_DARKER * paper


def touches_edge(quad: np.ndarray, shape: tuple[int, ...]) -> bool:
    """Does a side of the quad run along the photo's edge (the card may be cut by it)?"""
    h, w = shape[:2]
    margin = 0.01 * max(h, w)
    for i in range(4):
        a, b = quad[i], quad[(i + 1) % 4]
        for axis, limit in ((0, 0.0), (0, w - 1.0), (1, 0.0), (1, h - 1.0)):
            if abs(a[axis] - limit) < margin and abs(b[axis] - limit) < margin:
                return True
    return False


def crop(item_id: str, image: np.ndarray) -> np.ndarray:
    """The card alone, upright, ``FACE_LONG`` pixels long, from a photo of it or a scan; a
    LibraryError naming the id and the reason if there is no card in it."""
    return cut_out(item_id, image)[0]


@dataclass(frozen=True)
class CardInPhoto:
    """What an image to enrol shows: the outline of the card found in it (None: none), the
    share of the image it covers, and whether the image may be the card alone (a scan, a
    tight crop) and surely is (see ``_all_card``)."""

    image: np.ndarray
    outline: np.ndarray | None
    fills: float
    may_be_alone: bool
    surely_alone: bool

    @property
    def plain(self) -> bool | None:
        """How the image reads on its own: True the whole image is the card, False the
        outline found is; None if the rest of the deck must tell (``enrol_images``): an
        outline in an image that may be a tight crop, or an image that may be the card alone
        but not surely."""
        if self.outline is not None:
            return None if self.may_be_alone and self.fills < FILLS_IMAGE else False
        return True if self.surely_alone else None

    def aspect(self, whole: bool) -> float:
        """Long side over short of the card, the whole image or the outline found."""
        if whole:
            h, w = self.image.shape[:2]
            return max(h, w) / min(h, w)
        top, side = quad_sides(self.outline)
        return max(top, side) / max(1e-6, min(top, side))


def look_at(item_id: str, image: np.ndarray) -> CardInPhoto:
    """The card an image to enrol may show (a LibraryError if it is no colour image)."""
    if image is None or image.ndim != 3 or image.shape[2] != 3 or min(image.shape[:2]) < 16:
        raise LibraryError(f"{item_id}: not a colour image of a card")
    quad = find_card(image)
    fills = 0.0 if quad is None else cv2.contourArea(quad) / (image.shape[0] * image.shape[1])
    return CardInPhoto(image, quad, fills, _all_card(image, sure=False), _all_card(image))


def cut_out(item_id: str, image: np.ndarray) -> tuple[np.ndarray, bool]:
    """``crop``, and whether the card's outline runs along the photo's edge somewhere (it
    may be cut by it: see ``Enrolment``). An image alone: one that may be the card alone
    and has an outline in it is the card alone only if it surely is (a scan: the outline is
    a frame printed on the card); ``enrol_images`` asks the rest of the deck instead."""
    in_photo = look_at(item_id, image)
    whole = in_photo.plain if in_photo.plain is not None else in_photo.surely_alone
    return face_of(item_id, in_photo, whole)


def face_of(item_id: str, in_photo: CardInPhoto, whole: bool) -> tuple[np.ndarray, bool]:
    """The face, from the whole image or the outline found, and whether the outline runs
    along the image's edge; a LibraryError naming the id if there is no card."""
    image, quad = in_photo.image, None if whole else in_photo.outline
    edge = quad is not None and touches_edge(quad, image.shape)
    if quad is None:
        if not whole or not in_photo.may_be_alone:
            raise LibraryError(f"{item_id}: no card found in the photo (lay the card alone on a "
                               "plain surface of another colour, filling at least a tenth of "
                               "the frame)")
        face = image
    else:
        top, side = quad_sides(quad)
        size = (max(8, round(top)), max(8, round(side)))
        dst = np.float32([[0, 0], [size[0], 0], [size[0], size[1]], [0, size[1]]])
        face = cv2.warpPerspective(image, cv2.getPerspectiveTransform(quad, dst), size,
                                   flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)
    face = upright(face)
    h, w = face.shape[:2]
    scale = FACE_LONG / max(h, w)
    return cv2.resize(face, (max(8, round(w * scale)), FACE_LONG),
                      interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_CUBIC), edge


class CardLibrary:
    """Enrolled faces by id, with what the recognizer needs to match them; and the samples
    the table taught since (``add_sample``): a card as this camera saw it, named by a
    correction, compared like any face of its card from the next reading on.

    The faces the recogniser compares (``all_faces``) are the enrolled faces then the
    samples, numbered in that order (a face number); ``card_of`` names the card of either."""

    def __init__(self) -> None:
        self.ids: list[str] = []
        self.faces: list[np.ndarray] = []
        #: The samples taught, oldest first: (card id or NOT_A_CARD, face upright).
        self.samples: list[tuple[str, np.ndarray]] = []
        self._index: FaceIndex | None = None
        self._twins: Twins | None = None
        self._indices: IndexReader | None = None
        self._marks: MarkReader | None = None
        self._features: dict | None = None
        self._sift: Sift | None = None  # the faces' keypoints, compact (read or found)
        #: Did the file read hold the faces' keypoints (False: an older file, or none)?
        self.keypoints_read = False
        self._mapped: mmap.mmap | None = None  # the file the faces are read from in place

    def __len__(self) -> int:
        return len(self.ids)

    # --- enrolment ---------------------------------------------------------------------
    def enroll(self, item_id: str, image: np.ndarray) -> None:
        """Add (or replace) a face from a photo of it alone, a scan, or its clean artwork."""
        if not item_id:
            raise LibraryError("an enrolled card needs an id")
        self.add_face(item_id, crop(item_id, image))

    def add_face(self, item_id: str, face: np.ndarray) -> None:
        """Add (or replace) a face that is already the card alone, upright."""
        if item_id in self.ids:
            self.faces[self.ids.index(item_id)] = face
        else:
            self.ids.append(item_id)
            self.faces.append(face)
        self._changed()

    def remove(self, item_id: str) -> None:
        index = self.ids.index(item_id)
        del self.ids[index], self.faces[index]
        self._changed()

    # --- samples the table teaches -----------------------------------------------------
    def add_sample(self, item_id: str, face: np.ndarray) -> None:
        """Keep ``face`` (a card's crop from the table's camera, upright: ``sample_of``) as
        a sample of card ``item_id`` (an enrolled id, or NOT_A_CARD): from the next reading
        on it is compared like the card's own face. The oldest goes beyond MOST_SAMPLES."""
        if item_id != NOT_A_CARD and item_id not in self.ids:
            raise LibraryError(f"{item_id!r} is not an enrolled card")
        self.samples = [*self.samples, (item_id, face)][-MOST_SAMPLES:]
        self._changed()

    def drop_sample(self, number: int) -> None:
        """Forget sample ``number`` (0: the oldest): it is no longer used."""
        if not 0 <= number < len(self.samples):
            raise LibraryError(f"no sample {number} (the library has {len(self.samples)})")
        del self.samples[number]
        self._changed()

    @property
    def all_faces(self) -> list[np.ndarray]:
        """Every face the recogniser compares: the enrolled faces, then the samples."""
        return [*self.faces, *(face for _, face in self.samples)]

    def card_of(self, face_number: int) -> str:
        """The card face ``face_number`` of ``all_faces`` shows (NOT_A_CARD for such a
        sample)."""
        if face_number < len(self.ids):
            return self.ids[face_number]
        return self.samples[face_number - len(self.ids)][0]

    def one_per_card(self, scores: list) -> list:
        """Scores (best first) with each card's best face only: a card's samples are that
        card, not look-alikes of it."""
        seen: set[str] = set()
        kept = []
        for score in scores:
            card = self.card_of(score.face_number)
            if card not in seen:
                seen.add(card)
                kept.append(score)
        return kept

    def _changed(self) -> None:
        self._index = None
        self._twins = None
        self._indices = None
        self._marks = None
        self._features = None
        self._sift = None

    # --- derived matching data ---------------------------------------------------------
    def prepare(self) -> None:
        """Derive what the recognizer compares on every frame now, not on the first one."""
        if self.ids:
            self.index.nearest(0)  # the nearest-neighbour likeness of every face, at once
        # The keypoints now (found, for a file without them: seconds, better at start than at
        # the first card seen in part); their search forest when first needed (``features``).
        self.sift  # noqa: B018
        self.indices  # noqa: B018  (the corner indices: a quarter second for 52 faces here)
        self.marks  # noqa: B018
        self.rest()

    def rest(self) -> None:
        """Let the faces read in place from the file leave the process's memory until they
        are looked at again (from the page cache): at start, and while the table rests."""
        if self._mapped is not None and hasattr(mmap, "MADV_DONTNEED"):
            self._mapped.madvise(mmap.MADV_DONTNEED)

    def rest_face(self, face: np.ndarray) -> None:
        """``rest`` for one face read in place: its pages leave the process's memory (and
        the pages it shares with its neighbours in the file, read again when looked at)."""
        if self._mapped is None or not hasattr(mmap, "MADV_DONTNEED") or face.base is not \
                self._mapped:
            return
        start = face.ctypes.data - np.ndarray((1,), np.uint8, buffer=self._mapped).ctypes.data
        first = start - start % mmap.PAGESIZE
        end = min(start + face.nbytes, len(self._mapped))
        self._mapped.madvise(mmap.MADV_DONTNEED, first, end - first)

    @property
    def index(self) -> FaceIndex:
        """The faces as patterns, for the fast comparison."""
        if self._index is None:
            self._index = FaceIndex(self.all_faces, done=self.rest_face,
                                    cards=[self.card_of(n) for n in range(len(self.all_faces))])
        return self._index

    @property
    def indices(self) -> IndexReader:
        """The deck's corner indices, for cards of which only a corner shows (learnt from
        the enrolled faces when first needed)."""
        if self._indices is None:
            self._indices = IndexReader(self.faces)
        return self._indices

    @property
    def both_tops(self) -> set[str]:
        """The cards printing their index at both top corners (either may be the one seen)."""
        return {self.ids[face_number] for face_number in self.indices.both_tops}

    @property
    def marks(self) -> MarkReader:
        """The deck's indices as a rank over a suit, for cards of which only a corner shows,
        each turned its own way (learnt from the enrolled faces when first needed)."""
        if self._marks is None:
            self._marks = MarkReader(self.faces)
        return self._marks

    @property
    def twins(self) -> Twins:
        """The faces compared where near twins differ (lined up pair by pair when asked)."""
        if self._twins is None:
            self._twins = Twins(self.all_faces)
        return self._twins

    @property
    def features(self) -> dict:
        """SIFT keypoints of every face in a search forest, for cards seen only in part (built
        on first use: a table of whole cards never needs it)."""
        if self._features is None:
            self._features = matcher_of(self.sift)
        return self._features

    @property
    def sift(self) -> Sift:
        """The faces' SIFT keypoints, compact: as read from the file, or found now."""
        if self._sift is None:
            self._sift = sift_of(self.faces)
        return self._sift

    def aspect(self, index: int) -> float:
        h, w = self.faces[index].shape[:2]
        return h / w

    # --- file --------------------------------------------------------------------------
    def save(self, path: str | Path) -> None:
        """Write the library as one .npz file (uncompressed), atomically: a failed write (a full
        disk, a read-only folder) leaves any library already there as it was."""
        target = Path(path)
        if target.is_dir():
            raise LibraryError(f"{target}: is a folder, not a library file")
        folder = target.parent
        if not folder.is_dir():
            raise LibraryError(f"{folder}: no such folder")
        header = json.dumps({"format": FORMAT, "version": VERSION, "ids": self.ids,
                             "features": SIFT_KIND})
        arrays = {f"face_{n}": face for n, face in enumerate(self.faces)}
        sift = self.sift
        arrays |= {"sift_points": sift.points, "sift_descriptors": sift.descriptors,
                   "sift_owners": sift.owners}
        # Not compressed: the faces are read in place (see the module's docstring).
        _write_npz(target, "library", header, arrays, np.savez)

    @classmethod
    def load(cls, path: str | Path) -> CardLibrary:
        """Read a library file, or raise LibraryError saying what is wrong with it."""
        try:
            with np.load(path, allow_pickle=False) as data:
                if not hasattr(data, "files") or "header" not in data.files:
                    raise LibraryError(f"{path}: not a card library")
                header = json.loads(str(data["header"]))
                if not isinstance(header, dict) or header.get("format") != FORMAT:
                    raise LibraryError(f"{path}: not a card library")
                if header.get("version") != VERSION:
                    raise LibraryError(f"{path}: library version {header.get('version')} "
                                       f"(this companion reads version {VERSION})")
                ids = header.get("ids")
                if (not isinstance(ids, list) or len(ids) > MAX_FACES
                        or not all(isinstance(i, str) and i for i in ids)
                        or len(set(ids)) != len(ids)):
                    raise LibraryError(f"{path}: the header's ids are not a list of distinct "
                                       "names")
                library = cls()
                library.ids = list(ids)
                # Read in place where stored so (the keypoints' descriptors too).
                names = [f"face_{n}" for n in range(len(ids))]
                if header.get("features") == SIFT_KIND and "sift_descriptors" in data.files:
                    names.append("sift_descriptors")
                library._mapped, mapped = mapped_arrays(path, names)
                arrays = mapped or data
                library.faces = [_checked_face(path, i, arrays[f"face_{n}"])
                                 for n, i in enumerate(ids)]
                if header.get("features") == SIFT_KIND:
                    library._sift = checked_sift(path, data, arrays, len(ids))
                    library.keypoints_read = library._sift is not None
        except LibraryError:
            raise
        except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile) as exc:
            raise LibraryError(f"{path}: cannot read the card library ({exc})") from None
        return library


def samples_path(library: str | Path) -> Path:
    """Where the samples taught to a library file are kept: ``cards.npz`` ->
    ``cards.samples.npz``."""
    path = Path(library)
    return path.with_name(f"{path.stem}.samples.npz")


def save_samples(library: CardLibrary, path: str | Path) -> None:
    """Write the library's samples (its own small file, so that a correction does not
    rewrite the whole library), atomically; none: the file is removed."""
    target = Path(path)
    if not library.samples:
        target.unlink(missing_ok=True)
        return
    header = json.dumps({"format": SAMPLES_FORMAT, "version": VERSION,
                         "ids": [item_id for item_id, _ in library.samples]})
    arrays = {f"sample_{n}": face for n, (_, face) in enumerate(library.samples)}
    _write_npz(target, "samples", header, arrays, np.savez_compressed)


def load_samples(library: CardLibrary, path: str | Path) -> None:
    """Read the samples taught to ``library`` from ``path`` (none if there is no file), or
    raise LibraryError saying what is wrong with it. Samples of cards no longer enrolled
    are left out."""
    if not Path(path).is_file():
        return
    try:
        with np.load(path, allow_pickle=False) as data:
            header = json.loads(str(data["header"])) if "header" in data.files else None
            if not isinstance(header, dict) or header.get("format") != SAMPLES_FORMAT:
                raise LibraryError(f"{path}: not the samples of a card library")
            ids = header.get("ids")
            if (not isinstance(ids, list) or len(ids) > MOST_SAMPLES
                    or not all(isinstance(i, str) and i for i in ids)):
                raise LibraryError(f"{path}: the header's ids are not a list of names")
            samples = [(i, _checked_face(path, i, data[f"sample_{n}"]))
                       for n, i in enumerate(ids)]
    except LibraryError:
        raise
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile) as exc:
        raise LibraryError(f"{path}: cannot read the samples ({exc})") from None
    library.samples = [(i, face) for i, face in samples if i == NOT_A_CARD or i in library.ids]
    library._changed()


def sample_of(image: np.ndarray, corners: np.ndarray) -> np.ndarray:
    """A card's crop from a frame, by its outline (four corners, image pixels), upright and
    at a face's size: what ``add_sample`` keeps."""
    quad = order_corners(np.float32(corners))
    top, side = quad_sides(quad)
    size = (max(8, round(top)), max(8, round(side)))
    dst = np.float32([[0, 0], [size[0], 0], [size[0], size[1]], [0, size[1]]])
    face = upright(cv2.warpPerspective(image, cv2.getPerspectiveTransform(quad, dst), size,
                                       flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE))
    h, w = face.shape[:2]
    scale = FACE_LONG / max(h, w)
    return cv2.resize(face, (max(8, round(w * scale)), FACE_LONG),
                      interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_CUBIC)


def _checked_face(path: str | Path, item_id: str, face: np.ndarray) -> np.ndarray:
    if (face.dtype != np.uint8 or face.ndim != 3 or face.shape[2] != 3
            or not 8 <= min(face.shape[:2]) <= max(face.shape[:2]) <= MAX_FACE_SIDE):
        raise LibraryError(f"{path}: the face of {item_id!r} is not a colour image")
    return face


def _write_npz(target: Path, what: str, header: Any, arrays: dict[str, Any],
               writer: Any) -> None:
    """Write ``arrays`` (and ``header``) to ``target`` atomically: a temporary file beside it,
    synced, then put in its place; a LibraryError naming ``what`` if it cannot be."""
    temp = None
    try:
        fd, temp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
        with os.fdopen(fd, "wb") as out:
            writer(out, header=np.array(header), **arrays)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temp, target)
        temp = None
    except OSError as exc:
        raise LibraryError(f"{target}: cannot write the {what} ({exc.strerror or exc})"
                           ) from None
    finally:
        if temp is not None:
            Path(temp).unlink(missing_ok=True)
