"""Where cards lie in harder scenes: piles of identical cards, cards partly covering others,
a hand-held phone's view of part of the table (strong perspective, no markers), and any
camera's view of it as a pinhole camera sees it (``pinhole_view``).

>>> from companion.vision.deck import card
>>> rng = np.random.default_rng(0)
>>> copies = pile(card("7clubs"), (300.0, 200.0), 4, rng)
>>> len(copies), {p.item.item_id for p in copies}
(4, {'7clubs'})
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from companion.vision.art import ArtItem


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
    """A flat ArUco marker on the table (a piece's base: a character, a chest)."""

    marker_id: int
    centre_mm: tuple[float, float]
    size_mm: float = 22.0
    angle_deg: float = 0.0


def pile(item: ArtItem, centre_mm: tuple[float, float], copies: int,
         rng: np.random.Generator, style: str | None = None) -> list[Placement]:
    """``copies`` of one card laid together, as a play of a set: ``fan`` (turned about a
    common corner), ``offset`` (a straight row, each showing its index) or ``loose``."""
    style = style or str(rng.choice(["fan", "offset", "loose"]))
    w, h = item.size_mm
    base = float(rng.uniform(0, 360))
    a = math.radians(base)
    ux, uy = math.cos(a), math.sin(a)  # along the card's width
    vx, vy = -math.sin(a), math.cos(a)  # along its height
    out: list[Placement] = []
    mid = (copies - 1) / 2
    drift = float(rng.uniform(0, 2 * np.pi))  # a loose pile spreads one way, as a hand drops it
    turns: list[float] = []  # a fan: each copy 8-15° past the one before it
    for k in range(copies):
        t = k - mid
        if style == "fan":
            turns.append((turns[-1] if turns else 0.0) + float(rng.uniform(8, 15)))
            out.append(Placement(item, centre_mm, 0.0))  # placed below, once all turns are known
            continue
        if style == "offset":
            shift = w * float(rng.uniform(0.25, 0.45))
            centre = (centre_mm[0] + t * shift * ux + t * 2 * vx,
                      centre_mm[1] + t * shift * uy + t * 2 * vy)
            angle = base + float(rng.uniform(-3, 3))
        else:
            shift = float(rng.uniform(0.25, 0.5))
            ang = drift + float(rng.uniform(-0.4, 0.4))
            centre = (centre_mm[0] + t * shift * w * math.cos(ang),
                      centre_mm[1] + t * shift * w * math.sin(ang))
            angle = base + float(rng.uniform(-25, 25))
        out.append(Placement(item, (float(centre[0]), float(centre[1])), angle))
    if style == "fan":
        # Turned about a point below the cards, like a hand of cards, the middle one straight.
        middle = (turns[0] + turns[-1]) / 2
        r = h * 0.9
        for k, turn in enumerate(turns):
            step = turn - middle
            a = math.radians(step)
            dx, dy = math.sin(a) * r, (1 - math.cos(a)) * r
            out[k] = Placement(item, (float(centre_mm[0] + dx * ux + dy * vx),
                                      float(centre_mm[1] + dx * uy + dy * vy)), base + step)
    return out


def piles_in(items: Sequence[ArtItem], region_mm: np.ndarray, rng: np.random.Generator,
             taken: Sequence[Placement], piles: int) -> list[Placement]:
    """``piles`` piles of 2-5 copies of a random card each, apart from ``taken`` and from each
    other, centres inside ``region_mm``."""
    out: list[Placement] = []
    for _ in range(piles):
        item = items[int(rng.integers(0, len(items)))]
        spot = spread([item], region_mm, rng, [*taken, *out], gap=1.8)
        if spot:
            out += pile(item, spot[0].centre_mm, int(rng.integers(2, 6)), rng)
    return out


def keystoned(camera: np.ndarray, size: tuple[int, int], rng: np.random.Generator,
              keystone: float = 0.3) -> np.ndarray:
    """``camera`` (table mm -> image) seen from not straight overhead: one side of the frame up
    to ``keystone`` shorter than the opposite side."""
    w, h = size
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
    return squeeze_frame @ camera


def cover(base: Placement, item: ArtItem, fraction: float, rng: np.random.Generator) -> Placement:
    """A card laid on ``base`` covering about ``fraction`` of it, from a random side."""
    w, h = base.item.size_mm
    side = int(rng.integers(0, 4))
    span = w if side % 2 == 0 else h
    a = math.radians(base.angle_deg + 90 * side)
    off = span * (1 - fraction)
    angle = base.angle_deg + float(rng.uniform(-12, 12))
    return Placement(item, (base.centre_mm[0] + off * math.cos(a),
                            base.centre_mm[1] + off * math.sin(a)), angle)


def phone_view(size: tuple[int, int], centre_mm: tuple[float, float], width_mm: float,
               rng: np.random.Generator, max_keystone: float = 0.3) -> np.ndarray:
    """A table-mm -> image homography of a phone held over the table: it sees ``width_mm`` of
    table across the near edge, the far edge up to ``max_keystone`` wider (so things there look
    that much smaller), turned by a random angle."""
    w, h = size
    near = width_mm
    far = near * (1 + float(rng.uniform(0.03, max_keystone)))
    depth = near * h / w * (1 + (far / near - 1) / 2)
    skew = float(rng.uniform(-0.08, 0.08)) * near
    # Image top = far side of the table (wider in mm), image bottom = near side.
    quad = np.float32([[-far / 2 + skew, -depth / 2], [far / 2 + skew, -depth / 2],
                       [near / 2, depth / 2], [-near / 2, depth / 2]])
    a = float(rng.uniform(0, 2 * np.pi))
    turn = np.float32([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    quad = quad @ turn.T + np.float32(centre_mm)
    frame = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    return cv2.getPerspectiveTransform(quad.astype(np.float32), frame)


def pinhole_view(size: tuple[int, int], centre_mm: tuple[float, float], px_per_mm: float,
         tilt_deg: float, turn_deg: float, fov_deg: float = 62.0) -> np.ndarray:
    """A table-mm -> image homography of a pinhole camera (``fov_deg`` across the frame)
    aimed at ``centre_mm`` from ``tilt_deg`` off straight down, its bottom edge towards the
    near side, the view turned by ``turn_deg``; ``px_per_mm`` at the frame's centre across.
    Things further away come out smaller and foreshortened, as in a photo."""
    w, h = size
    f = w / 2 / math.tan(math.radians(fov_deg) / 2)
    distance = f / px_per_mm
    t, a = math.radians(tilt_deg), math.radians(turn_deg)
    # Table x right, y towards the near side, z into the table (the camera is at z < 0).
    x_c = np.array([1.0, 0.0, 0.0])
    y_c = np.array([0.0, math.cos(t), math.sin(t)])
    z_c = np.array([0.0, -math.sin(t), math.cos(t)])
    spin = np.array([[math.cos(a), -math.sin(a), 0], [math.sin(a), math.cos(a), 0], [0, 0, 1]])
    rows = np.stack([spin @ x_c, spin @ y_c, spin @ z_c])
    target = np.array([centre_mm[0], centre_mm[1], 0.0])
    camera = target - distance * rows[2]
    k = np.array([[f, 0, w / 2], [0, f, h / 2], [0, 0, 1]])
    homography = k @ np.column_stack([rows[:, 0], rows[:, 1], -rows @ camera])
    return homography / homography[2, 2]


def view_polygon(table_to_image: np.ndarray, size: tuple[int, int], inset: float = 0.0) -> \
        np.ndarray:
    """The part of the table a frame shows (table mm), shrunk by ``inset`` of the frame."""
    w, h = size
    dx, dy = inset * w, inset * h
    frame = np.float32([[dx, dy], [w - dx, dy], [w - dx, h - dy], [dx, h - dy]])
    back = np.linalg.inv(table_to_image)
    return cv2.perspectiveTransform(frame.reshape(-1, 1, 2), back).reshape(-1, 2)


def spread(items: Sequence[ArtItem], region_mm: np.ndarray, rng: np.random.Generator,
           taken: Sequence[Placement] = (), gap: float = 1.04) -> list[Placement]:
    """Cards apart from each other (and from ``taken``), centres inside ``region_mm``; a card
    that finds no free spot in 300 tries is left out."""
    lo, hi = region_mm.min(axis=0), region_mm.max(axis=0)
    contour = region_mm.reshape(-1, 1, 2).astype(np.float32)
    placed = [_grown(p, gap) for p in taken]
    out: list[Placement] = []
    for item in items:
        reach = math.hypot(*item.size_mm) / 2
        for _ in range(300):
            c = (float(rng.uniform(lo[0], hi[0])), float(rng.uniform(lo[1], hi[1])))
            if cv2.pointPolygonTest(contour, c, True) < reach * 0.8:
                continue
            place = Placement(item, c, float(rng.uniform(0, 360)))
            grown = _grown(place, gap)
            if all(cv2.intersectConvexConvex(grown, q)[0] < 1.0 for q in placed):
                placed.append(grown)
                out.append(place)
                break
    return out


def _grown(place: Placement, gap: float) -> np.ndarray:
    """The card's outline scaled about its centre by ``gap``: cards keep a little apart."""
    corners = place.corners_mm()
    centre = corners.mean(axis=0)
    return ((corners - centre) * gap + centre).astype(np.float32)
