"""Near twins told apart where they differ, and outlines put on the card's edges.

The 5 of spades and the 5 of clubs differ only in the pips' shape: compared as whole faces
they score within a few hundredths, so a close call between twins is settled by comparing
them where they differ (``twins.py``). An outline found on a small copy of the frame is a
few pixels off, which costs a card several hundredths of score: ``edges.py`` puts it back on
the card's edges.
"""

from __future__ import annotations

from collections import Counter
from functools import cache

import cv2
import numpy as np
import pytest
from vision_dev import DEV

from companion.vision import recognize
from companion.vision.art import draw_face
from companion.vision.deck import card, draw_standard_face, number_deck, standard_deck
from companion.vision.detection import Thresholds
from companion.vision.edges import on_edges
from companion.vision.enrol import enrol_images
from companion.vision.faces import Score
from companion.vision.library import CardLibrary
from companion.vision.recognize import Recognizer
from companion.vision.standins import RenderedPhoto
from companion.vision.synthetic import SceneRenderer
from companion.vision.twins import CLIPPED, Twins, on_grid

#: Spades and clubs of each value: every card has a twin a pip's shape away.
TWINS = [f"{value}{suit}" for value in range(2, 11) for suit in ("spades", "clubs")]


@pytest.fixture(scope="module")
def twin_library() -> CardLibrary:
    library = CardLibrary()
    for item_id in TWINS:
        library.add_face(item_id, draw_standard_face(card(item_id)))
    library.prepare()
    return library


def twin_scenes(count: int, seed: int):
    rng = np.random.default_rng(seed)
    items = [item for item in standard_deck() if item.item_id in TWINS]
    renderer = SceneRenderer(size=(1280, 960))
    return [renderer.photo_scene(rng, items, cards=5) for _ in range(count)]


def test_spades_and_clubs_of_one_value_are_read_apart_and_none_is_mistaken(twin_library):
    recognizer = Recognizer(twin_library)
    right = wrong = total = 0
    for scene in twin_scenes(8, seed=5):
        want = Counter(t.item_id for t in scene.truth)
        got = Counter(d.item_id for d in recognizer.recognize(scene.image))
        right += sum((want & got).values())
        wrong += sum((got - want).values())
        total += len(scene.truth)
    assert wrong == 0
    assert right >= total - 2, f"{right} of {total}"


def test_the_print_leans_to_the_twin_it_is(twin_library):
    twins = Twins(twin_library.faces)
    spades, clubs = twin_library.ids.index("5spades"), twin_library.ids.index("5clubs")
    face = draw_standard_face(card("5spades"))
    h, w = face.shape[:2]
    whole = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    lean, fit = twins.tell(face, whole, spades, clubs)
    assert lean > 0.35 and fit > 0.9
    # Asked the other way round, it leans the other way; turned round, the same.
    assert twins.tell(face, whole, clubs, spades)[0] < -0.35
    assert twins.tell(face[::-1, ::-1].copy(), whole, spades, clubs)[0] > 0.35


def test_among_look_alikes_the_print_is_told_apart_whatever_the_order_they_are_listed_in(
        twin_library):
    """The 6, 7 and 8 of spades differ by one pip each: ``among`` sets each against each
    where they differ, and picks the face the print leans to against all of them, whichever
    face comes first in the list (the one the quad is sampled in the order of)."""
    twins = Twins(twin_library.faces)
    number_of = {item: twin_library.ids.index(item) for item in ("6spades", "7spades", "8spades")}
    face = cv2.resize(draw_standard_face(card("7spades")), (100, 140),
                      interpolation=cv2.INTER_AREA)
    h, w = face.shape[:2]
    whole = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    for order in (["6spades", "7spades", "8spades"], ["8spades", "6spades", "7spades"],
                  ["7spades", "8spades", "6spades"]):
        pick, lean, fit = twins.among(face, whole, [number_of[item] for item in order])
        assert twin_library.ids[pick] == "7spades"
        assert lean > 0.25 and fit > 0.8
    # Its lower half covered by a card, the pip that tells the 7 from the 8 still shows,
    # and the one that tells it from the 6: the part in view decides.
    on_top = [np.float32([[-5, 90], [w + 5, 90], [w + 5, h + 5], [-5, h + 5]])]
    pick, lean, _ = twins.among(face, whole, [number_of["8spades"], number_of["7spades"],
                                              number_of["6spades"]], on_top)
    assert twin_library.ids[pick] == "7spades" and lean > 0.15


def test_a_part_in_view_guessed_a_few_pixels_off_is_lined_up_before_it_is_told(
        twin_library):
    """A covered card's quad is guessed from the edges in view: a few pixels off and a few
    hundredths too short, its fine detail fits no face. Lined up with the face it fits best,
    the 7 of spades is told from the 6 and the 8 on the part in view; asked for no fit, the
    guess is compared as it is, and leans to none of them."""
    twins = Twins(twin_library.faces)
    number_of = {item: twin_library.ids.index(item) for item in ("6spades", "7spades", "8spades")}
    face = draw_standard_face(card("7spades"))
    frame = np.full((520, 440, 3), 90, np.uint8)
    h, w = face.shape[:2]
    at = np.float32([[100, 80], [100 + 0.6 * w, 80], [100 + 0.6 * w, 80 + 0.6 * h],
                     [100, 80 + 0.6 * h]])
    warp = cv2.getPerspectiveTransform(np.float32([[0, 0], [w, 0], [w, h], [0, h]]), at)
    cv2.warpPerspective(face, warp, (440, 520), frame, borderMode=cv2.BORDER_TRANSPARENT)
    on_top = [at + np.float32([0.0, 0.7 * (at[2, 1] - at[0, 1])]) + np.float32([20, 0])]
    guess = at.copy()
    guess[:, 0] = at[0, 0] + 5 + (at[:, 0] - at[0, 0]) * 0.96  # 5 px off, 4 % too narrow
    guess[:, 1] += 4
    faces = [number_of[item] for item in ("8spades", "7spades", "6spades")]
    assert twins.among(frame, guess, faces, on_top)[1] < 0.15  # not lined up: no lean
    pick, lean, fit = twins.among(frame, guess, faces, on_top, least_fit=0.7)
    assert twin_library.ids[pick] == "7spades" and lean > 0.15 and fit > 0.7, (lean, fit)


def test_among_faces_that_differ_only_where_the_card_is_covered_nothing_leans():
    faces = []
    for mark in ("5", "6"):
        face = np.full((280, 200, 3), 250, np.uint8)
        cv2.rectangle(face, (12, 12), (187, 267), (30, 30, 160), 2)
        cv2.circle(face, (100, 80), 30, (20, 20, 20), -1)
        cv2.putText(face, mark, (70, 230), cv2.FONT_HERSHEY_SIMPLEX, 2.0, (20, 20, 20), 5)
        faces.append(face)
    twins = Twins(faces)
    whole = np.float32([[0, 0], [200, 0], [200, 280], [0, 280]])
    # Seen whole, the 6 is told from the 5, listed first or second.
    assert twins.among(faces[1], whole, [0, 1])[0] == 1
    assert twins.among(faces[1], whole, [1, 0])[1] > 0.25
    # Its lower half (where the two differ) covered: nothing leans, it is not guessed.
    on_top = [np.float32([[-5, 150], [205, 150], [205, 285], [-5, 285]])]
    assert abs(twins.among(faces[1], whole, [0, 1], on_top)[1]) < 0.15


def test_a_twin_too_blurred_to_tell_is_left_out_not_guessed(twin_library):
    recognizer = Recognizer(twin_library)
    table = np.full((900, 1200, 3), (60, 90, 50), np.uint8)
    face = cv2.resize(draw_standard_face(card("5spades")), (250, 350),
                      interpolation=cv2.INTER_AREA)
    table[200:550, 400:650] = face
    # So blurred that a pip is a blot: spade or club can no longer be told.
    table = cv2.GaussianBlur(table, (0, 0), 9)
    assert all(d.item_id != "5clubs" for d in recognizer.recognize(table))


def striped_and_outlined_shape(ink: tuple[int, int, int] = (150, 60, 140)
                               ) -> tuple[np.ndarray, np.ndarray]:
    """Two faces of a SET-like deck: one diamond filled with thin stripes, one outlined only,
    printed in ``ink`` (BGR; purple unless given)."""
    faces = []
    corners = np.int32([[100, 50], [160, 140], [100, 230], [40, 140]])
    for striped in (True, False):
        face = np.full((280, 200, 3), 245, np.uint8)
        if striped:
            lines = face.copy()
            for x in range(40, 161, 7):
                cv2.line(lines, (x, 40), (x, 240), ink, 2)
            inside = np.zeros(face.shape[:2], np.uint8)
            cv2.fillConvexPoly(inside, corners, 255)
            face[inside > 0] = lines[inside > 0]
        cv2.polylines(face, [corners], True, ink, 5)
        faces.append(face)
    return faces[0], faces[1]


def test_stripes_blurred_away_are_not_read_as_an_empty_shape():
    """Out of focus, thin stripes fade into a grey fill: in fine detail the striped card
    then looks like the outlined one (it leaned 0.17 that way), but the grey still darkens
    its shape when compared coarser, so the twins are left untold. The outline card still
    reads as itself, sharp or blurred."""
    striped, outlined = striped_and_outlined_shape()
    twins = Twins([striped, outlined])
    box = np.float32([[0, 0], [200, 0], [200, 280], [0, 280]])
    quad = np.float32([[200, 100], [330, 104], [326, 286], [196, 282]])

    def photo(face: np.ndarray, blur: float) -> np.ndarray:
        table = np.full((480, 640, 3), (40, 70, 50), np.uint8)
        move = cv2.getPerspectiveTransform(box, quad)
        card = cv2.warpPerspective(face, move, (640, 480))
        inside = cv2.warpPerspective(np.full((280, 200), 255, np.uint8), move, (640, 480))
        table[inside > 0] = card[inside > 0]
        return cv2.GaussianBlur(table, (0, 0), blur) if blur else table

    assert twins.tell(photo(striped, 0), quad, 0, 1)[0] > 0.3
    assert twins.tell(photo(outlined, 0), quad, 0, 1)[0] < -0.3
    for blur in (1.6, 2.0, 2.5):
        assert twins.tell(photo(striped, blur), quad, 0, 1)[0] > -0.15, blur
        assert twins.tell(photo(outlined, blur), quad, 0, 1)[0] < -0.3, blur


def overexposed(photo: np.ndarray, gain: float = 1.2) -> np.ndarray:
    """A photo as a camera exposing for a dark table takes it: light tones clipped."""
    return np.clip(gain * 255.0 * (photo / 255.0) ** 0.7, 0, 255).astype(np.uint8)


def photographed(face: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """``face`` lying at ``quad`` on a dark green table, 640x480."""
    h, w = face.shape[:2]
    box = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    table = np.full((480, 640, 3), (40, 70, 50), np.uint8)
    move = cv2.getPerspectiveTransform(box, quad)
    card = cv2.warpPerspective(face, move, (640, 480))
    inside = cv2.warpPerspective(np.full((h, w), 255, np.uint8), move, (640, 480))
    table[inside > 0] = card[inside > 0]
    return table


def test_print_that_may_be_clipped_away_does_not_tell_twins_apart():
    """Overexposed (a camera exposing for black cloth), the paper clips, and so do light
    stripes: an empty shape and one whose stripes were lost look alike, so neither leans.
    Stripes that still show are still read, and dark print does not clip: the 5 of spades
    and of clubs are told apart as before."""
    striped, outlined = striped_and_outlined_shape()
    pale = striped.copy()  # the stripes printed light, as the real SET cards' thin ones
    stripes = (striped != outlined).any(axis=2)
    pale[stripes] = (0.45 * striped[stripes] + 0.55 * 245).astype(np.uint8)
    quad = np.float32([[200, 100], [330, 104], [326, 286], [196, 282]])
    for face in (striped, pale, outlined):
        assert photographed(face, quad).min() < CLIPPED  # as taken, nothing clipped
    assert Twins([striped, outlined]).tell(overexposed(photographed(striped, quad)),
                                           quad, 0, 1)[0] > 0.15
    for face in (pale, outlined):
        twins = Twins([pale, outlined])
        photo = overexposed(photographed(face, quad))
        assert twins.tell(photo, quad, 0, 1)[0] == 0.0
        assert not twins.shows_apart(photo, quad, 0, 1)
    assert Twins([striped, outlined]).tell(photographed(outlined, quad), quad, 0, 1)[0] < -0.3
    spades, clubs = (cv2.resize(draw_standard_face(card(c)), (200, 280),
                                interpolation=cv2.INTER_AREA) for c in ("5spades", "5clubs"))
    twins = Twins([spades, clubs])
    photo = overexposed(photographed(clubs, quad), 1.4)
    assert twins.shows_apart(photo, quad, 0, 1)
    assert twins.tell(photo, quad, 0, 1)[0] < -0.3


def test_a_close_call_whose_difference_may_be_clipped_away_is_left_out(twin_library):
    """A face 0.05-0.15 clear of a near twin, where the print that sets them apart may have
    been clipped away: the whole faces' gap weighs lost stripes as none, so the twin comes
    first, to be told apart by the print or left out."""
    recognizer = Recognizer(twin_library)
    quad = np.float32([[0, 0], [200, 0], [200, 280], [0, 280]])
    scores = [Score(0, 0.85, quad), Score(1, 0.77, quad)]
    no_lean = lambda first, second: (0.0, 0.9)  # noqa: E731  (untold)
    assert recognizer._twin_against(scores, 0.05, no_lean, lambda a, b: True)[0] is scores[0]
    assert recognizer._twin_against(scores, 0.05, no_lean, lambda a, b: False)[0] is scores[1]
    assert recognizer._decide(scores[::-1], 0.5, 0.05, "template", no_lean) is None


def test_an_outline_a_few_pixels_off_is_put_back_on_the_card_s_edges():
    rng = np.random.default_rng(3)
    renderer = SceneRenderer(size=(1280, 960))
    errors_before, errors_after = [], []
    for _ in range(4):
        scene = renderer.photo_scene(rng, standard_deck(), cards=4)
        h, w = scene.image.shape[:2]
        for truth in scene.truth:
            corners = truth.corners.astype(np.float32)
            if truth.visible < 1.0 or corners.min() < 10 or (corners[:, 0] > w - 10).any() \
                    or (corners[:, 1] > h - 10).any():
                continue  # a card cut by the photo's edge has no edge there to find
            rough = corners + rng.uniform(-3.5, 3.5, (4, 2)).astype(np.float32)
            errors_before.append(float(np.abs(rough - corners).max()))
            errors_after.append(float(np.abs(on_edges(scene.image, rough) - corners).max()))
    assert len(errors_after) >= 8
    assert np.median(errors_after) <= 1.2 < np.median(errors_before)


def test_an_outline_with_no_edge_near_it_is_left_as_it_was():
    table = np.full((400, 400, 3), 128, np.uint8)
    quad = np.float32([[100, 100], [250, 100], [250, 310], [100, 310]])
    assert np.array_equal(on_edges(table, quad), quad)



def two_colours_of_one_print() -> tuple[np.ndarray, np.ndarray]:
    """Two faces with the same print on grounds of two colours (a creature at two values
    drawn alike, as Warrior and Zombie are in a strip)."""
    faces = []
    for ground in ((70, 200, 80), (60, 190, 170)):  # green; yellow-green (BGR)
        face = np.full((280, 200, 3), 245, np.uint8)
        cv2.rectangle(face, (10, 10), (189, 269), ground, -1)
        cv2.rectangle(face, (10, 10), (189, 50), (40, 90, 40), -1)
        cv2.circle(face, (100, 150), 45, (250, 250, 250), -1)
        cv2.line(face, (20, 80), (180, 240), (200, 60, 200), 6)
        faces.append(face)
    return faces[0], faces[1]


def test_a_strip_alike_in_detail_leans_to_the_colour_it_is_under_the_table_s_light():
    green, yellow = two_colours_of_one_print()
    twins = Twins([green, yellow])
    box = np.float32([[0, 0], [200, 0], [200, 280], [0, 280]])
    whole = np.float32([[40, 40], [140, 40], [140, 180], [40, 180]])
    strip = whole + np.float32([200, 0])
    cover = strip + np.float32([22, 4])  # leaves a strip a fifth of the card wide
    light = np.float32([0.8, 1.0, 1.15])  # a warm lamp, not the enrolment's light

    def table(under: np.ndarray, shade: float = 1.0) -> np.ndarray:
        image = np.full((240, 400, 3), (50, 80, 40), np.uint8)
        for face, quad, dim in ((green, whole, 1.0), (under, strip, shade),
                                (np.zeros_like(green), cover, 1.0)):
            card = cv2.warpPerspective(face, cv2.getPerspectiveTransform(box, quad),
                                       (400, 240))
            cv2.fillConvexPoly(image, quad.astype(np.int32), (0, 0, 0))
            image = np.maximum(image, (card * dim).astype(np.uint8))
        return np.clip(image * light, 0, 255).astype(np.uint8)

    # The strip is compared as the card seen whole (face 0) shows its colour here.
    lean, apart = twins.colour_lean(table(green), strip, 0, 1, [cover], whole)
    assert lean > 0.35 and apart >= 10
    assert twins.colour_lean(table(yellow), strip, 0, 1, [cover], whole)[0] < -0.2
    # In the top card's shadow, darker but the same colour; and turned round, the same.
    assert twins.colour_lean(table(green, 0.6), strip, 0, 1, [cover], whole)[0] > 0.3
    assert twins.colour_lean(table(green[::-1, ::-1].copy()), strip, 0, 1, [cover],
                             whole)[0] > 0.35


def test_a_copy_s_strip_in_the_top_card_s_shadow_is_told_by_its_colour():
    """A pile of the green face: the copy under it shows a strip a third of the card wide,
    in the top card's shadow, under a warm lamp. In detail the strip leans to neither face
    (their print is the same); its colour tells it is a copy, and a yellow card lying there
    is not one."""
    from companion.vision.detection import Thresholds
    from companion.vision.piles import PileReader

    green, yellow = two_colours_of_one_print()
    library = CardLibrary()
    library.add_face("green", green)
    library.add_face("yellow", yellow)
    library.prepare()
    reader = PileReader(library, Thresholds())
    box = np.float32([[0, 0], [200, 0], [200, 280], [0, 280]])
    under = np.float32([[250, 150], [350, 150], [350, 290], [250, 290]])
    top = under + np.float32([70, 6])

    def pile(lowest: np.ndarray) -> np.ndarray:
        image = np.full((480, 640, 3), (50, 80, 40), np.uint8)
        for face, quad, shade in ((lowest, under, 0.6), (green, top, 1.0)):
            card = cv2.warpPerspective(face, cv2.getPerspectiveTransform(box, quad),
                                       (640, 480))
            cv2.fillConvexPoly(image, quad.astype(np.int32), (0, 0, 0))
            image = np.maximum(image, (card * shade).astype(np.uint8))
        image = cv2.GaussianBlur(image, (3, 3), 0.8)
        return np.clip(image * np.float32([0.85, 1.0, 1.1]), 0, 255).astype(np.uint8)

    image = pile(green)
    assert abs(library.twins.tell(image, under, 0, 1, [top])[0]) < 0.15  # detail: no lean
    assert reader._told(image, under, [top], 0, 1)
    assert not reader._told(pile(yellow), under, [top], 0, 1)


def test_a_face_enrolled_the_other_way_up_is_lined_up_with_its_look_alike():
    """A card photographed lying on the table has no up: its face may be enrolled turned
    round from its look-alikes'. Lined up either way, it is the print it is."""
    face = draw_standard_face(card("7hearts"))
    twins = Twins([face, np.ascontiguousarray(face[::-1, ::-1])])
    assert twins.print_alike(0, 1) >= Thresholds().print_alike


def test_an_ace_enrolled_under_a_light_falling_off_is_not_lined_up_turned_with_its_twin():
    """The Schnapsen stand-in's aces of clubs and spades, enrolled from photos under a lamp
    (a colour cast, darker toward one end): nearly blank, turned round their light fits
    better than upright, their print does not. Lined up upright, the ace of clubs lying
    whole on the table is read as the clubs, not as its twin."""
    from companion.vision.standins import STAND_INS

    rendered = STAND_INS["anima-pairs"](np.random.default_rng(2), photos=6)
    library = enrol_images(list(rendered.enrol)).library
    clubs, spades = library.ids.index("Kreuz_Ass"), library.ids.index("Pik_Ass")
    for first, second in ((clubs, spades), (spades, clubs)):
        warp = library.twins._warp(first, second)
        assert warp is None or warp[0, 0] > 0  # not turned round
    photo = next(p for p in rendered.photos if p.name == "pair-05")
    found = {d.item_id for d in Recognizer(library, piles=False).recognize(photo.image)}
    assert "Kreuz_Ass" in found and "Pik_Ass" not in found


@cache
def _real_deck(real_set: str) -> tuple:
    """A real dev set's faces (its ``enroll/``) as a deck to draw, enrolled once per run."""
    from companion.vision.art import face_items

    folder = DEV / real_set / "enroll"
    if not folder.is_dir():
        pytest.skip(f"the real dev set {real_set} is not here")
    real = enrol_images([(path.stem, lambda path=path: cv2.imread(str(path)))
                         for path in sorted(folder.iterdir())]).library
    return tuple(face_items(list(zip(real.ids, real.faces, strict=True))))


def hold_em_with_real_faces(real_set: str, seed: int, photos: int, name: str
                            ) -> tuple[RenderedPhoto, CardLibrary]:
    """Photo ``name`` of the hold'em stand-in drawn with a real dev set's faces, and the deck
    enrolled from tinted crops of them cut unevenly (a sliver of the table at a side)."""
    from companion.vision.standins import OTHER_KINDS

    rendered = OTHER_KINDS["poker-table"](np.random.default_rng(seed), photos=photos,
                                          deck=list(_real_deck(real_set)))
    photo = next(p for p in rendered.photos if p.name == name)
    return photo, enrol_images(list(rendered.enrol)).library


def _read(photo: RenderedPhoto, library: CardLibrary) -> tuple[set[str], set[str]]:
    """The cards in the photo, and those read in it."""
    found = Recognizer(library, piles=False).recognize(photo.image)
    return {c.item_id for c in photo.cards}, {d.item_id for d in found}


def test_an_eight_lying_turned_round_is_told_from_the_seven_it_looks_like_so():
    """A real deck's eight of clubs turned round shows the seven's pips but one (its middle
    row turned); lined up with the seven's print, it fits the seven better than the eight
    lined up upright. The eight is compared either way round: the whole card on the table
    reads as the eight, not the seven (the real fans' faces)."""
    there, found = _read(*hold_em_with_real_faces("bidly-fans", 2, 2, "table-01"))
    assert "8c" in there
    assert "8c" in found and "7c" not in found


def test_a_covered_card_is_told_from_a_near_twin_its_crop_puts_further_below():
    """A four of diamonds under an ace of hearts, the ace's heart lying where a five would
    print its fifth pip (the real webcam set's faces). On its part in view, lined up with
    the five's print, the four scores 0.17 below the five: its enrolment crop was cut with
    a sliver of table at a side, its print a little off the five's. Told apart where they
    differ (the index), it reads as the four, not the five."""
    there, found = _read(*hold_em_with_real_faces("blackjack-webcam", 1, 3,
                                                            "table-02"))
    assert {"4D", "AH"} <= there
    assert "4D" in found and "5D" not in found


def test_a_whole_card_is_told_from_a_near_twin_its_enrolment_crop_puts_far_below(
        monkeypatch: pytest.MonkeyPatch):
    """A two of clubs lying whole, its enrolment crop cut with a sliver of the table at two
    sides and a green cast (the real webcam set's faces): on the whole faces it scores
    0.158 below the two of spades, past the sure margin. Told apart where the two differ
    (the pips and index, ``TWIN_CUT_REACH``), it reads as the two of clubs; with the twins
    compared only within the sure margin, as the spade, surely."""
    photo, library = hold_em_with_real_faces("blackjack-webcam", 6, 7, "table-06")
    there, found = _read(photo, library)
    assert "2C" in there and "2S" not in there
    assert "2C" in found and "2S" not in found
    monkeypatch.setattr(recognize, "TWIN_CUT_REACH", Thresholds().sure_margin)
    assert "2S" in _read(photo, library)[1]


def test_a_guess_lined_up_with_one_face_is_scored_against_every_face_again():
    """A four of clubs partly under a six of spades is found by a card-sized guess a little
    off it, which scores best as the five of clubs (the four not among the faces it
    shortlists). Lined up with the five's print, the guess lies on the four: every face is
    shortlisted again there, and the four (0.95) reads, not the five (the real webcam set's
    faces)."""
    there, found = _read(*hold_em_with_real_faces("blackjack-webcam", 4, 8,
                                                            "table-07"))
    assert "4C" in there and "5C" not in there
    assert "4C" in found and "5C" not in found


def test_a_turn_found_on_one_grid_is_the_same_turn_on_a_coarser_one():
    rng = np.random.default_rng(4)
    fine = cv2.GaussianBlur(rng.uniform(0, 255, (100, 200)).astype(np.float32), (0, 0), 3)
    coarse = cv2.resize(fine, (100, 50), interpolation=cv2.INTER_AREA)
    turn = np.float32([[-1, 0, 199], [0, -1, 99]])
    moved = cv2.warpAffine(coarse, on_grid(turn, (200, 100), (100, 50)), (100, 50),
                           flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP)
    assert np.abs(moved - coarse[::-1, ::-1]).max() < 0.01


def test_one_print_in_two_field_colours_lies_far_apart_in_colour_red_and_black_inks_not():
    number = {c.item_id: draw_face(c) for c in number_deck()}
    faces = [number["green-0"], number["blue-0"], number["red-0"], number["red-8"],
             draw_standard_face(card("8hearts")), draw_standard_face(card("8spades"))]
    twins, limit = Twins(faces), Thresholds().colour_twin_apart
    assert twins.colours_apart(0, 1) >= limit  # one print, fields of two colours
    assert twins.colours_apart(2, 3) < limit / 2  # two prints in one colour
    assert twins.colours_apart(4, 5) < limit  # red and black inks on white


def test_a_face_s_ink_is_its_most_saturated_print_thin_stripes_and_black_pips_too():
    purple_striped, purple_outlined = striped_and_outlined_shape()
    green_striped, _ = striped_and_outlined_shape(ink=(60, 140, 40))
    twins = Twins([purple_striped, purple_outlined, green_striped,
                   *(draw_standard_face(card(f"8{suit}")) for suit in ("hearts", "spades",
                                                                       "clubs"))])
    limit = Thresholds().inks_apart
    assert twins.inks_apart(0, 2) >= limit  # thin stripes, purple and green
    assert twins.inks_apart(0, 1) < limit / 2  # one ink, striped and outlined
    assert twins.inks_apart(3, 4) >= limit  # red and black pips
    assert twins.inks_apart(4, 5) < limit / 2  # black and black


@pytest.mark.parametrize("green", [False, True])
def test_a_close_call_between_twins_in_two_inks_is_not_told_in_grey(
        green: bool, monkeypatch: pytest.MonkeyPatch):
    """A close call (0.05-0.15 apart) between near twins is settled where they differ in
    grey, but two inks print darker or lighter in grey whatever the shape: a purple stripe
    leaned to its green twin by its ink alone. Twins in one ink are still told in grey."""
    purple_striped, purple_outlined = striped_and_outlined_shape()
    green_striped, _ = striped_and_outlined_shape(ink=(60, 140, 40))
    library = CardLibrary()
    library.add_face("purple-striped", purple_striped)
    library.add_face("other", green_striped if green else purple_outlined)
    library.prepare()
    recognizer = Recognizer(library)
    monkeypatch.setattr(Recognizer, "_near_twins", lambda self, one, other: True)
    monkeypatch.setattr(Recognizer, "_colour_twins", lambda self, one, other: False)
    quad = np.float32([[0, 0], [200, 0], [200, 280], [0, 280]])
    scores = [Score(0, 0.85, quad), Score(1, 0.77, quad)]
    leans_to_the_other = lambda first, second: (-0.4, 0.9)  # noqa: E731
    first = recognizer._twin_against(scores, 0.05, leans_to_the_other,
                                     lambda first, second: True)[0]
    assert first.face_number == (0 if green else 1)


def ace(pip: str, ink: tuple[int, int, int]) -> np.ndarray:
    """A pip card's ace: an A and a small pip in two corners, a large pip in the middle."""
    face = np.full((280, 200, 3), 245, np.uint8)
    cv2.rectangle(face, (12, 12), (187, 267), (120, 90, 40), 2)

    def draw(centre: tuple[int, int], size: int) -> None:
        x, y = centre
        if pip == "diamond":
            cv2.fillConvexPoly(face, np.int32([[x, y - size], [x + size * 3 // 4, y],
                                               [x, y + size], [x - size * 3 // 4, y]]), ink)
        else:  # a club: three lobes and a stem
            for dx, dy in ((0, -size // 2), (-size // 2, size // 5), (size // 2, size // 5)):
                cv2.circle(face, (x + dx, y + dy), size // 2, ink, -1)
            cv2.fillConvexPoly(face, np.int32([[x, y], [x + size // 3, y + size],
                                               [x - size // 3, y + size]]), ink)

    for turned in (False, True):
        cv2.putText(face, "A", (12, 40), cv2.FONT_HERSHEY_SIMPLEX, 1.0, ink, 3)
        draw((26, 66), 12)
        draw((100, 140), 40)
        face = face[::-1, ::-1].copy() if not turned else face
    return face


def test_a_part_in_view_whose_print_differs_in_hue_is_not_told_by_its_grey_shape():
    """An ace of diamonds (red) and of clubs (black) seen with the middle covered: they
    differ in view only by the small index pip, a few pixels whose shape grey can mistake.
    Drawn as a red club there, the grey shape leans to the clubs; its hue is the diamonds'
    ink, and a lean against the hue counts as none: it is not read as the ace of clubs."""
    red, black = (40, 40, 200), (30, 30, 30)
    diamonds, clubs = ace("diamond", red), ace("club", black)
    twins = Twins([diamonds, clubs])
    whole = np.float32([[0, 0], [200, 0], [200, 280], [0, 280]])
    on_top = [np.float32([[40, 90], [230, 90], [230, 200], [40, 200]])]
    seen = ace("club", red)  # the clubs' shape in the diamonds' ink
    inks = (45.0, 0.5)
    pick, lean, _ = twins.among(seen, whole, [0, 1], on_top)
    assert pick == 1 and lean > 0.15  # grey alone: the ace of clubs
    pick, lean, _ = twins.among(seen, whole, [0, 1], on_top, inks=inks)
    assert not (pick == 1 and lean > 0.15), (pick, lean)
    # The aces as they are still lean to themselves, the hue agreeing.
    assert twins.among(diamonds, whole, [1, 0], on_top, inks=inks)[:1] == (0,)
    assert twins.among(diamonds, whole, [1, 0], on_top, inks=inks)[1] > 0.15
    assert twins.among(clubs, whole, [0, 1], on_top, inks=inks)[:1] == (1,)
    assert twins.among(clubs, whole, [0, 1], on_top, inks=inks)[1] > 0.15
