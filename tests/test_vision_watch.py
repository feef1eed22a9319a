"""What a fixed camera gives: no recognition while hands move, the empty table learnt as the
background model (and refreshed), cards identified from a sharper still once the table is
still, corners in the watching frame's pixels."""

from __future__ import annotations

import numpy as np

from companion.commands.game_art import demo_library, game_items
from companion.vision.layout import TableLayout
from companion.vision.synthetic import Conditions, Placement, SceneRenderer
from companion.vision.watch import TableWatcher

ITEMS = game_items("tricky")


def frames(renderer: SceneRenderer, placed, seed: int = 1):
    rng = np.random.default_rng(seed)
    camera = renderer.camera(rng)
    return lambda on_table: renderer.render(on_table, np.random.default_rng(seed),
                                            Conditions("felt", noise=1), camera).image


def test_the_empty_table_becomes_the_background_and_cards_are_read_against_it():
    renderer = SceneRenderer(TableLayout(), size=(1280, 720))
    placed = [Placement(ITEMS[3], (300, 250), 15), Placement(ITEMS[9], (520, 330), 80)]
    shoot = frames(renderer, placed)
    watcher = TableWatcher(demo_library("tricky"), TableLayout(), settle_seconds=0.0)
    watcher.watch_frame(0.0, shoot([]))
    watcher.watch_frame(0.1, shoot([]))
    assert watcher.background is not None
    learnt = watcher.background.lab.copy()
    watcher.watch_frame(0.2, shoot(placed))
    watcher.watch_frame(0.3, shoot(placed))
    found = sorted(d.item_id for d in watcher.last.detections)
    assert found == sorted(p.item.item_id for p in placed)
    # Cards on the table are not learnt into the background.
    assert np.array_equal(watcher.background.lab, learnt)


def test_nothing_is_recognised_while_the_picture_moves():
    renderer = SceneRenderer(TableLayout(), size=(640, 480))
    placed = [Placement(ITEMS[3], (300, 250), 15)]
    calls = []
    watcher = TableWatcher(demo_library("tricky"), TableLayout(), settle_seconds=0.0)
    original = watcher.recognizer.recognize
    watcher.recognizer.recognize = lambda *a, **k: calls.append(1) or original(*a, **k)
    rng = np.random.default_rng(2)
    for n in range(6):
        # A different camera every frame: everything moves.
        frame = renderer.render(placed, rng, Conditions("felt"), renderer.camera(rng, 0.2))
        watcher.watch_frame(n / 10, frame.image)
    assert calls == []


def test_a_sharper_still_is_read_once_the_table_is_still_and_corners_come_in_frame_pixels():
    layout = TableLayout()
    placed = [Placement(ITEMS[5], (380, 260), 30)]
    small = SceneRenderer(layout, size=(640, 360))
    large = SceneRenderer(layout, size=(1920, 1080))
    camera_small = small.camera()
    camera_large = large.camera()
    frame = small.render(placed, np.random.default_rng(1), Conditions("wood"),
                         camera_small).image
    still = large.render(placed, np.random.default_rng(1), Conditions("wood"), camera_large)
    taken = []
    watcher = TableWatcher(demo_library("tricky"), layout, settle_seconds=0.0,
                           still=lambda: taken.append(1) or still.image)
    scene = None
    for n in range(4):
        scene = watcher.watch_frame(n / 10, frame) or scene
    assert taken == [1]  # once per still scene
    assert scene is not None and [p.item_id for p in scene.pieces] == [ITEMS[5].item_id]
    (found,) = watcher.last.detections if watcher.last.detections else [None]
    truth = still.truth[0].corners * (640 / 1920)
    error = min(float(np.abs(np.roll(found.corners, k, axis=0) - truth).max())
                for k in range(4))
    assert error < 4


def test_a_still_table_is_read_in_full_only_until_its_scene_has_settled():
    renderer = SceneRenderer(TableLayout(), size=(640, 480))
    camera = renderer.camera(np.random.default_rng(1))
    placed = [Placement(ITEMS[3], (300, 250), 15)]

    def shoot(on_table, n):  # the same view, fresh sensor noise in every frame
        return renderer.render(on_table, np.random.default_rng(100 + n),
                               Conditions("felt", noise=2), camera).image

    watcher = TableWatcher(demo_library("tricky"), TableLayout(), settle_seconds=0.5)
    scenes = [watcher.watch_frame(n / 4, shoot(placed, n)) for n in range(40)]  # 10 s at 4 fps
    settled = [scene for scene in scenes if scene is not None]
    assert [[p.item_id for p in scene.pieces] for scene in settled] == [[ITEMS[3].item_id]]
    assert watcher.reads <= 4  # the first frame has nothing to compare with; then 0.5 s
    # A second card (put down between two frames): read again, and the new scene reported.
    more = [*placed, Placement(ITEMS[9], (520, 330), 80)]
    reads = watcher.reads
    scenes = [watcher.watch_frame(10 + n / 4, shoot(more, n)) for n in range(12)]
    (scene,) = [scene for scene in scenes if scene is not None]
    assert sorted(p.item_id for p in scene.pieces) == sorted(p.item.item_id for p in more)
    assert reads < watcher.reads <= reads + 5
