"""Procedurally drawn demo art for the four games' cards and tiles (we have no artwork).

Every face carries its name, a big value, a colour band and a pattern seeded by its id, so
each one is distinct for the camera the way printed artwork is.

>>> face = draw_face(ArtItem("orc", "Orc", "2", (60, 140, 60), "card"))
>>> face.shape
(352, 252, 3)
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import resources

import cv2
import numpy as np

#: Art resolution: pixels per millimetre of the physical card.
ART_PX_PER_MM = 4
#: Physical sizes (mm): a standard card, a Rumble room tile, a trap tile.
SIZES_MM = {"card": (63.0, 88.0), "tile": (90.0, 90.0), "trap": (60.0, 60.0)}
GAMES = ("deathtrap", "tricky", "rumble", "traps")

SUIT_COLOURS = {"red": (50, 50, 200), "blue": (190, 90, 30), "yellow": (40, 200, 230),
                "green": (60, 150, 40)}
SPECIALS = [("chaindog", "Chaindog", "W"), ("red-lotus", "Red Lotus", "W"),
            ("exploding-pig", "Exploding Pig", "P"), ("killing-machine", "Killing Machine", "K")]


@dataclass(frozen=True)
class ArtItem:
    """One card or tile to draw: id (the game's own), title, big value, BGR colour, kind."""

    item_id: str
    title: str
    value: str
    colour: tuple[int, int, int]
    kind: str  # a key of SIZES_MM
    #: Draws this item's face instead of the demo art (e.g. a standard-deck card).
    draw: Callable[[ArtItem], np.ndarray] | None = field(default=None, compare=False, repr=False)
    #: Radius of the printed card's rounded corners; the table shows through outside them.
    corner_mm: float = 0.0

    @property
    def size_mm(self) -> tuple[float, float]:
        return SIZES_MM[self.kind]


def _data(name: str) -> dict | None:
    """A component data file shipped with the package, if this build has it."""
    try:
        text = resources.files("companion.data").joinpath(name).read_text(encoding="utf-8")
    except (FileNotFoundError, ModuleNotFoundError):
        return None
    return json.loads(text)


def _hue_colour(fraction: float) -> tuple[int, int, int]:
    hsv = np.uint8([[[int(fraction * 179) % 180, 170, 200]]])
    b, g, r = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0]
    return int(b), int(g), int(r)


def deathtrap_items() -> list[ArtItem]:
    data = _data("deathtrap-deck.json") or {"creatures": [
        {"id": i, "name": i.replace("-", " ").title(), "value": v} for v, i in enumerate(
            ["rat-man", "orc", "skeleton", "zombie", "warrior", "snake-girl", "priestess",
             "dwarf", "troll", "ninja", "manticore", "pit-fiend", "bloodbeast"], start=1)]}
    creatures = data["creatures"]
    items = [ArtItem(c["id"], c["name"], str(c["value"]), _hue_colour(n / len(creatures)), "card")
             for n, c in enumerate(creatures)]
    items += [ArtItem(i, t, v, (40, 40, 40) if i == "killing-machine" else (90, 60, 150), "card")
              for i, t, v in SPECIALS]
    return items


def tricky_items() -> list[ArtItem]:
    data = _data("tricky-deck.json") or {}
    suits = [c["suit"] for c in data.get("colours", [])] or list(SUIT_COLOURS)
    values = data.get("values", list(range(8)))
    return [ArtItem(f"{s}-{v}", s.title(), str(v), SUIT_COLOURS.get(s, (128, 128, 128)), "card")
            for s in suits for v in values]


def rumble_items() -> list[ArtItem]:
    data = _data("rumble-map.json") or {}
    rooms = data.get("map", {}).get("rooms") or [f"{r}{c}" for r in "ABC" for c in "1234"]
    return [ArtItem(room, "Room", room, _hue_colour(n / len(rooms) * 0.8 + 0.05), "tile")
            for n, room in enumerate(rooms)]


def traps_items() -> list[ArtItem]:
    data = _data("traps-catalog.json") or {}
    traps = data.get("traps") or {t: {"name": t.replace("-", " ").title()} for t in [
        "buzz-saw", "cage", "falling-weight", "fire-jets", "jaws-of-doom", "monstrous-hand",
        "noxious-acid-pool", "spiked-pit"]}
    return [ArtItem(t, info.get("name", t), "T", _hue_colour(n / len(traps)), "trap")
            for n, (t, info) in enumerate(traps.items())]


def game_items(game: str) -> list[ArtItem]:
    """The demo art set of one game (``deathtrap``, ``tricky``, ``rumble``, ``traps``)."""
    makers = {"deathtrap": deathtrap_items, "tricky": tricky_items, "rumble": rumble_items,
              "traps": traps_items}
    if game not in makers:
        raise ValueError(f"unknown game {game!r} (games: {', '.join(GAMES)})")
    return makers[game]()


def _text(img: np.ndarray, text: str, centre: tuple[int, int], height: int,
          colour: tuple[int, int, int], thickness: int) -> None:
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


def draw_face(item: ArtItem) -> np.ndarray:
    """The face of a card or tile, BGR, ART_PX_PER_MM pixels per millimetre (or the item's own
    drawer's resolution)."""
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
