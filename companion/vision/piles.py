"""Copies of one card lying under it: the cards of a pile (a Deathtrap play of several cards
of one kind, fanned or laid in a row).

Once the top card of a pile is read, the copies under it are the same face: only where each
lies is unknown. The face, high-passed and posed like the top card, is turned through a range
of angles and slid over the rest of the pile (``cv2.matchTemplate``), scored only on what is
not under the top card, so a strip of a few pixels of each copy is enough to place it. The
caller then checks each place found, topmost first, on the part of it in view.

>>> import numpy as np
>>> face = np.zeros((140, 100, 3), np.uint8)
>>> _ = cv2.putText(face, "7", (20, 110), 0, 4, (255,) * 3, 8)
>>> image = np.zeros((300, 400, 3), np.uint8)
>>> under = np.float32([[100, 80], [200, 80], [200, 220], [100, 220]])
>>> top = under + np.float32([60, 0])
>>> to_image = lambda q: cv2.getPerspectiveTransform(np.float32([[0, 0], [100, 0], [100, 140], [0, 140]]), q)
>>> for quad in (under, top):
...     card = cv2.warpPerspective(face, to_image(quad), (400, 300))
...     _ = cv2.fillConvexPoly(image, quad.astype(np.int32), (0, 0, 0))
...     image = np.maximum(image, card)
>>> region = np.float32([[100, 80], [260, 80], [260, 220], [100, 220]])
>>> [bool(np.abs(q - under).max() < 3) for q, _ in copies_under(image, region, top, face)][:1]
[True]
"""

from __future__ import annotations

import cv2
import numpy as np

from companion.vision.quads import quad_sides

#: The search runs on a copy where the top card's long side is about this many pixels.
SEARCH_LONG = 80
#: Turns of a copy against the top card tried (degrees): fans turn 8-15° a card.
TURNS = tuple(range(-40, 41, 2))
#: A place needs this share of the card in view, and this score, to be a candidate.
LEAST_IN_VIEW = 0.08
LEAST_SCORE = 0.35


def _high_pass(grey: np.ndarray) -> np.ndarray:
    return cv2.GaussianBlur(grey, (0, 0), 1.0) - cv2.GaussianBlur(grey, (0, 0), 4.0)


def _turned(quad: np.ndarray, degrees: float) -> np.ndarray:
    centre = quad.mean(axis=0)
    a = np.radians(degrees)
    turn = np.float32([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    return ((quad - centre) @ turn.T + centre).astype(np.float32)


def copies_under(image: np.ndarray, region: np.ndarray, top: np.ndarray, face: np.ndarray,
                 most: int = 8, above: tuple[np.ndarray, ...] = ()
                 ) -> list[tuple[np.ndarray, float]]:
    """Places (corners in image pixels, in the face's order, and a score) where a copy of
    ``face`` could lie under the card read at ``top`` inside ``region`` (the outline of the
    pile), best first; places whose corners lie within a fifth of a card of a better one's are left out.
    ``above``: copies found already, lying over the ones still to find (what they cover is
    left out, like the top card)."""
    long_side = max(quad_sides(top))
    f = min(1.0, SEARCH_LONG / max(long_side, 1.0))
    x, y, w, h = cv2.boundingRect(region.reshape(-1, 1, 2).astype(np.float32))
    x0, y0 = max(0, x - 2), max(0, y - 2)
    crop = image[y0:y + h + 2, x0:x + w + 2]
    if crop.size == 0:
        return []
    small = cv2.resize(crop, None, fx=f, fy=f, interpolation=cv2.INTER_AREA)
    grey = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY).astype(np.float32)
    origin = np.float32([x0, y0])
    to_small = lambda q: (q - origin) * f  # noqa: E731
    valid = np.zeros(grey.shape, np.float32)
    cv2.fillPoly(valid, [to_small(region).round().astype(np.int32)], 1.0)
    shown = np.zeros(grey.shape, np.uint8)
    for quad in (top, *above):
        cv2.fillConvexPoly(shown, to_small(quad).round().astype(np.int32), 255)
    valid[cv2.dilate(shown, np.ones((5, 5), np.uint8)) > 0] = 0.0
    picture = _high_pass(grey) * valid
    energy = picture * picture
    top_small = to_small(top)
    card_w, card_h = (max(2, int(round(v))) for v in quad_sides(top_small))
    face_grey = cv2.cvtColor(cv2.resize(face, (card_w, card_h), interpolation=cv2.INTER_AREA),
                             cv2.COLOR_BGR2GRAY).astype(np.float32)
    face_hp = _high_pass(face_grey)
    box = np.float32([[0, 0], [card_w, 0], [card_w, card_h], [0, card_h]])
    turns = TURNS
    found: list[tuple[float, np.ndarray]] = []
    for degrees in turns:
        corners = _turned(top_small, degrees)
        lo = np.floor(corners.min(axis=0))
        size = tuple(int(v) + 1 for v in np.ceil(corners.max(axis=0) - lo))
        if size[0] >= grey.shape[1] or size[1] >= grey.shape[0]:
            continue
        posed = cv2.getPerspectiveTransform(box, corners - lo)
        template = cv2.warpPerspective(face_hp, posed, size, flags=cv2.INTER_LINEAR)
        mask = cv2.warpPerspective(np.ones((card_h, card_w), np.float32), posed, size,
                                   flags=cv2.INTER_NEAREST)
        mask = cv2.erode(mask, np.ones((3, 3), np.uint8))
        template *= mask
        if mask.sum() < 10:
            continue
        both = cv2.matchTemplate(picture, template, cv2.TM_CCORR)
        of_template = cv2.matchTemplate(valid, template * template, cv2.TM_CCORR)
        of_picture = cv2.matchTemplate(energy, mask, cv2.TM_CCORR)
        in_view = cv2.matchTemplate(valid, mask, cv2.TM_CCORR) / float(mask.sum())
        score = both / np.sqrt(np.maximum(of_template * of_picture, 1e-6))
        score[in_view < LEAST_IN_VIEW] = -1.0
        peaks = (score >= cv2.dilate(score, np.ones((5, 5), np.uint8))) & (score >= LEAST_SCORE)
        for py, px in zip(*np.nonzero(peaks), strict=True):
            place = corners - lo + np.float32([px, py])
            found.append((float(score[py, px]), place / f + origin))
    found.sort(key=lambda item: -item[0])
    # A fanned copy's centre can lie close to the top card's: tell places apart by corners.
    reach = min(quad_sides(top)) / 5
    kept: list[tuple[np.ndarray, float]] = []
    for value, place in found:
        if any(_apart(place, q) < reach for q in (top, *above, *(k for k, _ in kept))):
            continue
        kept.append((place.astype(np.float32), value))
        if len(kept) == most:
            break
    return kept


def _apart(a: np.ndarray, b: np.ndarray) -> float:
    """How far apart two outlines lie: their farthest pair of matching corners."""
    return float(np.linalg.norm(a - b, axis=1).max())


def agreement(image: np.ndarray, place: np.ndarray, on_top: list[np.ndarray],
              faces: list[np.ndarray]) -> np.ndarray:
    """How well the part in view of a place (corners in the face's order) agrees with each
    face: the correlation of their high-passed colour over that part only (-1..1 per face,
    either way up)."""
    w, h = (max(8, int(round(v))) for v in quad_sides(place))
    box = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    to_grid = cv2.getPerspectiveTransform(place.astype(np.float32), box)
    grid = cv2.warpPerspective(image, to_grid, (w, h), flags=cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_REPLICATE)
    seen = np.full((h, w), 255, np.uint8)
    for outline in on_top:
        hidden = cv2.perspectiveTransform(outline.reshape(-1, 1, 2).astype(np.float32), to_grid)
        cv2.fillConvexPoly(seen, hidden.reshape(-1, 2).round().astype(np.int32), 0)
    # Away from the edges: the top card's border and the table's must not count.
    seen = cv2.erode(seen, np.ones((3, 3), np.uint8)) > 0
    if seen.sum() < 20:
        return np.full(len(faces), -1.0)
    view = _high_pass(grid.astype(np.float32))[seen].reshape(-1)
    view = view - view.mean()
    norm = float(np.linalg.norm(view)) + 1e-6
    out = []
    for face in faces:
        high = _high_pass(cv2.resize(face, (w, h), interpolation=cv2.INTER_AREA)
                          .astype(np.float32))
        best = -1.0
        for turned in (high, high[::-1, ::-1]):
            part = turned[seen].reshape(-1)
            part = part - part.mean()
            best = max(best, float(view @ part) / (norm * (float(np.linalg.norm(part)) + 1e-6)))
        out.append(best)
    return np.array(out)
