"""The camera watches a small grey picture and takes the full frame only to read the table:
Picamera2's ``lores`` stream (a stand-in with Picamera2's public API at the hardware edge),
and a downscaled grey copy of the frames of any other source."""

from __future__ import annotations

import queue
from typing import Any

import cv2
import numpy as np
from helpers import wait_for
from test_camera_rest import BOTH, FIRST, ITEMS, shooter

from companion.commands.game_art import demo_library
from companion.daemon.camera import Camera, SceneSettled
from companion.vision.glimpse import WATCH_WIDTH, Downscaled, Glimpse
from companion.vision.layout import TableLayout
from companion.vision.sources import CameraWatch, FrameList, Picamera2Source
from companion.vision.watch import TableWatcher


class FakePicamera2:
    """Picamera2's public API over a rendered table: ``capture_array("lores")`` gives the
    YUV420 picture of the configured lores size, ``capture_array("main")`` the BGR frame,
    each of the table as it is when called; it counts both."""

    def __init__(self, shoot: Any, lores: tuple[int, int] | None = None) -> None:
        self.shoot = shoot
        self.lores = lores  # the size libcamera makes of the lores stream asked for, if not it
        self.placed = FIRST
        self.configured: dict = {}
        self.captured = {"lores": 0, "main": 0}
        self.started = False

    def create_video_configuration(self, main: dict, lores: dict | None = None) -> dict:
        return {"main": main, "lores": lores}

    def create_still_configuration(self, main: dict) -> dict:
        return {"main": main}

    def configure(self, config: dict) -> None:
        self.configured = config
        if self.lores is not None:
            self.configured["lores"] = {**config["lores"], "size": self.lores}

    def camera_configuration(self) -> dict:
        return self.configured

    def start(self) -> None:
        self.started = True

    def stop(self) -> None:
        self.started = False

    def close(self) -> None:
        pass

    def capture_array(self, name: str = "main") -> np.ndarray:
        self.captured[name] += 1
        frame = self.shoot(self.placed)
        if name == "main":
            return frame
        size = self.configured["lores"]["size"]
        small = cv2.resize(frame, size, interpolation=cv2.INTER_AREA)
        return cv2.cvtColor(small, cv2.COLOR_BGR2YUV_I420)  # (height * 3/2, width)

    def switch_mode_and_capture_array(self, config: dict, name: str) -> np.ndarray:
        return self.capture_array(name)


def test_picamera2_is_configured_with_a_lores_yuv_stream_of_the_same_view():
    fake = FakePicamera2(shooter())
    source = Picamera2Source(size=(1280, 720), picamera2=lambda: fake)
    source.open()
    assert fake.started
    assert fake.configured["main"] == {"size": (1280, 720), "format": "RGB888"}
    assert fake.configured["lores"] == {"size": (WATCH_WIDTH, 180), "format": "YUV420"}
    glimpse = source.glimpse()
    assert glimpse.grey.shape == (180, WATCH_WIDTH)
    assert fake.captured == {"lores": 1, "main": 0}
    assert glimpse.frame().shape == (360, 640, 3)  # the stand-in's main is what it renders
    glimpse.frame()
    assert fake.captured == {"lores": 1, "main": 1}  # taken once per glimpse
    source.close()
    assert not fake.started


def test_the_lores_size_in_force_is_the_one_watched():
    fake = FakePicamera2(shooter(), lores=(336, 190))  # adjusted by libcamera, say
    source = Picamera2Source(size=(1280, 720), picamera2=lambda: fake)
    source.open()
    assert source.glimpse().grey.shape == (190, 336)


def test_a_still_table_is_watched_on_the_lores_stream_alone_once_read():
    fake = FakePicamera2(shooter())
    source = Picamera2Source(picamera2=lambda: fake)
    watcher = TableWatcher(demo_library("tricky"), TableLayout(), settle_seconds=0.3)
    camera = Camera(lambda: source, watcher, fps=8.0, still_after=float("inf"))
    seen: queue.Queue = queue.Queue()
    camera.start(seen.put)
    try:
        first = seen.get(timeout=60)
        assert isinstance(first, SceneSettled) and first.picture is not None
        assert [p.item_id for p in first.scene.pieces] == [ITEMS[3].item_id]
        frames, mains = camera.frames_watched, fake.captured["main"]
        wait_for(lambda: camera.frames_watched >= frames + 8, "frames of the still table")
        assert fake.captured["main"] == mains  # only the lores stream while it stays
        fake.placed = BOTH
        second = seen.get(timeout=60)
    finally:
        camera.stop()
    assert sorted(p.item_id for p in second.scene.pieces) == sorted(
        p.item.item_id for p in BOTH)
    assert fake.captured["main"] > mains  # read in full again once it moved


def test_frames_of_other_sources_are_watched_downscaled_and_grey():
    frame = shooter(size=(1280, 720))(FIRST)
    glimpse = Downscaled(FrameList([frame])).glimpse()
    assert glimpse.grey.shape == (180, WATCH_WIDTH) and glimpse.grey.dtype == np.uint8
    assert glimpse.frame() is frame  # decoded once, by the source
    small = FrameList([np.full((24, 32, 3), 90, np.uint8)])
    assert Downscaled(small).glimpse().grey.shape == (24, 32)  # smaller: only made grey


def test_a_frozen_lores_stream_is_reported_like_a_frozen_frame():
    frame = shooter()(FIRST)
    fake = FakePicamera2(lambda placed: frame)  # the same buffer again and again
    watch = CameraWatch(Picamera2Source(picamera2=lambda: fake), frozen_frames=3)
    kinds = [trouble.kind for _, trouble in (watch.next() for _ in range(4)) if trouble]
    assert kinds == ["frozen"]
    assert fake.captured["main"] == 0


def test_a_lost_main_frame_reads_nothing_and_the_next_glimpse_tries_again():
    shoot = shooter()
    watcher = TableWatcher(demo_library("tricky"), TableLayout(), settle_seconds=0.0)
    grey = cv2.cvtColor(shoot(FIRST), cv2.COLOR_BGR2GRAY)
    taken: list[bool] = []

    def lost_then_taken() -> np.ndarray | None:
        taken.append(len(taken) > 0)
        return shoot(FIRST) if taken[-1] else None

    scenes = [watcher.watch(Glimpse(n / 4, grey, lost_then_taken)) for n in range(5)]
    assert taken[0] is False and len(taken) >= 2  # the lost frame, then the next glimpse's
    (scene,) = [scene for scene in scenes if scene is not None]
    assert [p.item_id for p in scene.pieces] == [ITEMS[3].item_id]
