"""How a synthetic frame is spoilt: lighting, glare, colour casts, blur, noise and, for
photo-like scenes, surfaces' shadows, vignetting, white balance, defocus and JPEG.

Split from companion/vision/synthetic.py (which re-exports ``Conditions``).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from companion.vision.optics import (
    cast_shadow,
    defocus,
    glare,
    jpeg,
    sensor_noise,
    vignette,
    white_balance,
)
from companion.vision.surfaces import SURFACES

BACKGROUNDS = ("wood", "felt", "slate", "oak")


@dataclass(frozen=True)
class Conditions:
    """How the frame is spoilt. Zero everywhere is a clean frame."""

    background: str = "wood"
    light_gradient: float = 0.0  # darkest corner is this fraction darker
    glare: float = 0.0  # peak brightness added by one glare spot, 0..1
    blur: float = 0.0  # Gaussian sigma, pixels
    noise: float = 0.0  # Gaussian sigma, grey levels
    colour_cast: float = 0.0  # up to this fraction per channel
    table_seed: int = 0  # the table's grain: fixed for a sequence, as a real table is
    # Harder, photo-like effects; all off by default so older figures stay as they were.
    surface: str = ""  # a kind of surfaces.SURFACES instead of ``background``'s simple texture
    vignette: float = 0.0  # corners this fraction darker
    shadow: float = 0.0  # darkness of one soft cast shadow across the scene
    card_shadow: float = 0.0  # darkness of the soft shadow each card casts on what is below it
    specular: float = 0.0  # a lamp's glare on one card, 0..1
    white_balance: float = 0.0  # 0..1 of a warm, cool, magenta or green cast
    defocus: float = 0.0  # Gaussian sigma at a 1280-px frame, rising across the frame
    jpeg_quality: int = 0  # 0: no JPEG round trip
    paper: float = 0.0  # uneven light across each card (bent paper), fraction darker
    cast: str = ""  # the white-balance cast by name (optics.CASTS), else one at random
    #: Over-exposure: the brightest paper this fraction past white (clipped), as a webcam
    #: exposing for a dark table gives white cards.
    exposure: float = 0.0

    @classmethod
    def real(cls, rng: np.random.Generator) -> Conditions:
        """Conditions like phone photos of a real table (see docs/vision.md, issue 13)."""
        return cls(background="wood", surface=str(rng.choice(SURFACES)),
                   light_gradient=float(rng.uniform(0.05, 0.35)),
                   # Blur and defocus measured against the real dev photos at 1280 px: the
                   # share of fine detail on the cards matches theirs (docs/vision.md).
                   blur=float(rng.uniform(0.2, 0.6)),
                   noise=float(rng.uniform(2, 7)),
                   colour_cast=float(rng.uniform(0, 0.04)),
                   table_seed=int(rng.integers(0, 2**31)),
                   vignette=float(rng.uniform(0.15, 0.55)),
                   shadow=float(rng.uniform(0.3, 0.6)) if rng.random() < 0.5 else 0.0,
                   card_shadow=float(rng.uniform(0.3, 0.7)),
                   specular=float(rng.uniform(0.3, 0.8)) if rng.random() < 0.4 else 0.0,
                   white_balance=float(rng.uniform(0, 1)),
                   defocus=float(rng.uniform(0.2, 1.0)),
                   jpeg_quality=int(rng.integers(60, 91)),
                   paper=float(rng.uniform(0.03, 0.15)))

    @property
    def hard(self) -> bool:
        return bool(self.surface)

    @classmethod
    def random(cls, rng: np.random.Generator) -> Conditions:
        return cls(background=str(rng.choice(BACKGROUNDS)),
                   light_gradient=float(rng.uniform(0, 0.45)),
                   glare=float(rng.uniform(0, 0.35)) if rng.random() < 0.5 else 0.0,
                   blur=float(rng.uniform(0, 1.2)),
                   noise=float(rng.uniform(0, 7)),
                   colour_cast=float(rng.uniform(0, 0.08)),
                   table_seed=int(rng.integers(0, 2**31)))


def spoil(frame: np.ndarray, cond: Conditions, rng: np.random.Generator,
           labels: np.ndarray | None = None) -> np.ndarray:
    h, w = frame.shape[:2]
    # The room's light stays put over a sequence; only the sensor noise is per frame.
    light = np.random.default_rng(cond.table_seed + 1)
    if cond.light_gradient:
        gx, gy = light.uniform(-1, 1, 2)
        xs, ys = np.meshgrid(np.linspace(-1, 1, w), np.linspace(-1, 1, h))
        ramp = (gx * xs + gy * ys) / (abs(gx) + abs(gy) + 1e-9)
        frame *= (1 - cond.light_gradient * (ramp + 1) / 2)[..., None].astype(np.float32)
    if cond.glare:
        cx, cy = light.uniform(0.2, 0.8) * w, light.uniform(0.2, 0.8) * h
        sigma = light.uniform(0.05, 0.12) * w
        xs, ys = np.meshgrid(np.arange(w), np.arange(h))
        spot = np.exp(-((xs - cx) ** 2 + (ys - cy) ** 2) / (2 * sigma ** 2))
        frame += (spot * cond.glare * 255)[..., None].astype(np.float32)
    if cond.colour_cast:
        frame *= (1 + light.uniform(-cond.colour_cast, cond.colour_cast, 3)).astype(np.float32)
    if cond.hard:
        return spoil_photo(frame, cond, rng, labels)
    if cond.blur > 0.2:
        frame = cv2.GaussianBlur(frame, (0, 0), cond.blur)
    if cond.noise:
        frame += rng.normal(0, cond.noise, frame.shape).astype(np.float32)
    return np.clip(frame, 0, 255).astype(np.uint8)


def spoil_photo(frame: np.ndarray, cond: Conditions, rng: np.random.Generator,
                labels: np.ndarray | None) -> np.ndarray:
    """The photo-like effects, in the order light and a phone apply them."""
    light = np.random.default_rng(cond.table_seed + 3)
    scale = max(frame.shape[:2]) / 1280  # blur is set for a 1280-px frame
    if cond.specular and labels is not None and (labels >= 0).any():
        card = int(light.choice(np.unique(labels[labels >= 0])))
        glare(frame, labels == card, cond.specular, light)
    if cond.shadow:
        cast_shadow(frame, cond.shadow, light)
    if cond.vignette:
        vignette(frame, cond.vignette, light)
    if cond.white_balance:
        white_balance(frame, cond.white_balance, light, cond.cast)
    # A phone exposes for the scene: the brightest card paper comes out near white.
    bright = float(np.percentile(frame[::7, ::7], 99.5))
    frame *= float(light.uniform(215, 250)) / max(bright, 1.0)
    if cond.exposure:
        frame *= np.float32(255 * (1 + cond.exposure) / 235)
    if cond.blur > 0.2:
        frame = cv2.GaussianBlur(frame, (0, 0), cond.blur * scale)
    frame = defocus(frame, cond.defocus * scale, light)
    if cond.noise:
        sensor_noise(frame, cond.noise, rng)
    image = np.clip(frame, 0, 255).astype(np.uint8)
    return jpeg(image, cond.jpeg_quality) if cond.jpeg_quality else image
