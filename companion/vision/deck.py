"""Look-alike card decks that are as hard to tell apart as real ones.

``standard_deck()`` is a 52-card poker deck: white faces with rounded corners, the rank and
suit index in two opposite corners, pips laid out as printed decks do (7 and 8 of clubs differ
by one pip; a face looks nearly the same turned 180°), an ornate ace of spades and framed,
point-symmetric court pictures. ``creature_deck()`` is a set-collecting game's deck where one
creature comes at several values with the same picture. Ids match the real dev set (``7clubs``).
``schnapsen_deck()`` is a 20-card French-suited Schnapsen deck like the anima-pairs set's:
ace, ten, king (K), queen (D), jack (B) of each suit, square-cut cards glued on black card (a
dark, uneven rim), double-headed figures full of fine print, an index in all four corners.
``number_deck()`` is a colour-and-number deck like UNO's: a white rim round a coloured field
(on light wood the rim barely stands out, the field starkly), a white oval with the value in
it, the value small and white in two corners; the same value in two colours differs by colour
alone.

>>> deck = standard_deck()
>>> len(deck), deck[0].item_id, deck[-1].item_id
(52, 'Aspades', 'Kclubs')
>>> face = draw_face(card("7clubs"))
>>> face.shape
(528, 378, 3)
"""

from __future__ import annotations

import zlib

import cv2
import numpy as np

from companion.vision.art import ArtItem, draw_face
from companion.vision.suits import BLACK, SUITS, draw_suit, suit_colour

__all__ = ["DECK_PX_PER_MM", "RANKS", "card", "creature_deck", "draw_creature_face",
           "draw_number_face", "draw_schnapsen_face", "draw_standard_face", "number_deck",
           "schnapsen_deck", "standard_deck"]

#: Face resolution: high enough for full-size phone frames (a card ~700 px tall).
DECK_PX_PER_MM = 6
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
PAPER = (236, 242, 244)  # BGR: a white card is a little warm, never pure white
CORNER_MM = 3.2
COURT_BLUE = (170, 70, 35)

# Pip centres as (column, row): columns 0/1/2 = left/middle/right, rows 0..1 top to bottom.
_SIDES4 = [(0, 0), (2, 0), (0, 1), (2, 1)]
PIPS: dict[str, list[tuple[int, float]]] = {
    "2": [(1, 0), (1, 1)],
    "3": [(1, 0), (1, 0.5), (1, 1)],
    "4": _SIDES4,
    "5": _SIDES4 + [(1, 0.5)],
    "6": _SIDES4 + [(0, 0.5), (2, 0.5)],
    "7": _SIDES4 + [(0, 0.5), (2, 0.5), (1, 0.25)],
    "8": _SIDES4 + [(0, 0.5), (2, 0.5), (1, 0.25), (1, 0.75)],
    "9": [(c, r) for c in (0, 2) for r in (0, 1 / 3, 2 / 3, 1)] + [(1, 0.5)],
    "10": [(c, r) for c in (0, 2) for r in (0, 1 / 3, 2 / 3, 1)] + [(1, 1 / 6), (1, 5 / 6)],
}


def _mm(v: float) -> int:
    return int(round(v * DECK_PX_PER_MM))


def _split(item_id: str) -> tuple[str, str]:
    for suit in SUITS:
        if item_id.endswith(suit) and item_id[:-len(suit)] in RANKS:
            return item_id[:-len(suit)], suit
    raise ValueError(f"not a standard card id: {item_id!r} (e.g. 'Aspades', '10hearts')")


def card(item_id: str) -> ArtItem:
    """The standard-deck item of an id like ``Qhearts``."""
    rank, suit = _split(item_id)
    return ArtItem(item_id, f"{rank} of {suit}", rank, suit_colour(suit), "card",
                   draw=draw_standard_face, corner_mm=CORNER_MM)


def standard_deck() -> list[ArtItem]:
    """All 52 cards, spades, hearts, diamonds, clubs, each from ace to king."""
    return [card(rank + suit) for suit in SUITS for rank in RANKS]


def _blank() -> np.ndarray:
    w, h = _mm(63), _mm(88)
    return np.full((h, w, 3), PAPER, np.uint8)


def _text(img: np.ndarray, text: str, centre: tuple[int, int], height: int,
          colour: tuple[int, int, int], font: int = cv2.FONT_HERSHEY_COMPLEX,
          max_width: int | None = None) -> None:
    thickness = max(1, height // 7)
    scale = height / 22
    (w, h), _ = cv2.getTextSize(text, font, scale, thickness)
    if max_width and w > max_width:
        scale *= max_width / w
        (w, h), _ = cv2.getTextSize(text, font, scale, thickness)
    cv2.putText(img, text, (int(centre[0] - w / 2), int(centre[1] + h / 2)), font, scale, colour,
                thickness, cv2.LINE_AA)


def _index(rank: str, suit: str, colour: tuple[int, int, int]) -> np.ndarray:
    """A blank face with the top-left index only: turned 180° it is the bottom-right one.
    Sized as the real decks' (a Bicycle scan, the bidly faces): the rank about 9 mm tall,
    the suit under it about 6 mm."""
    img = _blank()
    _text(img, rank, (_mm(5.4), _mm(6.2)), _mm(8.8), colour, max_width=_mm(6.4))
    draw_suit(img, suit, (_mm(5.4), _mm(15.6)), _mm(6.2), colour)
    return img


def _with_index(img: np.ndarray, rank: str, suit: str, colour: tuple[int, int, int]) -> None:
    index = _index(rank, suit, colour)
    # Ink darkens paper: the minimum composes both corners without a mask.
    np.minimum(img, index, out=img)
    np.minimum(img, index[::-1, ::-1], out=img)


def _pip_centre(col: int, row: float) -> tuple[float, float]:
    """Where a pip stands (mm), as on a Bicycle scan: columns 17, 31.5 and 46 mm across,
    rows from 14.5 to 73.5 mm down."""
    xs = (17.0, 31.5, 46.0)
    return _mm(xs[col]), _mm(14.5 + row * 59.0)


def _ace_of_spades(img: np.ndarray, rng: np.random.Generator) -> None:
    cx, cy = _mm(31.5), _mm(44)
    draw_suit(img, "spades", (cx, cy), _mm(42), BLACK)
    draw_suit(img, "spades", (cx, cy - _mm(1)), _mm(34), (236, 242, 244))
    draw_suit(img, "spades", (cx, cy - _mm(1.5)), _mm(28), BLACK)
    # Filigree: curls and dots around the big pip, as on a maker's ace.
    for k in range(14):
        a = k / 14 * 2 * np.pi
        r = _mm(21 + 2 * np.sin(3 * a))
        px, py = int(cx + r * np.cos(a) * 0.9), int(cy + r * np.sin(a) * 1.05)
        cv2.ellipse(img, (px, py), (_mm(2.2), _mm(1.3)), float(np.degrees(a)), 0, 250, BLACK, 2,
                    cv2.LINE_AA)
        cv2.circle(img, (px, py), 2, BLACK, -1, cv2.LINE_AA)
    cv2.circle(img, (cx, cy - _mm(2)), _mm(6), (236, 242, 244), -1, cv2.LINE_AA)
    cv2.circle(img, (cx, cy - _mm(2)), _mm(6), BLACK, 2, cv2.LINE_AA)
    cv2.circle(img, (cx, cy - _mm(2)), _mm(4), BLACK, 1, cv2.LINE_AA)
    for k in range(3):
        words = "".join(chr(int(c)) for c in rng.integers(65, 91, 14))
        _text(img, words, (_mm(31.5), _mm(16 + k * 2.4)), _mm(1.6), BLACK,
              font=cv2.FONT_HERSHEY_PLAIN)


def _court_half(w: int, h: int, rank: str, suit: str, seed: int) -> np.ndarray:
    """The upper half of a court picture: crown, face, robe in red, gold, blue and black."""
    rng = np.random.default_rng(seed)
    img = np.full((h, w, 3), PAPER, np.uint8)
    red, gold, blue, skin, black = (40, 40, 200), (40, 185, 235), (165, 80, 40), \
        (175, 205, 240), (30, 30, 30)
    palette = [red, gold, blue, black]
    cx = w // 2 + int(rng.integers(-w // 12, w // 12))
    head_y, head_r = int(h * 0.36), int(w * 0.14)
    # Robe: stripes of the palette from the shoulders down to the split.
    shoulders = np.array([[cx - w * 0.42, h * 0.62], [cx + w * 0.42, h * 0.62], [w, h], [0, h]])
    cv2.fillPoly(img, [shoulders.astype(np.int32)], palette[int(rng.integers(0, 4))], cv2.LINE_AA)
    for k in range(6):
        colour = palette[(k + int(rng.integers(0, 4))) % 4]
        x = int(w * (0.08 + k * 0.16))
        cv2.rectangle(img, (x, int(h * 0.68)), (x + int(w * 0.08), h), colour, -1)
    for _ in range(18):
        colour = palette[int(rng.integers(0, 4))]
        x, y = int(rng.integers(0, w)), int(rng.integers(int(h * 0.66), h))
        cv2.circle(img, (x, y), int(rng.integers(2, 6)), colour, -1, cv2.LINE_AA)
    collar = [(cx - head_r * 2, int(h * 0.6)), (cx + head_r * 2, int(h * 0.6)), (cx, int(h * 0.78))]
    cv2.fillConvexPoly(img, np.array(collar, np.int32), gold, cv2.LINE_AA)
    # Hair and face.
    hair = gold if rank == "Q" else (rng.choice([black, (40, 90, 150)]))
    cv2.ellipse(img, (cx, head_y + head_r // 3), (int(head_r * 1.35), int(head_r * 1.5)), 0, 0,
                360, tuple(int(c) for c in hair), -1, cv2.LINE_AA)
    cv2.ellipse(img, (cx, head_y), (head_r, int(head_r * 1.2)), 0, 0, 360, skin, -1, cv2.LINE_AA)
    for dx in (-head_r // 2.5, head_r // 2.5):
        cv2.circle(img, (int(cx + dx), head_y - head_r // 5), max(2, head_r // 8), black, -1)
    cv2.line(img, (cx - head_r // 3, head_y + head_r // 2), (cx + head_r // 3,
                                                             head_y + head_r // 2), red, 2)
    if rank == "K":
        cv2.ellipse(img, (cx, head_y + head_r), (head_r, head_r), 0, 0, 180, gold, -1)
    # Headwear: a crown for K and Q, a cap for J.
    top = head_y - int(head_r * 1.2)
    if rank == "J":
        cap = np.array([[cx - head_r * 1.4, top + head_r * 0.5], [cx + head_r * 1.6, top],
                        [cx + head_r * 1.2, top - head_r * 0.7], [cx - head_r, top - head_r * 0.4]])
        cv2.fillPoly(img, [cap.astype(np.int32)], red, cv2.LINE_AA)
    else:
        spikes = 5 if rank == "K" else 3
        crown = [(cx - head_r * 1.2, top + head_r * 0.3)]
        for k in range(spikes * 2 + 1):
            x = cx - head_r * 1.2 + k * head_r * 2.4 / (spikes * 2)
            crown.append((x, top - head_r * (0.9 if k % 2 == 0 else 0.3)))
        crown.append((cx + head_r * 1.2, top + head_r * 0.3))
        cv2.fillPoly(img, [np.array(crown, np.int32)], gold, cv2.LINE_AA)
        cv2.polylines(img, [np.array(crown, np.int32)], True, black, 1, cv2.LINE_AA)
        for k in range(3):
            cv2.circle(img, (int(cx + (k - 1) * head_r * 0.7), int(top)), max(2, head_r // 7),
                       red if k != 1 else blue, -1)
    # A sceptre, sword or flower held at the side.
    side = int(w * (0.16 if rng.random() < 0.5 else 0.84))
    cv2.line(img, (side, int(h * 0.15)), (side, h), gold if rank != "J" else black, 4, cv2.LINE_AA)
    draw_suit(img, suit, (int(w * 0.14), int(h * 0.14)), int(w * 0.2), suit_colour(suit))
    return img


def _court(img: np.ndarray, rank: str, suit: str, item_id: str) -> None:
    x0, y0, x1, y1 = _mm(11.5), _mm(6.5), _mm(51.5), _mm(81.5)
    w, h = x1 - x0, y1 - y0
    half = _court_half(w, h // 2, rank, suit, zlib.crc32(item_id.encode()))
    # Printed courts are line art: every patch of colour outlined, full of small detail.
    _engrave(half, np.random.default_rng(zlib.crc32(item_id.encode()) + 1), 60)
    pic = np.full((h, w, 3), PAPER, np.uint8)
    pic[:h // 2] = half
    # The lower half is the upper turned round: the picture reads from both ends.
    pic[h - h // 2:] = half[::-1, ::-1]
    cv2.line(pic, (0, h // 2), (w, h // 2), COURT_BLUE, 2, cv2.LINE_AA)
    img[y0:y1, x0:x1] = pic
    cv2.rectangle(img, (x0, y0), (x1, y1), COURT_BLUE, 2, cv2.LINE_AA)


def draw_standard_face(item: ArtItem) -> np.ndarray:
    """The face of a standard-deck card, BGR, DECK_PX_PER_MM pixels per millimetre."""
    rank, suit = _split(item.item_id)
    colour = suit_colour(suit)
    img = _blank()
    if rank == "A":
        if suit == "spades":
            _ace_of_spades(img, np.random.default_rng(7))
        else:
            draw_suit(img, suit, (_mm(31.5), _mm(44)), _mm(14), colour)
    elif rank in PIPS:
        # Pips 15-16 mm tall, as printed decks' are (14 for the crowded 10).
        size = _mm(15.5 if rank != "10" else 14.0)
        for col, row in PIPS[rank]:
            draw_suit(img, suit, _pip_centre(col, row), size, colour, turned=row > 0.5)
    else:
        _court(img, rank, suit, item.item_id)
    _with_index(img, rank, suit, colour)
    return img


# --- Creature cards, one picture at several values ---------------------------------------------
CREATURES = ("rat-man", "orc", "skeleton", "zombie", "warrior", "troll")


def creature_deck(creatures: tuple[str, ...] = CREATURES, values: int = 2) -> list[ArtItem]:
    """Creature cards ``name-value``: one picture per creature at ``values`` different values,
    so the same creature at another value differs only in its numbers."""
    items = []
    for n, name in enumerate(creatures):
        hue = int(n / len(creatures) * 179)
        bgr = cv2.cvtColor(np.uint8([[[hue, 150, 170]]]), cv2.COLOR_HSV2BGR)[0, 0]
        for v in range(n + 1, n + 1 + values):
            items.append(ArtItem(f"{name}-{v}", name.replace("-", " ").title(), str(v),
                                 tuple(int(c) for c in bgr), "card", draw=draw_creature_face,
                                 corner_mm=CORNER_MM))
    return items


def draw_creature_face(item: ArtItem) -> np.ndarray:
    """A framed creature card: title banner, a monster seeded by its name, value in two corners."""
    img = _blank()
    w, h = img.shape[1], img.shape[0]
    name = item.item_id.rsplit("-", 1)[0]
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    dark = tuple(int(c * 0.5) for c in item.colour)
    cv2.rectangle(img, (_mm(3), _mm(3)), (w - _mm(3), h - _mm(3)), dark, -1)
    art = (_mm(6), _mm(17), w - _mm(6), h - _mm(17))
    cv2.rectangle(img, art[:2], art[2:], item.colour, -1)
    _text(img, item.title, (w // 2, _mm(10)), _mm(5), (240, 240, 240), cv2.FONT_HERSHEY_DUPLEX,
          max_width=w - _mm(22))
    # The monster: a body, a head, eyes and limbs, the same for every value of this creature.
    cx, cy = (art[0] + art[2]) // 2, (art[1] + art[3]) // 2
    body = tuple(int(c) for c in rng.integers(20, 200, 3))
    for _ in range(4):
        a = rng.uniform(0, 2 * np.pi)
        end = (int(cx + np.cos(a) * _mm(20)), int(cy + np.sin(a) * _mm(24)))
        cv2.line(img, (cx, cy), end, body, _mm(2.5), cv2.LINE_AA)
    cv2.ellipse(img, (cx, cy + _mm(4)), (_mm(11), _mm(15)), 0, 0, 360, body, -1, cv2.LINE_AA)
    cv2.circle(img, (cx, cy - _mm(12)), _mm(8), body, -1, cv2.LINE_AA)
    for dx in (-_mm(3), _mm(3)):
        cv2.circle(img, (cx + dx, cy - _mm(13)), _mm(1.6), (240, 250, 250), -1, cv2.LINE_AA)
        cv2.circle(img, (cx + dx, cy - _mm(13)), _mm(0.7), (10, 10, 10), -1, cv2.LINE_AA)
    for _ in range(8):
        x, y = int(rng.integers(art[0], art[2])), int(rng.integers(art[1], art[3]))
        cv2.circle(img, (x, y), int(rng.integers(3, 10)), tuple(int(c) for c in
                                                                   rng.integers(0, 256, 3)), -1)
    # Value in two opposite corners: a white disc with the number.
    corner = _blank()
    corner[:] = 255
    cv2.circle(corner, (_mm(9), _mm(9)), _mm(6), (245, 245, 245), -1, cv2.LINE_AA)
    cv2.circle(corner, (_mm(9), _mm(9)), _mm(6), (20, 20, 20), 2, cv2.LINE_AA)
    _text(corner, item.value, (_mm(9), _mm(9)), _mm(6), (20, 20, 20), max_width=_mm(8))
    disc = np.zeros(corner.shape[:2], np.uint8)
    cv2.circle(disc, (_mm(9), _mm(9)), _mm(6) + 2, 255, -1)
    for layer, mask in ((corner, disc), (corner[::-1, ::-1], disc[::-1, ::-1])):
        img[mask > 0] = layer[mask > 0]
    return img


# --- A Schnapsen deck, mounted on black card ----------------------------------------------------
SCHNAPSEN_SUITS = {"Herz": "hearts", "Karo": "diamonds", "Kreuz": "clubs", "Pik": "spades"}
SCHNAPSEN_RANKS = {"Ass": "A", "Zehn": "10", "Koenig": "K", "Dame": "D", "Bube": "B"}
#: The card (59 x 91 mm) and the black card it is glued on, 1.5-3 mm wider all round.
SCHNAPSEN_MM = (59.0, 91.0)
MOUNT_MM = 2.2


def schnapsen_deck() -> list[ArtItem]:
    """The 20 cards, ids as the dev set's (``Herz_Ass``, ``Pik_Bube``); each item's size is
    the mounted card's (the black rim is part of what lies on the table)."""
    size = (SCHNAPSEN_MM[0] + 2 * MOUNT_MM, SCHNAPSEN_MM[1] + 2 * MOUNT_MM)
    return [ArtItem(f"{german}_{rank}", f"{rank} {german}", SCHNAPSEN_RANKS[rank],
                    suit_colour(suit), "card", draw=draw_schnapsen_face, corner_mm=0.6,
                    size_mm=size)
            for german, suit in SCHNAPSEN_SUITS.items() for rank in SCHNAPSEN_RANKS]


def _engrave(img: np.ndarray, rng: np.random.Generator, count: int) -> None:
    """A court figure as engraved line art (in place, the bare paper left alone): small
    jewels, clasps, ermine spots and folds 1-5 mm across in the palette, every coloured
    region then outlined in black, as printed court cards are (the structure a keypoint
    matcher holds on to at any scale a camera sees)."""
    bare = np.abs(img.astype(np.int16) - np.int16(PAPER)).max(axis=2) < 12
    palette = [(40, 40, 200), (40, 185, 235), (165, 80, 40), (60, 140, 40), (245, 245, 245),
               (90, 60, 130)]
    before = img.copy()
    ys, xs = np.nonzero(~bare)
    if len(xs) == 0:
        return
    for _ in range(count):
        k = int(rng.integers(0, len(xs)))
        x, y = int(xs[k]), int(ys[k])
        colour = palette[int(rng.integers(0, len(palette)))]
        r = _mm(float(rng.uniform(0.8, 2.2)))
        kind = rng.random()
        if kind < 0.35:
            cv2.ellipse(img, (x, y), (r, max(2, r // 2)), float(rng.uniform(0, 180)), 0, 360,
                        colour, -1, cv2.LINE_AA)
        elif kind < 0.6:
            pts = np.int32([[x, y - r], [x + r, y], [x, y + r], [x - r, y]])
            cv2.fillConvexPoly(img, pts, colour, cv2.LINE_AA)
        elif kind < 0.8:
            # An ermine patch: white with black tails.
            cv2.circle(img, (x, y), r, (245, 245, 245), -1, cv2.LINE_AA)
            cv2.circle(img, (x, y), max(2, r // 3), (25, 25, 25), -1, cv2.LINE_AA)
        else:
            a = rng.uniform(0, np.pi)
            d = 2 * r
            cv2.line(img, (x, y), (int(x + d * np.cos(a)), int(y + d * np.sin(a))),
                     (25, 25, 25), 2, cv2.LINE_AA)
    # Black outlines round every patch of colour.
    grey = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    lines = cv2.Canny(cv2.GaussianBlur(img, (3, 3), 0), 40, 120)
    lines = cv2.dilate(lines, np.ones((2, 2), np.uint8)) > 0
    img[lines & (grey < 235)] = (25, 25, 25)
    img[bare] = before[bare]


def _schnapsen_index(img: np.ndarray, rank: str, suit: str, colour: tuple[int, int, int]
                     ) -> None:
    """The rank's letter with the suit beside it, in all four corners (upright at the top,
    turned at the bottom)."""
    h, w = img.shape[:2]
    top = np.full_like(img, 255)
    for x in (_mm(5.5), w - _mm(5.5)):
        _text(top, rank, (x, _mm(7)), _mm(6.5), colour, font=cv2.FONT_HERSHEY_TRIPLEX,
              max_width=_mm(8))
    draw_suit(top, suit, (_mm(5.5), _mm(14)), _mm(4.5), colour)
    draw_suit(top, suit, (w - _mm(5.5), _mm(14)), _mm(4.5), colour)
    np.minimum(img, top, out=img)
    np.minimum(img, top[::-1, ::-1], out=img)


def draw_schnapsen_face(item: ArtItem) -> np.ndarray:
    """A Schnapsen card glued on black card: the mount's rim uneven (the card a little off
    its middle and turned), BGR, DECK_PX_PER_MM pixels per millimetre."""
    german, rank_word = item.item_id.split("_")
    suit, rank = SCHNAPSEN_SUITS[german], SCHNAPSEN_RANKS[rank_word]
    colour = suit_colour(suit)
    w, h = _mm(SCHNAPSEN_MM[0]), _mm(SCHNAPSEN_MM[1])
    face = np.full((h, w, 3), PAPER, np.uint8)
    rng = np.random.default_rng(zlib.crc32(item.item_id.encode()))
    if rank == "A":
        draw_suit(face, suit, (w // 2, h // 2), _mm(12), colour)
        for k in range(4):
            _text(face, "".join(chr(int(c)) for c in rng.integers(65, 91, 12)),
                  (w // 2, h // 2 + _mm(12 + 1.8 * k)), _mm(1.2), BLACK,
                  font=cv2.FONT_HERSHEY_PLAIN)
    elif rank == "10":
        for col, row in PIPS["10"]:
            draw_suit(face, suit, (_mm(16.5 + col * 13), _mm(20 + row * 51)), _mm(12), colour,
                      turned=row > 0.5)
    else:
        # The figure fills the card but for the corners, where the index stands.
        x0, y0, x1, y1 = _mm(3), _mm(3), w - _mm(3), h - _mm(3)
        half = _court_half(x1 - x0, (y1 - y0) // 2, {"B": "J", "D": "Q"}.get(rank, rank), suit,
                           zlib.crc32(item.item_id.encode()))
        _engrave(half, rng, 110)
        pic = np.full((y1 - y0, x1 - x0, 3), PAPER, np.uint8)
        pic[:half.shape[0]] = half
        pic[pic.shape[0] - half.shape[0]:] = half[::-1, ::-1]
        face[y0:y1, x0:x1] = pic
        # The corners stay paper: the index stands there.
        for cx in (0, w - _mm(11)):
            for cy in (0, h - _mm(19)):
                face[cy:cy + _mm(19), cx:cx + _mm(11)] = PAPER
    _schnapsen_index(face, rank, suit, colour)
    # The mount: black card a little larger, the card glued a little off its middle, askew.
    mw, mh = _mm(SCHNAPSEN_MM[0] + 2 * MOUNT_MM), _mm(SCHNAPSEN_MM[1] + 2 * MOUNT_MM)
    mount = np.full((mh, mw, 3), (22, 22, 24), np.uint8)
    dx, dy = rng.uniform(-0.6, 0.6, 2) * _mm(MOUNT_MM)
    turn = cv2.getRotationMatrix2D((w / 2, h / 2), float(rng.uniform(-0.8, 0.8)), 1.0)
    turn[:, 2] += [(mw - w) / 2 + dx, (mh - h) / 2 + dy]
    card_mask = cv2.warpAffine(np.full((h, w), 255, np.uint8), turn, (mw, mh))
    placed = cv2.warpAffine(face, turn, (mw, mh))
    inside = card_mask.astype(np.float32)[..., None] / 255
    return (placed * inside + mount * (1 - inside)).astype(np.uint8)


# --- A colour-and-number deck, like UNO's ------------------------------------------------------
NUMBER_COLOURS = {"red": (40, 40, 205), "yellow": (20, 195, 245), "green": (70, 160, 40),
                  "blue": (175, 95, 20)}
NUMBER_VALUES = tuple(str(v) for v in range(10)) + ("skip", "reverse", "+2")
#: The card (56 x 87 mm) and its white rim round the coloured field.
NUMBER_MM = (56.0, 87.0)
NUMBER_RIM_MM = 3.5


def number_deck() -> list[ArtItem]:
    """52 cards ``colour-value``: 0-9, skip, reverse and +2 in each of four colours."""
    return [ArtItem(f"{name}-{value}", f"{name} {value}", value, colour, "card",
                    draw=draw_number_face, corner_mm=3.0, size_mm=NUMBER_MM)
            for name, colour in NUMBER_COLOURS.items() for value in NUMBER_VALUES]


def _number_value(img: np.ndarray, value: str, centre: tuple[int, int], height: int,
                  colour: tuple[int, int, int], edge: int) -> None:
    """A value (a number, or the skip and reverse signs) in ``colour``, edged in black
    ``edge`` pixels wide; a 6 and a 9 underlined, as the deck prints them."""
    cx, cy = centre
    strokes = [(BLACK, max(2, height // 6) + edge), (colour, max(2, height // 6))]
    if value == "skip":
        r, d = height // 2, int(height * 0.35)
        for ink, width in strokes:
            cv2.circle(img, (cx, cy), r, ink, width, cv2.LINE_AA)
            cv2.line(img, (cx - d, cy + d), (cx + d, cy - d), ink, width, cv2.LINE_AA)
        return
    if value == "reverse":
        r = height // 2
        arrows = [np.int32([[cx + s * r, cy + s * r // 3], [cx - s * r // 4, cy + s * r],
                            [cx - s * r // 4, cy - s * r // 3]]) for s in (-1, 1)]
        cv2.polylines(img, arrows, True, BLACK, edge, cv2.LINE_AA)
        cv2.fillPoly(img, arrows, colour, cv2.LINE_AA)
        return
    font, scale = cv2.FONT_HERSHEY_DUPLEX, height / 22
    (w, h), _ = cv2.getTextSize(value, font, scale, strokes[1][1])
    x, y = int(cx - w / 2), int(cy + h / 2)
    for (ink, width), shift in zip(strokes, (edge // 3, 0), strict=True):
        cv2.putText(img, value, (x + shift, y + shift), font, scale, ink, width, cv2.LINE_AA)
        if value in ("6", "9"):
            line = y + max(2, height // 10) + shift
            cv2.line(img, (x + shift, line), (x + w + shift, line), ink, width, cv2.LINE_AA)


def draw_number_face(item: ArtItem) -> np.ndarray:
    """A colour-and-number card, BGR, DECK_PX_PER_MM pixels per millimetre."""
    name, value = item.item_id.split("-", 1)
    colour = NUMBER_COLOURS[name]
    w, h = _mm(NUMBER_MM[0]), _mm(NUMBER_MM[1])
    face = np.full((h, w, 3), PAPER, np.uint8)
    rim = _mm(NUMBER_RIM_MM)
    face[rim:h - rim, rim:w - rim] = colour
    cv2.ellipse(face, (w // 2, h // 2), (_mm(19), _mm(33)), 30, 0, 360, PAPER, -1, cv2.LINE_AA)
    _number_value(face, value, (w // 2, h // 2), _mm(26), colour, _mm(1.6))
    # The value small and white in the top-left corner, and turned in the bottom-right one.
    corner = face.copy()
    _number_value(corner, value, (_mm(9), _mm(11)), _mm(8), PAPER, _mm(0.7))
    x1, y1 = _mm(18), _mm(20)
    face[:y1, :x1] = corner[:y1, :x1]
    face[h - y1:, w - x1:] = corner[:y1, :x1][::-1, ::-1]
    return face


if __name__ == "__main__":  # pragma: no cover - a quick look: python -m companion.vision.deck
    sheet = np.vstack([np.hstack([draw_face(c) for c in standard_deck()[r * 13:(r + 1) * 13]])
                       for r in range(4)])
    cv2.imwrite("/tmp/deck.png", cv2.resize(sheet, None, fx=0.4, fy=0.4))
