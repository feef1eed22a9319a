"""A deck of plain-shape cards like SET: 81 white landscape cards, each printed with one,
two or three like shapes (a diamond, a capsule or a squiggle), solid, striped or outlined, in
red, green or purple.

Such a deck is hard in its own ways: most of a card is plain white (little for a picture to
hold on), the printed shapes are themselves card-like outlines, and two cards can differ only
in fine stripes (striped or empty) or a shape's bends (a capsule or a squiggle). Ids are the
dev set's: ``{colour}-{single|double|triple}-{solid|stripes|outline}-{shape}``.

>>> deck = shape_deck()
>>> len(deck), deck[0].item_id
(81, 'green-single-solid-diamond')
>>> draw_shape_face(deck[0]).shape
(342, 534, 3)
"""

from __future__ import annotations

import cv2
import numpy as np

from companion.vision.art import ArtItem

__all__ = ["SET_MM", "draw_shape_face", "shape_deck"]

#: A SET card lies long side across: 89 x 57 mm.
SET_MM = (89.0, 57.0)
PX_PER_MM = 6
COLOURS = {"green": (70, 150, 10), "purple": (140, 30, 115), "red": (45, 60, 235)}
COUNTS = ("single", "double", "triple")
FILLS = ("solid", "stripes", "outline")
SHAPES = ("diamond", "capsule", "squiggle")
PAPER = (238, 242, 244)
#: A shape's size (mm), the distance between the centres of two shapes, an outline's
#: width and the stripes' pitch (mm), as measured on the dev set's crops.
SHAPE_MM = (19.5, 41.0)
PITCH_MM = 25.8
OUTLINE_MM = 1.3
STRIPE_MM = 1.15


def shape_deck() -> list[ArtItem]:
    """All 81 cards: every colour, count, fill and shape."""
    return [ArtItem(f"{colour}-{count}-{fill}-{shape}", f"{count} {fill} {shape}",
                    str(COUNTS.index(count) + 1), COLOURS[colour], "card",
                    draw=draw_shape_face, corner_mm=3.0, size_mm=SET_MM)
            for colour in COLOURS for count in COUNTS for fill in FILLS for shape in SHAPES]


def _outline(shape: str) -> np.ndarray:
    """The shape's outline in millimetres about its centre, upright (long side vertical)."""
    w, h = SHAPE_MM
    if shape == "diamond":
        return np.float32([[0, -h / 2], [w / 2, 0], [0, h / 2], [-w / 2, 0]])
    t = np.linspace(0, np.pi, 24)
    if shape == "capsule":
        r = w / 2
        top = np.stack([-r * np.cos(t), -(h / 2 - r) - r * np.sin(t)], axis=1)
        return np.float32(np.vstack([top, -top]))
    # A squiggle: a band bent one way at the top and the other at the bottom, round ends.
    half = h / 2 - w / 3
    s = np.linspace(-1, 1, 40)
    bend = 0.14 * w * np.sin(np.pi * s)
    width = 0.36 * w * (0.9 + 0.1 * np.cos(np.pi * s / 2))
    ys = s * half
    r_end = width[0]
    bottom = np.stack([bend[-1] + r_end * np.cos(t), half + r_end * np.sin(t)], axis=1)
    top = np.stack([bend[0] - r_end * np.cos(t), -half - r_end * np.sin(t)], axis=1)
    right = np.stack([bend + width, ys], axis=1)
    left = np.stack([bend - width, ys], axis=1)[::-1]
    return np.float32(np.vstack([right, bottom, left, top]))


def draw_shape_face(item: ArtItem) -> np.ndarray:
    """The face of a shape card, BGR, ``PX_PER_MM`` pixels a millimetre, landscape."""
    colour_name, count, fill, shape = item.item_id.split("-")
    colour = COLOURS[colour_name]
    w, h = int(SET_MM[0] * PX_PER_MM), int(SET_MM[1] * PX_PER_MM)
    img = np.full((h, w, 3), PAPER, np.uint8)
    n = COUNTS.index(count) + 1
    line = max(1, int(round(OUTLINE_MM * PX_PER_MM)))
    for k in range(n):
        cx = SET_MM[0] / 2 + (k - (n - 1) / 2) * PITCH_MM
        poly = ((_outline(shape) + [cx, SET_MM[1] / 2]) * PX_PER_MM).astype(np.int32)
        if fill == "solid":
            cv2.fillPoly(img, [poly], colour, cv2.LINE_AA)
        elif fill == "stripes":
            inside = np.zeros((h, w), np.uint8)
            cv2.fillPoly(inside, [poly], 255)
            stripes = np.zeros((h, w), np.uint8)
            # Lines 0.3 mm thick, 1.15 mm apart (as measured): seen from afar, a
            # pale fill of the shape's colour; striped, not empty.
            for y in np.arange(0, h, STRIPE_MM * PX_PER_MM):
                cv2.line(stripes, (0, int(y)), (w - 1, int(y)), 255, 2, cv2.LINE_AA)
            share = (stripes.astype(np.float32) / 255 * (inside > 0))[..., None]
            img[:] = (img * (1 - share) + np.float32(colour) * share).astype(np.uint8)
        cv2.polylines(img, [poly], True, colour, line, cv2.LINE_AA)
    return img
