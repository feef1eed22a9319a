"""The table seen at a slant. A phone held at an angle sees the table's rectangles as
trapezia: a card read whole has corners ten degrees and more off square. A corner index is
a few pixels of print, compared upright with the deck's own at one turn; seen skewed by
that much it fits no card's. A card read whole places the table's plane (its outline is its
face seen through the camera): a region of the frame seen flat, as from straight above,
shows every card lying on the table square and at one size, and an index there reads as
it would on a photo taken from above.

>>> square = np.float32([[0, 0], [60, 0], [60, 90], [0, 90]])
>>> round(slant(square), 1)
0.0
>>> round(slant(np.float32([[10, 0], [50, 0], [60, 90], [0, 90]])), 1)
6.3
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

#: A card read whole whose corners lie this far off square (degrees, the worst of the four)
#: is seen at a slant: the indices round it are read in the table's plane seen flat.
SLANT_FROM = 5.0
#: A camera's focal length lies within these many widths of its frame (a phone's wide lens
#: about 0.8, a webcam's about 1, a short telephoto 2).
FOCAL = (0.3, 3.0)
#: A region seen flat may grow this many times its area (the far side of a steep view
#: stretches); beyond that the plane placed is taken as wrong, and not used.
MOST_GROWTH = 3.0


def slant(corners: np.ndarray) -> float:
    """How far (degrees) the worst of a quadrilateral's corners lies off a right angle."""
    quad = np.asarray(corners, np.float64).reshape(4, 2)
    worst = 0.0
    for k in range(4):
        one, other = quad[k - 1] - quad[k], quad[(k + 1) % 4] - quad[k]
        lengths = float(np.linalg.norm(one) * np.linalg.norm(other))
        if lengths == 0:
            return 90.0
        angle = np.degrees(np.arccos(np.clip(float(one @ other) / lengths, -1.0, 1.0)))
        worst = max(worst, abs(float(angle) - 90.0))
    return worst


def pinhole_fits(corners: np.ndarray, face_size: tuple[int, int],
                 frame_size: tuple[int, int]) -> bool:
    """Whether a card of ``face_size`` (w x h) seen at ``corners`` is a rectangle seen
    through a camera: a pinhole looking at the frame's middle, whose focal length each of
    the view's two constraints places (the card's sides at right angles, and in the
    face's proportions, in the plane) within ``FOCAL`` widths of the frame. An outline
    read askew (a rounded corner cut off) gives a focal length that is no length at all."""
    fw, fh = face_size
    width, height = frame_size
    face = np.float32([[0, 0], [fw, 0], [fw, fh], [0, fh]])
    quad = np.asarray(corners, np.float32).reshape(4, 2) - np.float32([width / 2, height / 2])
    one, other = cv2.getPerspectiveTransform(face, quad).T[:2]
    # Each constraint gives the focal length squared, unless the view leaves it open (a
    # table tilted about the frame's own axis: its sides stay at right angles whatever
    # the focal length).
    across = one[2] * other[2]
    unequal = other[2] ** 2 - one[2] ** 2
    squares = []
    if abs(across) > 1e-15:
        squares.append(-(one[0] * other[0] + one[1] * other[1]) / across)
    if abs(unequal) > 1e-15:
        squares.append((one[0] ** 2 + one[1] ** 2 - other[0] ** 2 - other[1] ** 2) / unequal)
    low, high = FOCAL[0] * width, FOCAL[1] * width
    return bool(squares) and all(low ** 2 <= square <= high ** 2 for square in squares)


@dataclass(frozen=True)
class Flat:
    """A region of a frame seen flat: its picture, the short side of a card lying on the
    table in it (pixels), and the homography from its pixels to the frame's."""

    image: np.ndarray
    card_short: float
    to_frame: np.ndarray


def flatten(image: np.ndarray, corners: np.ndarray, face_size: tuple[int, int],
            box: tuple[int, int, int, int]) -> Flat | None:
    """The region ``box`` (x, y, w, h) of ``image`` seen flat in the plane of the card lying
    at ``corners`` (its face's own corner order; the face ``face_size``, w x h), at the
    scale it is seen at there; None where the region would stretch past ``MOST_GROWTH``
    (the plane placed is wrong, or the region reaches toward the horizon)."""
    fw, fh = face_size
    face = np.float32([[0, 0], [fw, 0], [fw, fh], [0, fh]])
    quad = np.asarray(corners, np.float32).reshape(4, 2)
    sides = np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1)
    # The card keeps its seen size: each face pixel is this many flat pixels.
    scale = float(sides.sum()) / (2.0 * (fw + fh))
    frame_to_flat = np.diag([scale, scale, 1.0]) @ np.linalg.inv(
        cv2.getPerspectiveTransform(face, quad).astype(np.float64))
    x, y, w, h = box
    x0, y0 = max(0, x), max(0, y)
    x1, y1 = min(image.shape[1], x + w), min(image.shape[0], y + h)
    if x1 - x0 < 8 or y1 - y0 < 8:
        return None
    region = np.float64([[x0, y0, 1], [x1, y0, 1], [x1, y1, 1], [x0, y1, 1]]).T
    lifted = frame_to_flat @ region
    if (lifted[2] <= 0).any():
        return None  # the region reaches past the plane's horizon
    ends = (lifted[:2] / lifted[2]).T
    low, high = np.floor(ends.min(axis=0)), np.ceil(ends.max(axis=0))
    size = high - low
    if size.prod() > MOST_GROWTH * (x1 - x0) * (y1 - y0):
        return None
    to_flat = np.array([[1, 0, -low[0]], [0, 1, -low[1]], [0, 0, 1]]) @ frame_to_flat
    seen = cv2.warpPerspective(image, to_flat, (int(size[0]), int(size[1])),
                               flags=cv2.INTER_LINEAR)
    return Flat(seen, scale * min(fw, fh), np.linalg.inv(to_flat))
