"""The whole camera pipeline for one frame: rectify, recognise, place, gate.

>>> watcher = TableWatcher(CardLibrary(), TableLayout(), settle_seconds=0.5)
>>> watcher.look(0.0, np.zeros((48, 64, 3), np.uint8)) is None
True
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from companion.vision.library import CardLibrary
from companion.vision.markers import MarkerFinder
from companion.vision.recognize import Detection, Recognizer
from companion.vision.scene import TableScene, table_scene
from companion.vision.settle import MotionMeter, SettleGate
from companion.vision.table import Rectifier, TableLayout


@dataclass(frozen=True)
class Sighting:
    """What one frame showed, before gating."""

    detections: list[Detection]
    scene: TableScene | None  # None when the table's corner markers were never found
    motion: float


class TableWatcher:
    """Turns camera frames into settled table scenes (each new still scene once)."""

    def __init__(self, library: CardLibrary, layout: TableLayout,
                 settle_seconds: float = 0.8, motion_limit: float = 4.0,
                 tokens: bool = False) -> None:
        """``tokens``: also place the Rumble character and chest markers (rumble only: in
        other games a card's artwork could now and then read as one)."""
        self.tokens = tokens
        self.finder = MarkerFinder()
        self.rectifier = Rectifier(layout, self.finder)
        self.recognizer = Recognizer(library)
        self.gate = SettleGate(settle_seconds, motion_limit)
        self.motion = MotionMeter()
        self.last: Sighting | None = None

    def see(self, frame: np.ndarray) -> Sighting:
        """Rectify and recognise one frame (no gating)."""
        motion = self.motion.measure(frame)
        sightings = self.finder.find(frame)
        view = self.rectifier.locate(frame, sightings)
        detections = self.recognizer.recognize(frame, sightings)
        tokens = sightings if self.tokens else []
        scene = None if view is None else table_scene(
            detections, tokens, view, self.rectifier.layout)
        self.last = Sighting(detections, scene, motion)
        return self.last

    def look(self, at: float, frame: np.ndarray) -> TableScene | None:
        """Feed one frame taken at ``at`` seconds; the scene when it has just settled."""
        sighting = self.see(frame)
        if sighting.scene is None:
            return None
        settled = self.gate.observe(at, sighting.motion, sighting.scene.key())
        return sighting.scene if settled else None
