"""Outlines put on a card's edge to a fraction of a pixel.

The card finder works on a small copy of the frame, so an outline it finds is a pixel or
several off in the frame itself (a rounded corner or a soft shadow pulls it further). The
comparison with enrolled faces is fine enough to feel that: an outline 3 px off scored 0.85
where the true one scored 0.90. Here each side is looked for again in the frame: at points
along it, the strongest step in brightness across it nearby; a line is fitted through them
(robust to the odd point on a neighbouring card or a shadow), and the corners are where the
four lines meet.

>>> image = np.full((200, 200), 60, np.uint8)
>>> _ = cv2.rectangle(image, (50, 40), (149, 179), 220, -1)  # its edges: 49.5 .. 179.5
>>> rough = np.float32([[52, 38], [148, 42], [151, 176], [47, 181]])
>>> [[round(float(v)) for v in corner] for corner in on_edges(image, rough) + 0.5]
[[50, 40], [150, 40], [150, 180], [50, 180]]
"""

from __future__ import annotations

import cv2
import numpy as np

from companion.vision.quads import corners_of, outward_normals, quad_sides

#: Points looked at along each side, and the share of each end left out (rounded corners).
POINTS = 24
ENDS = 0.12
#: How far across a side its edge is looked for: this share of the card's short side, at
#: least ``LEAST_REACH`` pixels.
REACH = 0.025
LEAST_REACH = 3.0
STEP = 0.5  # pixels between samples across a side


def on_edges(image: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """The quad (4 x 2, pixels of a BGR or grey image, in order round it) with each side
    moved onto the strongest edge within reach; the quad as given where a side shows no
    clear edge (a side under another card, or on a table as light as the card)."""
    quad = quad.astype(np.float32)
    reach = max(LEAST_REACH, REACH * min(quad_sides(quad)))
    across = np.arange(-reach, reach + 1e-3, STEP, dtype=np.float32)
    ends = np.roll(quad, -1, axis=0)
    sides = ends - quad
    lengths = np.linalg.norm(sides, axis=1, keepdims=True)
    if float(lengths.min()) < 4 * reach:
        return quad
    normals = outward_normals(quad)
    along = np.linspace(ENDS, 1 - ENDS, POINTS, dtype=np.float32)
    points = quad[:, None, :] + along[None, :, None] * sides[:, None, :]  # (4, POINTS, 2)
    where = points[:, :, None, :] + across[None, None, :, None] * normals[:, None, None, :]
    flat = where.reshape(4 * POINTS, len(across), 2)
    # Only the box round the samples, in float (a uint8 sample would be rounded).
    x0, y0 = np.floor(flat.reshape(-1, 2).min(axis=0)).astype(int) - 1
    x1, y1 = np.ceil(flat.reshape(-1, 2).max(axis=0)).astype(int) + 2
    x0, y0 = max(0, x0), max(0, y0)
    box = image[y0:max(y0 + 1, y1), x0:max(x0 + 1, x1)]
    if box.ndim == 3:
        box = cv2.cvtColor(box, cv2.COLOR_BGR2GRAY)
    box = box.astype(np.float32)
    flat = flat - np.float32([x0, y0])
    profiles = cv2.remap(box, flat[..., 0], flat[..., 1], cv2.INTER_LINEAR,
                         borderMode=cv2.BORDER_REPLICATE)
    profiles = cv2.GaussianBlur(profiles, (5, 1), 0)
    position, middle, inner = _peaks(np.abs(np.diff(profiles, axis=1)))
    offset = across[0] + (position + 0.5) * STEP
    strength = middle.reshape(4, POINTS)
    offset = offset.reshape(4, POINTS)
    inner = inner.reshape(4, POINTS)
    lines = []
    for k in range(4):
        # Points whose step is weak lie where the side shows no edge: left out.
        keep = inner[k] & (strength[k] > 0.5 * float(np.median(strength[k])))
        if keep.sum() < POINTS // 3 or float(np.median(strength[k])) < 2.0:
            return quad
        found = points[k][keep] + offset[k][keep, None] * normals[k][None]
        vx, vy, px, py = cv2.fitLine(found.astype(np.float32), cv2.DIST_HUBER, 0, 0.01,
                                     0.01).reshape(-1)
        lines.append((np.float32([px, py]), np.float32([vx, vy])))
    moved = corners_of(lines)
    if moved is None or float(np.abs(moved - quad).max()) > 2 * reach:
        return quad
    return moved.astype(np.float32)


def _peaks(steps: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per row, where the strongest step lies (to a fraction of a sample: a parabola through
    it and its neighbours), its strength, and whether it lies inside the row (not at an end,
    where the true edge may lie beyond)."""
    rows = np.arange(len(steps))
    peak = steps.argmax(axis=1)
    inner = (peak > 0) & (peak < steps.shape[1] - 1)
    left = steps[rows, np.clip(peak - 1, 0, None)]
    right = steps[rows, np.clip(peak + 1, None, steps.shape[1] - 1)]
    middle = steps[rows, peak]
    bend = left - 2 * middle + right
    curved = inner & (np.abs(bend) > 1e-6)
    shift = np.zeros(len(steps), np.float32)
    shift[curved] = 0.5 * (left - right)[curved] / bend[curved]
    return peak + shift, middle, inner
