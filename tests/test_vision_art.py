"""The demo art's colours are worked out without OpenCV (listing a game's cards, as the web
pages' camera channel does, loads no OpenCV), and are exactly OpenCV's: the rendered faces,
and the card library enrolled from them, stay as they were."""

from __future__ import annotations

import cv2
import numpy as np

from companion.vision.art import hue_colour


def test_hue_colour_is_opencvs_8_bit_hsv_for_every_hue():
    for hue in range(180):
        fraction = hue / 179 + 1e-9  # int(fraction * 179) == hue
        b, g, r = cv2.cvtColor(np.uint8([[[hue, 170, 200]]]), cv2.COLOR_HSV2BGR)[0, 0]
        assert hue_colour(fraction) == (int(b), int(g), int(r)), hue
