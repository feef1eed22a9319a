"""A frame's tones brought into the range the readers' thresholds hold for.

The readers tell print from paper, and a card's edge from the table, by steps in brightness
(edges, ink against paper, an index's strokes). In a dim room every step is smaller; through
haze, flare or a cheap lens the blacks are grey and every step is smaller too. Real photos
of cards on tables, by phones and webcams, have their darkest hundredth at most ``BLACK``
and their lightest two-hundredth (the cards' paper, where cards lie) at least ``PAPER``.
A frame outside that range is stretched, one gain for all three colours, just into it; a
frame inside it is left exactly as taken.

>>> dim = np.full((64, 64, 3), 10, np.uint8)
>>> dim[16:48, 16:48] = 100  # a card's paper, at half the light
>>> int(levelled(dim)[32, 32, 0]), int(levelled(dim)[0, 0, 0])
(200, 10)
>>> normal = np.full((64, 64, 3), 10, np.uint8)
>>> normal[16:48, 16:48] = 230
>>> levelled(normal) is normal
True
"""

from __future__ import annotations

import cv2
import numpy as np

#: The darkest hundredth of a real photo of a table is at most this grey level.
BLACK = 45
#: Its lightest two-hundredth (the cards' paper) at least this one.
PAPER = 200
#: The frame's range is measured on every this-many-th pixel each way.
SAMPLED = 8


def tone_range(image: np.ndarray) -> tuple[float, float]:
    """The grey levels of a frame's darkest hundredth and of its lightest two-hundredth
    (every ``SAMPLED``-th pixel each way counted: enough for a share, a fraction of a
    millisecond)."""
    sampled = np.ascontiguousarray(image[::SAMPLED, ::SAMPLED])
    grey = sampled if sampled.ndim == 2 else cv2.cvtColor(sampled, cv2.COLOR_BGR2GRAY)
    counts = np.cumsum(cv2.calcHist([grey], [0], None, [256], [0, 256]).ravel())
    low, high = np.searchsorted(counts, (0.01 * counts[-1], 0.995 * counts[-1]))
    return float(low), float(high)


def levelled(image: np.ndarray) -> np.ndarray:
    """The frame (uint8, grey or BGR) stretched just into ``BLACK``..``PAPER`` where it lies
    outside (too dim, or too grey); the frame itself where it lies inside."""
    low, high = tone_range(image)
    if low <= BLACK and high >= PAPER:
        return image
    to_low, to_high = min(low, BLACK), max(high, PAPER)
    gain = (to_high - to_low) / max(high - low, 1.0)
    levels = np.arange(256, dtype=np.float32)
    table = np.clip(to_low + (levels - low) * gain, 0, 255).astype(np.uint8)
    return cv2.LUT(image, table)
