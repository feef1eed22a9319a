"""A tight crop's sliver of table: where the card's own edge runs inside an image cut down to
the card by hand.

A crop cut by hand (a face cut from another photo, a scan trimmed with a margin) keeps a
sliver of the table along a side or two, a per cent or two of the card and often a wedge
(the cut was not square to the card). Enrolled so, the face's print sits a little off and a
little small against the card as the camera crops it (from its outline, edge to edge), and
near look-alikes are told apart by exactly such small offsets. So the card's edge is looked
for in the margin: along each side, the step from a rim unlike the card's paper to that
paper; a line fitted through the steps of each side, and the card cut out along the four.

>>> import numpy as np
>>> crop = np.full((200, 140, 3), 235, np.uint8)
>>> crop[:4] = crop[:, :3] = (40, 60, 90)  # a sliver of table above and at the left
>>> quad = card_in_crop(crop)
>>> [round(float(v)) for v in quad[0]], [round(float(v)) for v in quad[2]]
([3, 4], [140, 200])
"""

from __future__ import annotations

import cv2
import numpy as np

from companion.vision.quads import corners_of

#: How far in from the image's edge the card's edge is looked for, as a share of the card
#: across that side: a hand's cut is off by a per cent or a few.
REACH = 0.05
#: A step found on all four sides at depths this near each other (share of the short side),
#: from rims of one colour, is a border printed round the card, not a hand's cut (which is
#: never so even): the image is the card to its edge.
EVEN = 0.005
#: The Lab distance between the image's rim and the paper beside it for the rim to be
#: table: less is the paper itself (a cut inside the card, or a table as light as it).
STEP = 30.0
#: The paper beside the rim must be the card's paper, at least this share as light as the
#: card's lightest part: a rim unlike a printed band beside it is print, not table.
PAPER = 0.85
#: Positions along each side where the step is looked for (clear of rounded corners).
ALONG = np.linspace(0.2, 0.8, 9)
#: A side is moved only where most positions along it found a step.
MOST = 5


def card_in_crop(image: np.ndarray) -> np.ndarray | None:
    """The card's outline (corners clockwise from top left, in the image's pixels) where a
    sliver of table runs along a side of the crop; None where none does (the image is the
    card to its edge)."""
    h, w = image.shape[:2]
    lab = cv2.cvtColor(image, cv2.COLOR_BGR2LAB).astype(np.float32)
    paper_light = float(np.percentile(lab[..., 0], 90))
    lines, middles, rims = [], [], []
    for side in range(4):  # top, right, bottom, left
        steps = _steps(lab, side, paper_light)
        found = [(t, d) for t, (d, _) in zip(ALONG, steps, strict=True) if d is not None]
        length = w if side % 2 == 0 else h
        slope = offset = 0.0
        if len(found) >= MOST:
            ts, ds = np.float32(found).T
            if float(np.abs(ds).max()) > 0.5:
                slope, offset = (float(v) for v in np.polyfit(ts * length, ds, 1))
                middles.append(offset + slope * 0.5 * length)
                rims.append(np.median([rim for d, rim in steps if d], axis=0))
        lines.append(_line(side, slope, offset, w, h))
    if not middles:
        return None
    if (len(middles) == 4 and max(middles) - min(middles) < EVEN * min(h, w)
            and max(float(np.linalg.norm(r - rims[0])) for r in rims) < STEP / 2):
        return None  # a printed border
    return corners_of(lines)


def _steps(lab: np.ndarray, side: int, paper_light: float
           ) -> list[tuple[float | None, np.ndarray]]:
    """At each position along ``side``: how far in the card's edge lies (pixels, sub-pixel;
    0 where the rim is the paper; None where the margin there is print, not table or paper),
    and the rim's colour."""
    h, w = lab.shape[:2]
    # Turn the image so that the side looked at is the top one.
    view = np.rot90(lab, k=side)  # counter-clockwise: each side in turn comes to the top
    across = view.shape[0]
    depth = max(2, round(REACH * across))
    half = max(1, round(0.01 * view.shape[1]))
    steps: list[tuple[float | None, np.ndarray]] = []
    for t in ALONG:
        x = round(t * (view.shape[1] - 1))
        profile = view[: 2 * depth + 1, max(0, x - half): x + half + 1].mean(axis=1)
        rim, paper = profile[0], np.median(profile[depth + 1:], axis=0)
        gap = paper - rim
        if paper[0] < PAPER * paper_light:
            steps.append((None, rim))
        elif float(np.linalg.norm(gap)) < STEP:
            steps.append((0.0, rim))
        else:
            share = (profile - rim) @ gap / float(gap @ gap)  # 0 at the rim, 1 at the paper
            crossed = np.flatnonzero(share[: depth + 1] >= 0.5)
            k = int(crossed[0]) if len(crossed) else 0
            before = float(share[k - 1]) if k else 0.0
            steps.append((k - 0.5 + (0.5 - before) / max(1e-6, float(share[k]) - before)
                          if k else None, rim))
    return steps


def _line(side: int, slope: float, offset: float, w: int, h: int
          ) -> tuple[np.ndarray, np.ndarray]:
    """The card's side as (point, direction) in the image: ``offset + slope * s`` pixels in
    from the image's ``side`` at ``s`` pixels along it (clockwise)."""
    if side == 0:
        return np.float32([0, offset]), np.float32([1, slope])
    if side == 1:
        return np.float32([w - offset, 0]), np.float32([-slope, 1])
    if side == 2:
        return np.float32([w, h - offset]), np.float32([-1, -slope])
    return np.float32([offset, h]), np.float32([slope, -1])
