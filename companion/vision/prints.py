"""Another copy of a deck: the same design printed again, as the cards on the table differ
from the images a deck was enrolled from.

Two copies of one deck are never the same picture: the paper is whiter or creamier, each ink
a little darker or of another hue (a press's colour balance), the ink spreads more or less
(lines and letters a little bolder or thinner), and the print sits a little off the cut, a
little larger or smaller (registration). A scan or a crop of one copy, enrolled, meets the
other on the table. ``Reprint`` is one such copy: drawn once per deck (every card of a copy
is printed alike), applied to each face.

>>> from companion.vision.deck import card, draw_standard_face
>>> face = draw_standard_face(card("7clubs"))
>>> copy = Reprint.random(np.random.default_rng(0)).apply(face, np.random.default_rng(1))
>>> copy.shape == face.shape, bool(np.abs(copy.astype(int) - face).mean() > 1)
(True, True)
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np


@dataclass(frozen=True)
class Reprint:
    """How one copy of a deck differs from the one enrolled. Zero everywhere: the same."""

    #: Paper's colour, as gains per BGR channel (a creamier paper: less blue).
    paper: tuple[float, float, float] = (1.0, 1.0, 1.0)
    #: Ink's response per channel, a gamma (>1 darker): a press's colour balance.
    ink: tuple[float, float, float] = (1.0, 1.0, 1.0)
    #: Ink spread, millimetres: >0 bolder lines, <0 thinner.
    spread_mm: float = 0.0
    #: The print's offset from the cut (mm, x and y) and its scale, the most per card.
    offset_mm: float = 0.0
    scale: float = 0.0

    @classmethod
    def random(cls, rng: np.random.Generator, strength: float = 1.0) -> Reprint:
        """A copy as far from another as two printings of a deck are (``strength`` 1): paper
        and inks up to 6 % apart, lines up to 0.12 mm bolder or thinner, the print up to
        0.6 mm and 1.5 % off."""
        s = float(strength)
        return cls(paper=tuple(float(v) for v in 1 + rng.uniform(-0.06, 0.03, 3) * s),
                   ink=tuple(float(v) for v in 1 + rng.uniform(-0.25, 0.25, 3) * s),
                   spread_mm=float(rng.uniform(-0.12, 0.12)) * s,
                   offset_mm=0.6 * s, scale=0.015 * s)

    def apply(self, face: np.ndarray, rng: np.random.Generator,
              px_per_mm: float | None = None) -> np.ndarray:
        """``face`` (BGR uint8) as this copy prints it; ``rng`` places the print on this
        card's cut. ``px_per_mm``: the face's resolution (a 63 mm card's width if None)."""
        h, w = face.shape[:2]
        px_mm = px_per_mm or min(h, w) / 63.0
        img = face
        if self.offset_mm or self.scale:
            img = _registered(img, rng, self.offset_mm * px_mm, self.scale)
        spread = self.spread_mm * px_mm
        if abs(spread) >= 0.25:
            img = _spread(img, spread)
        values = img.astype(np.float32) / 255
        # A gamma moves the inks (mid and dark tones) and leaves the paper (near 1) alone;
        # the paper's gains then tint everything printed on it.
        values = np.power(values, np.float32(self.ink)) * np.float32(self.paper)
        return np.clip(values * 255 + 0.5, 0, 255).astype(np.uint8)


def _registered(face: np.ndarray, rng: np.random.Generator, offset_px: float,
                scale: float) -> np.ndarray:
    """The print moved on the card by up to ``offset_px`` and scaled by up to ``scale``
    about its centre; what comes in at the rim is the paper's colour."""
    h, w = face.shape[:2]
    f = 1 + float(rng.uniform(-scale, scale))
    dx, dy = rng.uniform(-offset_px, offset_px, 2)
    move = np.float32([[f, 0, (1 - f) * w / 2 + dx], [0, f, (1 - f) * h / 2 + dy]])
    paper = [int(v) for v in np.median(face[:max(2, h // 40)].reshape(-1, 3), axis=0)]
    return cv2.warpAffine(face, move, (w, h), flags=cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_CONSTANT, borderValue=paper)


def _spread(face: np.ndarray, pixels: float) -> np.ndarray:
    """Ink spread by ``pixels`` (bolder if > 0): the darker (or lighter) neighbour taken,
    blended by the fraction of a whole pixel."""
    k = int(np.ceil(abs(pixels)))
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * k + 1, 2 * k + 1))
    moved = cv2.erode(face, kernel) if pixels > 0 else cv2.dilate(face, kernel)
    share = abs(pixels) / k
    return cv2.addWeighted(moved, share, face, 1 - share, 0)
