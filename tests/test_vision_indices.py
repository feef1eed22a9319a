"""Cards read from their corner index (``companion/vision/indices.py``): what an index is, learnt
from the deck's own faces; a fanned hand, where only each card's corner shows, read from its
indices with none invented; a deck with no index read as before; and the real fans of
``../shared/vision-dev/bidly-fans`` (skipped when the dev sets are absent)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from test_vision_standins import render

from companion.vision.art import draw_face, library_of
from companion.vision.deals import hand
from companion.vision.deck import standard_deck
from companion.vision.indices import IndexReader, ink_colour, same_colour
from companion.vision.recognize import Recognizer
from companion.vision.setdeck import shape_deck

DEV = Path(__file__).resolve().parents[2] / "shared" / "vision-dev" / "bidly-fans"


@pytest.fixture(scope="module")
def deck():
    cards = standard_deck()
    return cards, library_of(cards)


def test_a_standard_deck_prints_its_index_at_two_corners_of_every_face(deck):
    _, library = deck
    windows = library.indices.windows
    upright = {w.anchor: set(w.face_numbers) for w in windows if w.turn == 0}
    # The rank over the suit, top left and (turned) bottom right, on (nearly) every face.
    assert set(upright) == {"tl", "br"}
    assert all(len(faces) >= 0.9 * len(library.ids) for faces in upright.values())
    # Red print reads red, black reads near no colour, whatever the paper's cast.
    import cv2

    hearts = library.faces[library.ids.index("9hearts")]
    spades = library.faces[library.ids.index("9spades")]
    cast = np.clip(hearts.astype(int) + [30, 0, -20], 0, 255).astype(np.uint8)
    red, tinted, black = (ink_colour(cv2.cvtColor(face[:60, :40], cv2.COLOR_BGR2LAB))
                          for face in (hearts, cast, spades))
    assert np.linalg.norm(red) > 20 and np.linalg.norm(black) < 8
    assert same_colour(tinted, red[None])[0] and not same_colour(black, red[None])[0]


@pytest.mark.parametrize("own_only", [True, False])
def test_a_face_whose_index_is_not_made_out_at_the_usual_place_is_cut_there(deck, monkeypatch,
                                                                            own_only):
    """A face whose index at a corner is worn away, with print lower down (a "9" a pip's
    height below where the deck prints it): its window is cut at the deck's usual place
    there, as every other face's; cut at the print made out, it would hold a pip or a gap,
    and a look-alike would read in its place unopposed."""
    import cv2

    from companion.vision import indices

    _, library = deck
    faces = list(library.faces)
    nine = library.ids.index("9hearts")
    face = faces[nine].copy()
    h, w = face.shape[:2]
    face[: int(0.2 * h), : int(0.14 * w)] = face[5, w // 2]
    cv2.putText(face, "9", (int(0.03 * w), int(0.27 * h)), cv2.FONT_HERSHEY_SIMPLEX, 1.2,
                (40, 40, 200), 3)
    faces[nine] = face
    if own_only:
        monkeypatch.setattr(indices, "USUAL", 2.0)  # as before: each face's own print only
    window = next(w for w in IndexReader(faces).windows if (w.turn, w.anchor) == (0, "tl"))
    members = list(window.face_numbers)
    astray = np.abs(window.offsets[members.index(nine)]
                    - np.median(window.offsets, axis=0)).max()
    if own_only:
        assert len(members) < len(faces) and astray > indices.ASTRAY
    else:
        assert len(members) == len(faces) and astray == 0


@pytest.mark.parametrize("partial", [True, False])
def test_a_face_whose_rank_is_joined_to_its_crop_s_rim_is_cut_at_the_usual_place(
        deck, monkeypatch, partial):
    """A tight crop of a rounded corner shows the table there, and on one face that dark rim
    runs into the rank: the rank is taken for print running off the corner, and the index
    made out is the suit alone, a glyph lower than the deck's. Its window cut there holds
    a heart on bare paper, and the two of hearts' corner reads as the three of hearts; cut
    at the deck's usual place, it reads as the two."""
    import cv2

    from companion.vision import indices
    from companion.vision.indices import paper_and_ink

    _, library = deck
    faces = list(library.faces)
    three, two = library.ids.index("3hearts"), library.ids.index("2hearts")
    face = faces[three].copy()
    h, w = face.shape[:2]
    _, _, stats, _ = cv2.connectedComponentsWithStats(
        paper_and_ink(face)[: int(0.3 * h), : int(0.3 * w)])
    x, y, _, glyph_h, _ = min(stats[1:], key=lambda s: s[0] + s[1])  # the rank
    cv2.rectangle(face, (0, 0), (int(x) + 2, int(y + glyph_h // 3)), (60, 90, 130), -1)
    faces[three] = face
    glyph_lower = indices.PARTIAL
    if not partial:
        monkeypatch.setattr(indices, "PARTIAL", float("inf"))  # as before
    reader = IndexReader(faces)
    window = next(w for w in reader.windows if (w.turn, w.anchor) == (0, "tl"))
    lower = (window.offsets[list(window.face_numbers).index(three)]
             - np.median(window.offsets, axis=0))[1]
    # The two of hearts under another card but for its corner.
    scene = np.full((400, 400, 3), (40, 70, 50), np.uint8)
    scene[100:268, 100:220] = cv2.resize(faces[two], (120, 168), interpolation=cv2.INTER_AREA)
    scene[160:300, 130:300] = (200, 200, 205)
    read = [library.ids[hit.face_number] for hit in reader.read(scene, 120.0)]
    if partial:
        assert lower == 0 and read == ["2hearts"]
    else:
        assert lower > glyph_lower and read == ["3hearts"]


def test_a_deck_with_no_corner_index_has_no_windows_and_reads_nothing():
    faces = [draw_face(item) for item in shape_deck()[:27]]
    reader = IndexReader(faces)
    assert reader.windows == []
    assert reader.read(np.full((300, 400, 3), 200, np.uint8), 60.0) == []


def test_fanned_hands_are_read_from_their_indices_and_none_is_invented(deck):
    """Rows of 13 cards held out at any turn: each card's corner shows, the last card whole.
    The index reader adds covered cards to what is read, and never a card not in the hand."""
    cards, library = deck
    with_indices = Recognizer(library, piles=False)
    without = Recognizer(library, piles=False)
    without.limits = replace(without.limits, index_regions=0)
    read = {True: 0, False: 0}
    by_index = 0
    for seed in range(4):
        rng = np.random.default_rng(seed)
        held = [cards[n] for n in rng.choice(len(cards), 13, replace=False)]
        scene, _ = render(hand(held, (400.0, 300.0), float(rng.uniform(-40, 40)), rng, "row"))
        ids = {item.item_id for item in held}
        for indices, recognizer in ((True, with_indices), (False, without)):
            found = recognizer.recognize(scene.image)
            assert {d.item_id for d in found} <= ids, (seed, [d.item_id for d in found])
            read[indices] += len({d.item_id for d in found})
            if indices:
                by_index += sum(d.method == "index" for d in found)
    assert by_index >= 6 and read[True] >= read[False] + by_index, (read, by_index)


@pytest.mark.skipif(not DEV.is_dir(), reason="the real dev sets are not here")
def test_real_fanned_hands_are_read_from_their_indices_with_none_invented():
    import cv2

    from companion.vision.enrol import enrol_images
    from companion.vision.sources import read_image

    enrolled = enrol_images([(path.stem, lambda path=path: read_image(path))
                             for path in sorted((DEV / "enroll").iterdir())])
    truth = json.loads((DEV / "truth.json").read_text())
    recognizer = Recognizer(enrolled.library, piles=False)
    read = wrong = 0
    for name in ("bidly-00.jpg", "bidly-01.jpg"):
        image = cv2.imread(str(DEV / "scenes" / name))
        found = {d.item_id for d in recognizer.recognize(image)}
        cards = truth[name]
        read += len(found & set(cards))
        wrong += len(found - set(cards))
    # 89 cards in the two photos: 15 were read before indices were, 42 now (at full size).
    assert wrong == 0 and read >= 38, (read, wrong)


def test_an_index_printed_light_on_a_field_of_colour_is_learnt_and_a_bare_corner_is_not_read():
    """A colour-and-number deck prints a white number on its card's colour at two corners:
    no print there differs from the paper the way a rank on paper does, yet every face's index
    is learnt, on a field, at both corners. A corner whose number is painted over (its rim,
    its field) reads as no card; the same corner with its number reads as its card."""
    import cv2

    from companion.vision.deck import NUMBER_COLOURS, number_deck

    cards = number_deck()
    faces = [draw_face(item) for item in cards]
    reader = IndexReader(faces)
    upright = {w.anchor: set(w.face_numbers) for w in reader.windows if w.turn == 0}
    assert set(upright) == {"tl", "br"}
    # Every face's but the skips' (their sign, drawn as wide as half the corner here, is
    # taken for a pip).
    skips = {n for n, item in enumerate(cards) if item.item_id.endswith("skip")}
    assert all(found == set(range(len(cards))) - skips for found in upright.values())
    assert all(w.on_field for w in reader.windows)
    number = next(n for n, item in enumerate(cards) if item.item_id == "yellow-8")
    face = faces[number]
    h, w = face.shape[:2]
    corner = face[: h // 3, : w // 2]
    table = np.full((corner.shape[0] + 80, corner.shape[1] + 80, 3), (90, 140, 190), np.uint8)
    table[40:-40, 40:-40] = corner
    hits = reader.read(table, float(w))
    assert [hit.face_number for hit in hits] == [number]
    bare = face.copy()
    yellow = NUMBER_COLOURS["yellow"]
    x0, y0, x1, y1 = (round(v * w / 56.0) for v in (4.5, 5.0, 14.0, 17.0))
    cv2.rectangle(bare, (x0, y0), (x1, y1), yellow, -1)
    table[40:-40, 40:-40] = bare[: h // 3, : w // 2]
    assert reader.read(table, float(w)) == []


def test_a_light_index_takes_its_field_s_colour_not_its_dark_edge_s():
    """A white 5 edged in black on yellow: its darkest print is the edge (no colour) and its
    lightest the digit, so darkest against lightest reads it grey, like a black index; the
    field against the digit reads it yellow, far from a red field's."""
    import cv2

    from companion.vision.indices import field_colour, whiteness

    def corner(field: tuple[int, int, int]) -> np.ndarray:
        patch = np.full((40, 36, 3), field, np.uint8)
        cv2.putText(patch, "5", (6, 32), cv2.FONT_HERSHEY_DUPLEX, 1.1, (0, 0, 0), 6)
        cv2.putText(patch, "5", (6, 32), cv2.FONT_HERSHEY_DUPLEX, 1.1, (250, 250, 250), 3)
        return patch

    yellow, red = corner((20, 200, 235)), corner((40, 30, 200))
    on_yellow, on_red = (field_colour(cv2.cvtColor(p, cv2.COLOR_BGR2LAB), whiteness(p))
                         for p in (yellow, red))
    assert on_yellow[1] > 40 and on_red[0] > 40
    assert not same_colour(on_yellow, on_red[None])[0]
    darkest_against_lightest = ink_colour(cv2.cvtColor(yellow, cv2.COLOR_BGR2LAB))
    assert np.linalg.norm(darkest_against_lightest) < 0.5 * np.linalg.norm(on_yellow)


def test_a_card_read_at_its_two_corners_as_two_cards_is_read_once_or_not_at_all():
    """Most decks print the index at two opposite corners. When the two corners of one
    covered card read as two cards (a 3 of hearts and a 3 of diamonds), the surer read stands
    only when it is clearly surer; two reads about as sure are a coin toss, and neither
    stands. A card elsewhere is not touched."""
    from companion.vision.detection import Detection
    from companion.vision.recognize import INDEX_SURER, _one_index_read_per_card

    outline = np.float32([[0, 0], [100, 0], [100, 140], [0, 140]])

    def index_read(item_id, confidence, at, corners=outline):
        return Detection(item_id, corners, confidence, "index", index_at=np.float32(at))

    far = index_read("9s", 0.6, (410, 15), outline + np.float32([400, 0]))
    surer = index_read("3h", 0.5, (10, 15))

    def read(other_confidence):
        other = index_read("3d", other_confidence, (90, 125))
        return {d.item_id for d in _one_index_read_per_card([surer, other, far])}

    assert read(0.5 - INDEX_SURER - 0.05) == {"3h", "9s"}
    assert read(0.5 - INDEX_SURER / 2) == {"9s"}
    # One place read as two cards, with no index between them: the same.
    moved = index_read("3d", 0.48, (12, 16), outline + np.float32([3, 2]))
    assert {d.item_id for d in _one_index_read_per_card([surer, moved, far])} == {"9s"}


def test_near_twins_read_at_each_other_s_corners_about_as_surely_are_both_left_out():
    """Each index inside the other's outline: flat cards cannot both be on top, so one card's
    two corners were read as a seven of spades and a seven of clubs. The clearly surer read
    stands; two about as sure are a coin toss, and neither stands."""
    from companion.vision.deck import card, draw_standard_face
    from companion.vision.detection import Detection
    from companion.vision.library import CardLibrary
    from companion.vision.recognize import INDEX_SURER, Recognizer

    library = CardLibrary()
    for item_id in ("7spades", "7clubs"):
        library.add_face(item_id, draw_standard_face(card(item_id)))
    library.prepare()
    recognizer = Recognizer(library)
    outline = np.float32([[0, 0], [100, 0], [100, 140], [0, 140]])
    image = np.zeros((200, 200, 3), np.uint8)

    def read(other_confidence: float) -> set[str]:
        spade = Detection("7spades", outline, 0.4, "index", index_at=np.float32([12, 16]))
        club = Detection("7clubs", outline + np.float32([4, 6]), other_confidence, "index",
                         index_at=np.float32([88, 128]))
        return {d.item_id for d in recognizer._not_both_on_top(image, [spade, club])}

    assert read(0.4 - INDEX_SURER - 0.05) == {"7spades"}
    assert read(0.4 + INDEX_SURER + 0.05) == {"7clubs"}
    assert read(0.4 - INDEX_SURER / 2) == set()
