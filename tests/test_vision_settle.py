"""Settled-frame gating and camera health: hands over the table never make a report,
and a dropped, black or frozen camera never becomes a frame."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.bundles.tricky.camera import tricky_events
from companion.commands.game_art import demo_library, game_items
from companion.vision.layout import TableLayout
from companion.vision.scene import TableScene
from companion.vision.settle import MotionMeter, SettleGate
from companion.vision.sources import CameraWatch, FrameList, ImageFolder
from companion.vision.synthetic import Conditions, Placement, SceneRenderer, play_frames
from companion.vision.watch import TableWatcher

frames = st.lists(st.tuples(st.floats(0, 0.3), st.booleans(), st.integers(0, 2)),
                  min_size=1, max_size=40)


@settings(max_examples=80, deadline=None)
@given(steps=frames, settle=st.floats(0.1, 1.0))
def test_a_scene_is_reported_only_after_holding_still_for_the_settle_time(steps, settle):
    gate = SettleGate(settle_seconds=settle, motion_limit=4.0)
    at, still_since, last_scene, reported = 0.0, None, None, None
    for gap, moving, scene_id in steps:
        at += gap
        scene = {f"card-{scene_id}"}
        result = gate.observe(at, 10.0 if moving else 0.0, scene)
        if moving or scene != last_scene:
            still_since = None if moving else at
        elif still_since is None:
            still_since = at
        last_scene = scene
        if result is not None:
            assert not moving
            assert still_since is not None and at - still_since >= settle - 1e-6
            assert result.scene != reported
            reported = result.scene


def test_each_still_scene_is_reported_once():
    gate = SettleGate(settle_seconds=0.3)
    reports = [gate.observe(t / 10, 0.0, {"orc"}) for t in range(20)]
    assert sum(r is not None for r in reports) == 1


@pytest.fixture(scope="module")
def watcher_parts():
    return demo_library("tricky"), game_items("tricky")


@pytest.mark.parametrize("seat,seed", [(0, 1), (1, 2), (3, 3)])
def test_hands_reaching_over_the_table_make_no_play_until_it_settles(watcher_parts, seat, seed):
    library, items = watcher_parts
    layout = TableLayout(seats=4)
    renderer = SceneRenderer(layout, size=(640, 480))
    rng = np.random.default_rng(seed)
    before = [Placement(items[3], (200, 200), 10), Placement(items[20], (600, 330), 75)]
    target = {0: (400, 470), 1: (90, 280), 3: (710, 280)}[seat]
    played = [Placement(items[9], target, 90 * (seat % 2) - 5)]
    sequence = play_frames(renderer, rng, before, played, seat, still_before=8, still_after=12,
                           conditions=Conditions("wood", noise=3, light_gradient=0.2))
    watcher = TableWatcher(library, layout, settle_seconds=0.5)
    settled = [(at, scene) for at, frame in sequence
               if (scene := watcher.watch_frame(at, frame.image)) is not None]
    hand_leaves = sequence[-12][0]  # the first frame without the hand
    first, last = settled[0], settled[-1]
    # The scene before the play may settle; nothing settles while the hand is about.
    assert len(settled) == 2
    assert all(at < sequence[8][0] or at >= hand_leaves + 0.5 for at, _ in settled)
    assert tricky_events(first[1], last[1]) == [
        {"type": "play", "seat": seat, "card": items[9].item_id}]


def test_motion_reads_still_on_a_still_picture_and_high_under_a_hand():
    renderer = SceneRenderer(size=(320, 240))
    rng = np.random.default_rng(1)
    still = renderer.render([], rng, Conditions("felt", noise=4))
    again = renderer.render([], rng, Conditions("felt", noise=4))
    from companion.vision.synthetic import reach_from_seat

    hand = renderer.render([], rng, Conditions("felt", noise=4),
                           hands=[reach_from_seat(renderer.layout, 0, (400, 300), 0.8)])
    meter = MotionMeter()
    meter.measure(still.image)
    assert meter.measure(again.image) < 2.0
    assert meter.measure(hand.image) > 8.0


def test_black_frozen_and_dropped_frames_are_reported_and_the_camera_reopened():
    rng = np.random.default_rng(0)
    live = [rng.integers(0, 255, (24, 32, 3), dtype=np.uint8) for _ in range(3)]
    frozen = [live[2]] * 5
    black = np.zeros((24, 32, 3), np.uint8)
    source = FrameList(live + frozen + [black] + live)
    reported = []
    watch = CameraWatch(source, frozen_frames=3, report=reported.append)
    got = [watch.next() for _ in range(len(source.frames) + 1)]
    kinds = [trouble.kind for _, trouble in got if trouble]
    assert kinds == ["frozen", "black", "dropped"]
    assert [t.kind for t in reported] == kinds
    assert source.opened == 3  # the first open, then a reopen after each trouble...
    watch.next()
    assert source.opened == 4  # ...the last one at the next read
    good = [glimpse for glimpse, trouble in got if glimpse is not None]
    assert len(good) == len(got) - 3
    assert all(glimpse.frame().mean() > 8 for glimpse in good)


def test_an_image_folder_plays_as_a_camera(tmp_path):
    import cv2

    for n in range(3):
        cv2.imwrite(str(tmp_path / f"{n}.png"), np.full((8, 8, 3), 50 * n + 40, np.uint8))
    (tmp_path / "notes.txt").write_text("not a frame")
    source = ImageFolder(tmp_path, interval=0.5)
    source.open()
    reads = [source.read() for _ in range(4)]
    assert [r[0] for r in reads[:3]] == [0.0, 0.5, 1.0] and reads[3] is None
    assert TableScene(()).key() == frozenset()


def test_a_video_file_plays_through_opencv_capture(tmp_path):
    import cv2

    from companion.vision.sources import VideoCapture

    path = str(tmp_path / "table.avi")
    writer = cv2.VideoWriter(path, cv2.VideoWriter_fourcc(*"MJPG"), 10, (64, 48))
    for n in range(5):
        writer.write(np.full((48, 64, 3), 40 + 30 * n, np.uint8))
    writer.release()
    ticks = iter(range(100))
    watch = CameraWatch(VideoCapture(path, clock=lambda: next(ticks) / 10))
    got = [watch.next() for _ in range(6)]
    assert [round(g[0].frame().mean() / 30) for g in got[:5]] == [1, 2, 3, 4, 5]
    assert [g[0].at for g in got[:5]] == [0.0, 0.1, 0.2, 0.3, 0.4]
    assert got[5][0] is None and got[5][1].kind == "dropped"


def test_without_picamera2_the_pi_camera_says_what_to_install():
    import importlib.util

    from companion.vision.sources import CameraError, Picamera2Source

    if importlib.util.find_spec("picamera2") is not None:
        pytest.skip("Picamera2 is installed here")
    with pytest.raises(CameraError, match="python3-picamera2"):
        Picamera2Source().open()


def test_the_small_picture_is_halved_and_blurred_as_opencv_would():
    import cv2

    from companion.vision.settle import blurred, halved

    grey = np.random.default_rng(3).integers(0, 255, (180, 320), dtype=np.uint8)
    half = cv2.resize(grey, (160, 90), interpolation=cv2.INTER_AREA)
    assert np.array_equal(halved(grey), half)
    assert np.array_equal(blurred(half), cv2.GaussianBlur(half, (5, 5), 0))
