"""Cards read from their corner index: where a card lies under others (a fan held or laid
on the table, a trick, two cards overlapping) its corner often shows, and there, on most
decks, its index. A person reads a fanned hand from those indices; so does this reader.

What an index looks like is learnt from the deck's own enrolled faces: at each corner of each
face, turned each quarter turn, the small print standing clear of the corner's other print
(a rank over a suit, a number) is the index; a corner without such print (blank, or cut
through by a big pip or the art) has none. The indices of one corner of one turn share a
window, cut from every face at the same place from the card's corner, at a fixed size
(``REFERENCE``: the card's short side in pixels).

A region of a frame is looked at in the turns its straight edges show (a fan's cards lie
within a few degrees of each other): turned upright at the reference size, each window's
indices are compared everywhere in it at once through their few principal components
(``COMPONENTS``: the print's likeness to any index of the deck), and where that is high, with
every index of the window exactly (normalised correlation). An index that fits well and
stands clear of every other card's places its card: the corner it lies at, the way round, the
card's size. An index is compared only with those printed in its colour (red or black, as
its ink differs from its paper's, whatever the light's cast), and with a rival nearly as
alike (a rank over another suit of one colour) where the two differ: its small print. Each
card is kept once, the best read first.

A deck printing its index light on a field of colour (UNO's white number on its red) has no
such print on paper: where half a corner is printed in one colour, the print off that colour
is its index, if the deck prints one at the corner half a turn round too. Those indices are
compared in whiteness (each pixel's least plane: white stands out of any colour) at twice
the reference size, and in the colour of their field.

>>> index = IndexReader([])
>>> index.read(np.zeros((120, 160, 3), np.uint8), 60.0)
[]
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import cv2
import numpy as np

#: The card's short side at which indices are compared (pixels).
REFERENCE = 72
#: Share of each side of a face looked at for an index at a corner.
CORNER = 0.3
#: How far a print's colour must lie from the card's paper (largest plane difference).
INK = 45
#: An index is at least this tall and wide (share of the face's long side): a speck is not.
LEAST_INDEX = (0.05, 0.02)
#: A glyph taller than this (share of the face's long side) is a pip or art, not an index.
MOST_GLYPH = 0.14
#: An index shows at a corner of a turn on at least this many faces, and this share of them
#: (a deck prints its index at the same corners of all its cards): else it is a shadow or a
#: speck of one photo.
SHARED = (3, 0.25)
#: Where this share of the faces shows an index at a corner of a turn, every face is cut
#: there (at the others' usual place where its own is not made out).
USUAL = 0.5
#: A face's index made out this far from the others' usual place there (reference pixels,
#: toward the corner) is not its index: a crop cut unevenly shifts it up to about 0.12 of
#: the short side (at 0.12, anima-pairs' faces so cropped invented four cards), a pip taken
#: in with it 0.17 and more.
ASTRAY = 0.15 * REFERENCE
#: A face's index whose side toward the corner lies this much further from it than the
#: others' usual place, its far side not (reference pixels; a glyph is about twice it high),
#: was made out without its rank: a crop's rim joined to it (a tight crop of a rounded
#: corner shows the table there).
PARTIAL = 0.08 * REFERENCE
#: Principal components of a window's indices compared everywhere.
COMPONENTS = 16
#: Where the print's share in the indices' components reaches this, the place is compared
#: with every index exactly.
LIKE_AN_INDEX = 0.55
#: An index read must correlate this well with its face's, and this much better than with
#: any other card's.
LEAST_SCORE = 0.78
LEAST_MARGIN = 0.2
#: An index printed light on a field of colour, compared in ``whiteness`` (where it stands
#: out sharply), must fit this well: a light digit fits much of another light digit (an 8 or
#: a 0 most); on the rendered colour-and-number photos misread digits fit 0.78-0.85, the
#: true ones 0.83-0.99.
LEAST_FIELD_SCORE = 0.88
#: Indices on a field are compared at this many times the reference size: a light digit's
#: strokes and gaps (a 5's from an 8's) are a pixel or two at the reference size.
FIELD_DETAIL = 2
#: Two indices' ink colours this near (Lab chroma, 8-bit units) are one colour: an index is
#: only compared with those printed in the colour it shows (grey, a red nine and a black
#: nine differ by their suit's small print alone).
COLOUR_APART = 12.0
#: Indices whose whole likeness is within this of the best are told apart where they differ
#: (``_told_apart``).
RIVALS = 0.2
#: The turns looked at: straight edges of at least this share of a card's short side, and a
#: turn whose edges make at least this share of all their length (a fan in an arc turns each
#: card its own way: a few edges each).
EDGE_LENGTH = 0.4
LEAST_TURN = 0.03
#: Edges within this many degrees of each other's turn are one group, read at one turn (an
#: index reads within a few degrees of upright); at most this many groups per region.
TURN_APART = 4
MOST_GROUPS = 16
#: A group's box is grown by this share of a card's short side (where its corner lies).
GROW = 0.5

#: The shapes of windows sharing a size and components: turned the same way up to a half
#: turn, and printed on paper or light on a field of colour.
SHAPES = ((0, False), (1, False), (0, True), (1, True))

#: The corners of a card as seen, and which way its body lies from each (x, y).
ANCHORS = {"tl": (1, 1), "tr": (-1, 1), "br": (-1, -1), "bl": (1, -1)}
#: Each corner's corner half a turn round.
HALF_TURN = {"tl": "br", "br": "tl", "tr": "bl", "bl": "tr"}


@dataclass(frozen=True)
class IndexHit:
    """A card read from its index: the number of its face, its outline (the face's own corner
    order, image pixels), how well its index fits and how clear of every other card's."""

    face_number: int
    corners: np.ndarray
    score: float
    margin: float
    at: np.ndarray  # the middle of the index (image pixels)
    #: The outlines the card would have were this its index at another corner printed alike
    #: (a deck printing its index at all four corners: the top two read the same); the
    #: recognizer keeps the one lying on the cards round it.
    others: tuple[np.ndarray, ...] = ()

    def moved(self, matrix: np.ndarray | None = None, shift: np.ndarray | float = 0.0,
              scale: float = 1.0) -> IndexHit:
        """The same read in other pixels: through ``matrix`` (2x3), then shifted by
        ``shift`` and divided by ``scale``."""
        def move(points: np.ndarray) -> np.ndarray:
            if matrix is not None:
                points = cv2.transform(points.reshape(-1, 1, 2), matrix).reshape(
                    points.shape)
            return ((points + shift) / scale).astype(np.float32)
        return self._each_moved(move)

    def projected(self, homography: np.ndarray) -> IndexHit:
        """The same read in other pixels, through a ``homography`` (3x3)."""
        return self._each_moved(lambda points: cv2.perspectiveTransform(
            points.reshape(-1, 1, 2).astype(np.float32), homography).reshape(
                points.shape).astype(np.float32))

    def _each_moved(self, move: Callable[[np.ndarray], np.ndarray]) -> IndexHit:
        """The same read with its outlines and index moved by ``move``."""
        return IndexHit(self.face_number, move(self.corners), self.score, self.margin,
                        move(self.at), tuple(move(other) for other in self.others))


@dataclass
class _Window:
    """The indices of one corner of one turn of the faces: where each lies from its card's
    corner (``offsets``: its window's top-left from the corner, reference pixels), and each
    face's print there, flattened, zero-mean and unit length."""

    turn: int
    anchor: str
    size: tuple[int, int]  # (w, h), reference pixels
    offsets: np.ndarray  # (faces, 2): each face's window's top-left from its corner
    face_numbers: list[int]
    rows: np.ndarray
    #: (faces, 2): each index's ink colour from its paper's (Lab a, b): seen as if its paper
    #: were grey, per step below the paper (``ink_colour(..., any_light=True)``); on a field,
    #: the field's colour (``field_colour``).
    colours: np.ndarray
    basis: np.ndarray  # (components, w * h)
    card: tuple[float, float]  # the turned card's (width, height), reference pixels
    #: Printed light on a field of colour: compared in ``whiteness``, not grey.
    on_field: bool = False


def whiteness(image: np.ndarray) -> np.ndarray:
    """How white each pixel is: its least plane. A light index on a field of colour stands
    out there whatever the field's colour (a white 8 on yellow is barely lighter in grey)."""
    return image.min(axis=2)


def ink_on(face: np.ndarray, ground: np.ndarray) -> np.ndarray:
    """Where ``face`` is printed on ``ground`` (a colour): its largest plane difference from
    it past ``INK``."""
    return np.uint8(np.abs(face.astype(np.float32) - ground).max(axis=2) > INK)


def paper_and_ink(face: np.ndarray) -> np.ndarray:
    """Where a face is printed: the largest plane difference from its paper (its commonest
    light colour) past ``INK``."""
    grey = cv2.cvtColor(face, cv2.COLOR_BGR2GRAY)
    light = face[grey >= np.percentile(grey, 70)]
    return ink_on(face, np.median(light, axis=0) if len(light) else np.full(3, 255.0))


#: A corner this much printed (off the face's paper), most of it in one colour, is a field of
#: colour: an index there may be printed light on it (the number deck's corners are 0.6-0.87
#: printed round their rim; paper decks' corners are not one colour).
FIELD = 0.4


def field_of(patch: np.ndarray, ink: np.ndarray) -> np.ndarray | None:
    """The colour of the field a corner (``patch``, its print ``ink``) is printed over (its
    print's median colour), if it is one: ``FIELD`` of the corner, and of that share of one
    colour (a title's band across a picture is no field)."""
    if ink.mean() < FIELD:
        return None
    printed = patch[ink > 0].astype(np.float32)
    field = np.median(printed, axis=0)
    if (np.abs(printed - field).max(axis=1) <= INK).mean() < FIELD:
        return None
    return field


def index_box(ink: np.ndarray, anchor: str, long_side: int
               ) -> tuple[int, int, int, int] | None:
    """The box (x0, y0, x1, y1) of the index in a corner's print (``ink``: the corner's
    patch, the card's corner at ``anchor``), or None: the small glyphs wholly inside the
    patch, the one nearest the corner and those beside or under it."""
    h, w = ink.shape
    count, _, stats, _ = cv2.connectedComponentsWithStats(ink)
    glyphs = []
    for label in range(1, count):
        x, y, gw, gh, area = stats[label]
        if area < 4 or x == 0 or y == 0 or x + gw >= w or y + gh >= h:
            continue  # a speck, or print running on past the corner's patch
        if gh > MOST_GLYPH * long_side or gw > 0.6 * w:
            continue  # a pip or the art
        glyphs.append((x, y, x + gw, y + gh))
    if not glyphs:
        return None
    boxes = np.array(glyphs, np.float32)
    cx = 0 if anchor in ("tl", "bl") else w
    cy = 0 if anchor in ("tl", "tr") else h
    centres = (boxes[:, :2] + boxes[:, 2:]) / 2
    first = int(np.argmin(np.hypot(centres[:, 0] - cx, centres[:, 1] - cy)))
    group = [boxes[first]]
    for box in boxes:
        if any((box == g).all() for g in group):
            continue
        for g in group:
            width = max(g[2] - g[0], box[2] - box[0])
            height = g[3] - g[1]
            if (abs((box[0] + box[2]) / 2 - (g[0] + g[2]) / 2) < 1.2 * width
                    and box[1] <= g[3] + 0.8 * height and box[3] >= g[1] - 0.8 * height):
                group.append(box)
                break
    found = np.array(group)
    x0, y0 = found[:, :2].min(axis=0)
    x1, y1 = found[:, 2:].max(axis=0)
    if y1 - y0 < LEAST_INDEX[0] * long_side or x1 - x0 < LEAST_INDEX[1] * long_side:
        return None
    return int(x0), int(y0), int(x1), int(y1)


#: A print's colour is given per this many lightness steps below its paper (a red index in
#: full light lies about this far below white paper), and its step taken as at least the
#: second (a faint print's chroma is not blown up).
INK_DARKNESS, LEAST_DARKNESS = 200.0, 30.0


def ink_colour(lab: np.ndarray, any_light: bool = False) -> np.ndarray:
    """The colour of the print in a patch (Lab, 8-bit), as its chroma (a, b) less the
    paper's: red print on any paper, under a slight cast, reads red; black reads near zero.
    ``any_light``: seen as if its paper were grey (a lamp's colour scales each channel
    alike: under a warm one, chroma less the paper's turns red towards orange and tints
    black), and per ``INK_DARKNESS`` steps the print lies below the paper in lightness, so
    that a red in a shadow reads as red as in full light (a shadow dims its chroma as it dims
    its step below the paper)."""
    light = lab[..., 0].astype(np.float32)
    chroma = lab[..., 1:].reshape(-1, 2).astype(np.float32)
    light = light.reshape(-1)
    ink = light <= np.percentile(light, 20)
    paper = light >= np.percentile(light, 70)
    if not ink.any() or not paper.any():
        return np.zeros(2, np.float32)
    if not any_light:
        return chroma[ink].mean(axis=0) - np.median(chroma[paper], axis=0)
    # The light's colour scales each channel alike (a warm lamp, daylight's blue, a camera's
    # white balance): the print is seen as if its paper were grey.
    bgr = cv2.cvtColor(lab.reshape(-1, 1, 3), cv2.COLOR_LAB2BGR).reshape(-1, 3).astype(np.float32)
    paper_bgr = np.median(bgr[paper], axis=0)
    both = np.stack([bgr[ink].mean(axis=0), paper_bgr]) * (
        float(paper_bgr.mean()) / np.maximum(paper_bgr, 1.0))
    seen = cv2.cvtColor(np.clip(both, 0, 255).astype(np.uint8).reshape(2, 1, 3),
                        cv2.COLOR_BGR2LAB).reshape(2, 3).astype(np.float32)
    colour = seen[0, 1:] - seen[1, 1:]
    darkness = max(float(np.median(light[paper]) - light[ink].mean()), LEAST_DARKNESS)
    return colour * (INK_DARKNESS / darkness)


def field_colour(lab: np.ndarray, white: np.ndarray) -> np.ndarray:
    """The colour of the field a light index is printed on (Lab chroma, 8-bit, less the
    index's): the least white half of the patch (``white``: its whiteness) against its
    whitest sixth. A yellow field is light, and its digit's dark edge is no colour: darkest
    against lightest would read it grey."""
    light = white.reshape(-1).astype(np.float32)
    chroma = lab[..., 1:].reshape(-1, 2).astype(np.float32)
    field = light <= np.percentile(light, 50)
    digit = light >= np.percentile(light, 85)
    return np.median(chroma[field], axis=0) - np.median(chroma[digit], axis=0)


def same_colour(ink: np.ndarray, printed: np.ndarray) -> np.ndarray:
    """Which indices (``printed``: their ink colours, one a row) are of the colour ``ink``:
    within ``COLOUR_APART`` of it, or of half the stronger of the two (a faded photo)."""
    apart = np.linalg.norm(printed - ink, axis=1)
    return apart <= np.maximum(COLOUR_APART, 0.5 * np.maximum(
        np.linalg.norm(printed, axis=1), float(np.linalg.norm(ink))))


def _on_the_face(turn: int, anchor: str) -> str:
    """The face's own corner seen at ``anchor`` of the face turned ``turn`` quarters."""
    corners = ("tl", "tr", "br", "bl")  # clockwise, as a quarter turn moves them
    return corners[(corners.index(anchor) - turn) % 4]


def _near_sides(anchor: str) -> list[int]:
    """Which of a box's (x0, y0, x1, y1) lie toward the card's corner at ``anchor``."""
    return [0 if anchor in ("tl", "bl") else 2, 1 if anchor in ("tl", "tr") else 3]


def _without_its_first_glyph(box: np.ndarray, usual: np.ndarray, anchor: str) -> bool:
    """Whether an index ``box`` (x0, y0, x1, y1, from the card's corner at ``anchor``) was
    made out without the glyph nearest the corner (a rank joined to a crop's rim): its side
    toward the corner lies ``PARTIAL`` further from it than the deck's ``usual`` box's, and
    its far side did not move so (a crop cut unevenly moves both)."""
    away = np.float32([1 if anchor in ("tl", "bl") else -1, 1 if anchor in ("tl", "tr") else -1])
    near = _near_sides(anchor)
    far = [2 - near[0], 4 - near[1]]
    moved_near = (box[near] - usual[near]) * away
    moved_far = (box[far] - usual[far]) * away
    return bool(((moved_near > PARTIAL) & (moved_near - moved_far > PARTIAL)).any())


def _from_corner(box: tuple[int, int, int, int], origin: tuple[int, int],
                 corner: tuple[int, int], scale: float) -> tuple[float, ...]:
    """A box found in a corner's patch (its top-left at ``origin``) as from the card's
    ``corner``, at ``scale``."""
    return tuple((v + origin[k % 2] - corner[k % 2]) * scale for k, v in enumerate(box))


def _unit_rows(patches: np.ndarray) -> np.ndarray:
    rows = patches.reshape(len(patches), -1).astype(np.float32)
    rows -= rows.mean(axis=1, keepdims=True)
    rows /= np.linalg.norm(rows, axis=1, keepdims=True) + 1e-6
    return rows


class IndexReader:
    """The deck's corner indices (see the module), and reading cards from them."""

    def __init__(self, faces: Sequence[np.ndarray]) -> None:
        self.windows = self._windows(faces)
        # The windows of each shape (``SHAPES``), compared together.
        self._shaped = {shape: [window for window in self.windows
                                if (window.turn % 2, window.on_field) == shape]
                        for shape in SHAPES}
        # The faces printing their index at both top corners (then either may be the one
        # seen).
        tops = [{face_number for window in self.windows if (window.turn, window.anchor) == (0, side)
                 for face_number in window.face_numbers} for side in ("tl", "tr")]
        self.both_tops = tops[0] & tops[1]

    @staticmethod
    def _windows(faces: Sequence[np.ndarray]) -> list[_Window]:
        """Every corner and turn at which some faces show an index, with those faces'."""
        found: dict[tuple[int, str, bool], list[tuple[int, np.ndarray, tuple, np.ndarray]]] = {}
        instead: dict[tuple[int, int, str], tuple] = {}  # a corner's print on paper
        seen: dict[tuple[int, int], tuple[np.ndarray, np.ndarray]] = {}  # grey, Lab
        for face_number, face in enumerate(faces):
            # The print is found at twice the reference size (the index's glyphs stay apart),
            # once for all four turns.
            fh, fw = face.shape[:2]
            fine = min(1.0, 2 * REFERENCE / min(fh, fw))
            face = cv2.resize(face, (max(1, round(fw * fine)), max(1, round(fh * fine))),
                              interpolation=cv2.INTER_AREA)
            face_ink = paper_and_ink(face)
            for turn in range(4):
                turned = np.ascontiguousarray(np.rot90(face, -turn))
                # The turned face in whiteness and Lab at ``FIELD_DETAIL``, made when a field
                # index is first found on it.
                detailed: tuple[np.ndarray, np.ndarray] | None = None
                h, w = turned.shape[:2]
                scale = REFERENCE / min(h, w)
                small = cv2.resize(turned, (max(1, round(w * scale)), max(1, round(h * scale))),
                                   interpolation=cv2.INTER_AREA)
                grey = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
                lab = cv2.cvtColor(small, cv2.COLOR_BGR2LAB)
                seen[face_number, turn] = (grey, lab)
                ink = np.ascontiguousarray(np.rot90(face_ink, -turn))
                pw, ph = int(round(CORNER * w)), int(round(CORNER * h))
                for anchor in ANCHORS:
                    x0 = 0 if anchor in ("tl", "bl") else w - pw
                    y0 = 0 if anchor in ("tl", "tr") else h - ph
                    # Boxes are kept as from the card's corner (reference pixels).
                    corner = (0 if anchor in ("tl", "bl") else w, 0 if anchor in ("tl", "tr")
                              else h)
                    patch = turned[y0:y0 + ph, x0:x0 + pw]
                    on_paper = index_box(ink[y0:y0 + ph, x0:x0 + pw], anchor, max(h, w))
                    field = field_of(patch, ink[y0:y0 + ph, x0:x0 + pw])
                    # On a field of colour (UNO's white number on its red) the index is the
                    # print off the field (off the paper it is the field, holes and all).
                    on_field = None if field is None else index_box(
                        ink_on(patch, field), anchor, max(h, w))
                    if on_field is not None:
                        fine_scale = scale * FIELD_DETAIL
                        if detailed is None:
                            larger = cv2.resize(turned, (max(1, round(w * fine_scale)),
                                                         max(1, round(h * fine_scale))),
                                                interpolation=cv2.INTER_AREA)
                            detailed = (whiteness(larger),
                                        cv2.cvtColor(larger, cv2.COLOR_BGR2LAB))
                        found.setdefault((turn, anchor, True), []).append((
                            face_number, detailed[0],
                            _from_corner(on_field, (x0, y0), corner, fine_scale), detailed[1]))
                        if on_paper is not None:
                            instead[face_number, turn, anchor] = (
                                face_number, grey,
                                _from_corner(on_paper, (x0, y0), corner, scale), lab)
                    elif on_paper is not None:
                        found.setdefault((turn, anchor, False), []).append((
                            face_number, grey, _from_corner(on_paper, (x0, y0), corner, scale),
                            lab))
        least = max(SHARED[0], SHARED[1] * len(faces))
        fields = {key for key, members in found.items() if key[2] and len(members) >= least}
        # A light print on a field is an index only where the deck prints it at the corner
        # half a turn round too (to read either way up): at one corner alone it is a title
        # or art. A face's corner whose field print is not so is looked at on paper.
        fields = {(turn, anchor, True) for turn, anchor, _ in fields
                  if (turn, HALF_TURN[anchor], True) in fields}
        for (turn, anchor, on_field), members in list(found.items()):
            if on_field and (turn, anchor, True) not in fields:
                paper = found.setdefault((turn, anchor, False), [])
                paper += [instead[m[0], turn, anchor] for m in members
                          if (m[0], turn, anchor) in instead]
                paper.sort(key=lambda m: m[0])
        kept = {key: members for key, members in found.items()
                if (key in fields if key[2] else len(members) >= least)}
        # Where most faces print their index at a corner, a face whose own is not made out
        # there (its suit joined to a pip, a shadow in its photo), or is made out far from
        # the others' (a pip taken in with it), is cut at the deck's usual place: else a
        # card printing alike there reads in its place unopposed, or its pip reads as it.
        on_fields = {(turn, anchor): {m[0] for m in members}
                     for (turn, anchor, on_field), members in kept.items() if on_field}
        usual_boxes = {key: np.median([m[2] for m in members], axis=0)
                       for key, members in kept.items()
                       if not key[2] and len(members) >= USUAL * len(faces)}
        # A face's corner made out without its rank at one turn is so at every turn: turned
        # a quarter, the rank beside the suit is no part of the box made out (only glyphs
        # under one another are), and the suit alone there looks like a crop cut unevenly.
        partial = {(m[0], _on_the_face(turn, anchor))
                   for (turn, anchor, _), members in kept.items()
                   if (turn, anchor, False) in usual_boxes for m in members
                   if _without_its_first_glyph(np.float32(m[2]),
                                               usual_boxes[turn, anchor, False], anchor)}
        for (turn, anchor, on_field), members in kept.items():
            if (turn, anchor, on_field) not in usual_boxes:
                continue
            usual = usual_boxes[turn, anchor, on_field]
            # The box's sides toward the corner place the window (``offsets`` below).
            sides = _near_sides(anchor)
            members[:] = [m for m in members if np.abs(np.float32(m[2])[sides]
                                                       - usual[sides]).max() <= ASTRAY
                          and (m[0], _on_the_face(turn, anchor)) not in partial]
            have = {m[0] for m in members} | on_fields.get((turn, anchor), set())
            box = tuple(float(v) for v in usual)
            members += [(face_number, seen[face_number, turn][0], box,
                         seen[face_number, turn][1])
                        for face_number in range(len(faces)) if face_number not in have]
            members.sort(key=lambda m: m[0])
        # The windows of one shape (turned the same way, up to a half turn) share a size and
        # one set of principal components: their indices are compared everywhere at once.
        margins = {False: 0.04 * REFERENCE, True: 0.04 * REFERENCE * FIELD_DETAIL}
        sizes = {}
        for shape in SHAPES:
            margin = margins[shape[1]]
            boxes = np.array([m[2] for (turn, _, on_field), members in kept.items()
                              if (turn % 2, on_field) == shape for m in members],
                             np.float32).reshape(-1, 4)
            if len(boxes):
                # As large as the largest index (a "10" is wider than an "A"), with a margin.
                extent = (boxes[:, 2:] - boxes[:, :2]).max(axis=0) + 2 * margin
                sizes[shape] = (max(4, int(round(extent[0]))), max(4, int(round(extent[1]))))
        windows = []
        for (turn, anchor, on_field), members in kept.items():
            size, margin = sizes[turn % 2, on_field], margins[on_field]
            patches, face_numbers, colours, offsets = [], [], [], []
            for face_number, grey, box_ref, lab in members:
                h, w = grey.shape
                cx = 0 if anchor in ("tl", "bl") else w
                cy = 0 if anchor in ("tl", "tr") else h
                # Each face's window starts at its own index (as the window's, from the
                # corner side): a crop whose rim is wider or narrower than the others' shifts
                # its print, and a window at the deck's place would hold its rim, which then
                # looks like any card's edge.
                ox = box_ref[0] - margin if anchor in ("tl", "bl") else box_ref[2] + margin \
                    - size[0]
                oy = box_ref[1] - margin if anchor in ("tl", "tr") else box_ref[3] + margin \
                    - size[1]
                offsets.append((ox, oy))
                x, y = cx + ox, cy + oy
                centre = (x + size[0] / 2, y + size[1] / 2)
                patch = cv2.getRectSubPix(grey, size, centre)
                patches.append(patch)
                in_lab = cv2.getRectSubPix(lab, size, centre)
                colours.append(field_colour(in_lab, patch) if on_field
                               else ink_colour(in_lab, True))
                face_numbers.append(face_number)
            card = members[0][1].shape[1::-1]
            windows.append(_Window(turn, anchor, size, np.array(offsets, np.float32), face_numbers,
                                   _unit_rows(np.array(patches)),
                                   np.array(colours, np.float32), np.empty((0, 0), np.float32),
                                   (float(card[0]), float(card[1])), on_field))
        for shape in SHAPES:
            own = [window for window in windows if (window.turn % 2, window.on_field) == shape]
            if own:
                rows = np.concatenate([window.rows for window in own])
                basis = np.linalg.svd(rows, full_matrices=False)[2][:COMPONENTS]
                for window in own:
                    window.basis = basis.astype(np.float32)
        return windows

    def read(self, image: np.ndarray, card_short: float, box: tuple[int, int, int, int] | None
             = None) -> list[IndexHit]:
        """The cards whose index shows in ``image`` (BGR; within ``box``, x, y, w, h, if
        given), their short side about ``card_short`` pixels there; best first, each once."""
        if not self.windows or card_short <= 0:
            return []
        x, y, w, h = box if box is not None else (0, 0, image.shape[1], image.shape[0])
        crop = image[max(0, y):y + h, max(0, x):x + w]
        if min(crop.shape[:2]) < 8:
            return []
        scale = REFERENCE / card_short
        small = cv2.resize(crop, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        grey = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
        lab = cv2.cvtColor(small, cv2.COLOR_BGR2LAB)
        # Each kind of window's picture and its colours: in grey at the reference size; in
        # whiteness at ``FIELD_DETAIL`` times it (made when first wanted).
        planes = {False: (grey, lab, 1)}
        hits: list[IndexHit] = []
        origin = np.float32([max(0, x), max(0, y)])
        for angle, group in _edge_groups(grey):
            # Where a card's straight edges lie at this turn, its corner is read upright.
            upright: dict[bool, tuple[np.ndarray, ...]] = {}
            for (_, on_field), windows in self._shaped.items():
                if not windows:
                    continue
                if on_field not in planes:
                    detailed = cv2.resize(crop, None, fx=scale * FIELD_DETAIL,
                                          fy=scale * FIELD_DETAIL, interpolation=cv2.INTER_AREA)
                    planes[on_field] = (whiteness(detailed),
                                        cv2.cvtColor(detailed, cv2.COLOR_BGR2LAB), FIELD_DETAIL)
                plane, colours, detail = planes[on_field]
                px, py, pw, ph = (int(round(v * detail)) for v in group)
                if on_field not in upright:
                    upright[on_field] = (*_upright(plane[py:py + ph, px:px + pw], angle),
                                         _upright(colours[py:py + ph, px:px + pw], angle)[0])
                rotated, back, inside, colour = upright[on_field]
                for hit in self._in_windows(rotated, colour, inside, windows):
                    hits.append(hit.moved(back, np.float32([px, py]), scale * detail).moved(
                        shift=origin))
        return _once(hits, card_short)

    def _in_windows(self, rotated: np.ndarray, colour: np.ndarray, inside: np.ndarray,
                    windows: list[_Window]) -> list[IndexHit]:
        """The indices of ``windows`` (of one size, sharing their components) in an upright
        picture: grey at the reference size, or for windows on a field, whiteness at
        ``FIELD_DETAIL`` times it (``colour``: the same in Lab; ``inside``: where the picture
        is, not the canvas round it)."""
        if not windows:
            return []
        w, h = windows[0].size
        if rotated.shape[0] <= h or rotated.shape[1] <= w:
            return []
        picture = rotated.astype(np.float32)
        count = float(w * h)
        sums = cv2.boxFilter(picture, -1, (w, h), normalize=False, anchor=(0, 0),
                             borderType=cv2.BORDER_CONSTANT)
        squares = cv2.boxFilter(picture * picture, -1, (w, h), normalize=False, anchor=(0, 0),
                                borderType=cv2.BORDER_CONSTANT)
        rows, cols = picture.shape[0] - h + 1, picture.shape[1] - w + 1
        spread = np.sqrt(np.maximum(squares[:rows, :cols]
                                    - sums[:rows, :cols] ** 2 / count, 0.0))
        # The print's length along the windows' basis, component by component (summed in
        # place: a stack of the maps along a last axis cost a third of the reading).
        likeness = np.zeros((rows, cols), np.float32)
        for component in windows[0].basis:
            cv2.accumulateSquare(cv2.matchTemplate(picture, component.reshape(h, w),
                                                   cv2.TM_CCORR), likeness)
        likeness /= np.maximum(spread ** 2, 1e-6)
        likeness[spread < 8.0 * np.sqrt(count)] = 0.0  # bare paper or table: no print
        # Only places wholly in the picture (the canvas round a turned picture is no print).
        whole = cv2.erode(inside, np.ones((h, w), np.uint8), anchor=(0, 0),
                          borderType=cv2.BORDER_CONSTANT, borderValue=0)
        likeness[whole[:rows, :cols] == 0] = 0.0
        peaks = (likeness >= cv2.dilate(likeness, np.ones((3, 3), np.uint8))) & (
            likeness > LIKE_AN_INDEX)
        ys, xs = np.nonzero(peaks)
        if len(ys) == 0:
            return []
        patches = _unit_rows(np.stack([picture[py:py + h, px:px + w]
                                       for py, px in zip(ys, xs, strict=True)]))
        # Every index of every window at each place: the best, and how clear of every other
        # card's (whichever corner or way round).
        every = np.concatenate([window.rows for window in windows])
        scores = patches @ every.T
        face_numbers = np.concatenate([window.face_numbers for window in windows])
        owner = np.concatenate([[n] * len(window.face_numbers) for n, window in enumerate(windows)])
        starts = np.cumsum([0] + [len(window.face_numbers) for window in windows])
        printed = np.concatenate([window.colours for window in windows])
        found = []
        least = LEAST_FIELD_SCORE if windows[0].on_field else LEAST_SCORE
        for k in np.nonzero(scores.max(axis=1) >= least)[0]:
            # Only the indices printed in the colour this one shows are compared.
            in_lab = colour[ys[k]:ys[k] + h, xs[k]:xs[k] + w]
            # Printed, the ink is seen as if its paper were grey, per step below it: a cast
            # tints the paper, and its chroma less the paper's turns black blue or orange;
            # blur mixes a small red index with its paper, paler and greyer at once.
            ink = (field_colour(in_lab, picture[ys[k]:ys[k] + h, xs[k]:xs[k] + w])
                   if windows[0].on_field else ink_colour(in_lab, True))
            scores[k][~same_colour(ink, printed)] = -1.0
            if scores[k].max() < least:
                continue
            best, margin = _told_apart(patches[k], scores[k], every, face_numbers)
            score = float(scores[k, best])
            if margin < LEAST_MARGIN:
                continue
            window = windows[int(owner[best])]
            member = int(best - starts[int(owner[best])])
            corners = self._card(window, member, float(xs[k]), float(ys[k]))
            at = np.float32([xs[k] + w / 2, ys[k] + h / 2])
            found.append(IndexHit(int(face_numbers[best]), corners, score, margin, at,
                                  (across(corners, at),) if int(face_numbers[best]) in
                                  self.both_tops else ()))
        return found

    @staticmethod
    def _card(window: _Window, member: int, x: float, y: float) -> np.ndarray:
        """The outline (the face's own corner order) of the card whose index window lies at
        (x, y) of an upright picture (``member``: the face's place in the window)."""
        cx, cy = x - float(window.offsets[member][0]), y - float(window.offsets[member][1])
        sx, sy = ANCHORS[window.anchor]
        cw, ch = window.card
        x0, x1 = (cx, cx + cw) if sx > 0 else (cx - cw, cx)
        y0, y1 = (cy, cy + ch) if sy > 0 else (cy - ch, cy)
        turned = np.float32([[x0, y0], [x1, y0], [x1, y1], [x0, y1]])
        # The face's own top-left is the turned card's corner ``turn`` places on.
        return np.roll(turned, -(-window.turn % 4), axis=0) if window.turn else turned


def to_other_top(corners: np.ndarray, at: np.ndarray) -> np.ndarray:
    """From the index at ``at`` of the card ``corners`` (its face's own corner order) to the
    one at its other top corner, as far from the other side (image pixels, x and y)."""
    along = corners[1] - corners[0]
    width = float(np.linalg.norm(along))
    if width == 0:
        return np.zeros(2, np.float32)
    along = along / width
    return ((width - 2 * float((at - corners[0]) @ along)) * along).astype(np.float32)


def across(corners: np.ndarray, at: np.ndarray) -> np.ndarray:
    """The outline of the card were its index at ``at`` the one at its other top corner: the
    card moved along its face's width until the index lies as far from the other side."""
    return (corners - to_other_top(corners, at)).astype(np.float32)


def _told_apart(patch: np.ndarray, scores: np.ndarray, rows: np.ndarray, face_numbers: np.ndarray
                ) -> tuple[int, float]:
    """The index a patch shows (a row of ``rows``), and how clear of every other card's: an
    index and its rivals as alike as ``RIVALS`` (a rank printed over two suits of one
    colour) are compared where they differ (their small print), each pair apart; the one
    that holds against every rival wins, by the least of those margins. A rival further
    off counts by its whole likeness."""
    best = int(np.argmax(scores))
    rivals = [int(n) for n in np.argsort(-scores)
              if face_numbers[n] != face_numbers[best] and scores[n] >= scores[best] - RIVALS]
    for rival in rivals:  # the one that holds against each in turn
        if _where_they_differ(patch, rows[rival], rows[best]) > 0:
            best = rival
    other = face_numbers != face_numbers[best]
    close = other & (scores >= scores[best] - RIVALS)
    far = scores[other & ~close]
    margin = float(scores[best]) - (float(far.max()) if len(far) else 0.0)
    for rival in np.nonzero(close)[0]:
        margin = min(margin, _where_they_differ(patch, rows[best], rows[rival]))
    return best, margin


def _where_they_differ(patch: np.ndarray, one: np.ndarray, other: np.ndarray) -> float:
    """How much better ``patch`` fits ``one`` than ``other`` where the two differ most (the
    pixels of their largest difference): above 0 it is ``one``'s."""
    apart = np.abs(one - other)
    mask = apart >= 0.5 * float(apart.max())
    if mask.sum() < 4:
        return 0.0
    view = patch[mask] - patch[mask].mean()
    norm = float(np.linalg.norm(view)) + 1e-6

    def fit(row: np.ndarray) -> float:
        part = row[mask] - row[mask].mean()
        return float(view @ part) / (norm * (float(np.linalg.norm(part)) + 1e-6))

    return (fit(one) - fit(other)) / 2


def _edge_groups(grey: np.ndarray) -> list[tuple[float, tuple[int, int, int, int]]]:
    """Where the straight edges of a card's length lie, by their turn (degrees, 0-90): the
    edges within ``TURN_APART`` of each other's turn make a group; each group's turn and the
    box (x, y, w, h) round its edges, grown by a card's corner (its index lies there). The
    longest groups first, at most ``MOST_GROUPS``: a fan held in an arc gives a group a card
    or two, a fan laid straight one or two in all."""
    found = cv2.createLineSegmentDetector().detect(grey)[0]
    if found is None:
        return []
    lines = found.reshape(-1, 4)
    length = np.hypot(lines[:, 2] - lines[:, 0], lines[:, 3] - lines[:, 1])
    keep = length >= EDGE_LENGTH * REFERENCE
    lines, length = lines[keep], length[keep]
    if not len(lines):
        return []
    angles = np.degrees(np.arctan2(lines[:, 3] - lines[:, 1], lines[:, 2] - lines[:, 0])) % 90
    order = np.argsort(angles)
    groups: list[list[int]] = []
    for n in order:
        if groups and angles[n] - angles[groups[-1][0]] <= TURN_APART:
            groups[-1].append(int(n))
        else:
            groups.append([int(n)])
    if len(groups) > 1 and angles[groups[0][0]] + 90 - angles[groups[-1][0]] <= TURN_APART:
        groups[0] = groups.pop() + groups[0]  # 89 degrees and 1 are one turn
    grow = int(GROW * REFERENCE)
    h, w = grey.shape
    found_groups: list[tuple[float, tuple[int, int, int, int]]] = []
    for members in sorted(groups, key=lambda g: -float(length[g].sum())):
        if float(length[members].sum()) < LEAST_TURN * float(length.sum()) and found_groups:
            break
        ends = lines[members].reshape(-1, 2)
        x0, y0 = np.floor(ends.min(axis=0)).astype(int) - grow
        x1, y1 = np.ceil(ends.max(axis=0)).astype(int) + grow
        x0, y0, x1, y1 = max(0, x0), max(0, y0), min(w, x1), min(h, y1)
        weights = length[members]
        turn = np.degrees(np.arctan2(
            np.sum(weights * np.sin(np.radians(angles[members] * 4))),
            np.sum(weights * np.cos(np.radians(angles[members] * 4))))) / 4 % 90
        found_groups.append((float(turn), (int(x0), int(y0), int(x1 - x0), int(y1 - y0))))
        if len(found_groups) == MOST_GROUPS:
            break
    return found_groups


def _upright(grey: np.ndarray, angle: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The picture turned by ``angle`` degrees on a canvas that holds it all, the affine map
    from the turned picture back to it, and where on the canvas the picture lies."""
    h, w = grey.shape[:2]
    side = int(np.ceil(np.hypot(h, w))) + 2
    turn = cv2.getRotationMatrix2D((w / 2, h / 2), angle, 1.0)
    turn[:, 2] += [(side - w) / 2, (side - h) / 2]
    rotated = cv2.warpAffine(grey, turn, (side, side), flags=cv2.INTER_LINEAR,
                             borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    inside = cv2.warpAffine(np.ones((h, w), np.uint8), turn, (side, side),
                            flags=cv2.INTER_NEAREST, borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    return rotated, cv2.invertAffineTransform(turn), inside


def _once(hits: list[IndexHit], card_short: float) -> list[IndexHit]:
    """The best hit of each place and card: one index read at two turns or by two windows is
    one read, and a card's two indices give one card."""
    kept: list[IndexHit] = []
    for hit in sorted(hits, key=lambda h: -h.score):
        if any(np.linalg.norm(hit.at - k.at) < 0.15 * card_short for k in kept):
            continue  # the same print read again
        if any(k.face_number == hit.face_number and np.linalg.norm(
                hit.corners.mean(axis=0) - k.corners.mean(axis=0)) < 0.5 * card_short
               for k in kept):
            continue  # the card's other index
        kept.append(hit)
    return kept
