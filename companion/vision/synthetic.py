"""Synthetic camera frames of the table, for tests, benchmarks and the demo.

Renders demo art (or any enrolled faces) onto a textured table with the four corner markers,
seen through a tilted camera, with lighting gradients, glare, blur, noise, partial overlaps
and hands crossing the table. Every scene carries its ground truth.

``Conditions.real`` opts into scenes as hard as phone photos (real surfaces, vignetting, cast
shadows, glare on cards, white-balance casts, uneven focus, JPEG); ``pile`` lays identical cards
together and ``photo_scene`` frames part of the table as a hand-held phone does, without markers.

>>> renderer = SceneRenderer(size=(320, 240))
>>> scene = renderer.random_scene(np.random.default_rng(1), game_items("tricky"), cards=3)
>>> scene.image.shape, len(scene.truth)
((240, 320, 3), 3)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import cv2
import numpy as np

from companion.vision.art import GAMES, ArtItem, draw_face, game_items
from companion.vision.library import CardLibrary
from companion.vision.markers import CORNER_IDS, marker_image
from companion.vision.optics import (
    cast_shadow,
    defocus,
    glare,
    jpeg,
    sensor_noise,
    vignette,
    white_balance,
)
from companion.vision.surfaces import SURFACES, surface
from companion.vision.table import TableLayout

__all__ = ["Conditions", "Hand", "Placement", "Scene", "SceneRenderer", "SceneTruth", "Token",
           "demo_library", "face_art", "game_items", "play_frames", "reach_from_seat"]

BACKGROUNDS = ("wood", "felt", "slate", "oak")
SKIN_TONES = ((120, 160, 215), (90, 125, 180), (60, 85, 125), (150, 185, 230))


@dataclass(frozen=True)
class Placement:
    """A face lying on the table: its centre (table mm) and turn (degrees, clockwise)."""

    item: ArtItem
    centre_mm: tuple[float, float]
    angle_deg: float = 0.0

    def corners_mm(self) -> np.ndarray:
        """Corners in table mm: top-left, top-right, bottom-right, bottom-left of the face."""
        w, h = self.item.size_mm
        local = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]])
        a = math.radians(self.angle_deg)
        turn = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
        return (local @ turn.T + np.array(self.centre_mm)).astype(np.float32)


@dataclass(frozen=True)
class Token:
    """A flat ArUco marker on the table (a Rumble character's base, the chest)."""

    marker_id: int
    centre_mm: tuple[float, float]
    size_mm: float = 22.0
    angle_deg: float = 0.0


@dataclass(frozen=True)
class Hand:
    """An arm reaching from outside the table edge at ``from_mm`` to ``to_mm``."""

    from_mm: tuple[float, float]
    to_mm: tuple[float, float]
    tone: int = 0


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


@dataclass(frozen=True)
class SceneTruth:
    """A face that is in the frame: id, corners (image pixels), the fraction not covered."""

    item_id: str
    corners: np.ndarray
    centre_mm: tuple[float, float]
    visible: float


@dataclass
class Scene:
    image: np.ndarray
    truth: list[SceneTruth]
    table_to_image: np.ndarray
    tokens: list[Token] = field(default_factory=list)


class SceneRenderer:
    """Draws table scenes at one frame size, for one table layout."""

    def __init__(self, layout: TableLayout | None = None, size: tuple[int, int] = (640, 480)):
        self.layout = layout or TableLayout()
        self.size = size
        self._faces: dict[str, np.ndarray] = {}
        self._textures: dict[tuple[str, int], np.ndarray] = {}

    # --- camera -----------------------------------------------------------------------------
    def camera(self, rng: np.random.Generator | None = None, tilt: float = 0.06) -> np.ndarray:
        """A table-mm -> image homography: the table fills the frame, seen slightly askew."""
        w, h = self.size
        lay = self.layout
        pad = lay.marker_mm
        src = np.float32([[-pad, -pad], [lay.width_mm + pad, -pad],
                          [lay.width_mm + pad, lay.height_mm + pad], [-pad, lay.height_mm + pad]])
        scale = 0.92 * min(w / (lay.width_mm + 2 * pad), h / (lay.height_mm + 2 * pad))
        tw, th = (lay.width_mm + 2 * pad) * scale, (lay.height_mm + 2 * pad) * scale
        x0, y0 = (w - tw) / 2, (h - th) / 2
        dst = np.float32([[x0, y0], [x0 + tw, y0], [x0 + tw, y0 + th], [x0, y0 + th]])
        if rng is not None:
            # Pull corners inwards only, so the whole table stays in the frame.
            inward = np.float32([[1, 1], [-1, 1], [-1, -1], [1, -1]])
            dst += inward * rng.uniform(0, tilt, (4, 2)).astype(np.float32) * np.float32([w, h])
        return cv2.getPerspectiveTransform(src, dst)

    # --- pieces -----------------------------------------------------------------------------
    def face(self, item: ArtItem) -> np.ndarray:
        if item.item_id not in self._faces:
            self._faces[item.item_id] = draw_face(item)
        return self._faces[item.item_id]

    def use_face(self, item_id: str, image: np.ndarray) -> None:
        """Render this image (e.g. a real card photo) for the id instead of demo art."""
        self._faces[item_id] = image

    def texture(self, kind: str, seed: int) -> np.ndarray:
        """The bare table: a base colour, soft blotches and, for wood, grain."""
        if (kind, seed) in self._textures:
            return self._textures[(kind, seed)].copy()
        rng = np.random.default_rng(seed)
        w, h = self.size
        base = {"wood": (40, 70, 110), "felt": (50, 95, 35), "slate": (70, 65, 60),
                "oak": (95, 135, 170)}[kind]
        small = rng.normal(0, 1, (h // 16 + 2, w // 16 + 2)).astype(np.float32)
        low = cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)
        img = np.empty((h, w, 3), np.float32)
        img[:] = base
        img += low[..., None] * 10
        if kind in ("wood", "oak"):
            grain = np.sin(np.linspace(0, rng.uniform(40, 90), h) + low[:, :1].ravel() * 2)
            img += (grain[:, None, None] * 12).astype(np.float32)
        img += rng.normal(0, 4, (h, w, 1)).astype(np.float32)
        if len(self._textures) > 8:
            self._textures.clear()
        self._textures[(kind, seed)] = img
        return img.copy()

    def _paste(self, frame: np.ndarray, labels: np.ndarray, label: int, image: np.ndarray,
               to_frame: np.ndarray, alpha: np.ndarray | None = None) -> None:
        """Warp an image onto the frame through a homography, within its bounding box only."""
        ih, iw = image.shape[:2]
        corners = np.float32([[0, 0], [iw, 0], [iw, ih], [0, ih]]).reshape(-1, 1, 2)
        pts = cv2.perspectiveTransform(corners, to_frame).reshape(-1, 2)
        x0, y0 = np.floor(pts.min(axis=0)).astype(int) - 1
        x1, y1 = np.ceil(pts.max(axis=0)).astype(int) + 1
        fh, fw = frame.shape[:2]
        x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, fw), min(y1, fh)
        if x1 <= x0 or y1 <= y0:
            return
        shift = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]], np.float64) @ to_frame
        size = (x1 - x0, y1 - y0)
        warped = cv2.warpPerspective(image, shift, size, flags=cv2.INTER_AREA)
        alpha = np.full((ih, iw), 255, np.uint8) if alpha is None else alpha
        mask = cv2.warpPerspective(alpha, shift, size,
                                   flags=cv2.INTER_LINEAR).astype(np.float32)[..., None] / 255
        if warped.ndim == 2:
            warped = cv2.cvtColor(warped, cv2.COLOR_GRAY2BGR)
        roi = frame[y0:y1, x0:x1]
        roi[:] = roi * (1 - mask) + warped.astype(np.float32) * mask
        labels[y0:y1, x0:x1][mask[..., 0] > 0.5] = label

    def _mm_image(self, image: np.ndarray, size_mm: tuple[float, float],
                  centre: tuple[float, float], angle_deg: float,
                  table_to_image: np.ndarray) -> np.ndarray:
        """Homography from an image's pixels to the frame, for a thing of a size at a place."""
        ih, iw = image.shape[:2]
        w, h = size_mm
        a = math.radians(angle_deg)
        local = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]])
        turn = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
        mm = (local @ turn.T + np.array(centre)).astype(np.float32)
        src = np.float32([[0, 0], [iw, 0], [iw, ih], [0, ih]])
        return table_to_image @ cv2.getPerspectiveTransform(src, mm)

    def _marker_with_margin(self, marker_id: int, px: int = 60) -> np.ndarray:
        inner = marker_image(marker_id, px)
        # A white quiet zone of one cell so the marker reads on a dark table.
        return cv2.copyMakeBorder(inner, px // 6, px // 6, px // 6, px // 6,
                                  cv2.BORDER_CONSTANT, value=255)

    def _hand_polygons(self, hand: Hand) -> list[np.ndarray]:
        """Arm, palm and fingers as polygons in table mm."""
        fx, fy = hand.from_mm
        tx, ty = hand.to_mm
        d = np.array([tx - fx, ty - fy], np.float64)
        length = float(np.linalg.norm(d)) or 1.0
        u = d / length
        n = np.array([-u[1], u[0]])
        arm_w = 38.0
        wrist = np.array([tx, ty]) - u * 60
        arm = np.array([np.array([fx, fy]) + n * arm_w, wrist + n * arm_w * 0.8,
                        wrist - n * arm_w * 0.8, np.array([fx, fy]) - n * arm_w])
        angle = math.degrees(math.atan2(u[1], u[0]))
        palm = cv2.ellipse2Poly((int(tx - u[0] * 20), int(ty - u[1] * 20)), (55, 45),
                                int(angle), 0, 360, 12).astype(np.float64)
        polys = [arm, palm]
        for k in (-1.5, -0.5, 0.5, 1.5):
            base = np.array([tx, ty]) + u * 15 + n * k * 20
            tip = base + u * (50 - abs(k) * 10)
            polys.append(np.array([base + n * 8, tip + n * 7, tip - n * 7, base - n * 8]))
        return polys

    def _draw_hand(self, frame: np.ndarray, labels: np.ndarray, hand: Hand,
                   table_to_image: np.ndarray) -> None:
        polys = [cv2.perspectiveTransform(p.reshape(-1, 1, 2).astype(np.float32),
                                          table_to_image).astype(np.int32)
                 for p in self._hand_polygons(hand)]
        shadow = np.zeros(frame.shape[:2], np.uint8)
        for p in polys:
            cv2.fillPoly(shadow, [p + np.int32([10, 12])], 255)
        frame[shadow > 0] *= 0.6
        skin = np.zeros(frame.shape[:2], np.uint8)
        for p in polys:
            cv2.fillPoly(skin, [p], 255)
        frame[skin > 0] = SKIN_TONES[hand.tone % len(SKIN_TONES)]
        labels[skin > 0] = -1

    def _spoil(self, frame: np.ndarray, cond: Conditions, rng: np.random.Generator,
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
            return self._spoil_more(frame, cond, rng, labels)
        if cond.blur > 0.2:
            frame = cv2.GaussianBlur(frame, (0, 0), cond.blur)
        if cond.noise:
            frame += rng.normal(0, cond.noise, frame.shape).astype(np.float32)
        return np.clip(frame, 0, 255).astype(np.uint8)

    def _spoil_more(self, frame: np.ndarray, cond: Conditions, rng: np.random.Generator,
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
            white_balance(frame, cond.white_balance, light)
        # A phone exposes for the scene: the brightest card paper comes out near white.
        bright = float(np.percentile(frame[::7, ::7], 99.5))
        frame *= float(light.uniform(215, 250)) / max(bright, 1.0)
        if cond.blur > 0.2:
            frame = cv2.GaussianBlur(frame, (0, 0), cond.blur * scale)
        frame = defocus(frame, cond.defocus * scale, light)
        if cond.noise:
            sensor_noise(frame, cond.noise, rng)
        image = np.clip(frame, 0, 255).astype(np.uint8)
        return jpeg(image, cond.jpeg_quality) if cond.jpeg_quality else image

    # --- scenes -----------------------------------------------------------------------------
    def render(self, placements: Sequence[Placement], rng: np.random.Generator,
               conditions: Conditions | None = None, table_to_image: np.ndarray | None = None,
               hands: Sequence[Hand] = (), tokens: Sequence[Token] = (),
               markers: bool = True) -> Scene:
        """One frame with these faces (later ones on top), tokens and hands; ``markers=False``
        leaves out the corner markers, as in photos of tables that have none."""
        cond = conditions or Conditions()
        h_img = self.camera() if table_to_image is None else table_to_image
        if cond.hard:
            frame = self._surface(cond, h_img)
        else:
            frame = self.texture(cond.background, cond.table_seed)
        labels = np.full(frame.shape[:2], -1, np.int32)
        lay = self.layout
        corners_mm = [(0, 0), (lay.width_mm, 0), (lay.width_mm, lay.height_mm),
                      (0, lay.height_mm)]
        for marker_id, corner in zip(CORNER_IDS, corners_mm if markers else [], strict=False):
            img = self._marker_with_margin(marker_id)
            size = lay.marker_mm * 8 / 6
            self._paste(frame, labels, -1, img,
                        self._mm_image(img, (size, size), corner, 0, h_img))
        # The room's light is one per sequence: every card's shadow falls the same way.
        light = np.random.default_rng(cond.table_seed + 2)
        shadow_dir = light.uniform(-1, 1, 2)
        full_areas = []
        for index, place in enumerate(placements):
            face, alpha = self._card_image(place, h_img, cond, light)
            to_frame = self._mm_image(face, place.item.size_mm, place.centre_mm,
                                      place.angle_deg, h_img)
            if cond.card_shadow:
                self._drop_shadow(frame, place, h_img, cond.card_shadow, shadow_dir)
            self._paste(frame, labels, index, face, to_frame, alpha)
            quad = cv2.perspectiveTransform(place.corners_mm().reshape(-1, 1, 2), h_img)
            w, h = place.item.size_mm
            r = min(place.item.corner_mm, w / 2, h / 2)
            # A rounded card is a little smaller than its rectangle.
            full_areas.append(abs(cv2.contourArea(quad)) * (1 - (4 - math.pi) * r * r / (w * h)))
        for token in tokens:
            img = self._marker_with_margin(token.marker_id)
            size = token.size_mm * 8 / 6
            self._paste(frame, labels, -1, img, self._mm_image(
                img, (size, size), token.centre_mm, token.angle_deg, h_img))
        for hand in hands:
            self._draw_hand(frame, labels, hand, h_img)
        counts = np.bincount(labels.ravel() + 1, minlength=len(placements) + 1)[1:]
        truth = []
        for index, place in enumerate(placements):
            corners = cv2.perspectiveTransform(place.corners_mm().reshape(-1, 1, 2), h_img)
            truth.append(SceneTruth(place.item.item_id, corners.reshape(4, 2), place.centre_mm,
                                    float(min(1.0, counts[index] / max(full_areas[index], 1)))))
        return Scene(self._spoil(frame, cond, rng, labels), truth, h_img, list(tokens))

    def _surface(self, cond: Conditions, table_to_image: np.ndarray) -> np.ndarray:
        """A photo-like surface in table millimetres, seen through the camera."""
        w, h = self.size
        back = np.linalg.inv(table_to_image)
        frame_mm = cv2.perspectiveTransform(
            np.float32([[0, 0], [w, 0], [w, h], [0, h]]).reshape(-1, 1, 2), back).reshape(-1, 2)
        lo, hi = frame_mm.min(axis=0) - 5, frame_mm.max(axis=0) + 5
        # Enough pixels per mm for the nearest part of the view, capped to stay quick.
        px_mm = min(4.0, 1.3 * math.sqrt(w * h / max(abs(cv2.contourArea(frame_mm)), 1)))
        span = (hi - lo) * px_mm
        scale = min(1.0, 4000 / max(span))
        px_mm *= scale
        tex_size = (int(span[0] * scale) + 1, int(span[1] * scale) + 1)
        tex = surface(cond.surface, tex_size, np.random.default_rng(cond.table_seed), px_mm,
                      highlight=0.0 if cond.surface == "cloth" else 0.35)
        to_tex = np.array([[px_mm, 0, -lo[0] * px_mm], [0, px_mm, -lo[1] * px_mm], [0, 0, 1]])
        return cv2.warpPerspective(tex, to_tex @ np.linalg.inv(table_to_image), (w, h),
                                   flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                                   borderMode=cv2.BORDER_REFLECT)

    def _card_image(self, place: Placement, table_to_image: np.ndarray, cond: Conditions,
                    light: np.random.Generator) -> tuple[np.ndarray, np.ndarray | None]:
        """The face as pasted: reduced to about its size in the frame (no aliasing), with its
        paper's uneven light, and a mask of its rounded corners."""
        face = self.face(place.item)
        quad = cv2.perspectiveTransform(place.corners_mm().reshape(-1, 1, 2), table_to_image)
        side = float(np.linalg.norm(quad[0, 0] - quad[3, 0]))
        if (cond.hard or place.item.draw is not None) and face.shape[0] > 2 * side > 8:
            f = 1.5 * side / face.shape[0]
            face = cv2.resize(face, None, fx=f, fy=f, interpolation=cv2.INTER_AREA)
        if cond.paper:
            fh, fw = face.shape[:2]
            gx, gy = light.uniform(-1, 1, 2)
            xs = np.linspace(-1, 1, fw, dtype=np.float32)
            ys = np.linspace(-1, 1, fh, dtype=np.float32)
            ramp = (gx * xs[None, :] + gy * ys[:, None]) / (abs(gx) + abs(gy) + 1e-9)
            face = np.clip(face * (1 - cond.paper * (ramp + 1) / 2)[..., None], 0, 255
                           ).astype(np.uint8)
        if place.item.corner_mm <= 0:
            return face, None
        fh, fw = face.shape[:2]
        r = max(1, int(round(place.item.corner_mm * fw / place.item.size_mm[0])))
        alpha = np.zeros((fh, fw), np.uint8)
        cv2.rectangle(alpha, (r, 0), (fw - 1 - r, fh - 1), 255, -1)
        cv2.rectangle(alpha, (0, r), (fw - 1, fh - 1 - r), 255, -1)
        for cx, cy in ((r, r), (fw - 1 - r, r), (r, fh - 1 - r), (fw - 1 - r, fh - 1 - r)):
            cv2.circle(alpha, (cx, cy), r, 255, -1, cv2.LINE_AA)
        return face, alpha

    def _drop_shadow(self, frame: np.ndarray, place: Placement, table_to_image: np.ndarray,
                     strength: float, direction: np.ndarray) -> None:
        """The soft shadow a card casts on what lies below: a dark line along overlaps."""
        corners = place.corners_mm() + np.float32(direction * 1.2)
        quad = cv2.perspectiveTransform(corners.reshape(-1, 1, 2), table_to_image).reshape(-1, 2)
        side = float(np.linalg.norm(quad[0] - quad[3]))
        sigma = max(0.8, side / 88 * 1.2)  # about a millimetre and a bit
        pad = int(3 * sigma) + 2
        x0, y0 = np.floor(quad.min(axis=0)).astype(int) - pad
        x1, y1 = np.ceil(quad.max(axis=0)).astype(int) + pad
        fh, fw = frame.shape[:2]
        x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, fw), min(y1, fh)
        if x1 <= x0 or y1 <= y0:
            return
        mask = np.zeros((y1 - y0, x1 - x0), np.float32)
        cv2.fillPoly(mask, [(quad - [x0, y0]).astype(np.int32)], 1.0, cv2.LINE_AA)
        mask = cv2.GaussianBlur(mask, (0, 0), sigma)
        frame[y0:y1, x0:x1] *= (1 - strength * mask)[..., None]

    def scatter(self, rng: np.random.Generator, items: Sequence[ArtItem], cards: int,
                overlaps: int = 0, touching: int = 0) -> list[Placement]:
        """Random placements, apart from each other, except ``overlaps`` cards laid partly on
        an earlier one and ``touching`` cards laid edge to edge with an earlier one."""
        lay = self.layout
        margin = lay.marker_mm + 60
        chosen = [items[int(i)] for i in rng.integers(0, len(items), cards)]
        placed: list[Placement] = []
        for n, item in enumerate(chosen):
            w, h = item.size_mm
            reach = math.hypot(w, h)
            if n >= cards - overlaps - touching and placed:
                base = placed[int(rng.integers(0, len(placed)))]
                quarter = int(rng.integers(0, 4))
                a = math.radians(base.angle_deg + 90 * quarter)
                span = w if quarter % 2 == 0 else h
                # Overlapping cards cover about a fifth of the one below; touching ones abut.
                off = span * (0.8 if n >= cards - overlaps else 1.01)
                sign = float(rng.choice([-1, 1]))
                centre = (base.centre_mm[0] + sign * off * math.cos(a),
                          base.centre_mm[1] + sign * off * math.sin(a))
                angle = base.angle_deg + float(rng.uniform(-4, 4))
                inside = (margin < centre[0] < lay.width_mm - margin
                          and margin < centre[1] < lay.height_mm - margin)
                if inside:
                    placed.append(Placement(item, centre, angle))
                    continue
            for _ in range(200):
                centre = (float(rng.uniform(margin, lay.width_mm - margin)),
                          float(rng.uniform(margin, lay.height_mm - margin)))
                if all(math.dist(centre, p.centre_mm) > reach * 1.05 for p in placed):
                    break
            placed.append(Placement(item, centre, float(rng.uniform(0, 360))))
        return placed

    def random_scene(self, rng: np.random.Generator, items: Sequence[ArtItem], cards: int = 8,
                     overlaps: int = 0, touching: int = 0, hands: int = 0,
                     conditions: Conditions | None = None, piles: int = 0,
                     markers: bool = True) -> Scene:
        """A scene with random cards, camera and conditions (and optional hands), plus ``piles``
        piles of 2-5 identical cards; hard conditions get a keystoned camera."""
        placements = self.scatter(rng, items, cards, overlaps, touching)
        if piles:
            placements = self._with_piles(rng, items, placements, piles)
        if conditions is not None and conditions.hard:
            return self.render(placements, rng, conditions, self.keystone_camera(rng), (),
                               markers=markers)
        lay = self.layout
        reach = [Hand(self.layout.seat_position(int(rng.integers(0, lay.seats))),
                      (float(rng.uniform(100, lay.width_mm - 100)),
                       float(rng.uniform(100, lay.height_mm - 100))), int(rng.integers(0, 4)))
                 for _ in range(hands)]
        reach = [Hand(_outside(lay, h.from_mm), h.to_mm, h.tone) for h in reach]
        return self.render(placements, rng, conditions or Conditions.random(rng),
                           self.camera(rng), reach, markers=markers)

    def _with_piles(self, rng: np.random.Generator, items: Sequence[ArtItem],
                    placements: list[Placement], piles: int) -> list[Placement]:
        # Imported here: placing builds on this module's Placement.
        from companion.vision.placing import pile, spread

        lay = self.layout
        m = lay.marker_mm + 60
        region = np.float32([[m, m], [lay.width_mm - m, m], [lay.width_mm - m, lay.height_mm - m],
                             [m, lay.height_mm - m]])
        out = list(placements)
        for _ in range(piles):
            item = items[int(rng.integers(0, len(items)))]
            spot = spread([item], region, rng, out, gap=1.8)
            if spot:
                out += pile(item, spot[0].centre_mm, int(rng.integers(2, 6)), rng)
        return out

    def pile(self, rng: np.random.Generator, item: ArtItem, centre_mm: tuple[float, float],
             copies: int, style: str | None = None) -> list[Placement]:
        """``copies`` of one card laid together (``fan``, ``offset`` or ``loose``): each copy
        is its own placement, so its own truth entry with its own corners and visible part."""
        from companion.vision.placing import pile

        return pile(item, centre_mm, copies, rng, style)

    def keystone_camera(self, rng: np.random.Generator, keystone: float = 0.3) -> np.ndarray:
        """The whole table seen from a camera not straight overhead: one side of the table up to
        ``keystone`` shorter in the frame than the opposite side."""
        w, h = self.size
        base = self.camera()
        corners = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
        side = int(rng.integers(0, 4))
        squeeze = float(rng.uniform(0.05, keystone)) / 2
        a, b = side, (side + 1) % 4
        # Pull both ends of one side towards its middle: that side of the table is further away.
        mid = (corners[a] + corners[b]) / 2
        corners[a] += (mid - corners[a]) * squeeze * 2
        corners[b] += (mid - corners[b]) * squeeze * 2
        corners += rng.uniform(-0.02, 0.02, (4, 2)).astype(np.float32) * np.float32([w, h])
        squeeze_frame = cv2.getPerspectiveTransform(np.float32([[0, 0], [w, 0], [w, h], [0, h]]),
                                                    corners)
        return squeeze_frame @ base

    def photo_scene(self, rng: np.random.Generator, items: Sequence[ArtItem],
                    cards: int | None = None, piles: int = 0, overlaps: int = 0,
                    conditions: Conditions | None = None, markers: bool = False,
                    view_mm: tuple[float, float] = (200.0, 400.0)) -> Scene:
        """A phone photo of part of the table, like the real dev set: 4-7 cards (or ``cards``),
        ``piles`` piles of identical cards, ``overlaps`` cards covering 10-50 % of another,
        strong perspective, no markers, photo-like conditions."""
        from companion.vision.placing import cover, phone_view, pile, spread, view_polygon

        cond = conditions or Conditions.real(rng)
        count = int(rng.integers(4, 8)) if cards is None else cards
        width = float(rng.uniform(*view_mm))
        camera = phone_view(self.size, self.layout.centre_mm, width, rng)
        region = view_polygon(camera, self.size, inset=0.03)
        placed: list[Placement] = []
        for _ in range(piles):
            item = items[int(rng.integers(0, len(items)))]
            spot = spread([item], region, rng, placed, gap=1.8)
            if spot:
                placed += pile(item, spot[0].centre_mm, int(rng.integers(2, 6)), rng)
        # A real deck has one of each card: no repeats outside the piles when it can be helped.
        picks = rng.permutation(len(items)) if len(items) >= count else rng.integers(
            0, len(items), count)
        chosen = [items[int(i)] for i in picks[:max(0, count - overlaps)]]
        spare = [items[int(i)] for i in picks[max(0, count - overlaps):count]]
        singles = spread(chosen, region, rng, placed)
        placed += singles
        for _ in range(overlaps):
            if not singles:
                break
            base = singles[int(rng.integers(0, len(singles)))]
            item = spare.pop() if spare else items[int(rng.integers(0, len(items)))]
            placed.append(cover(base, item, float(rng.uniform(0.1, 0.5)), rng))
        return self.render(placed, rng, cond, camera, markers=markers)


def _outside(layout: TableLayout, edge: tuple[float, float]) -> tuple[float, float]:
    """A point beyond the table edge, behind a seat: where an arm comes from."""
    cx, cy = layout.centre_mm
    dx, dy = edge[0] - cx, edge[1] - cy
    norm = math.hypot(dx, dy) or 1.0
    return edge[0] + dx / norm * 250, edge[1] + dy / norm * 250


def reach_from_seat(layout: TableLayout, seat: int, target_mm: tuple[float, float],
                    progress: float, tone: int = 0) -> Hand:
    """A hand of ``seat`` on its way to ``target_mm``: progress 0 is outside, 1 is there."""
    start = _outside(layout, layout.seat_position(seat))
    x = start[0] + (target_mm[0] - start[0]) * progress
    y = start[1] + (target_mm[1] - start[1]) * progress
    return Hand(start, (x, y), tone)


def face_art(items: Sequence[ArtItem]) -> dict[str, np.ndarray]:
    """Clean faces by id: what a table would enrol by showing each card to the camera."""
    return {item.item_id: draw_face(item) for item in items}



def play_frames(renderer: SceneRenderer, rng: np.random.Generator,
                before: Sequence[Placement], played: Sequence[Placement], seat: int,
                fps: float = 10.0, still_before: int = 5, reach: int = 8, still_after: int = 15,
                conditions: Conditions | None = None, start: float = 0.0,
                table_to_image: np.ndarray | None = None) -> list[tuple[float, Scene]]:
    """A seat reaches in, lays ``played`` down and pulls back, as timestamped frames.

    The hand covers the cards while they go down (they appear halfway through the reach),
    like a real play; the camera and lighting stay fixed over the sequence.
    """
    cond = conditions or Conditions()
    camera = renderer.camera(rng) if table_to_image is None else table_to_image
    target = tuple(np.mean([p.centre_mm for p in played], axis=0)) if played else (400.0, 280.0)
    frames: list[tuple[float, Scene]] = []
    steps = [(list(before), None)] * still_before
    for k in range(reach):
        # In, then out again: progress rises to 1 and falls back to 0.
        progress = 1 - abs(2 * (k + 1) / (reach + 1) - 1)
        on_table = list(before) + (list(played) if k >= reach // 2 else [])
        steps.append((on_table, reach_from_seat(renderer.layout, seat, target, progress)))
    steps += [(list(before) + list(played), None)] * still_after
    for n, (on_table, hand) in enumerate(steps):
        # Each frame has its own sensor noise, as a live camera would.
        frame_rng = np.random.default_rng(int(rng.integers(0, 2**31)))
        scene = renderer.render(on_table, frame_rng, cond, camera, [hand] if hand else [])
        frames.append((start + n / fps, scene))
    return frames


def demo_library(*games: str) -> CardLibrary:
    """A library enrolled from the demo art of these games (all four if none given)."""
    library = CardLibrary()
    for game in games or GAMES:
        for item in game_items(game):
            library.enroll(item.item_id, draw_face(item))
    return library
