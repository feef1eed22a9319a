"""The four card suits as vector shapes drawn with OpenCV (no fonts, no image files).

A suit is drawn into a mask upright or turned 180°, as the lower pips of a real card are.

>>> canvas = np.full((60, 60, 3), 255, np.uint8)
>>> draw_suit(canvas, "hearts", (30, 30), 40, (40, 40, 200))
>>> bool((canvas[30, 30] == (40, 40, 200)).all()), bool((canvas[2, 2] == 255).all())
(True, True)
"""

from __future__ import annotations

import math

import cv2
import numpy as np

SUITS = ("spades", "hearts", "diamonds", "clubs")
RED = (40, 30, 205)  # BGR: printed card red
BLACK = (25, 22, 22)


def suit_colour(suit: str) -> tuple[int, int, int]:
    return RED if suit in ("hearts", "diamonds") else BLACK


def _heart(n: int = 60) -> np.ndarray:
    """The classic heart curve, scaled to a unit box centred on (0, 0), point down."""
    t = np.linspace(0, 2 * math.pi, n, endpoint=False)
    x = 16 * np.sin(t) ** 3
    y = -(13 * np.cos(t) - 5 * np.cos(2 * t) - 2 * np.cos(3 * t) - np.cos(4 * t))
    pts = np.stack([x, y], axis=1)
    pts -= (pts.max(axis=0) + pts.min(axis=0)) / 2
    return pts / np.ptp(pts[:, 1])


def _curve(a: np.ndarray, ctrl: np.ndarray, b: np.ndarray, n: int = 12) -> np.ndarray:
    t = np.linspace(0, 1, n)[:, None]
    return (1 - t) ** 2 * a + 2 * (1 - t) * t * ctrl + t ** 2 * b


def _stem(top: float, width: float) -> np.ndarray:
    """A flared stem from ``top`` down to the bottom of the unit box (concave sides)."""
    a, b, c = np.array([0.0, top]), np.array([width, 0.5]), np.array([-width, 0.5])
    right = _curve(a, np.array([0.03, 0.38]), b)
    left = _curve(c, np.array([-0.03, 0.38]), a)
    return np.vstack([right, left])


def _shapes(suit: str) -> tuple[list[np.ndarray], list[tuple[float, float, float]]]:
    """Polygons and circles (x, y, r) of a suit in a unit box, upright."""
    if suit == "hearts":
        return [_heart()], []
    if suit == "diamonds":
        top, right, bottom, left = (np.array(p) for p in [(0, -0.5), (0.36, 0), (0, 0.5),
                                                         (-0.36, 0)])
        # Slightly concave sides, as printed diamonds have.
        sides = [_curve(top, np.array([0.12, -0.12]), right), _curve(right, np.array([0.12, 0.12]),
                                                                     bottom),
                 _curve(bottom, np.array([-0.12, 0.12]), left),
                 _curve(left, np.array([-0.12, -0.12]), top)]
        return [np.vstack(sides)], []
    if suit == "spades":
        body = _heart() * np.array([1.0, -1.0]) * 0.78 + np.array([0, -0.11])
        return [body, _stem(0.05, 0.17)], []
    if suit == "clubs":
        # Three lobes with deep notches between them, as printed clubs have (the notches
        # are what tells a small club from a spade).
        r = 0.21
        circles = [(0.0, -0.275, r), (-0.26, 0.065, r), (0.26, 0.065, r)]
        middle = np.array([[0, -0.12], [0.12, 0.045], [0, 0.145], [-0.12, 0.045]])
        return [middle, _stem(0.0, 0.16)], circles
    raise ValueError(f"unknown suit {suit!r} (suits: {', '.join(SUITS)})")


def suit_mask(suit: str, height: int, turned: bool = False) -> np.ndarray:
    """A float mask (height x height, 0..1) of the suit, optionally turned 180°."""
    size = max(4, int(height))
    scale = 4  # drawn at 4x then reduced: smooth edges at any size
    big = size * scale
    mask = np.zeros((big, big), np.uint8)
    polys, circles = _shapes(suit)
    to_px = lambda p: ((p + 0.5) * big).astype(np.int32)  # noqa: E731
    cv2.fillPoly(mask, [to_px(p) for p in polys], 255, cv2.LINE_AA)
    for x, y, r in circles:
        cv2.circle(mask, tuple(int(v) for v in to_px(np.array([x, y]))), int(r * big), 255, -1,
                   cv2.LINE_AA)
    mask = cv2.resize(mask, (size, size), interpolation=cv2.INTER_AREA).astype(np.float32) / 255
    return mask[::-1, ::-1].copy() if turned else mask


def draw_suit(img: np.ndarray, suit: str, centre: tuple[float, float], height: float,
              colour: tuple[int, int, int], turned: bool = False) -> None:
    """Ink a suit pip onto ``img`` (BGR, in place), centred at ``centre``."""
    mask = suit_mask(suit, int(round(height)), turned)
    size = mask.shape[0]
    x0, y0 = int(round(centre[0] - size / 2)), int(round(centre[1] - size / 2))
    h, w = img.shape[:2]
    cx0, cy0, cx1, cy1 = max(x0, 0), max(y0, 0), min(x0 + size, w), min(y0 + size, h)
    if cx1 <= cx0 or cy1 <= cy0:
        return
    m = mask[cy0 - y0:cy1 - y0, cx0 - x0:cx1 - x0, None]
    roi = img[cy0:cy1, cx0:cx1].astype(np.float32)
    img[cy0:cy1, cx0:cx1] = (roi * (1 - m) + np.float32(colour) * m).astype(np.uint8)
