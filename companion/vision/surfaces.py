"""Table surfaces as a camera sees them: felt, wood strips with grain, black cloth with folds,
a grey laminate; and the tables of the real dev sets (``MORE_SURFACES``): a cork board, a dark
green baize, a near-black stained wood, a grey rug, a light oak and a black desk. Float32 BGR
images whose scale is set in pixels per millimetre, so grain and folds keep their physical
size at any frame size.

>>> img = surface("cloth", (64, 48), np.random.default_rng(0), px_per_mm=0.5)
>>> img.shape, img.dtype.name, bool(img.mean() < 80)
((48, 64, 3), 'float32', True)
"""

from __future__ import annotations

import cv2
import numpy as np

SURFACES = ("felt", "wood", "cloth", "grey")
#: Kinds beyond ``SURFACES`` (which ``Conditions.real`` draws from, so older figures stay):
#: the light, low-contrast and patterned tables of the real sets.
MORE_SURFACES = ("cork", "baize", "dark-wood", "rug", "oak", "maple", "desk", "white")


def _noise(rng: np.random.Generator, size: tuple[int, int], cell_px: tuple[float, float]) -> \
        np.ndarray:
    """Smooth noise (zero mean, unit-ish spread) with features about ``cell_px`` (x, y) big."""
    w, h = size
    sw, sh = max(2, int(w / max(cell_px[0], 1)) + 2), max(2, int(h / max(cell_px[1], 1)) + 2)
    small = rng.normal(0, 1, (sh, sw)).astype(np.float32)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)


def _felt(rng: np.random.Generator, size: tuple[int, int], px_mm: float) -> np.ndarray:
    w, h = size
    base = np.float32([(45, 95, 30), (95, 60, 25), (40, 40, 120), (70, 70, 70)][
        int(rng.integers(0, 4))])
    img = np.empty((h, w, 3), np.float32)
    img[:] = base
    mottle = _noise(rng, size, (60 * px_mm, 60 * px_mm)) * 0.06
    fibre = cv2.GaussianBlur(rng.normal(0, 1, (h, w)).astype(np.float32), (0, 0), 0.7) * 0.08
    img *= (1 + mottle + fibre)[..., None]
    return img


def _wood(rng: np.random.Generator, size: tuple[int, int], px_mm: float) -> np.ndarray:
    w, h = size
    # Drawn along x on a larger canvas, then turned: strips run in any direction.
    d = int(np.hypot(w, h)) + 4
    base = np.float32([(60, 120, 175), (45, 90, 140), (85, 150, 200), (35, 65, 105)][
        int(rng.integers(0, 4))])
    strip = rng.uniform(18, 45) * px_mm
    ys = np.arange(d, dtype=np.float32)[:, None]
    wobble = _noise(rng, (d, d), (300 * px_mm, 40 * px_mm)) * 3 * px_mm
    index = np.floor((ys + wobble) / strip).astype(np.int32)
    tones = rng.normal(0, 0.08, index.max() - index.min() + 2).astype(np.float32)
    tone = tones[index - index.min()]
    streak = _noise(rng, (d, d), (max(d / 8, 40 * px_mm), max(0.8 * px_mm, 1.0)))
    period = rng.uniform(2.5, 6) * px_mm
    grain = np.sin((ys + wobble * 2) / period * 2 * np.pi + streak * 1.5)
    shade = 1 + tone + 0.05 * grain + 0.05 * streak
    # Dark seams between strips and a few darker nodes, as on bamboo and plank tables.
    seam = np.abs(((ys + wobble) / strip) % 1 - 0.5) > 0.5 - 0.4 / max(strip / px_mm, 1)
    shade = np.where(seam, shade * 0.7, shade)
    img = (np.float32(base) * shade[..., None]).astype(np.float32)
    turn = cv2.getRotationMatrix2D((d / 2, d / 2), float(rng.uniform(0, 180)), 1.0)
    img = cv2.warpAffine(img, turn, (d, d), borderMode=cv2.BORDER_REFLECT)
    y0, x0 = (d - h) // 2, (d - w) // 2
    return img[y0:y0 + h, x0:x0 + w].copy()


def _cloth(rng: np.random.Generator, size: tuple[int, int], px_mm: float) -> np.ndarray:
    w, h = size
    # Folds: a height field of long ridges, lit from one side (shading by its slope).
    height = np.zeros((h, w), np.float32)
    for _ in range(3):
        a = rng.uniform(0, np.pi)
        d = int(np.hypot(w, h)) + 4
        ridge = _noise(rng, (d, d), (rng.uniform(150, 400) * px_mm, rng.uniform(25, 60) * px_mm))
        turn = cv2.getRotationMatrix2D((d / 2, d / 2), float(np.degrees(a)), 1.0)
        ridge = cv2.warpAffine(ridge, turn, (d, d), borderMode=cv2.BORDER_REFLECT)
        y0, x0 = (d - h) // 2, (d - w) // 2
        height += ridge[y0:y0 + h, x0:x0 + w]
    gy, gx = np.gradient(height * (30 * px_mm))
    la = rng.uniform(0, 2 * np.pi)
    lit = np.clip(1 + 0.6 * (gx * np.cos(la) + gy * np.sin(la)) / (1 + np.abs(gx) + np.abs(gy)),
                  0.3, 2.2)
    level = rng.uniform(14, 30)
    weave = cv2.GaussianBlur(rng.normal(0, 1, (h, w)).astype(np.float32), (0, 0), 0.6) * 0.12
    grey = level * lit * (1 + weave)
    tint = np.float32([1.05, 1.0, 0.97]) * (1 + rng.normal(0, 0.03, 3)).astype(np.float32)
    return grey[..., None] * tint


def _grey(rng: np.random.Generator, size: tuple[int, int], px_mm: float) -> np.ndarray:
    w, h = size
    level = rng.uniform(95, 150)
    img = np.empty((h, w, 3), np.float32)
    img[:] = np.float32([level * 1.03, level, level * 0.96])
    img *= (1 + _noise(rng, size, (80 * px_mm, 80 * px_mm)) * 0.05
            + cv2.GaussianBlur(rng.normal(0, 1, (h, w)).astype(np.float32), (0, 0), 0.8) * 0.03
            )[..., None]
    return img


def _cork(rng: np.random.Generator, size: tuple[int, int], px_mm: float) -> np.ndarray:
    """A cork board: light brown, granules of a millimetre or two, some darker, some lighter
    (the bidly-fans table; cards on it differ from it less in lightness than in colour)."""
    w, h = size
    base = np.float32([70, 95, 120]) * np.float32(rng.uniform(0.9, 1.12))
    grains = cv2.GaussianBlur(rng.normal(0, 1, (h, w)).astype(np.float32), (0, 0),
                              max(0.5, 0.6 * px_mm))
    grains /= max(float(grains.std()), 1e-6)
    specks = (rng.random((h, w)) < 0.004 / max(px_mm, 0.3) ** 2).astype(np.float32)
    specks = cv2.GaussianBlur(specks, (0, 0), max(0.5, 0.8 * px_mm)) * 4
    mottle = _noise(rng, size, (40 * px_mm, 40 * px_mm)) * 0.05
    shade = 1 + 0.1 * grains + mottle - 0.35 * np.clip(specks, 0, 1)
    return base * shade[..., None]


def _baize(rng: np.random.Generator, size: tuple[int, int], px_mm: float) -> np.ndarray:
    """A dark green baize (anima-pairs): nearly even, a faint nap and soft light falloff."""
    img = _felt(rng, size, px_mm)
    green = np.float32([30, 42, 18]) * np.float32(rng.uniform(0.85, 1.2))
    return img / np.float32(img.reshape(-1, 3).mean(axis=0)) * green


def _dark_wood(rng: np.random.Generator, size: tuple[int, int], px_mm: float) -> np.ndarray:
    """A near-black stained table with light pores along its grain (set-crops): the grain's
    streaks are as sharp as a card's edge."""
    w, h = size
    d = int(np.hypot(w, h)) + 4
    pores = _noise(rng, (d, d), (max(d / 6, 60 * px_mm), max(0.35 * px_mm, 0.7)))
    streaks = np.clip(pores - 1.6, 0, None) * 1.2
    level = np.float32([24, 29, 38]) * np.float32(rng.uniform(0.8, 1.3))
    shade = 1 + 0.12 * _noise(rng, (d, d), (200 * px_mm, 20 * px_mm))
    # The pores are filled with grey wax: lighter, not warmer.
    img = level * shade[..., None] + np.float32([40, 40, 44]) * streaks[..., None]
    turn = cv2.getRotationMatrix2D((d / 2, d / 2), float(rng.uniform(0, 180)), 1.0)
    img = cv2.warpAffine(img, turn, (d, d), borderMode=cv2.BORDER_REFLECT)
    y0, x0 = (d - h) // 2, (d - w) // 2
    return img[y0:y0 + h, x0:x0 + w].copy()


def _rug(rng: np.random.Generator, size: tuple[int, int], px_mm: float) -> np.ndarray:
    """A grey-violet rug: tufts of a few millimetres, dark between them."""
    w, h = size
    tufts = cv2.GaussianBlur(rng.normal(0, 1, (h, w)).astype(np.float32), (0, 0),
                             max(0.6, 0.8 * px_mm))
    tufts /= max(float(tufts.std()), 1e-6)
    fibre = cv2.GaussianBlur(rng.normal(0, 1, (h, w)).astype(np.float32), (0, 0), 0.6)
    level = np.float32([48, 46, 54]) * np.float32(rng.uniform(0.8, 1.2))
    return level * np.clip(1 + 0.22 * tufts + 0.12 * fibre, 0.2, None)[..., None]


def _light_wood(rng: np.random.Generator, size: tuple[int, int], px_mm: float,
                light: tuple[float, float, float], vary: float) -> np.ndarray:
    """Grained wood (``_wood``) of a light colour (BGR), its level varied by up to ``vary``."""
    img = _wood(rng, size, px_mm)
    level = np.float32(light) * np.float32(rng.uniform(1 - vary, 1 + vary))
    return img / np.float32(img.reshape(-1, 3).mean(axis=0)) * level


def _oak(rng: np.random.Generator, size: tuple[int, int], px_mm: float) -> np.ndarray:
    """A light oak or bamboo table: strips of warm light wood, a white card's near neighbour
    in lightness."""
    return _light_wood(rng, size, px_mm, (105, 165, 215), 0.08)


def _maple(rng: np.random.Generator, size: tuple[int, int], px_mm: float) -> np.ndarray:
    """A pale maple or birch table: grained like oak, nearer a white card's rim in lightness
    and colour still (the rim's edge steps from it by a few grey levels in a lamp's shadow)."""
    return _light_wood(rng, size, px_mm, (150, 195, 225), 0.05)


def _desk(rng: np.random.Generator, size: tuple[int, int], px_mm: float) -> np.ndarray:
    """A black desk under a webcam (blackjack-webcam): even, faintly blue, a soft sheen."""
    w, h = size
    level = np.float32([16, 14, 9]) * np.float32(rng.uniform(0.8, 1.3))
    sheen = 1 + 0.15 * _noise(rng, size, (150 * px_mm, 150 * px_mm))
    return level * sheen[..., None]


def _white(rng: np.random.Generator, size: tuple[int, int], px_mm: float) -> np.ndarray:
    """A white tabletop or box lid (bidly-fans): near the cards' own white, even, a faint
    grain: the cards' edges barely show on it."""
    w, h = size
    level = np.float32([228, 230, 232]) * np.float32(rng.uniform(0.9, 1.0))
    grain = 1 + 0.03 * _noise(rng, size, (60 * px_mm, 60 * px_mm))
    return level * grain[..., None]


def lit_highlight(img: np.ndarray, rng: np.random.Generator, strength: float) -> None:
    """A lamp's broad reflection on the surface (in place): a soft bright ellipse."""
    h, w = img.shape[:2]
    cx, cy = rng.uniform(0.1, 0.9) * w, rng.uniform(0.1, 0.9) * h
    sx, sy = rng.uniform(0.1, 0.35) * w, rng.uniform(0.1, 0.35) * h
    xs = (np.arange(w, dtype=np.float32) - cx) / sx
    ys = (np.arange(h, dtype=np.float32) - cy) / sy
    spot = np.exp(-(ys[:, None] ** 2 + xs[None, :] ** 2) / 2)
    img *= (1 + strength * spot)[..., None]


def surface(kind: str, size: tuple[int, int], rng: np.random.Generator,
            px_per_mm: float = 1.0, highlight: float = 0.0) -> np.ndarray:
    """A bare surface of ``size`` (w, h) pixels at ``px_per_mm``, float32 BGR 0..255."""
    makers = {"felt": _felt, "wood": _wood, "cloth": _cloth, "grey": _grey, "cork": _cork,
              "baize": _baize, "dark-wood": _dark_wood, "rug": _rug, "oak": _oak,
              "maple": _maple, "desk": _desk, "white": _white}
    if kind not in makers:
        raise ValueError(f"unknown surface {kind!r} "
                         f"(surfaces: {', '.join(SURFACES + MORE_SURFACES)})")
    img = makers[kind](rng, size, px_per_mm).astype(np.float32, copy=False)
    if highlight:
        lit_highlight(img, rng, highlight)
    return img
