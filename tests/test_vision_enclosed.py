"""What the edges enclose (``finder.enclosed``): a card's outline filled, the grain lines
that run into it opened away."""

from __future__ import annotations

import cv2
import numpy as np

from companion.vision.finder import enclosed


def test_a_card_outline_with_grain_running_into_it_is_filled_without_the_grain():
    edges = np.zeros((480, 640), np.uint8)
    cv2.rectangle(edges, (200, 120), (300, 260), 255, 3)
    cv2.circle(edges, (250, 190), 12, 255, 2)  # a pip's edge inside
    for y in (60, 150, 300):  # grain lines, one running into the card's side
        cv2.line(edges, (0, y), (639, y + 40), 255, 2)
    filled = enclosed(edges)
    assert filled[190, 250] == 255 and filled[130, 210] == 255  # the card, pip and all
    assert filled[175, 100] == 0 and filled[190, 500] == 0  # not the grain beside it
    assert cv2.countNonZero(filled) < 1.1 * 101 * 141


def test_an_open_outline_encloses_nothing():
    edges = np.zeros((480, 640), np.uint8)
    cv2.polylines(edges, [np.int32([[200, 120], [300, 120], [300, 260], [200, 260]])], False,
                  255, 3)
    assert cv2.countNonZero(enclosed(edges)) == 0
