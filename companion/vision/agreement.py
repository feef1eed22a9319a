"""How well the part in view of a place agrees with an enrolled face, and lining a place up
with a face's print: what the pile search (``piles.py``) checks and refines its places with.

>>> import numpy as np
>>> face = np.zeros((140, 100, 3), np.uint8)
>>> _ = cv2.putText(face, "7", (20, 110), 0, 4, (255,) * 3, 8)
>>> image = np.zeros((300, 400, 3), np.uint8)
>>> place = np.float32([[150, 80], [250, 80], [250, 220], [150, 220]])
>>> box = np.float32([[0, 0], [100, 0], [100, 140], [0, 140]])
>>> image = cv2.warpPerspective(face, cv2.getPerspectiveTransform(box, place), (400, 300))
>>> fit = Fit(image, face, place)
>>> value, found = fit.best_near(place + np.float32([2, -1]), ())
>>> bool(np.abs(found - place).max() <= 1.0), value > 0.9
(True, True)
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from companion.vision.quads import quad_sides


def high_pass(grey: np.ndarray, band: tuple[float, float] = (1.0, 4.0)) -> np.ndarray:
    """The detail between two scales (Gaussian sigmas in pixels)."""
    return cv2.GaussianBlur(grey, (0, 0), band[0]) - cv2.GaussianBlur(grey, (0, 0), band[1])


def turned(quad: np.ndarray, degrees: float) -> np.ndarray:
    centre = quad.mean(axis=0)
    a = np.radians(degrees)
    turn = np.float32([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    return ((quad - centre) @ turn.T + centre).astype(np.float32)


def _card_box(aspect: float) -> np.ndarray:
    """A card in its own plane: a box of the face's proportions (``aspect``: height per
    width), width 1, corners in the face's order."""
    return np.float32([[0, 0], [1, 0], [1, aspect], [0, aspect]])


def _to_image(quad: np.ndarray, aspect: float) -> np.ndarray:
    """The perspective from a card's own plane (``_card_box``) to ``quad`` in the image."""
    return cv2.getPerspectiveTransform(_card_box(aspect), quad.astype(np.float32))


def turned_on_table(quad: np.ndarray, degrees: float, aspect: float) -> np.ndarray:
    """``quad`` (a card in the image, corners in the face's order) turned by ``degrees``
    about its middle on the table, as the camera sees it (``aspect``: the face's height per
    width). Seen at a slant, a card turned in the image is not a card turned on the table:
    turned 36° so, a card 59 x 89 px whose copy lay 61 x 85 px was 3 px off at the corners."""
    box = _card_box(aspect)
    a = np.radians(degrees)
    turn = np.float32([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    middle = box.mean(axis=0)
    spun = ((box - middle) @ turn.T + middle).astype(np.float32)
    out = cv2.perspectiveTransform(spun.reshape(-1, 1, 2), _to_image(quad, aspect)).reshape(4, 2)
    return (out - out.mean(axis=0) + quad.mean(axis=0)).astype(np.float32)


def turn_on_table(place: np.ndarray, quad: np.ndarray, aspect: float) -> float:
    """How far (degrees) ``place`` lies turned on the table from the card at ``quad``
    (both corners in the face's order; ``aspect``: the face's height per width)."""
    back = cv2.perspectiveTransform(place.reshape(-1, 1, 2).astype(np.float32),
                                    np.linalg.inv(_to_image(quad, aspect))).reshape(4, 2)
    side = back[1] - back[0]
    return float(np.degrees(np.arctan2(side[1], side[0])))


class Agreement:
    """How well the part in view of a place agrees with each enrolled face (the faces are
    kept high-passed at the sizes asked for, a few sizes at a time; a face enrolled since is
    taken in on the next call)."""

    SIZES_KEPT = 4
    #: The grid the part in view is compared on: sides in steps of this many pixels, the long
    #: side at most ``LONGEST`` (the faces are kept at a few sizes, not one per pixel).
    STEP = 4
    LONGEST = 96

    def __init__(self, faces: list[np.ndarray]) -> None:
        self.faces = faces
        self._high: dict[tuple[int, int], np.ndarray] = {}

    def _faces_at(self, size: tuple[int, int]) -> np.ndarray:
        if size not in self._high or len(self._high[size]) != len(self.faces):
            self._high.pop(size, None)
            if len(self._high) >= self.SIZES_KEPT:
                self._high.pop(next(iter(self._high)))
            self._high[size] = np.stack([
                high_pass(cv2.resize(face, size, interpolation=cv2.INTER_AREA)
                           .astype(np.float32)) for face in self.faces])
        return self._high[size]

    def __call__(self, image: np.ndarray, place: np.ndarray, on_top: list[np.ndarray]
                 ) -> np.ndarray:
        """Per face, the correlation of the high-passed colour of the place's part in view
        (corners in the face's order) with the face's, either way up (-1..1)."""
        sides = np.float32(quad_sides(place))
        sides *= min(1.0, self.LONGEST / float(sides.max()))
        w, h = (max(8, int(round(v / self.STEP)) * self.STEP) for v in sides)
        box = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
        to_grid = cv2.getPerspectiveTransform(place.astype(np.float32), box)
        grid = cv2.warpPerspective(image, to_grid, (w, h), flags=cv2.INTER_LINEAR,
                                   borderMode=cv2.BORDER_REPLICATE)
        visible = np.full((h, w), 255, np.uint8)
        for outline in on_top:
            hidden = cv2.perspectiveTransform(outline.reshape(-1, 1, 2).astype(np.float32),
                                              to_grid)
            cv2.fillConvexPoly(visible, hidden.reshape(-1, 2).round().astype(np.int32), 0)
        # Away from the edges: the top card's border and the table's must not count.
        visible = cv2.erode(visible, np.ones((3, 3), np.uint8)) > 0
        if visible.sum() < 20:
            return np.full(len(self.faces), -1.0)
        view = high_pass(grid.astype(np.float32))[visible].reshape(-1)
        view = (view - view.mean()) / (float(np.linalg.norm(view - view.mean())) + 1e-6)
        faces = self._faces_at((w, h))
        out = np.full(len(self.faces), -1.0)
        for turned in (faces, faces[:, ::-1, ::-1]):
            parts = turned[:, visible].reshape(len(self.faces), -1)
            parts = parts - parts.mean(axis=1, keepdims=True)
            parts /= np.linalg.norm(parts, axis=1, keepdims=True) + 1e-6
            out = np.maximum(out, parts @ view)
        return out


class Fit:
    """How well one face, posed at a place, agrees with the part of it in view; and the
    place nearby where it agrees best (the search's places are a few pixels and a degree or
    two off, and the high-passed detail that tells a copy needs them closer). Grey: this
    places a card known already; which card it is, is checked in colour afterwards."""

    #: Coarse detail first (a wide basin: steps of pixels), then fine (a narrow one).
    BANDS = ((2.5, 10.0), (1.0, 4.0))

    #: A card larger than this (long side, pixels) is lined up on a copy of the picture
    #: scaled down to it: the detail that places a card is a few pixels of a card this size.
    LONGEST = 160

    def __init__(self, image: np.ndarray, face: np.ndarray, region: np.ndarray,
                 card_long: float | None = None) -> None:
        """``region``: the outline (image pixels) of the pile: only its box is looked at,
        high-passed once for all the places tried. ``card_long``: the card's long side in
        the image, if known (a large one is lined up on a smaller copy)."""
        x, y, w, h = cv2.boundingRect(region.reshape(-1, 1, 2).astype(np.float32))
        margin = 8
        x0, y0 = max(0, x - margin), max(0, y - margin)
        crop = cv2.cvtColor(image[y0:y + h + margin, x0:x + w + margin], cv2.COLOR_BGR2GRAY)
        self.scale = min(1.0, self.LONGEST / card_long) if card_long else 1.0
        if self.scale < 1.0:
            crop = cv2.resize(crop, None, fx=self.scale, fy=self.scale,
                              interpolation=cv2.INTER_AREA)
        self.origin = np.float32([x0, y0])
        self.pictures = {band: high_pass(crop.astype(np.float32), band) for band in self.BANDS}
        self.face = cv2.cvtColor(face, cv2.COLOR_BGR2GRAY).astype(np.float32)
        self._high: dict[tuple, np.ndarray] = {}
        #: Places compared so far (each a small warp and correlation).
        self.compared = 0

    def _here(self, quad: np.ndarray) -> np.ndarray:
        """Image pixels -> the pixels of the (scaled) copy looked at."""
        return ((quad - self.origin) * self.scale).astype(np.float32)

    def _face_at(self, size: tuple[int, int], band: tuple[float, float], round_: bool
                 ) -> np.ndarray:
        if (size, band, round_) not in self._high:
            face = high_pass(cv2.resize(self.face, size, interpolation=cv2.INTER_AREA), band)
            self._high[size, band, round_] = face[::-1, ::-1].copy() if round_ else face
        return self._high[size, band, round_]

    def __call__(self, place: np.ndarray, on_top: Sequence[np.ndarray],
                 band: tuple[float, float] = BANDS[-1], round_: bool | None = None,
                 within: np.ndarray | None = None) -> float:
        """The correlation of the high-passed grey in view at ``place`` with the face's
        (-1..1), the face turned round if ``round_``; either way up if None. ``within``: an
        outline (image pixels): only the part of the place inside it counts."""
        self.compared += 1
        here = self._here(place)
        w, h = (max(8, int(round(v))) for v in quad_sides(here))
        box = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
        to_grid = cv2.getPerspectiveTransform(here, box)
        view = cv2.warpPerspective(self.pictures[band], to_grid, (w, h), flags=cv2.INTER_LINEAR,
                                   borderMode=cv2.BORDER_REPLICATE)
        visible = np.full((h, w), 1, np.uint8)
        for outline in on_top:
            hidden = cv2.perspectiveTransform(self._here(outline).reshape(-1, 1, 2), to_grid)
            cv2.fillConvexPoly(visible, hidden.reshape(-1, 2).round().astype(np.int32), 0)
        if within is not None:
            inside = np.zeros_like(visible)
            part = cv2.perspectiveTransform(self._here(within).reshape(-1, 1, 2), to_grid)
            cv2.fillConvexPoly(inside, part.reshape(-1, 2).round().astype(np.int32), 1)
            visible &= inside
        weight = cv2.erode(visible, np.ones((3, 3), np.uint8)).astype(np.float32)
        count = float(weight.sum())
        if count < 20:
            return -1.0
        weight = weight.reshape(-1)
        view = view.reshape(-1)
        view = (view - float(view @ weight) / count) * weight
        norm_view = float(np.sqrt(view @ view)) + 1e-6
        best = -1.0
        for turned in ((False, True) if round_ is None else (round_,)):
            face = self._face_at((w, h), band, turned).reshape(-1)
            face = (face - float(face @ weight) / count) * weight
            best = max(best, float(face @ view) / (norm_view * (float(np.sqrt(face @ face))
                                                                  + 1e-6)))
        return best

    def best_near(self, place: np.ndarray, on_top: Sequence[np.ndarray],
                  stretch: bool = False) -> tuple[float, np.ndarray]:
        """The place near ``place`` (moved and turned a little, and with ``stretch`` each
        corner moved on its own: an outline read from a card-sized guess can be skewed)
        where the face agrees best: a pattern search on coarse detail in steps of 3 and
        1.5 px (2° and 1°), then on fine detail in steps of 1 and 0.5 px."""
        round_ = self(place, on_top, self.BANDS[0], True) > self(place, on_top, self.BANDS[0],
                                                                 False)
        value = -1.0
        for band, (move, turn), least in zip(self.BANDS, ((3.0, 2.0), (1.0, 0.75)),
                                             (1.5, 0.5), strict=True):
            value = self(place, on_top, band, round_)
            while move >= least:
                tries = [place + np.float32([dx, dy]) for dx, dy in
                         ((move, 0), (-move, 0), (0, move), (0, -move))]
                tries += [turned(place, t) for t in (turn, -turn)]
                if stretch:
                    tries += [_corner_moved(place, k, d) for k in range(4) for d in
                              ((move, 0), (-move, 0), (0, move), (0, -move))]
                top = max(((self(q, on_top, band, round_), q) for q in tries),
                          key=lambda i: i[0])
                if top[0] > value:
                    value, place = top
                else:
                    move, turn = move / 2, turn / 2
        return value, place


def _corner_moved(quad: np.ndarray, corner: int, step: tuple[float, float]) -> np.ndarray:
    moved = quad.copy()
    moved[corner] += np.float32(step)
    return moved
