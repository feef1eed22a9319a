"""Secrets stay secret (issue 41): the camera's picture shows the play area only. A player's
hand of cards held over the table's edge, in full view of the camera, is not in the picture,
not among its readings and not played: the picture is cropped to the outline the corner
markers give. Real rendering, real OpenCV, the real vision pipeline."""

from __future__ import annotations

import cv2
import numpy as np

from companion.daemon.camera import library_for
from companion.games import registry
from companion.vision import evidence
from companion.vision.layout import TableLayout
from companion.vision.synthetic import Conditions, Placement, SceneRenderer
from companion.vision.watch import TableWatcher

LAYOUT = TableLayout(seats=4)
ITEMS = {item.item_id: item for item in registry.get("tricky").art_items()}
PLAYED = Placement(ITEMS["green-2"], (400, 280), 10)
HAND = ["red-7", "blue-6", "yellow-3", "green-5", "red-1"]
SIZE = (1280, 960)


def camera_beyond_the_edge(beyond_mm: float = 200.0) -> np.ndarray:
    """A camera that sees the table and well past its bottom edge, where seat 0 sits."""
    w, h, pad = LAYOUT.width_mm, LAYOUT.height_mm, 60.0
    seen = np.float32([[-pad, -pad], [w + pad, -pad], [w + pad, h + beyond_mm],
                       [-pad, h + beyond_mm]])
    scale = 0.95 * min(SIZE[0] / (w + 2 * pad), SIZE[1] / (h + pad + beyond_mm))
    width, height = (w + 2 * pad) * scale, (h + pad + beyond_mm) * scale
    x0, y0 = (SIZE[0] - width) / 2, (SIZE[1] - height) / 2
    frame = np.float32([[x0, y0], [x0 + width, y0], [x0 + width, y0 + height],
                        [x0, y0 + height]])
    return cv2.getPerspectiveTransform(seen, frame)


def frame(hand: bool) -> np.ndarray:
    """The table with one card played, and (``hand``) seat 0's hand fanned over the edge."""
    held = [Placement(ITEMS[card], (320 + 40 * n, LAYOUT.height_mm + 90), -20 + 10 * n)
            for n, card in enumerate(HAND)] if hand else []
    renderer = SceneRenderer(LAYOUT, SIZE)
    return renderer.render([PLAYED, *held], np.random.default_rng(4), Conditions(noise=0),
                           camera_beyond_the_edge()).image


def settled(image: np.ndarray) -> tuple[TableWatcher, evidence.Picture]:
    watcher = TableWatcher(library_for(("tricky",)), LAYOUT, settle_seconds=0.0)
    scenes = [watcher.watch_frame(n * 0.5, image) for n in range(4)]
    assert any(scene is not None for scene in scenes)
    picture = evidence.settled(watcher, image)
    assert picture is not None
    return watcher, picture


def decoded(picture: evidence.Picture) -> np.ndarray:
    return cv2.imdecode(np.frombuffer(picture.jpeg, np.uint8), cv2.IMREAD_COLOR).astype(int)


def test_a_hand_held_over_the_edge_is_not_in_the_picture():
    with_hand, without = frame(hand=True), frame(hand=False)
    # The camera sees the hand: the frames differ there, and its cards can be read.
    assert np.abs(with_hand.astype(int) - without.astype(int)).max() > 100
    watcher, picture = settled(with_hand)
    read = {d.item_id for d in watcher.last.detections}
    assert len(read & set(HAND)) >= 2, read
    # Not in the picture: the same picture as the table without the hand, pixel for pixel.
    _, bare = settled(without)
    assert picture.jpeg == bare.jpeg or np.abs(decoded(picture) - decoded(bare)).max() < 8
    # Not among the readings, not on the scene: only the card on the table was played.
    assert [r.item_id for r in picture.readings] == ["green-2"]
    assert [p.item_id for p in watcher.last.scene.pieces] == ["green-2"]
    assert all(0 <= x <= LAYOUT.width_mm and 0 <= y <= LAYOUT.height_mm
               for r in picture.readings for x, y in r.outline)


def test_the_picture_is_the_play_area_alone():
    _, picture = settled(frame(hand=True))
    scale = picture.px_per_mm
    assert (picture.width, picture.height) == (round(LAYOUT.width_mm * scale),
                                               round(LAYOUT.height_mm * scale))
    image = decoded(picture)
    # The corner markers' centres are the picture's corners: a quarter of each marker shows,
    # dark, in each corner, and the table's texture fills the rest to the edges.
    corner = round(LAYOUT.marker_mm / 4 * scale)
    for rows in (slice(None, corner), slice(-corner, None)):
        for columns in (slice(None, corner), slice(-corner, None)):
            assert image[rows, columns].min() < 60  # the black of a marker
