"""The table seen at a slant (``companion/vision/slant.py``): a card read whole places the
table's plane when a camera could have seen it so, and a region seen flat shows the cards on
that table square, at their size."""

from __future__ import annotations

import doctest

import cv2
import numpy as np
import pytest

from companion.vision import slant as slant_module
from companion.vision.slant import SLANT_FROM, flatten, pinhole_fits, slant

FRAME = (1280, 960)
FACE = (250, 350)


def _seen(tilt_degrees: float, focal: float = 1000.0, at=(0.0, 0.0)) -> np.ndarray:
    """A face's corners (face pixels, ``FACE``) lying on a table tilted ``tilt_degrees``
    from the camera's view, through a pinhole of ``focal`` pixels looking at the frame's
    middle."""
    fw, fh = FACE
    tilt = np.radians(tilt_degrees)
    turn = np.array([[1, 0, 0], [0, np.cos(tilt), -np.sin(tilt)],
                     [0, np.sin(tilt), np.cos(tilt)]])
    corners = np.array([[0, 0, 0], [fw, 0, 0], [fw, fh, 0], [0, fh, 0]], float)
    corners += [at[0] - fw / 2, at[1] - fh / 2, 0]
    in_space = corners @ turn.T + [0, 0, 1400.0]
    seen = focal * in_space[:, :2] / in_space[:, 2:] + np.array(FRAME) / 2
    return seen.astype(np.float32)


def test_a_card_on_a_tilted_table_is_seen_at_a_slant_by_a_camera():
    corners = _seen(40, at=(-250, 150))  # off the middle of the view: seen askew
    assert slant(corners) >= SLANT_FROM
    assert pinhole_fits(corners, FACE, FRAME)


@pytest.mark.parametrize("cut", [(0, 25.0), (2, -30.0)])
def test_an_outline_read_askew_is_no_camera_s_view(cut):
    """A card's outline with one corner misplaced (a rounded corner cut off, a shadow taken
    in) is off square like a slanted view, but no pinhole sees a rectangle so."""
    corners = _seen(0).copy()
    corner, shift = cut
    corners[corner] += np.float32([shift, shift / 2])
    assert slant(corners) >= SLANT_FROM
    assert not pinhole_fits(corners, FACE, FRAME)


def test_a_region_seen_flat_shows_another_card_on_the_table_square_at_its_size():
    face = np.full((FACE[1], FACE[0], 3), 235, np.uint8)
    cv2.putText(face, "7", (20, 60), cv2.FONT_HERSHEY_SIMPLEX, 2, (0, 0, 200), 4)
    box = np.float32([[0, 0], [FACE[0], 0], [FACE[0], FACE[1]], [0, FACE[1]]])
    image = np.full((FRAME[1], FRAME[0], 3), (40, 90, 30), np.uint8)
    placed, beside = _seen(40, at=(-200, 0)), _seen(40, at=(200, 60))
    for corners in (placed, beside):
        onto = cv2.getPerspectiveTransform(box, corners)
        laid = cv2.warpPerspective(face, onto, FRAME)
        inside = cv2.warpPerspective(np.full(face.shape[:2], 255, np.uint8), onto, FRAME)
        image[inside > 0] = laid[inside > 0]
    x0, y0 = np.floor(beside.min(axis=0)).astype(int) - 20
    x1, y1 = np.ceil(beside.max(axis=0)).astype(int) + 20
    flat = flatten(image, placed, FACE, (int(x0), int(y0), int(x1 - x0), int(y1 - y0)))
    assert flat is not None
    to_flat = np.linalg.inv(flat.to_frame)
    other = cv2.perspectiveTransform(beside.reshape(-1, 1, 2), to_flat).reshape(4, 2)
    assert slant(beside) >= SLANT_FROM and slant(other) < 0.5
    sides = np.linalg.norm(other - np.roll(other, -1, axis=0), axis=1)
    assert min(sides[0], sides[2]) == pytest.approx(flat.card_short, rel=0.02)
    # The picture is the frame's seen through the homography: the card's paper there.
    middle = other.mean(axis=0).round().astype(int)
    assert flat.image[middle[1], middle[0]].mean() > 200


def test_a_region_reaching_past_the_horizon_is_not_flattened():
    corners = _seen(75)
    assert flatten(np.zeros((FRAME[1], FRAME[0], 3), np.uint8), corners, FACE,
                   (0, 0, FRAME[0], FRAME[1])) is None


def test_the_module_s_examples_hold():
    failed, tried = doctest.testmod(slant_module)
    assert tried >= 3 and failed == 0
