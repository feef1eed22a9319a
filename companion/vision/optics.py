"""What a phone or a cheap camera does to a scene: vignetting, a cast shadow, glare on glossy
cards, white-balance casts, uneven focus, sensor noise and JPEG compression.

Frames are float32 BGR (0..255) until ``jpeg``; each effect works in place or returns the frame.

>>> frame = np.full((40, 60, 3), 200, np.float32)
>>> vignette(frame, 0.5, np.random.default_rng(0))
>>> bool(frame[0, 0, 0] < frame[20, 30, 0])
True
>>> jpeg(np.clip(frame, 0, 255).astype(np.uint8), 70).shape
(40, 60, 3)
"""

from __future__ import annotations

import cv2
import numpy as np

#: White-balance casts seen in phone photos under room light (BGR gains before scaling).
CASTS = {"warm": (0.82, 0.97, 1.12), "cool": (1.14, 1.0, 0.88), "magenta": (1.06, 0.88, 1.06),
         "green": (0.95, 1.08, 0.95)}


def vignette(frame: np.ndarray, strength: float, rng: np.random.Generator) -> None:
    """Corners darker than the centre by up to ``strength``; the centre a little off-middle."""
    h, w = frame.shape[:2]
    cx, cy = rng.uniform(0.4, 0.6) * w, rng.uniform(0.4, 0.6) * h
    xs = (np.arange(w, dtype=np.float32) - cx) / (w / 2)
    ys = (np.arange(h, dtype=np.float32) - cy) / (h / 2)
    r2 = (ys[:, None] ** 2 + xs[None, :] ** 2) / 2
    frame *= (1 - strength * np.clip(r2, 0, 1.5) ** 1.3)[..., None]


def shadow_mask(shape: tuple[int, int], rng: np.random.Generator, softness: float = 0.03) -> \
        np.ndarray:
    """A soft-edged polygon (0..1) entering from one side: a person or a lamp arm in the light."""
    h, w = shape
    side = int(rng.integers(0, 4))
    depth = rng.uniform(0.2, 0.6)
    # A lumpy polygon hanging off one edge, as a head and shoulders make.
    n = 7
    t = np.linspace(0, 1, n)
    reach = depth * (0.6 + 0.4 * np.sin(np.pi * t)) * rng.uniform(0.8, 1.2, n)
    along = rng.uniform(-0.2, 0.3) + t * rng.uniform(0.5, 1.1)
    edge = np.stack([along, reach], axis=1)
    poly = np.vstack([[edge[0, 0], -0.1], edge, [edge[-1, 0], -0.1]])
    if side == 1:
        poly = np.stack([1 - poly[:, 1], poly[:, 0]], axis=1)
    elif side == 2:
        poly = np.stack([poly[:, 0], 1 - poly[:, 1]], axis=1)
    elif side == 3:
        poly = np.stack([poly[:, 1], poly[:, 0]], axis=1)
    # Drawn and blurred small, then enlarged: a soft edge needs no full-size blur.
    f = min(1.0, 320 / max(w, h))
    sw, sh = max(2, int(w * f)), max(2, int(h * f))
    mask = np.zeros((sh, sw), np.float32)
    cv2.fillPoly(mask, [(poly * np.array([sw, sh])).astype(np.int32)], 1.0, cv2.LINE_AA)
    mask = cv2.GaussianBlur(mask, (0, 0), max(0.7, softness * max(sw, sh)))
    return cv2.resize(mask, (w, h), interpolation=cv2.INTER_LINEAR)


def cast_shadow(frame: np.ndarray, strength: float, rng: np.random.Generator) -> None:
    """Darken a soft polygon by ``strength``; shadows are lit by bluer room light."""
    mask = shadow_mask(frame.shape[:2], rng, rng.uniform(0.01, 0.05))
    tint = np.float32([1.0, 0.97, 0.92])
    frame *= 1 - strength * mask[..., None] * tint


def white_balance(frame: np.ndarray, amount: float, rng: np.random.Generator,
                  kind: str = "") -> None:
    """A camera's wrong guess of the light: a warm, cool, magenta or green cast (``kind``,
    else one at random), ``amount`` 0..1 of the full cast (about 15 % per channel)."""
    gains = np.float32(CASTS[kind] if kind else CASTS[str(rng.choice(list(CASTS)))])
    frame *= 1 + (gains - 1) * amount


def glare(frame: np.ndarray, region: np.ndarray, strength: float,
          rng: np.random.Generator) -> None:
    """A lamp's reflection on glossy cards: a soft, washed-out band inside ``region`` (bool)."""
    ys, xs = np.nonzero(region)
    if len(xs) == 0:
        return
    h, w = frame.shape[:2]
    k = int(rng.integers(0, len(xs)))
    cx, cy = xs[k], ys[k]
    a = rng.uniform(0, np.pi)
    long_, short = rng.uniform(0.05, 0.2) * max(w, h), rng.uniform(0.01, 0.05) * max(w, h)
    gx = np.arange(w, dtype=np.float32) - cx
    gy = np.arange(h, dtype=np.float32) - cy
    u = gx[None, :] * np.cos(a) + gy[:, None] * np.sin(a)
    v = -gx[None, :] * np.sin(a) + gy[:, None] * np.cos(a)
    spot = np.exp(-(u / long_) ** 2 / 2 - (v / short) ** 2 / 2) * strength
    spot *= cv2.GaussianBlur(region.astype(np.float32), (0, 0), 1.0)
    frame += (255 - frame) * spot[..., None]


def defocus(frame: np.ndarray, sigma: float, rng: np.random.Generator) -> np.ndarray:
    """Blur rising across the frame from sharp to ``sigma``: depth of field of a tilted view."""
    if sigma < 0.2:
        return frame
    blurred = cv2.GaussianBlur(frame, (0, 0), sigma)
    h, w = frame.shape[:2]
    a = rng.uniform(0, 2 * np.pi)
    xs = np.linspace(-1, 1, w, dtype=np.float32)
    ys = np.linspace(-1, 1, h, dtype=np.float32)
    ramp = np.clip(0.5 + 0.5 * (xs[None, :] * np.cos(a) + ys[:, None] * np.sin(a)), 0, 1)
    ramp = 0.35 + 0.65 * ramp  # never perfectly sharp anywhere: phone lenses are soft
    return frame * (1 - ramp[..., None]) + blurred * ramp[..., None]


def sensor_noise(frame: np.ndarray, sigma: float, rng: np.random.Generator) -> None:
    """Shot noise (grows with brightness) plus read noise, slightly smoothed by demosaicing."""
    h, w = frame.shape[:2]
    noise = rng.normal(0, 1, (h, w, 3)).astype(np.float32)
    noise = cv2.GaussianBlur(noise, (0, 0), 0.6) * 1.6
    frame += noise * (sigma * (0.5 + 0.5 * np.sqrt(np.clip(frame, 0, 255) / 255)))


def jpeg(image: np.ndarray, quality: int) -> np.ndarray:
    """The image after a round trip through JPEG at ``quality`` (uint8 BGR in and out)."""
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, int(quality)])
    if not ok:
        raise ValueError("JPEG encoding failed")
    return cv2.imdecode(data, cv2.IMREAD_COLOR)


#: The retakes of a real photo (``retake``): how another camera, light or room would have
#: taken it.
RETAKES = ("warm", "cool", "dim", "jpeg", "soft", "overexposed", "washed-out", "small")


def retake(photo: np.ndarray, kind: str) -> np.ndarray:
    """A real photo (uint8 BGR) as another camera would have taken it: under a ``warm`` lamp
    or ``cool`` daylight with white balance off by half as much again as ``CASTS``, ``dim``
    (half the light, and the sensor's noise), saved as ``jpeg`` at quality 30, in ``soft``
    focus (a sigma of 1.6 pixels at 1280 wide), ``overexposed`` (its light tones clipped),
    ``washed-out`` (little contrast, as through haze or a cheap lens) or by a ``small``
    sensor (800 pixels wide). The same photo and kind give the same pixels."""
    rng = np.random.default_rng(0)
    frame = photo.astype(np.float32)
    if kind in ("warm", "cool"):
        white_balance(frame, 1.5, rng, kind)
    elif kind == "dim":
        frame *= 0.5
        sensor_noise(frame, 5.0, rng)
    elif kind == "soft":
        frame = cv2.GaussianBlur(frame, (0, 0), 1.6 * photo.shape[1] / 1280)
    elif kind == "overexposed":
        frame = 1.2 * 255.0 * (frame / 255.0) ** 0.7
    elif kind == "washed-out":
        frame = 0.6 * frame + 90.0
    elif kind == "jpeg":
        return jpeg(photo, 30)
    elif kind == "small":
        scale = min(1.0, 800 / photo.shape[1])
        return cv2.resize(photo, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    else:
        raise ValueError(f"no retake {kind!r}: one of {', '.join(RETAKES)}")
    return np.clip(frame, 0, 255).astype(np.uint8)
