"""Table rectification and zones: markers to millimetres, seats clockwise, centre."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.bundles.rumble.pieces import character_marker
from companion.errors import ConfigError
from companion.vision.layout import CORNER_IDS, TableLayout
from companion.vision.markers import MarkerFinder, marker_image
from companion.vision.synthetic import Conditions, SceneRenderer
from companion.vision.table_view import Rectifier


@pytest.fixture(scope="module")
def tilted():
    renderer = SceneRenderer(size=(1280, 720))
    camera = renderer.camera(np.random.default_rng(6), tilt=0.08)
    scene = renderer.render([], np.random.default_rng(6), Conditions("wood", noise=3), camera)
    return renderer, scene


def test_the_four_corner_markers_give_table_millimetres(tilted):
    renderer, scene = tilted
    rectifier = Rectifier(renderer.layout)
    view = rectifier.locate(scene.image)
    assert view is not None and view.markers_found == 4
    points_mm = np.float32([[100, 100], [400, 280], [700, 500], [30, 530]])
    true_px = renderer.layout and np.asarray(
        [scene.table_to_image @ [x, y, 1] for x, y in points_mm])
    true_px = true_px[:, :2] / true_px[:, 2:]
    back = view.to_table(true_px)
    assert np.abs(back - points_mm).max() < 3.0  # millimetres


def test_three_markers_are_enough_and_with_fewer_the_last_view_stays(tilted):
    renderer, scene = tilted
    rectifier = Rectifier(renderer.layout)
    found = rectifier.finder.find(scene.image)
    assert {s.marker_id for s in found} >= set(CORNER_IDS)
    three = [s for s in found if s.marker_id != 2]
    view = rectifier.locate(scene.image, three)
    assert view is not None and view.markers_found == 3
    assert rectifier.locate(scene.image, three[:2]) is view
    assert Rectifier(renderer.layout).locate(scene.image, three[:2]) is None


def test_corners_read_at_half_size_are_refined_to_the_full_size_ones(tilted):
    _, scene = tilted
    full = {s.marker_id: s.corners for s in MarkerFinder().find(scene.image)}
    half = {s.marker_id: s.corners for s in MarkerFinder(half_first=True).find(scene.image)}
    assert set(full) == set(half) >= set(CORNER_IDS)
    assert max(float(np.abs(full[i] - half[i]).max()) for i in full) < 0.5  # pixels


def test_a_large_frame_s_marker_the_quick_pass_misses_at_half_size_is_still_found():
    # A small marker with no white margin on a dark table: the quick pass's one threshold
    # window misses it at half size; the thorough pass's other windows see it there, and
    # the thorough pass reads it at full size.
    frame = np.full((1200, 1600), 60, np.uint8)
    frame[500:526, 700:726] = marker_image(character_marker(0), 26)
    finder = MarkerFinder(half_first=True)
    found = finder.find(frame)
    assert [s.marker_id for s in found] == [character_marker(0)]
    assert np.abs(found[0].corners.min(axis=0) - [700, 500]).max() < 1.5  # pixels


def test_top_down_view_has_the_table_s_size(tilted):
    renderer, scene = tilted
    rectifier = Rectifier(renderer.layout)
    view = rectifier.locate(scene.image)
    top = rectifier.top_down(scene.image, view, px_per_mm=0.5)
    assert top.shape[:2] == (280, 400)


def test_the_marker_finder_reads_character_markers():
    from companion.vision.synthetic import Token

    renderer = SceneRenderer(size=(1280, 720))
    tokens = [Token(character_marker(i), (150 + 60 * i, 300)) for i in range(5)]
    scene = renderer.render([], np.random.default_rng(1), Conditions("felt"), tokens=tokens)
    found = {s.marker_id for s in MarkerFinder().find(scene.image)}
    assert {t.marker_id for t in tokens} <= found


@settings(max_examples=60, deadline=None)
@given(seats=st.integers(1, 8), x=st.floats(0, 800), y=st.floats(0, 560))
def test_every_table_point_is_one_seat_s_zone_or_the_centre(seats, x, y):
    layout = TableLayout(seats=seats)
    zone = layout.zone_of((x, y))
    assert zone is None or 0 <= zone < seats
    assert (zone is None) == layout.in_centre((x, y))


@settings(max_examples=20, deadline=None)
@given(seats=st.integers(1, 8))
def test_each_seat_s_own_edge_is_in_its_zone_and_seats_go_clockwise(seats):
    layout = TableLayout(seats=seats)
    for seat in range(seats):
        x, y = layout.seat_position(seat)
        cx, cy = layout.centre_mm
        # A step in from the edge, towards the centre.
        inside = (x + (cx - x) * 0.1, y + (cy - y) * 0.1)
        assert layout.zone_of(inside) == seat
    assert layout.zone_of((400, 555)) == 0
    if seats == 4:
        # Clockwise seen from above with y towards seat 0: seat 1 is on the left.
        assert layout.zone_of((5, 280)) == 1 and layout.zone_of((400, 5)) == 2


@pytest.mark.parametrize("bad", [dict(width_mm=0), dict(seats=9), dict(marker_mm=500),
                                 dict(centre_fraction=1.5)])
def test_a_bad_table_layout_names_its_field(bad):
    with pytest.raises(ConfigError, match="vision: "):
        TableLayout(**bad)
