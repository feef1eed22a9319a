"""Where a card read from its corner index can lie: on the clusters and light regions the
finder outlined, or under the cards read. A card's index says where its corner is; the rest
of the card is laid from it. Where most of that outline falls on bare table (the cloth
showing, no cluster, no card read on it), a card lying there would show itself: the index
was read as the wrong corner of the wrong card (a king's top right index read as the top
left of a card lying beside it), and no card lies there.

>>> table = np.full((100, 200, 3), (40, 90, 30), np.uint8)   # green cloth
>>> table[20:80, 20:80] = 230                                   # a card lying there
>>> ground = Ground(table, [], [])
>>> on_the_card = np.float32([[25, 25], [75, 25], [75, 75], [25, 75]])
>>> half_off = np.float32([[50, 25], [100, 25], [100, 75], [50, 75]])
>>> round(ground.bare(on_the_card, []), 2), round(ground.bare(half_off, []), 2)
(0.0, 0.41)
>>> ground.bare(half_off, [np.float32([[80, 0], [150, 0], [150, 90], [80, 90]])])
0.0

On a light table the table's colour does not tell where a card could lie (a card in a shadow
is as dark as the wood): nothing there is bare.

>>> light_wood = np.full((100, 200, 3), (150, 190, 215), np.uint8)
>>> light_wood[20:80, 20:80] = 245
>>> Ground(light_wood, [], []).bare(half_off, [])
0.0
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from companion.vision.finder import LIGHT_TABLE, dominant_colour_mask, to_work, work_lab


class Ground:
    """The regions of a frame on which cards may lie: the finder's clusters (outlines,
    ``(N, 2)`` each), its light regions too large to be one (boxes ``(x, y, w, h)``), and
    whatever is not the table's colour. Where the photo shows no one clear table colour
    (``dominant_colour_mask``: a cluttered desk, a white table), every pixel may hold a
    card: a card in a shadow or on a light table is not told from the table so."""

    def __init__(self, image: np.ndarray, clusters: Sequence[np.ndarray],
                 regions: Sequence[tuple[int, int, int, int]]) -> None:
        self.image = image
        self.clusters = clusters
        self.regions = regions
        self._mask: np.ndarray | None = None

    @property
    def mask(self) -> np.ndarray:
        """1 where a card may lie (made on first use: most frames read no index)."""
        if self._mask is None:
            lab = work_lab(to_work(self.image))
            table = dominant_colour_mask(lab)
            shape = self.image.shape[:2]
            if table is None or cv2.mean(lab[..., 0], cv2.bitwise_not(table))[0] >= LIGHT_TABLE:
                self._mask = np.ones(shape, np.uint8)
                return self._mask
            self._mask = np.uint8(cv2.resize(table, shape[::-1],
                                             interpolation=cv2.INTER_NEAREST) > 0)
            for contour in self.clusters:
                cv2.fillPoly(self._mask, [contour.reshape(-1, 2).round().astype(np.int32)], 1)
            for x, y, w, h in self.regions:
                self._mask[max(0, y):y + h, max(0, x):x + w] = 1
        return self._mask

    def bare(self, corners: np.ndarray, cards: Sequence[np.ndarray]) -> float:
        """The share of the outline ``corners`` inside the frame that lies on bare table:
        on no cluster, and under none of ``cards`` (outlines); 0 if none of it is inside."""
        height, width = self.mask.shape
        x0, y0 = np.maximum(np.floor(corners.min(axis=0)).astype(int), 0)
        x1, y1 = np.minimum(np.ceil(corners.max(axis=0)).astype(int) + 1, (width, height))
        if x1 <= x0 or y1 <= y0:
            return 0.0
        lying = self.mask[y0:y1, x0:x1].copy()
        for card in cards:
            if (card[:, 0].max() >= x0 and card[:, 0].min() < x1
                    and card[:, 1].max() >= y0 and card[:, 1].min() < y1):
                cv2.fillConvexPoly(lying, (card - (x0, y0)).round().astype(np.int32), 1)
        outline = np.zeros_like(lying)
        cv2.fillConvexPoly(outline, (corners - (x0, y0)).round().astype(np.int32), 1)
        inside = int(outline.sum())
        return float((outline & (1 - lying)).sum()) / inside if inside else 0.0
