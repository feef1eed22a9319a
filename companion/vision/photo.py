"""Enrolment photos as people take them: one card on a dark cloth or a lighter table, filling
20-90 % of a phone frame, a little turned and foreshortened, vignetted, sometimes touching or cut
by the frame's edge; a scan (the card alone, cropped to its edge; over-exposed as a cheap
scanner gives it, or a small face image on a dark ground); a tight crop of a card out of a
phone photo (``tight_crop``: the image is the card, its rim a little uneven, tinted by the
room's light); and a photo with no card. Each comes with the truth of where the card is.

>>> from companion.vision.deck import card
>>> from companion.vision.art import draw_face
>>> shot = enrolment_photo(draw_face(card("Qhearts")), np.random.default_rng(0), size=(300, 400))
>>> shot.image.shape, shot.corners.shape, 0.1 < shot.fill < 0.95
((400, 300, 3), (4, 2), True)
>>> empty_photo(np.random.default_rng(1), size=(300, 400)).corners is None
True
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from companion.vision.optics import defocus, glare, jpeg, sensor_noise, vignette, white_balance
from companion.vision.surfaces import surface

__all__ = ["PHONE_SIZE", "EnrolmentPhoto", "empty_photo", "enrolment_photo", "scan_photo",
           "tight_crop"]

PHONE_SIZE = (1200, 1600)  # (w, h): a phone photo, already reduced from 12 MP
CARD_MM = (63.0, 88.0)
CORNER_FRACTION = 3.2 / 63  # corner radius over card width
DARK, LIGHT = ("cloth", "felt"), ("wood", "grey")


@dataclass(frozen=True)
class EnrolmentPhoto:
    """A photo and its truth: the face's corners (TL, TR, BR, BL of the upright face, image
    pixels, possibly outside the frame) or None, the fraction of the frame the card covers, and
    whether the card touches or is cut by the frame's edge."""

    image: np.ndarray
    corners: np.ndarray | None
    fill: float
    touches_edge: bool


def _rounded_alpha(h: int, w: int, corner: float = CORNER_FRACTION) -> np.ndarray:
    r = max(1, int(round(corner * w)))
    alpha = np.zeros((h, w), np.uint8)
    cv2.rectangle(alpha, (r, 0), (w - 1 - r, h - 1), 255, -1)
    cv2.rectangle(alpha, (0, r), (w - 1, h - 1 - r), 255, -1)
    for cx, cy in ((r, r), (w - 1 - r, r), (r, h - 1 - r), (w - 1 - r, h - 1 - r)):
        cv2.circle(alpha, (cx, cy), r, 255, -1, cv2.LINE_AA)
    return alpha


def _card_quad(rng: np.random.Generator, size: tuple[int, int], fill: float, cut: bool,
               aspect: float = CARD_MM[1] / CARD_MM[0]) -> np.ndarray:
    """Where the card's corners land: turned a little, foreshortened, maybe over the edge.
    ``aspect``: the face's height over its width."""
    w, h = size
    ch = float(np.sqrt(fill * w * h * aspect))
    cw = ch / aspect
    local = np.float32([[-cw / 2, -ch / 2], [cw / 2, -ch / 2], [cw / 2, ch / 2], [-cw / 2, ch / 2]])
    # Foreshortening: one end of the card a few per cent narrower than the other.
    squeeze = float(rng.uniform(0, 0.08))
    local[:2, 0] *= 1 - squeeze
    local += rng.normal(0, 0.012, (4, 2)).astype(np.float32) * np.float32([cw, ch])
    a = np.radians(float(rng.uniform(-8, 8)) + float(rng.choice([0, 0, 0, 180])))
    turn = np.float32([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    quad = local @ turn.T
    span = quad.max(axis=0) - quad.min(axis=0)
    room = np.maximum(np.float32([w, h]) - span, 0) / 2
    centre = np.float32([w / 2, h / 2]) + rng.uniform(-1, 1, 2).astype(np.float32) * room * 0.9
    if cut:
        # Slide the card so one side crosses the frame's edge by up to an eighth of the card.
        axis = int(rng.integers(0, 2))
        sign = float(rng.choice([-1, 1]))
        over = float(rng.uniform(0, 0.12)) * span[axis]
        centre[axis] = (np.float32([w, h])[axis] / 2 + sign * (np.float32([w, h])[axis] / 2
                        - span[axis] / 2 + over))
    return (quad + centre).astype(np.float32)


def _finish(frame: np.ndarray, rng: np.random.Generator, card: np.ndarray | None) -> np.ndarray:
    """The phone's part: vignette, colour cast, glare, soft focus, noise, exposure, JPEG."""
    if card is not None and rng.random() < 0.4:
        glare(frame, card, float(rng.uniform(0.2, 0.6)), rng)
    vignette(frame, float(rng.uniform(0.2, 0.65)), rng)
    white_balance(frame, float(rng.uniform(0, 1)), rng)
    bright = float(np.percentile(frame[::5, ::5], 99.5))
    frame *= float(rng.uniform(215, 250)) / max(bright, 1.0)
    frame = defocus(frame, float(rng.uniform(0.5, 2.0)) * max(frame.shape[:2]) / 1280, rng)
    sensor_noise(frame, float(rng.uniform(2, 7)), rng)
    return jpeg(np.clip(frame, 0, 255).astype(np.uint8), int(rng.integers(60, 91)))


def _background(rng: np.random.Generator, size: tuple[int, int], kind: str | None,
                px_mm: float) -> np.ndarray:
    kind = kind or str(rng.choice(DARK if rng.random() < 0.6 else LIGHT))
    return surface(kind, size, rng, px_mm, highlight=0.0 if kind == "cloth" else 0.3)


def enrolment_photo(face: np.ndarray, rng: np.random.Generator,
                    size: tuple[int, int] = PHONE_SIZE, surface_kind: str | None = None,
                    fill: float | None = None, cut: bool | None = None,
                    corner: float = CORNER_FRACTION) -> EnrolmentPhoto:
    """A phone photo of this face alone: ``fill`` of the frame (20-90 % if None), on
    ``surface_kind`` (dark cloth/felt or a lighter wood/grey if None), cut by the edge when
    ``cut`` (a quarter of the time if None); ``corner``: the corners' radius over the
    card's short side. A face of any shape (a landscape card, a tile) keeps its shape."""
    w, h = size
    fill = float(rng.uniform(0.2, 0.9)) if fill is None else fill
    cut = bool(rng.random() < 0.25) if cut is None else cut
    fh, fw = face.shape[:2]
    standard = abs(fh / fw - CARD_MM[1] / CARD_MM[0]) < 0.01
    quad = _card_quad(rng, size, fill, cut) if standard else _card_quad(rng, size, fill, cut,
                                                                           fh / fw)
    px_mm = float(np.linalg.norm(quad[0] - quad[3])) / (CARD_MM[1] if standard else
                                                         fh / min(fh, fw) * CARD_MM[0])
    frame = _background(rng, size, surface_kind, px_mm)
    to_frame = cv2.getPerspectiveTransform(np.float32([[0, 0], [fw, 0], [fw, fh], [0, fh]]), quad)
    alpha = cv2.warpPerspective(_rounded_alpha(fh, fw, corner * min(fh, fw) / fw), to_frame,
                                size).astype(np.float32) / 255
    # A soft contact shadow around the card, then the card itself.
    shade = cv2.GaussianBlur(alpha, (0, 0), max(1.0, px_mm * 1.2))
    frame *= (1 - 0.5 * shade)[..., None]
    warped = cv2.warpPerspective(face, to_frame, size, flags=cv2.INTER_AREA).astype(np.float32)
    frame = frame * (1 - alpha[..., None]) + warped * alpha[..., None]
    inside = alpha > 0.5
    edge = bool(inside[0].any() or inside[-1].any() or inside[:, 0].any() or inside[:, -1].any())
    image = _finish(frame, rng, inside)
    return EnrolmentPhoto(image, quad, float(inside.mean()), edge)


def scan_photo(face: np.ndarray, rng: np.random.Generator, width: int | None = None,
               exposure: float = 1.0, lid: tuple[int, int, int] | None = None) -> \
        EnrolmentPhoto:
    """The card alone, cropped to its edge as a scanner or a publisher's image gives it: the
    corners are the image's corners, the rounded corners show the scanner's lid (``lid``, or
    white or black at random). ``exposure`` over 1: a cheap scanner's over-exposure, the
    paper clipped to white and the inks' colours saturated (the blackjack-webcam scans)."""
    fh, fw = face.shape[:2]
    width = int(rng.integers(300, 900)) if width is None else width
    height = int(round(width * fh / fw))
    img = cv2.resize(face, (width, height), interpolation=cv2.INTER_AREA).astype(np.float32)
    if lid is None:
        lid = (250, 250, 250) if rng.random() < 0.5 else (15, 15, 15)
    alpha = _rounded_alpha(height, width).astype(np.float32)[..., None] / 255
    img = img * alpha + np.float32(lid) * (1 - alpha)
    img = img * np.float32(1 + rng.uniform(-0.04, 0.04, 3)) + float(rng.uniform(-8, 8))
    if exposure != 1.0:
        img = _overexposed(img, exposure)
    sensor_noise(img, float(rng.uniform(0.5, 2)), rng)
    image = jpeg(np.clip(img, 0, 255).astype(np.uint8), int(rng.integers(75, 96)))
    corners = np.float32([[0, 0], [width, 0], [width, height], [0, height]])
    return EnrolmentPhoto(image, corners, 1.0, True)


def _overexposed(img: np.ndarray, exposure: float) -> np.ndarray:
    """Brighter by ``exposure`` (paper clips at white), the inks' chroma pushed out as far."""
    grey = img.mean(axis=2, keepdims=True)
    return grey * exposure + (img - grey) * exposure ** 2


def tight_crop(face: np.ndarray, rng: np.random.Generator, size: tuple[int, int],
               tint: tuple[float, float, float] = (1.0, 1.0, 1.0),
               table: tuple[int, int, int] = (30, 30, 35), shine: float = 0.0
               ) -> EnrolmentPhoto:
    """A phone photo of the card cut down to the card by hand: ``size`` (w, h), the card a
    little foreshortened and the cut up to 1.5 % off its edge either way (a sliver of the
    ``table`` at one side, a sliver of card lost at another), the room's ``tint``, a lamp's
    glare across it (``shine``: its strength, 0 for none), light falling off to the rim,
    soft and JPEG-compressed."""
    w, h = size
    fh, fw = face.shape[:2]
    off = rng.uniform(-0.015, 0.015, (4, 2)) * np.float32([w, h])
    quad = (np.float32([[0, 0], [w, 0], [w, h], [0, h]]) + off).astype(np.float32)
    to_crop = cv2.getPerspectiveTransform(np.float32([[0, 0], [fw, 0], [fw, fh], [0, fh]]), quad)
    card = cv2.warpPerspective(face, to_crop, size, flags=cv2.INTER_AREA).astype(np.float32)
    inside = cv2.warpPerspective(np.full((fh, fw), 255, np.uint8), to_crop, size
                                 ).astype(np.float32)[..., None] / 255
    img = card * inside + np.float32(table) * (1 - inside)
    img *= np.float32(tint)
    if shine > 0:
        glare(img, inside[..., 0] > 0.5, shine, rng)
    vignette(img, float(rng.uniform(0.05, 0.2)), rng)
    img = cv2.GaussianBlur(img, (0, 0), float(rng.uniform(0.4, 0.9)))
    sensor_noise(img, float(rng.uniform(1, 3)), rng)
    image = jpeg(np.clip(img, 0, 255).astype(np.uint8), int(rng.integers(80, 95)))
    return EnrolmentPhoto(image, quad, 1.0, True)


def empty_photo(rng: np.random.Generator, size: tuple[int, int] = PHONE_SIZE,
                surface_kind: str | None = None) -> EnrolmentPhoto:
    """A photo of the bare surface, no card: what enrolment must name and skip."""
    px_mm = size[1] / float(rng.uniform(150, 400))
    frame = _background(rng, size, surface_kind, px_mm)
    return EnrolmentPhoto(_finish(frame, rng, None), None, 0.0, False)
