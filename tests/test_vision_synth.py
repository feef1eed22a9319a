"""The harder synthetic generator: look-alike decks, photo-like conditions, piles of identical
cards, phone-view scenes without markers and imperfect enrolment photos. All seeded and small."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.vision.art import draw_face
from companion.vision.deck import card, creature_deck, standard_deck
from companion.vision.photo import empty_photo, enrolment_photo, scan_photo
from companion.vision.synthetic import Conditions, Placement, SceneRenderer

SMALL = (480, 640)  # (w, h): a portrait phone frame, small enough for quick tests


def test_standard_deck_has_the_dev_sets_ids_and_one_face_each():
    ids = [c.item_id for c in standard_deck()]
    assert len(set(ids)) == 52
    assert {"Aspades", "10hearts", "Qclubs", "7clubs", "Adiamonds"} <= set(ids)


def test_seven_and_eight_of_clubs_differ_by_one_pip_and_faces_survive_a_half_turn():
    seven, eight = draw_face(card("7clubs")), draw_face(card("8clubs"))
    ink = lambda img: cv2.cvtColor(img, cv2.COLOR_BGR2GRAY) < 128  # noqa: E731
    changed = ink(seven) ^ ink(eight)
    assert 0 < changed.mean() < 0.05  # one pip and the index digits
    turned = eight[::-1, ::-1]
    assert (ink(eight) ^ ink(turned)).mean() < 0.05  # the 8's pips are point symmetric


def test_suit_colours_and_court_cards_are_colourful():
    hearts = draw_face(card("Ahearts")).astype(int)
    spades = draw_face(card("2spades")).astype(int)
    assert ((hearts[..., 2] - hearts[..., 1]) > 100).any()  # red ink
    assert not ((spades[..., 2] - spades[..., 1]) > 100).any()  # black only
    king = cv2.cvtColor(draw_face(card("Kclubs")), cv2.COLOR_BGR2HSV)
    assert (king[..., 1] > 120).mean() > 0.15  # a figure in a frame, outlined in black


def test_creature_deck_repeats_one_picture_at_several_values():
    items = creature_deck(values=2)
    a, b = draw_face(items[0]), draw_face(items[1])
    assert items[0].item_id != items[1].item_id and items[0].title == items[1].title
    assert 0 < (np.abs(a.astype(int) - b.astype(int)).max(axis=2) > 60).mean() < 0.03


def test_real_conditions_are_seeded_and_leave_random_alone():
    assert Conditions.real(np.random.default_rng(3)) == Conditions.real(np.random.default_rng(3))
    plain = Conditions.random(np.random.default_rng(3))
    assert not plain.hard and plain.jpeg_quality == 0


def render_photo(seed: int, **kwargs):
    renderer = SceneRenderer(size=SMALL)
    return renderer.photo_scene(np.random.default_rng(seed), standard_deck(), **kwargs)


def test_photo_scene_is_deterministic_with_a_seed():
    a, b = render_photo(4), render_photo(4)
    assert np.array_equal(a.image, b.image)
    assert [t.item_id for t in a.truth] == [t.item_id for t in b.truth]


def test_photo_scene_has_4_to_7_cards_and_no_markers():
    for seed in range(3):
        scene = render_photo(seed)
        assert 3 <= len(scene.truth) <= 7  # a card that finds no room is left out
        corners = cv2.aruco.ArucoDetector(
            cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)).detectMarkers(scene.image)[0]
        assert len(corners) == 0


def test_truth_corners_are_where_the_card_is_drawn():
    renderer = SceneRenderer(size=SMALL)
    rng = np.random.default_rng(9)
    place = Placement(card("Aspades"), (400.0, 280.0), 20.0)
    cond = Conditions.real(rng)
    camera = renderer.keystone_camera(rng)
    scene = renderer.render([place], rng, cond, camera, markers=False)
    bare = renderer.render([], np.random.default_rng(9), cond, camera, markers=False)
    quad = scene.truth[0].corners.astype(np.int32)
    inside = np.zeros(SMALL[::-1], np.uint8)
    cv2.fillConvexPoly(inside, quad, 1)
    inner = cv2.erode(inside, np.ones((7, 7), np.uint8)) > 0
    outer = cv2.dilate(inside, np.ones((9, 9), np.uint8)) == 0
    grey = lambda s: cv2.cvtColor(s.image, cv2.COLOR_BGR2GRAY).astype(int)  # noqa: E731
    diff = np.abs(grey(scene) - grey(bare))
    assert diff[inner].mean() > 4 * diff[outer].mean()
    assert scene.truth[0].visible > 0.97


def test_a_pile_gives_one_truth_entry_per_copy_with_its_own_visible_part():
    renderer = SceneRenderer(size=(640, 480))
    rng = np.random.default_rng(2)
    copies = renderer.pile(rng, card("3spades"), (400.0, 280.0), 4, style="offset")
    scene = renderer.render(copies, rng, Conditions.real(rng), markers=False)
    assert [t.item_id for t in scene.truth] == ["3spades"] * 4
    centres = {tuple(np.round(t.corners.mean(axis=0))) for t in scene.truth}
    assert len(centres) == 4
    visible = [t.visible for t in scene.truth]
    assert visible[-1] > 0.97 and all(0.1 < v < 0.9 for v in visible[:-1])


def test_random_scene_with_piles_counts_every_copy():
    renderer = SceneRenderer(size=(640, 480))
    rng = np.random.default_rng(5)
    scene = renderer.random_scene(rng, standard_deck(), cards=3, piles=1,
                                  conditions=Conditions.real(rng), markers=False)
    assert 5 <= len(scene.truth) <= 8
    assert max(sum(t.item_id == i for t in scene.truth) for i in {t.item_id for t in scene.truth}
               ) >= 2


def test_photo_scene_overlaps_cover_part_of_a_card():
    scene = render_photo(11, cards=5, overlaps=2)
    assert any(0.4 < t.visible < 0.95 for t in scene.truth)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_enrolment_photo_puts_the_card_at_its_truth(seed):
    face = draw_face(card("Kclubs"))
    shot = enrolment_photo(face, np.random.default_rng(seed), size=(300, 400))
    h, w = face.shape[:2]
    back = cv2.getPerspectiveTransform(shot.corners, np.float32([[0, 0], [w, 0], [w, h], [0, h]]))
    flat = cv2.warpPerspective(shot.image, back, (w, h))
    # Compare where both are in the frame: the photo straightened back looks like the face.
    seen = cv2.warpPerspective(np.full(shot.image.shape[:2], 255, np.uint8), back, (w, h)) > 0
    a = cv2.cvtColor(flat, cv2.COLOR_BGR2GRAY)[seen].astype(float)
    b = cv2.cvtColor(face, cv2.COLOR_BGR2GRAY)[seen].astype(float)
    assert np.corrcoef(a, b)[0, 1] > 0.7
    assert 0.1 < shot.fill < 0.95


def test_enrolment_photo_can_be_cut_by_the_frame_and_sizes_follow_fill():
    face = draw_face(card("7clubs"))
    cut = enrolment_photo(face, np.random.default_rng(1), size=(300, 400), fill=0.6, cut=True)
    assert cut.touches_edge
    small = enrolment_photo(face, np.random.default_rng(1), size=(300, 400), fill=0.25, cut=False)
    assert 0.15 < small.fill < 0.35 and not small.touches_edge


def test_scan_is_the_card_to_its_edge_and_an_empty_photo_has_no_card():
    scan = scan_photo(draw_face(card("Qspades")), np.random.default_rng(0), width=200)
    assert scan.image.shape[1] == 200 and scan.corners[2].tolist() == [200, scan.image.shape[0]]
    empty = empty_photo(np.random.default_rng(0), size=(120, 160), surface_kind="cloth")
    assert empty.corners is None and empty.image.shape == (160, 120, 3)
