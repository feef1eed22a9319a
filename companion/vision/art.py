"""Procedurally drawn demo art for the games' cards and tiles (we have no artwork); each
game's set is its bundle's ``art``, given to what draws or enrols it (``library_of``).

Every face carries its name, a big value, a colour band and a pattern seeded by its id, so
each one is distinct for the camera the way printed artwork is.

>>> face = draw_face(ArtItem("orc", "Orc", "2", (60, 140, 60), "card"))
>>> face.shape
(352, 252, 3)
"""

from __future__ import annotations

import colorsys
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

    from companion.vision.library import CardLibrary

#: Art resolution: pixels per millimetre of the physical card.
ART_PX_PER_MM = 4
#: A standard card's size (mm); a game's tiles give their own (``ArtItem.size_mm``).
CARD_MM = (63.0, 88.0)


@dataclass(frozen=True)
class ArtItem:
    """One card or tile to draw: id (the game's own), title, big value, BGR colour, kind,
    and its physical size (mm; a standard card's unless given)."""

    item_id: str
    title: str
    value: str
    colour: tuple[int, int, int]
    kind: str  # what it is: "card", "tile"...
    #: Draws this item's face instead of the demo art (e.g. a standard-deck card).
    draw: Callable[[ArtItem], np.ndarray] | None = field(default=None, compare=False, repr=False)
    #: Radius of the printed card's rounded corners; the table shows through outside them.
    corner_mm: float = 0.0
    size_mm: tuple[float, float] = CARD_MM


def hue_colour(fraction: float) -> tuple[int, int, int]:
    """A bright colour at ``fraction`` round the hue circle (BGR): one per card of a set.
    The same numbers as OpenCV's 8-bit HSV (hue in 180 steps, saturation 170, value 200)
    turned to BGR, worked out without it: listing a game's cards needs no OpenCV.

    >>> hue_colour(0.0), hue_colour(0.5)
    ((67, 67, 200), (196, 200, 67))
    """
    red, green, blue = colorsys.hsv_to_rgb((int(fraction * 179) % 180) / 180, 170 / 255,
                                           200 / 255)
    return round(blue * 255), round(green * 255), round(red * 255)


def _text(img: np.ndarray, text: str, centre: tuple[int, int], height: int,
          colour: tuple[int, int, int], thickness: int) -> None:
    import cv2

    font = cv2.FONT_HERSHEY_DUPLEX
    scale = height / 22
    (w, h), _ = cv2.getTextSize(text, font, scale, thickness)
    width_limit = img.shape[1] * 0.86
    if w > width_limit:
        scale *= width_limit / w
        (w, h), _ = cv2.getTextSize(text, font, scale, thickness)
    org = (int(centre[0] - w / 2), int(centre[1] + h / 2))
    cv2.putText(img, text, org, font, scale, colour, thickness, cv2.LINE_AA)


def _pattern(img: np.ndarray, box: tuple[int, int, int, int], seed: int) -> None:
    """Shapes seeded by the id: what makes two cards of one colour and value tell apart."""
    import cv2
    import numpy as np

    rng = np.random.default_rng(seed)
    # Draw on a view of the box so shapes are clipped to it.
    sub = img[box[1]:box[3], box[0]:box[2]]
    x0, y0, x1, y1 = 0, 0, box[2] - box[0], box[3] - box[1]
    for _ in range(14):
        colour = tuple(int(c) for c in rng.integers(0, 256, 3))
        kind = rng.integers(0, 4)
        cx, cy = int(rng.integers(x0, x1)), int(rng.integers(y0, y1))
        r = int(rng.integers(8, max(9, (x1 - x0) // 6)))
        if kind == 0:
            cv2.circle(sub, (cx, cy), r, colour, -1, cv2.LINE_AA)
        elif kind == 1:
            cv2.rectangle(sub, (cx - r, cy - r // 2), (cx + r, cy + r // 2), colour, -1)
        elif kind == 2:
            pts = np.array([[cx, cy - r], [cx + r, cy + r], [cx - r, cy + r]], np.int32)
            cv2.fillConvexPoly(sub, pts, colour, cv2.LINE_AA)
        else:
            ex, ey = int(rng.integers(x0, x1)), int(rng.integers(y0, y1))
            cv2.line(sub, (cx, cy), (ex, ey), colour, 5, cv2.LINE_AA)


def face_items(faces: Sequence[tuple[str, np.ndarray]], long_mm: float = CARD_MM[1]
               ) -> list[ArtItem]:
    """Cards whose faces are given images (a real deck's, as enrolled), by id: each drawn as
    its image, the face's shape with the long side ``long_mm``, rounded corners.

    >>> import numpy as np
    >>> ace = face_items([("ace", np.zeros((350, 250, 3), np.uint8))])[0]
    >>> [round(s, 1) for s in ace.size_mm], draw_face(ace).shape
    ([62.9, 88.0], (350, 250, 3))
    """
    items = []
    for item_id, face in faces:
        h, w = face.shape[:2]
        size = (long_mm * w / max(h, w), long_mm * h / max(h, w))
        items.append(ArtItem(item_id, item_id, "", (0, 0, 0), "card",
                             draw=partial(_given_face, face), corner_mm=2.5, size_mm=size))
    return items


def _given_face(face: np.ndarray, item: ArtItem) -> np.ndarray:
    return face.copy()


def draw_face(item: ArtItem) -> np.ndarray:
    """The face of a card or tile, BGR, ART_PX_PER_MM pixels per millimetre (or the item's own
    drawer's resolution)."""
    import cv2
    import numpy as np

    if item.draw is not None:
        return item.draw(item)
    w, h = (round(s * ART_PX_PER_MM) for s in item.size_mm)
    img = np.full((h, w, 3), (232, 238, 242), np.uint8)
    m = 4 * ART_PX_PER_MM
    cv2.rectangle(img, (0, 0), (w - 1, h - 1), (70, 70, 70), 2)
    cv2.rectangle(img, (m, m), (w - m, h - m), item.colour, -1)
    band = max(h // 7, 30)
    dark = tuple(int(c * 0.55) for c in item.colour)
    cv2.rectangle(img, (m, m), (w - m, m + band), dark, -1)
    _text(img, item.title, (w // 2, m + band // 2), band // 2, (255, 255, 255), 2)
    _pattern(img, (m + 8, m + band + 8, w - m - 8, h - m - 8), zlib.crc32(item.item_id.encode()))
    radius = min(w, h) // 5
    centre = (w // 2, (m + band + h - m) // 2)
    cv2.circle(img, centre, radius, (245, 245, 245), -1, cv2.LINE_AA)
    cv2.circle(img, centre, radius, (30, 30, 30), 3, cv2.LINE_AA)
    _text(img, item.value, centre, int(radius * 1.1), (20, 20, 20), 4)
    # Corner index, as printed cards have, so a half-covered card still shows its value.
    _text(img, item.value, (m + 16, h - m - 18), 22, (255, 255, 255), 2)
    return img


def face_art(items: Sequence[ArtItem]) -> dict[str, np.ndarray]:
    """Clean faces by id: what a table would enrol by showing each card to the camera."""
    return {item.item_id: draw_face(item) for item in items}


def library_of(items: Sequence[ArtItem]) -> CardLibrary:
    """A library enrolled from these demo art items."""
    from companion.vision.library import CardLibrary

    library = CardLibrary()
    for item in items:
        library.enroll(item.item_id, draw_face(item))
    return library
