"""The rendered stand-ins for the real dev sets: their decks, another print of a deck, the
layouts of real scenes (fanned hands, runs, pairs, grids), a pinhole camera's perspective,
and truth given as the real sets give it (the box of each card's part in view, covered
under 90 %). Small and seeded."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.vision.art import draw_face, face_items
from companion.vision.conditions import Conditions
from companion.vision.deals import grid, hand, pair, run
from companion.vision.deck import card, schnapsen_deck, standard_deck
from companion.vision.enrol import enrol_images
from companion.vision.photo import tight_crop
from companion.vision.placing import pinhole_view
from companion.vision.prints import Reprint
from companion.vision.setdeck import shape_deck
from companion.vision.standins import ANY_POKER_DECK, OTHER_KINDS, STAND_INS
from companion.vision.synthetic import SceneRenderer, truth_of


def test_the_shape_deck_has_81_cards_that_differ_in_colour_count_fill_and_shape():
    deck = shape_deck()
    assert len({c.item_id for c in deck}) == 81
    faces = {c.item_id: draw_face(c) for c in deck[:9]}
    striped = faces["green-single-stripes-diamond"].astype(int)
    empty = faces["green-single-outline-diamond"].astype(int)
    changed = np.abs(striped - empty).max(axis=2) > 40
    assert 0.005 < changed.mean() < 0.1  # the stripes inside the shape, nothing else
    assert faces["green-single-solid-capsule"].shape == (342, 534, 3)  # landscape


def test_the_schnapsen_deck_is_mounted_on_black_card_with_twenty_faces():
    deck = schnapsen_deck()
    assert len({c.item_id for c in deck}) == 20 and deck[0].item_id == "Herz_Ass"
    face = draw_face(card_of(deck, "Pik_Koenig"))
    rim = np.concatenate([face[:4].reshape(-1, 3), face[-4:].reshape(-1, 3)])
    assert rim.mean() < 60  # the black card round it
    assert face[face.shape[0] // 2, face.shape[1] // 2].mean() > 20


def card_of(deck, item_id):
    return next(c for c in deck if c.item_id == item_id)


def test_another_print_differs_in_colour_and_register_but_not_in_design():
    face = draw_face(card("9hearts"))
    copy = Reprint.random(np.random.default_rng(1)).apply(face, np.random.default_rng(2))
    assert copy.shape == face.shape
    diff = np.abs(copy.astype(int) - face.astype(int)).mean()
    assert 1 < diff < 40
    a = cv2.cvtColor(face, cv2.COLOR_BGR2GRAY).astype(float).ravel()
    b = cv2.cvtColor(copy, cv2.COLOR_BGR2GRAY).astype(float).ravel()
    assert np.corrcoef(a, b)[0, 1] > 0.6  # the same card, printed again
    assert np.array_equal(Reprint().apply(face, np.random.default_rng(0)), face)


def test_a_pinhole_view_tilted_sees_the_far_side_smaller():
    size = (640, 480)
    camera = pinhole_view(size, (400.0, 300.0), 2.0, 35.0, 0.0)
    centre = cv2.perspectiveTransform(np.float32([[[400, 300]]]), camera)[0, 0]
    assert np.allclose(centre, [320, 240], atol=0.5)
    near = cv2.perspectiveTransform(np.float32([[[390, 350], [410, 350]]]), camera)[0]
    far = cv2.perspectiveTransform(np.float32([[[390, 250], [410, 250]]]), camera)[0]
    assert np.linalg.norm(near[1] - near[0]) > 1.1 * np.linalg.norm(far[1] - far[0])
    flat = pinhole_view(size, (400.0, 300.0), 2.0, 0.0, 0.0)
    side = cv2.perspectiveTransform(np.float32([[[390, 300], [410, 300]]]), flat)[0]
    assert np.linalg.norm(side[1] - side[0]) == pytest.approx(40, abs=0.5)


def render(placed, size=(800, 600), px_mm=1.6):
    renderer = SceneRenderer(size=size)
    camera = pinhole_view(size, (400.0, 300.0), px_mm, 0.0, 0.0)
    scene = renderer.render(placed, np.random.default_rng(0), Conditions(), camera,
                            markers=False)
    return scene, truth_of(scene)


def test_a_fanned_hand_shows_a_strip_of_each_card_and_the_last_one_whole():
    cards = standard_deck()[:13]
    for style in ("arc", "row"):
        scene, truth = render(hand(cards, (400.0, 300.0), 0.0, np.random.default_rng(3), style))
        shown = [t.visible for t in scene.truth]
        assert shown[-1] > 0.97, style
        assert all(0.05 < v < 0.5 for v in shown[:-1]), (style, shown)
        assert [t.covered for t in truth] == [True] * 12 + [False]


def test_runs_pairs_and_grids_cover_as_the_real_scenes_do():
    deck = standard_deck()
    rng = np.random.default_rng(4)
    scene, _ = render(run(deck[:4], (340.0, 340.0), 0.0, rng, (0.4, 0.35)))
    assert all(0.45 < t.visible < 0.8 for t in scene.truth[:-1])
    scene, _ = render(pair(deck[5], deck[6], (400.0, 300.0), rng, covered=(0.4, 0.5)))
    assert 0.45 < scene.truth[0].visible < 0.65 and scene.truth[1].visible > 0.97
    scene, truth = render(grid(deck[10:22], (400.0, 300.0), 4, 0.0, rng, gap_mm=10.0),
                          px_mm=1.3)
    assert len(truth) == 12 and not any(t.covered for t in truth)


def test_truth_boxes_hold_the_part_of_a_card_in_view():
    deck = standard_deck()
    scene, truth = render(pair(deck[0], deck[1], (400.0, 300.0), np.random.default_rng(5)))
    under, over = truth
    assert under.covered and not over.covered
    x0, y0, x1, y1 = over.box
    corners = scene.truth[1].corners  # the rounded corners stop short of them by a pixel or two
    assert abs(x0 - corners[:, 0].min()) < 3 and abs(x1 - corners[:, 0].max()) < 3
    assert abs(y0 - corners[:, 1].min()) < 3 and abs(y1 - corners[:, 1].max()) < 3
    ux0, uy0, ux1, uy1 = under.box
    assert (ux1 - ux0) * (uy1 - uy0) > 0.2 * (x1 - x0) * (y1 - y0)


def test_tight_crops_of_the_shape_deck_are_enrolled_whole():
    rng = np.random.default_rng(6)
    crops = [(c.item_id, tight_crop(draw_face(c), rng, (450, 300),
                                    tint=(0.9, 0.9, 1.0)).image)
             for c in shape_deck()[::9]]
    result = enrol_images([(i, lambda image=image: image) for i, image in crops])
    assert result.skipped == []
    for face in result.library.faces:
        assert abs(max(face.shape[:2]) / min(face.shape[:2]) - 1.5) < 0.03


@pytest.mark.parametrize("name", sorted([*STAND_INS, *OTHER_KINDS]))
def test_each_stand_in_is_seeded_and_gives_enrolment_images_and_scenes_with_truth(name):
    make = {**STAND_INS, **OTHER_KINDS}[name]
    one = make(np.random.default_rng(7), photos=1, size=(480, 360))
    again = make(np.random.default_rng(7), photos=1, size=(480, 360))
    assert one.name == name and len(one.photos) == 1
    assert np.array_equal(one.photos[0].image, again.photos[0].image)
    assert one.photos[0].image.shape == (360, 480, 3)
    ids = {i for i, _ in one.enrol}
    assert {c.item_id for c in one.photos[0].cards} <= ids
    assert all(c.box is not None for c in one.photos[0].cards)
    # An enrolment image is the same whenever it is drawn, and shows a card.
    first, last = one.enrol[0][1], again.enrol[0][1]
    assert np.array_equal(first(), last())
    assert enrol_images(one.enrol[:4]).skipped == []  # crops: judged with the deck


def test_the_webcam_stand_in_shows_its_cards_the_size_the_real_frames_do():
    """Its whole cards' boxes about as wide as the real webcam frames' (median 119 px):
    drawn a tenth smaller, every index was read a size smaller than the real set's."""
    import json

    from vision_dev import DEV

    truth_file = DEV / "blackjack-webcam" / "truth.json"
    if not truth_file.is_file():
        pytest.skip(f"no real set at {truth_file.parent}")
    real = [c["box"][2] - c["box"][0] for photo in json.loads(truth_file.read_text()).values()
            for c in photo["cards"] if not c.get("covered")]
    rendered = STAND_INS["blackjack-webcam"](np.random.default_rng(1), photos=8)
    drawn = [c.box[2] - c.box[0] for p in rendered.photos for c in p.cards if not c.covered]
    assert abs(np.median(drawn) / np.median(real) - 1) < 0.08


def test_the_poker_stand_ins_draw_the_deck_they_are_given():
    """A real deck's faces (here 52 plain colours) in place of our drawn poker deck: the
    scenes lay its cards and the enrolment images are cut from its faces."""
    colours = [(int(40 + 4 * k), int(200 - 3 * k), int(90 + 2 * k)) for k in range(52)]
    deck = face_items([(f"card-{k}", np.full((350, 250, 3), colour, np.uint8))
                       for k, colour in enumerate(colours)])
    ids = {item.item_id for item in deck}
    made = {**STAND_INS, **OTHER_KINDS}
    for name in sorted(ANY_POKER_DECK):
        rendered = made[name](np.random.default_rng(3), photos=1, size=(480, 360), deck=deck)
        assert {item_id for item_id, _ in rendered.enrol} == ids, name
        assert {c.item_id for c in rendered.photos[0].cards} <= ids, name
        item_id, draw = rendered.enrol[0]
        image = draw()
        middle = image[image.shape[0] // 3:-image.shape[0] // 3].reshape(-1, 3)
        colour = np.float32(colours[int(item_id.split("-")[1])])
        assert np.abs(np.median(middle, axis=0) - colour).max() < 60, name
