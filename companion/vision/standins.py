"""Rendered stand-ins for the real dev sets (``../shared/vision-dev``): the same kinds of deck,
enrolment images, tables, cameras and layouts, drawn from look-alike decks, so a rendered
figure predicts the real one it stands for.

- ``standard-deck``: 52 look-alike poker cards enrolled from phone photos on black cloth;
  phone photos of 4-7 cards apart on black cloth, light oak with glare or a black desk.
- ``blackjack-webcam``: the same deck enrolled from over-exposed scans cut to the card;
  640x480 webcam frames, dim, a teal cast: a card, rows, runs each laid on the one before,
  pairs, a grid.
- ``anima-pairs``: a 20-card Schnapsen deck mounted on black card, enrolled from phone photos
  on green baize; phone photos of two cards, one 30-60 % under the other, from above and at
  angles.
- ``set-crops``: 81 plain-shape cards enrolled from tight crops of another photo (tinted,
  the cut a little off); phone photos of 12 cards in rows on a near-black wood or a rug.
- ``bidly-fans``: the poker deck enrolled from small face images of another print; overhead
  photos of four hands of 13 fanned on cork, a black mat or a white table: mostly corner
  indices show.

``OTHER_KINDS`` render what no real dev set shows: ``number-deck``, a colour-and-number deck
(UNO's kind) on light wood; ``poker-on-wood``, a poker deck enrolled from crops of other
photos, on light wood; ``poker-table``, that deck in a hand of hold'em, smaller in the frame;
``set-on-cloth``, the plain-shape deck of another printing enrolled from crops of other
photos, on black cloth or a rug, phone and webcam.

Each is seeded; ``photos`` is how many scenes to draw; the enrolment images are drawn when
enrolled. The enrolled images and the scenes'
cards are never the same picture: the light, the camera and (where the real set's are) the
print differ (``prints.Reprint``).

>>> rendered = bidly_fans(np.random.default_rng(0), photos=1, size=(400, 400))
>>> len(rendered.enrol), len(rendered.photos), rendered.photos[0].image.shape
(52, 1, (400, 400, 3))
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import partial

import numpy as np

from companion.vision.art import ArtItem, draw_face
from companion.vision.conditions import Conditions
from companion.vision.deals import grid, hand, pair, run
from companion.vision.deck import number_deck, schnapsen_deck, standard_deck
from companion.vision.photo import enrolment_photo, scan_photo, tight_crop
from companion.vision.placing import Placement, pinhole_view, spread, view_polygon
from companion.vision.prints import Reprint
from companion.vision.scoring import CardTruth
from companion.vision.setdeck import shape_deck
from companion.vision.synthetic import SceneRenderer, truth_of


@dataclass(frozen=True)
class RenderedPhoto:
    name: str
    image: np.ndarray
    cards: list[CardTruth]


@dataclass(frozen=True)
class RenderedSet:
    """A stand-in: the real set's name, what it renders, the images to enrol (id, and a
    function drawing the image: ``enrol_images`` takes them as they are) and the scenes
    with their truth. ``by_id``: scored by id alone, as its real set's truth gives no boxes
    (a fan's card read from its index has its whole outline's centre under the cards on it,
    outside the box of its part in view)."""

    name: str
    about: str
    enrol: list[tuple[str, Callable[[], np.ndarray]]]
    photos: list[RenderedPhoto]
    by_id: bool = False


def _photographed(deck: Sequence[ArtItem], rng: np.random.Generator,
                  shoot: Callable[[ArtItem, np.random.Generator], np.ndarray]
                  ) -> list[tuple[str, Callable[[], np.ndarray]]]:
    """Each card's enrolment image, drawn only when asked for, each with a seed of its own
    (the same image whenever, and in whatever order, it is drawn)."""
    seeds = rng.integers(0, 2**63, len(deck))
    return [(item.item_id, partial(_shot, shoot, item, int(seed)))
            for item, seed in zip(deck, seeds, strict=True)]


def _shot(shoot: Callable[[ArtItem, np.random.Generator], np.ndarray], item: ArtItem,
          seed: int) -> np.ndarray:
    return shoot(item, np.random.default_rng(seed))


def _phone(rng: np.random.Generator, surface: str, **changes) -> Conditions:
    """A phone photo's conditions (``Conditions.real``) on this surface, with changes. The
    real sets' phone photos (3-12 MP) are read reduced to 1280 px, which averages their
    sensor noise away and leaves them sharp: on a card's paper about half a grey level of
    noise is left (a high-pass's spread), as ``noise`` 1-2.5 leaves it here, and their
    strongest edges rise over about a pixel and a half (the steepest gradient over the
    contrast, 0.41 on the real sets' photos, 0.42 on these)."""
    return replace(Conditions.real(rng), surface=surface,
                   **{"noise": float(rng.uniform(1, 2.5)), "blur": float(rng.uniform(0, 0.3)),
                      "defocus": float(rng.uniform(0.1, 0.5)), **changes})


def _print(renderer: SceneRenderer, items: Sequence[ArtItem], reprint: Reprint | None,
           rng: np.random.Generator, also: Sequence[SceneRenderer] = ()) -> None:
    """The renderer (and those ``also`` given: other frame sizes) draws the faces as the
    scenes' copy of the deck prints them (``reprint``; None: the same print as enrolled)."""
    for item in items:
        face = draw_face(item)
        face = face if reprint is None else reprint.apply(face, rng)
        for each in (renderer, *also):
            each.use_face(item.item_id, face)


def _shoot(renderer: SceneRenderer, placed: list[Placement], rng: np.random.Generator,
           cond: Conditions, camera: np.ndarray, name: str) -> RenderedPhoto:
    scene = renderer.render(placed, rng, cond, camera, markers=False)
    return RenderedPhoto(name, scene.image, truth_of(scene))


def _centred(placed: list[Placement], centre_mm: tuple[float, float]) -> list[Placement]:
    """The cards moved together so that their corners' middle is at ``centre_mm``."""
    middle = np.mean([p.corners_mm() for p in placed], axis=(0, 1))
    dx, dy = centre_mm[0] - float(middle[0]), centre_mm[1] - float(middle[1])
    return [replace(p, centre_mm=(p.centre_mm[0] + dx, p.centre_mm[1] + dy)) for p in placed]


def _draw(items: Sequence[ArtItem], rng: np.random.Generator, count: int) -> list[ArtItem]:
    """``count`` different cards of a deck, shuffled."""
    return [items[int(i)] for i in rng.permutation(len(items))[:count]]


def _a_pair(deck: Sequence[ArtItem], rng: np.random.Generator,
            covered: tuple[float, float]) -> list[Placement]:
    """Two cards of the deck, one lying partly on the other (``covered``: the share of the
    lower one hidden), in the middle of the table."""
    under, over = _draw(deck, rng, 2)
    return _centred(pair(under, over, (400.0, 300.0), rng, covered=covered), (400.0, 300.0))


# --- standard-deck ------------------------------------------------------------------------
def standard_photos(rng: np.random.Generator, photos: int = 10,
                    size: tuple[int, int] = (1280, 1707),
                    deck: Sequence[ArtItem] | None = None) -> RenderedSet:
    """Phone photos of 4-7 cards lying apart: mostly on black cloth, some on light oak (a
    lamp's glare on it) or a black desk; enrolled from phone photos of each card on black
    cloth under another light."""
    deck = deck or standard_deck()
    enrol = _photographed(deck, rng, lambda item, r: enrolment_photo(
        draw_face(item), r, size=(900, 1200), surface_kind="cloth",
        fill=float(r.uniform(0.2, 0.4)), cut=False).image)
    renderer = SceneRenderer(size=size)
    _print(renderer, deck, None, rng)
    shots = []
    for k in range(photos):
        surface = str(rng.choice(["cloth"] * 5 + ["oak", "desk"]))
        camera = pinhole_view(size, (400.0, 300.0), float(rng.uniform(4.0, 5.5)),
                              float(rng.uniform(0, 35)), float(rng.uniform(0, 360)))
        region = view_polygon(camera, size, inset=0.04)
        placed = spread(_draw(deck, rng, int(rng.integers(4, 8))), region, rng, gap=1.15)
        cond = _phone(rng, surface, specular=float(rng.uniform(0.3, 0.8))
                      if surface == "oak" or rng.random() < 0.3 else 0.0)
        shots.append(_shoot(renderer, placed, rng, cond, camera, f"standard-{k:02d}"))
    return RenderedSet("standard-deck", "look-alike poker deck, phone photos of cards apart",
                       enrol, shots)


# --- blackjack-webcam ---------------------------------------------------------------------
WEBCAM = (640, 480)
#: The real set's eight frames: one card, two rows of four apart, a run of four, three
#: pairs and a lone card, a run of seven, two runs of three, a grid of twelve.
WEBCAM_LAYOUTS = ("one", "row", "row", "run4", "pairs", "run7", "runs3", "grid")


def _webcam_layout(kind: str, deck: Sequence[ArtItem], rng: np.random.Generator,
                   centre: tuple[float, float]) -> list[Placement]:
    """One of the real set's layouts, its cards drawn from ``deck``. In its runs and pairs
    the card below shows 50-75 % of itself (its index and a strip of pips), as there."""
    w, h = deck[0].size_mm
    cx, cy = centre
    tilt = float(rng.uniform(-4, 4))
    if kind == "one":
        return [Placement(_draw(deck, rng, 1)[0], (cx + float(rng.uniform(-60, 60)), cy), tilt)]
    if kind == "row":
        return grid(_draw(deck, rng, 4), centre, 4, tilt, rng, gap_mm=float(rng.uniform(8, 20)))
    if kind == "grid":
        return grid(_draw(deck, rng, 12), centre, 4, tilt, rng, gap_mm=float(rng.uniform(8, 14)))
    if kind in ("run4", "run7"):
        n = 4 if kind == "run4" else 7
        # Up the table as much as across it: each card below shows its left side and its
        # foot, 50-70 % of itself (the real set's: 48 % at least, 56-77 % in its long fan).
        step = (float(rng.uniform(0.3, 0.48)), float(rng.uniform(0.3, 0.45)))
        return run(_draw(deck, rng, n), (cx - (n - 1) / 2 * step[0] * w,
                                         cy + (n - 1) / 2 * step[1] * h), tilt, rng, step)
    cards = _draw(deck, rng, 7)
    if kind == "runs3":
        return (run(cards[:3], (cx - 1.5 * w, cy + 0.3 * h), tilt, rng, (0.38, 0.38))
                + run(cards[3:6], (cx + 0.6 * w, cy + 0.3 * h), tilt, rng, (0.38, 0.38)))
    # Three pairs and a lone card: each pair's second card laid on the first's corner.
    out = [Placement(cards[0], (cx - 0.6 * w, cy - 1.1 * h), tilt)]
    for k in range(3):
        base = (cx + (k - 1.15) * 1.75 * w, cy + 0.35 * h)
        out += run(cards[1 + 2 * k:3 + 2 * k], base, tilt, rng,
                   (float(rng.uniform(0.4, 0.55)), float(rng.uniform(0.25, 0.4))))
    return out


def webcam_conditions(rng: np.random.Generator) -> Conditions:
    """A cheap webcam over a dark table: a green cast (the real frames' card paper comes out
    about (215, 235, 230) BGR), white cards near clipping (it exposes for the dark), a
    little soft, noisy, JPEG; a lamp straight above, so the cards' shadows are faint. Its
    frames are sharper than their size suggests: an index's strokes stand 1-2 px wide."""
    return Conditions(background="wood", surface="desk",
                      light_gradient=float(rng.uniform(0.05, 0.25)),
                      blur=float(rng.uniform(0.6, 1.2)),  # 0.3-0.6 px at 640 px
                      noise=float(rng.uniform(2, 3.5)),
                      table_seed=int(rng.integers(0, 2**31)),
                      vignette=float(rng.uniform(0.15, 0.35)),
                      card_shadow=float(rng.uniform(0.2, 0.45)),
                      white_balance=float(rng.uniform(0.5, 1.0)), cast="green",
                      defocus=float(rng.uniform(0.3, 0.8)),
                      jpeg_quality=int(rng.integers(70, 86)),
                      paper=float(rng.uniform(0.0, 0.05)),
                      exposure=float(rng.uniform(0.0, 0.15)))


def blackjack_webcam(rng: np.random.Generator, photos: int = 24,
                     size: tuple[int, int] = WEBCAM,
                     deck: Sequence[ArtItem] | None = None) -> RenderedSet:
    """The real set's layouts (``WEBCAM_LAYOUTS``, in turn) seen by a webcam at a moderate
    angle, its whole cards' boxes about 120 pixels square (the real frames': median 119 x 122);
    enrolled from over-exposed scans cut to the card."""
    deck = deck or standard_deck()
    enrol = _photographed(deck, rng, lambda item, r: scan_photo(
        draw_face(item), r, width=500, exposure=float(r.uniform(1.2, 1.4)),
        lid=(255, 255, 255)).image)
    renderer = SceneRenderer(size=size)
    _print(renderer, deck, None, rng)
    shots = []
    for k in range(photos):
        kind = WEBCAM_LAYOUTS[k % len(WEBCAM_LAYOUTS)]
        centre = (400.0, 300.0)
        # Far cards a quarter smaller than near ones, a card 85-150 px wide; the webcam
        # set back a little for the grid, as for the real set's twelve.
        zoom = float(rng.uniform(1.78, 2.1)) * (0.75 if kind == "grid" else 1.0)
        camera = pinhole_view(size, centre, zoom, float(rng.uniform(28, 36)),
                              float(rng.uniform(-3, 3)), fov_deg=55.0)
        # The cards lie a little beyond the middle of the view: its bottom shows the
        # table's near edge, as the real frames do.
        placed = _webcam_layout(kind, deck, rng, (centre[0], centre[1] - 25.0))
        shots.append(_shoot(renderer, placed, rng, webcam_conditions(rng), camera,
                            f"webcam-{k:02d}-{kind}"))
    return RenderedSet("blackjack-webcam", "poker deck from bright scans; 640x480 webcam "
                       "frames of cards apart, runs, pairs", enrol, shots)


# --- anima-pairs --------------------------------------------------------------------------
def anima_pairs(rng: np.random.Generator, photos: int = 40,
                size: tuple[int, int] = (1280, 960)) -> RenderedSet:
    """Two cards of a Schnapsen deck on green baize, one 30-60 % under the other (as the real
    photos show them: about half of the card below in view), from above and at angles (up
    to 40° off straight down); enrolled from phone photos of each card on the same baize."""
    deck = schnapsen_deck()
    enrol = _photographed(deck, rng, lambda item, r: enrolment_photo(
        draw_face(item), r, size=(900, 1200), surface_kind="baize",
        fill=float(r.uniform(0.3, 0.5)), cut=False, corner=0.01).image)
    renderer = SceneRenderer(size=size)
    _print(renderer, deck, None, rng)
    shots = []
    for k in range(photos):
        placed = _a_pair(deck, rng, (0.3, 0.6))
        # Close: the pair fills about half the frame (a card 5-6.5 px a millimetre at 1280).
        camera = pinhole_view(size, (400.0, 300.0), float(rng.uniform(5.0, 6.5)),
                              float(rng.uniform(0, 40)), float(rng.uniform(0, 360)))
        # A room lit evenly from above: no person's shadow across the baize.
        cond = _phone(rng, "baize", shadow=0.0, noise=float(rng.uniform(2, 3.5)),
                      specular=float(rng.uniform(0.2, 0.5)) if rng.random() < 0.3 else 0.0)
        shots.append(_shoot(renderer, placed, rng, cond, camera, f"pair-{k:02d}"))
    return RenderedSet("anima-pairs", "Schnapsen deck, pairs with one card partly under the "
                       "other", enrol, shots)


# --- set-crops ----------------------------------------------------------------------------
def set_crops(rng: np.random.Generator, photos: int = 12,
              size: tuple[int, int] = (1280, 960)) -> RenderedSet:
    """12 plain-shape cards in rows of three on a near-black wood (or in rows of four on a
    rug, seen from straight above), phone photos in perspective; enrolled from tight crops
    of another photo of each card (a warm cast, the cut a little off the edge), printed a
    little differently from the cards in the scenes."""
    deck = shape_deck()
    tint = tuple(float(v) for v in rng.uniform([0.86, 0.88, 0.95], [0.92, 0.92, 1.0]))
    enrol = _photographed(deck, rng, lambda item, r: tight_crop(
        draw_face(item), r, (450, 300), tint=tint).image)
    renderer = SceneRenderer(size=size)
    _print(renderer, deck, Reprint.random(rng, 0.5), rng)
    shots = []
    for k in range(photos):
        # Mostly three columns of landscape cards on a dark wood, photographed at an angle;
        # now and then four columns of upright cards on a rug, from straight above.
        rug = rng.random() < 0.25
        cards = _draw(deck, rng, 12)  # a SET layout: twelve cards, all in the photo
        camera = pinhole_view(size, (400.0, 300.0), float(rng.uniform(1.9, 2.5)),
                              float(rng.uniform(0, 8)) if rug else float(rng.uniform(25, 45)),
                              float(rng.uniform(-6, 6)))
        placed = grid(cards, (400.0, 300.0), 4 if rug else 3,
                      90.0 if rug else float(rng.uniform(-4, 4)), rng,
                      gap_mm=float(rng.uniform(8, 22)))
        cond = _phone(rng, "rug" if rug else "dark-wood")
        shots.append(_shoot(renderer, placed, rng, cond, camera, f"set-{k:02d}"))
    return RenderedSet("set-crops", "plain-shape deck from tight crops; rows of cards apart",
                       enrol, shots)


# --- bidly-fans ---------------------------------------------------------------------------
def bidly_fans(rng: np.random.Generator, photos: int = 7,
               size: tuple[int, int] = (1200, 1200),
               deck: Sequence[ArtItem] | None = None) -> RenderedSet:
    """A whole deal, four hands of 13 fanned (an arc or a row) on cork, a black mat or a
    white table (a person's shadow across it at times), seen from straight above; enrolled
    from small face images (228 px wide) of another print,
    bluer and a little off register."""
    deck = deck or standard_deck()
    look = Reprint.random(rng, 1.0)
    enrol = _photographed(deck, rng, lambda item, r: scan_photo(
        look.apply(draw_face(item), r), r, width=228, lid=(70, 55, 45)).image)
    renderer = SceneRenderer(size=size)
    _print(renderer, deck, None, rng)
    shots = []
    for k in range(photos):
        centre = (400.0, 300.0)
        camera = pinhole_view(size, centre, float(rng.uniform(1.9, 2.3)),
                              float(rng.uniform(0, 10)), float(rng.uniform(-10, 10)))
        order = _draw(deck, rng, 52)
        placed = []
        for seat in range(4):
            # Each hand lies before its seat, turned to face it.
            a = math.radians(90 * seat)
            reach = float(rng.uniform(170, 220))
            spot = (centre[0] + reach * math.sin(a), centre[1] + reach * math.cos(a) * 0.9)
            placed += hand(order[13 * seat:13 * seat + 13], spot,
                           -90 * seat + float(rng.uniform(-15, 15)), rng)
        # The real set's tables: cork, a black mat, a white table or box lid, on which a
        # person's hard shadow may fall.
        table = str(rng.choice(["cork"] * 4 + ["desk"] + ["white"] * 2))
        cond = _phone(rng, table, specular=0.0, shadow=float(rng.uniform(0.4, 0.6))
                      if table == "white" and rng.random() < 0.5 else 0.0)
        shots.append(_shoot(renderer, placed, rng, cond, camera, f"deal-{k:02d}"))
    return RenderedSet("bidly-fans", "poker deck from small face images; four fanned hands",
                       enrol, shots, by_id=True)


# --- a colour-and-number deck on wood (no real dev set: the kind of one held back) --------
def number_photos(rng: np.random.Generator, photos: int = 16,
                  size: tuple[int, int] = (1280, 960)) -> RenderedSet:
    """A colour-and-number deck (``deck.number_deck``: a white rim round a coloured field)
    on light oak or wood: two cards, one 30-60 % under the other; runs of four each laid on
    the one before; six cards apart; phone photos up to 35° off straight down. Enrolled from
    phone photos of another print of each card on wood."""
    deck = number_deck()
    enrol = _photographed(deck, rng, lambda item, r: enrolment_photo(
        draw_face(item), r, size=(900, 1200), surface_kind="wood",
        fill=float(r.uniform(0.3, 0.5)), cut=False, corner=0.05).image)
    renderer = SceneRenderer(size=size)
    _print(renderer, deck, Reprint.random(rng, 0.5), rng)
    shots = []
    for k in range(photos):
        kind = ("pair", "run", "apart", "pair")[k % 4]
        camera = pinhole_view(size, (400.0, 300.0), float(rng.uniform(3.5, 4.5)),
                              float(rng.uniform(0, 35)), float(rng.uniform(-10, 10)))
        if kind == "pair":
            placed = _a_pair(deck, rng, (0.3, 0.6))
        elif kind == "run":
            placed = _centred(run(_draw(deck, rng, 4), (400.0, 300.0),
                                  float(rng.uniform(-10, 10)), rng, (0.35, 0.3)), (400.0, 300.0))
        else:
            placed = grid(_draw(deck, rng, 6), (400.0, 300.0), 3, float(rng.uniform(-5, 5)),
                          rng, gap_mm=15.0)
        cond = _phone(rng, str(rng.choice(["oak", "wood"])),
                      specular=float(rng.uniform(0.2, 0.6)) if rng.random() < 0.4 else 0.0)
        shots.append(_shoot(renderer, placed, rng, cond, camera, f"number-{k:02d}-{kind}"))
    return RenderedSet("number-deck", "colour-and-number deck on light wood; pairs, runs, "
                       "cards apart", enrol, shots)


# --- a poker deck on light wood, enrolled from crops (no real dev set: a held-back set's kind)
#: Light wood at the edge of a crop cut a little wide (BGR).
WOOD_SLIVER = (125, 170, 210)


def _poker_crops(deck: Sequence[ArtItem], rng: np.random.Generator
                 ) -> list[tuple[str, Callable[[], np.ndarray]]]:
    """A poker deck enrolled from 300x420 crops of other photos of each card: the cut uneven
    (a sliver of the wood at a side), a colour cast, at times a glare."""
    return _photographed(deck, rng, lambda item, r: tight_crop(
        draw_face(item), r, (300, 420), tint=tuple(float(v) for v in r.uniform(0.85, 1.0, 3)),
        table=WOOD_SLIVER, shine=float(r.uniform(0.3, 0.6)) if r.random() < 0.25 else 0.0
    ).image)


def _poker_deck(rng: np.random.Generator, size: tuple[int, int],
                deck: Sequence[ArtItem] | None
                ) -> tuple[Sequence[ArtItem], list[tuple[str, Callable[[], np.ndarray]]],
                           SceneRenderer]:
    """The poker deck (``deck``, else ours), its enrolment from crops (``_poker_crops``),
    and a renderer of ``size`` drawing its faces as enrolled."""
    deck = deck or standard_deck()
    enrol = _poker_crops(deck, rng)
    renderer = SceneRenderer(size=size)
    _print(renderer, deck, None, rng)
    return deck, enrol, renderer


def _wood_light(rng: np.random.Generator) -> Conditions:
    """A phone photo on light oak, pale maple or wood, a lamp's glare on it at times."""
    return _phone(rng, str(rng.choice(["oak", "maple", "wood"])),
                  specular=float(rng.uniform(0.3, 0.7)) if rng.random() < 0.6 else 0.0)


def poker_on_wood(rng: np.random.Generator, photos: int = 12,
                  size: tuple[int, int] = (1280, 960),
                  deck: Sequence[ArtItem] | None = None) -> RenderedSet:
    """A poker deck on light oak, pale maple or wood, a lamp's glare across the cards now and
    then: six cards apart, a pair (one card 20-50 % under the other), a card alone; phone
    photos up to 35° off straight down. Enrolled from crops of other photos (``_poker_crops``)."""
    deck, enrol, renderer = _poker_deck(rng, size, deck)
    shots = []
    for k in range(photos):
        kind = ("apart", "pair", "apart", "alone")[k % 4]
        camera = pinhole_view(size, (400.0, 300.0), float(rng.uniform(3.5, 4.5)),
                              float(rng.uniform(0, 35)), float(rng.uniform(-20, 20)))
        if kind == "pair":
            placed = _a_pair(deck, rng, (0.2, 0.5))
        else:
            count, columns = (6, 3) if kind == "apart" else (1, 1)
            placed = grid(_draw(deck, rng, count), (400.0, 300.0), columns,
                          float(rng.uniform(-30, 30)), rng, gap_mm=15.0)
        shots.append(_shoot(renderer, placed, rng, _wood_light(rng), camera,
                            f"poker-{k:02d}-{kind}"))
    return RenderedSet("poker-on-wood", "poker deck from crops of other photos, on light "
                       "wood; cards apart, pairs, a card alone", enrol, shots)


def poker_table(rng: np.random.Generator, photos: int = 8,
                size: tuple[int, int] = (1280, 960),
                deck: Sequence[ArtItem] | None = None) -> RenderedSet:
    """A hand of hold'em on light wood: five community cards in a row 8 mm apart and two
    players' hole cards below, each pair one card 20-50 % under the other (a pair may touch
    the row); the cards smaller in the frame (2.2-3.2 px/mm) and phone photos up to 40° off
    straight down. The deck enrolled as ``poker_on_wood``'s."""
    deck, enrol, renderer = _poker_deck(rng, size, deck)
    shots = []
    for k in range(photos):
        cards = _draw(deck, rng, 9)
        placed = grid(cards[:5], (400.0, 280.0), 5, float(rng.uniform(-10, 10)), rng,
                      gap_mm=8.0)
        for seat, centre in enumerate([(330.0, 390.0), (470.0, 390.0)]):
            placed += pair(cards[5 + 2 * seat], cards[6 + 2 * seat], centre, rng,
                           covered=(0.2, 0.5))
        camera = pinhole_view(size, (400.0, 320.0), float(rng.uniform(2.2, 3.2)),
                              float(rng.uniform(0, 40)), float(rng.uniform(-20, 20)))
        shots.append(_shoot(renderer, placed, rng, _wood_light(rng), camera,
                            f"table-{k:02d}"))
    return RenderedSet("poker-table", "poker deck from crops of other photos; a hand of "
                       "hold'em on light wood: a row of five, two pairs of hole cards", enrol,
                       shots)


# --- a plain-shape deck of another printing on cloth, a rug and a webcam (a held-back set's kind)
def set_on_cloth(rng: np.random.Generator, photos: int = 12,
                 size: tuple[int, int] = (1280, 960)) -> RenderedSet:
    """Twelve plain-shape cards in rows of three on black cloth or a grey rug, phone photos up
    to 40° off straight down; every third, six in a webcam's 640x480 frame from above. Enrolled from
    crops of other photos of each card (a cast of its own, the cut uneven with a sliver of
    the cloth, at times a glare); the scenes' copy is another printing (``Reprint`` at full
    strength: inks, paper, line weight and register)."""
    deck = shape_deck()
    enrol = _photographed(deck, rng, lambda item, r: tight_crop(
        draw_face(item), r, (450, 300), tint=tuple(float(v) for v in r.uniform(0.85, 1.0, 3)),
        shine=float(r.uniform(0.3, 0.6)) if r.random() < 0.25 else 0.0).image)
    phone, webcam = SceneRenderer(size=size), SceneRenderer(size=WEBCAM)
    _print(phone, deck, Reprint.random(rng, 1.0), rng, also=[webcam])
    shots = []
    for k in range(photos):
        on_webcam = k % 3 == 2
        table = str(rng.choice(["cloth", "cloth", "rug"]))
        placed = grid(_draw(deck, rng, 6 if on_webcam else 12), (400.0, 300.0), 3,
                      float(rng.uniform(-6, 6)), rng, gap_mm=float(rng.uniform(8, 22)))
        if on_webcam:
            camera = pinhole_view(WEBCAM, (400.0, 300.0), float(rng.uniform(1.4, 1.7)),
                                  float(rng.uniform(0, 15)), float(rng.uniform(-5, 5)),
                                  fov_deg=55.0)
            cond = replace(webcam_conditions(rng), surface=table, cast="")
            shots.append(_shoot(webcam, placed, rng, cond, camera, f"cloth-{k:02d}-webcam"))
        else:
            camera = pinhole_view(size, (400.0, 300.0), float(rng.uniform(2.0, 2.5)),
                                  float(rng.uniform(0, 40)), float(rng.uniform(-10, 10)))
            cond = _phone(rng, table, specular=float(rng.uniform(0.2, 0.5))
                          if rng.random() < 0.3 else 0.0)
            shots.append(_shoot(phone, placed, rng, cond, camera, f"cloth-{k:02d}-phone"))
    return RenderedSet("set-on-cloth", "plain-shape deck of another printing, enrolled from "
                       "crops of other photos; rows of twelve on cloth or a rug, phone and "
                       "webcam", enrol, shots)


#: The stand-ins drawing a poker deck, which may be given another (``deck``): a real deck's
#: faces (``art.face_items``) in place of our drawn ones.
ANY_POKER_DECK = frozenset({"standard-deck", "blackjack-webcam", "bidly-fans", "poker-on-wood",
                            "poker-table"})
#: Each real set's stand-in, by the real set's name.
STAND_INS: dict[str, Callable[..., RenderedSet]] = {
    "standard-deck": standard_photos, "blackjack-webcam": blackjack_webcam,
    "anima-pairs": anima_pairs, "set-crops": set_crops, "bidly-fans": bidly_fans}
#: Rendered sets of kinds no real dev set shows (the held-back sets' kinds), read beside the
#: stand-ins: their figures have no real one to stand beside.
OTHER_KINDS: dict[str, Callable[..., RenderedSet]] = {"number-deck": number_photos,
                                                     "poker-on-wood": poker_on_wood,
                                                     "poker-table": poker_table,
                                                     "set-on-cloth": set_on_cloth}
