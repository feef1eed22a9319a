"""A table resting a while is watched at a lower frame rate, and what changes after a long
rest is still seen: the camera part and the watcher on rendered frames, no timing asserted."""

from __future__ import annotations

import queue
import time

import numpy as np
from helpers import wait_for

from companion.commands.game_art import demo_library, game_items
from companion.daemon.camera import STILL_FPS, Camera, SceneSettled
from companion.vision.layout import TableLayout
from companion.vision.synthetic import Conditions, Placement, SceneRenderer
from companion.vision.watch import TableWatcher

ITEMS = game_items("tricky")
FIRST = [Placement(ITEMS[3], (300, 250), 15)]
BOTH = [*FIRST, Placement(ITEMS[9], (520, 330), 80)]


def shooter(size=(640, 360)):
    """Frames of the table as placed, each with fresh sensor noise (a live camera)."""
    renderer = SceneRenderer(TableLayout(), size=size)
    camera = renderer.camera(np.random.default_rng(1))
    seeds = iter(range(1, 1_000_000))
    return lambda placed: renderer.render(placed, np.random.default_rng(next(seeds)),
                                          Conditions("felt", noise=2), camera).image


class LiveTable:
    """A camera over a table the test changes: every read is a picture of the table as it is
    at that moment (as Picamera2 gives the latest frame it completed, and a V4L2 camera with
    one buffer a frame taken after the read)."""

    def __init__(self) -> None:
        self.shoot = shooter()
        self.placed = FIRST
        self.reads = 0

    def open(self) -> None:
        pass

    def read(self):  # type: ignore[no-untyped-def]
        self.reads += 1
        return time.monotonic(), self.shoot(self.placed)

    def close(self) -> None:
        pass


def test_the_watcher_counts_how_long_the_table_has_rested():
    shoot = shooter()
    watcher = TableWatcher(demo_library("tricky"), TableLayout(), settle_seconds=0.5)
    for n in range(12):
        watcher.watch_frame(n / 4, shoot(FIRST))
    rested = watcher.resting(11 / 4)
    assert rested > 0 and watcher.reads < 12  # later frames only compared with the read
    watcher.watch_frame(12 / 4, shoot(FIRST))
    assert watcher.resting(12 / 4) > rested
    watcher.watch_frame(13 / 4, shoot(BOTH))  # a card laid: read again, not resting
    assert watcher.resting(13 / 4) == 0.0


def test_a_card_laid_after_a_long_rest_is_seen_and_the_full_rate_comes_back():
    source = LiveTable()
    watcher = TableWatcher(demo_library("tricky"), TableLayout(), settle_seconds=0.3)
    camera = Camera(lambda: source, watcher, fps=4 * STILL_FPS, still_after=1.0)
    seen: queue.Queue = queue.Queue()
    # What the camera sent, whether it was resting then, and how many frames it had read.
    camera.start(lambda item: seen.put((item, camera.resting, source.reads)))
    try:
        first, resting, _ = seen.get(timeout=60)
        assert isinstance(first, SceneSettled) and not resting
        assert sorted(p.item_id for p in first.scene.pieces) == [ITEMS[3].item_id]
        wait_for(lambda: camera.resting, "the camera to take the table as resting")
        # A long rest: many frames at the still rate, all of them only compared.
        reads, frames = watcher.reads, camera.frames_watched
        wait_for(lambda: camera.frames_watched >= frames + 8, "frames at the still rate")
        assert camera.resting and watcher.reads == reads
        laid_at = source.reads
        source.placed = BOTH
        wait_for(lambda: not seen.empty(), "the card laid after the rest to be seen")
        second, resting, read_by_then = seen.get()
    finally:
        camera.stop()
    assert isinstance(second, SceneSettled) and not resting
    assert sorted(p.item_id for p in second.scene.pieces) == sorted(
        p.item.item_id for p in BOTH)
    assert watcher.reads > reads  # read in full again once it moved
    # Promptly: within a few frames of the change (the settling ones), none of them stale.
    assert read_by_then - laid_at <= 10


def test_the_rate_is_lower_only_while_the_table_rests():
    camera = Camera(lambda: None, None, fps=4.0)
    assert camera.interval == 0.25 and camera.still_interval == 1 / STILL_FPS
    slow = Camera(lambda: None, None, fps=1.0)  # already slower than the still rate
    assert slow.still_interval == slow.interval == 1.0
