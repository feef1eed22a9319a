"""How different cards lie together in the real sets' scenes: a hand fanned so mostly the
corner indices show, a run of cards each laid on the one before, a pair with one card partly
under the other, a grid of cards apart. Placements in table millimetres, later ones on top.

>>> from companion.vision.deck import standard_deck
>>> rng = np.random.default_rng(0)
>>> fan = hand(standard_deck()[:13], (300.0, 300.0), 0.0, rng)
>>> len(fan), len({p.item.item_id for p in fan})
(13, 13)
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import cv2
import numpy as np

from companion.vision.art import ArtItem
from companion.vision.placing import Placement


def _turned(dx: float, dy: float, angle_deg: float) -> tuple[float, float]:
    a = math.radians(angle_deg)
    return dx * math.cos(a) - dy * math.sin(a), dx * math.sin(a) + dy * math.cos(a)


def hand(items: Sequence[ArtItem], centre_mm: tuple[float, float], angle_deg: float,
         rng: np.random.Generator, style: str | None = None) -> list[Placement]:
    """A hand held out on the table: ``arc`` (turned about a point below the cards, 5-9°
    apart) or ``row`` (slid sideways by 12-20 mm); each card on the one before it, so each
    shows a strip down its left side with its index, the last one whole. ``angle_deg``: the
    hand's turn (0: indices at the top)."""
    style = style or str(rng.choice(["arc", "row"]))
    n = len(items)
    w, h = items[0].size_mm
    out = []
    if style == "arc":
        step = float(rng.uniform(5, 9))
        radius = h * float(rng.uniform(0.7, 1.0))
        first = -step * (n - 1) / 2
        for k, item in enumerate(items):
            a = first + k * step + float(rng.uniform(-1, 1))
            # The pivot lies below the hand's middle; each card stands on a spoke from it.
            sx, sy = _turned(0.0, -radius, a)
            dx, dy = _turned(sx, sy + radius * 0.8, angle_deg)
            out.append(Placement(item, (centre_mm[0] + dx, centre_mm[1] + dy), angle_deg + a))
    else:
        step = float(rng.uniform(12, 20))
        tilt = float(rng.uniform(-6, 6))
        for k, item in enumerate(items):
            along = (k - (n - 1) / 2) * step
            dx, dy = _turned(along, float(rng.normal(0, 1.0)), angle_deg + tilt)
            out.append(Placement(item, (centre_mm[0] + dx, centre_mm[1] + dy),
                                 angle_deg + tilt + float(rng.uniform(-2, 2))))
    return out


def run(items: Sequence[ArtItem], start_mm: tuple[float, float], angle_deg: float,
        rng: np.random.Generator, step: tuple[float, float] = (0.3, 0.2)) -> list[Placement]:
    """Cards laid each on the one before, moved by ``step`` (shares of the card's width and
    height; y up the table), as a dealt run or a diagonal fan: each shows an L along two
    sides, its index in the corner."""
    w, h = items[0].size_mm
    out = []
    for k, item in enumerate(items):
        dx, dy = _turned(k * step[0] * w + float(rng.normal(0, 0.8)),
                         -k * step[1] * h + float(rng.normal(0, 0.8)), angle_deg)
        out.append(Placement(item, (start_mm[0] + dx, start_mm[1] + dy),
                             angle_deg + float(rng.uniform(-2, 2))))
    return out


def pair(under: ArtItem, over: ArtItem, centre_mm: tuple[float, float],
         rng: np.random.Generator, covered: tuple[float, float] = (0.2, 0.6)) -> list[Placement]:
    """Two cards, ``over`` lying partly on ``under``, turned against it by up to 35°, moved
    off it any way so that a share of ``under`` within ``covered`` is hidden (a corner, an
    end or a side of it)."""
    w, h = under.size_mm
    base = float(rng.uniform(0, 360))
    lower = Placement(under, centre_mm, base)
    area = w * h
    want = float(rng.uniform(*covered))
    best: tuple[float, Placement] | None = None
    for _ in range(40):
        a = float(rng.uniform(0, 2 * np.pi))
        reach = float(rng.uniform(0.25, 0.9))
        dx, dy = _turned(math.cos(a) * w * reach, math.sin(a) * h * reach, base)
        upper = Placement(over, (centre_mm[0] + dx, centre_mm[1] + dy),
                          base + float(rng.uniform(-35, 35)))
        hidden = cv2.intersectConvexConvex(lower.corners_mm(), upper.corners_mm())[0] / area
        if best is None or abs(hidden - want) < abs(best[0] - want):
            best = (hidden, upper)
        if abs(hidden - want) < 0.04:
            break
    assert best is not None
    return [lower, best[1]]


def grid(items: Sequence[ArtItem], centre_mm: tuple[float, float], columns: int,
         angle_deg: float, rng: np.random.Generator, gap_mm: float = 12.0) -> list[Placement]:
    """Cards apart in rows of ``columns`` (a game laid out: SET's twelve, a dealt row), each
    a little off its place and turned by a few degrees."""
    w, h = items[0].size_mm
    rows = -(-len(items) // columns)
    out = []
    for k, item in enumerate(items):
        r, c = divmod(k, columns)
        x = (c - (columns - 1) / 2) * (w + gap_mm) + float(rng.normal(0, gap_mm / 8))
        y = (r - (rows - 1) / 2) * (h + gap_mm) + float(rng.normal(0, gap_mm / 8))
        dx, dy = _turned(x, y, angle_deg)
        out.append(Placement(item, (centre_mm[0] + dx, centre_mm[1] + dy),
                             angle_deg + float(rng.uniform(-4, 4))))
    return out
