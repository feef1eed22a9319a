"""Synthetic camera frames of the table, for tests, benchmarks and the demo.

Renders demo art (or any enrolled faces) onto a textured table with the four corner markers,
seen through a tilted camera, with lighting gradients, glare, blur, noise, partial overlaps
and hands crossing the table. Every scene carries its ground truth.

``Conditions.real`` opts into scenes as hard as phone photos (real surfaces, vignetting, cast
shadows, glare on cards, white-balance casts, uneven focus, JPEG); ``pile`` lays identical cards
together and ``photo_scene`` frames part of the table as a hand-held phone does, without markers.

>>> renderer = SceneRenderer(size=(320, 240))
>>> from companion.vision.deck import standard_deck
>>> scene = renderer.random_scene(np.random.default_rng(1), standard_deck()[:8], cards=3)
>>> scene.image.shape, len(scene.truth)
((240, 320, 3), 3)
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

import cv2
import numpy as np

from companion.vision.art import ArtItem, draw_face, face_art
from companion.vision.conditions import BACKGROUNDS, Conditions, spoil  # noqa: F401
from companion.vision.hands import (  # noqa: F401 (re-exported)
    SKIN_TONES,
    Hand,
    draw_hand,
    outside,
    reach_from_seat,
)
from companion.vision.layout import CORNER_IDS, TableLayout
from companion.vision.markers import marker_image
from companion.vision.placing import (
    Placement,
    Token,
    cover,
    keystoned,
    phone_view,
    pile,
    piles_in,
    spread,
    view_polygon,
)
from companion.vision.scoring import CardTruth
from companion.vision.surfaces import surface

__all__ = ["Conditions", "Hand", "Placement", "Scene", "SceneRenderer", "SceneTruth",
           "TableStage", "Token", "face_art", "play_frames", "reach_from_seat", "truth_of"]

class TableStage(Protocol):
    """A simulated table before a simulated camera, as a game's bundle draws on it (its
    ``play.py``: the pictures of a play, for the demo and the end-to-end tests); the
    daemon's ``stage.Stage`` is one. ``items``: the game's art by id."""

    items: Mapping[str, ArtItem]

    def picture(self, placements: Sequence[Placement], tokens: Sequence[Token] = ()
                ) -> np.ndarray:
        """The table with ``placements`` (cards, tiles) and marker ``tokens`` on it."""
        ...

    def put_down(self, seat: int, cards: Sequence[str]) -> list[np.ndarray]:
        """A play as the camera sees it: the table swept clear, then ``cards`` at ``seat``."""
        ...


#: A card under this share in view is *covered*, as the real sets' truth counts it.
COVERED_BELOW = 0.9
#: A card with less than this share in view is not in the truth (a sliver at the frame's
#: edge: the real sets' truth leaves such out too).
LEAST_IN_VIEW = 0.05


@dataclass(frozen=True)
class SceneTruth:
    """A face that is in the frame: id, corners (image pixels), the fraction not covered, and
    the box (x0, y0, x1, y1, image pixels) of its part in view (None where none shows)."""

    item_id: str
    corners: np.ndarray
    centre_mm: tuple[float, float]
    visible: float
    box: tuple[int, int, int, int] | None = None


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
        # Photo-like tables as the camera sees them: a fixed camera over one table sees the
        # same bare table in every frame, and drawing it costs more than the rest of a frame.
        self._tables: dict[tuple[str, int, bytes], np.ndarray] = {}

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
            draw_hand(frame, labels, hand, h_img)
        counts = np.bincount(labels.ravel() + 1, minlength=len(placements) + 1)[1:]
        truth = []
        for index, place in enumerate(placements):
            corners = cv2.perspectiveTransform(place.corners_mm().reshape(-1, 1, 2), h_img)
            truth.append(SceneTruth(place.item.item_id, corners.reshape(4, 2), place.centre_mm,
                                    float(min(1.0, counts[index] / max(full_areas[index], 1))),
                                    _box_in_view(labels, index, corners.reshape(4, 2))))
        return Scene(spoil(frame, cond, rng, labels), truth, h_img, list(tokens))

    def _surface(self, cond: Conditions, table_to_image: np.ndarray) -> np.ndarray:
        """A photo-like surface in table millimetres, seen through the camera (drawn once
        for a table and a camera, then copied)."""
        key = (cond.surface, cond.table_seed, np.asarray(table_to_image, np.float64).tobytes())
        if key not in self._tables:
            if len(self._tables) >= 4:
                self._tables.pop(next(iter(self._tables)))
            self._tables[key] = self._draw_surface(cond, table_to_image)
        return self._tables[key].copy()

    def _draw_surface(self, cond: Conditions, table_to_image: np.ndarray) -> np.ndarray:
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
        reach = [Hand(outside(lay, h.from_mm), h.to_mm, h.tone) for h in reach]
        return self.render(placements, rng, conditions or Conditions.random(rng),
                           self.camera(rng), reach, markers=markers)

    def _with_piles(self, rng: np.random.Generator, items: Sequence[ArtItem],
                    placements: list[Placement], piles: int) -> list[Placement]:
        lay = self.layout
        m = lay.marker_mm + 60
        region = np.float32([[m, m], [lay.width_mm - m, m], [lay.width_mm - m, lay.height_mm - m],
                             [m, lay.height_mm - m]])
        return list(placements) + piles_in(items, region, rng, placements, piles)

    def pile(self, rng: np.random.Generator, item: ArtItem, centre_mm: tuple[float, float],
             copies: int, style: str | None = None) -> list[Placement]:
        """``copies`` of one card laid together (``fan``, ``offset`` or ``loose``): each copy
        is its own placement, so its own truth record with its own corners and visible part."""
        return pile(item, centre_mm, copies, rng, style)

    def keystone_camera(self, rng: np.random.Generator, keystone: float = 0.3) -> np.ndarray:
        """The whole table seen from a camera not straight overhead: one side of the table up to
        ``keystone`` shorter in the frame than the opposite side."""
        return keystoned(self.camera(), self.size, rng, keystone)

    def photo_scene(self, rng: np.random.Generator, items: Sequence[ArtItem],
                    cards: int | None = None, piles: int = 0, overlaps: int = 0,
                    conditions: Conditions | None = None, markers: bool = False,
                    view_mm: tuple[float, float] = (200.0, 400.0)) -> Scene:
        """A phone photo of part of the table, like the real dev set: 4-7 cards (or ``cards``),
        ``piles`` piles of identical cards, ``overlaps`` cards covering 10-50 % of another,
        strong perspective, no markers, photo-like conditions."""
        cond = conditions or Conditions.real(rng)
        count = int(rng.integers(4, 8)) if cards is None else cards
        width = float(rng.uniform(*view_mm))
        camera = phone_view(self.size, self.layout.centre_mm, width, rng)
        region = view_polygon(camera, self.size, inset=0.03)
        placed = piles_in(items, region, rng, [], piles)
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


def truth_of(scene: Scene) -> list[CardTruth]:
    """The scene's cards as the real sets' truth gives them: the box of each card's part in
    view and whether it is covered; slivers left out."""
    return [CardTruth(t.item_id, t.box, t.visible < COVERED_BELOW) for t in scene.truth
            if t.box is not None and t.visible >= LEAST_IN_VIEW]


def _box_in_view(labels: np.ndarray, index: int, corners: np.ndarray
                 ) -> tuple[int, int, int, int] | None:
    """The box of the pixels labelled ``index`` (looked for within the card's own box)."""
    h, w = labels.shape
    x0, y0 = np.clip(np.floor(corners.min(axis=0)).astype(int) - 1, 0, [w, h])
    x1, y1 = np.clip(np.ceil(corners.max(axis=0)).astype(int) + 2, 0, [w, h])
    mine = labels[y0:y1, x0:x1] == index
    if not mine.any():
        return None
    bx, by, bw, bh = cv2.boundingRect(mine.astype(np.uint8))
    return int(x0 + bx), int(y0 + by), int(x0 + bx + bw), int(y0 + by + bh)


def pile_plays(items: Sequence[ArtItem], count: int, seed: int
               ) -> Iterator[tuple[Scene, str, int]]:
    """Rendered plays at 1280 x 720 of a game played in piles (its cards: ``items``): 2-5
    copies of one card laid together (fanned, in a row or loosely) beside 3 other cards;
    (scene, the pile's card, its copies). The benchmark's pile set; play ``k`` of a seed is
    the same however many are taken."""
    renderer = SceneRenderer(size=(1280, 720))
    rng = np.random.default_rng(seed)
    for _ in range(count):
        item = items[int(rng.integers(0, len(items)))]
        placed = renderer.scatter(rng, [i for i in items if i.item_id != item.item_id], 3, 0, 0)
        copies = int(rng.integers(2, 6))
        placed += renderer.pile(rng, item, (400.0, 280.0), copies)
        scene = renderer.render(placed, rng, Conditions.random(rng), renderer.camera(rng), ())
        yield scene, item.item_id, copies


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
