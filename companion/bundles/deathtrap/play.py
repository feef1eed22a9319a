"""Deathtrap Dungeon at a simulated table (the demo, the end-to-end tests): a set played face
up is put down before the camera, a pass is a tap of the seat's button."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.games.base import Game

if TYPE_CHECKING:  # types only: the simulated table's pictures need numpy and OpenCV
    import numpy as np

    from companion.vision.synthetic import TableStage


def route(game: Game, event: dict[str, Any], camera: bool) -> str:
    if camera and event["type"] == "play" and not event.get("face_down"):
        return "camera"
    return "button" if event["type"] == "pass" else "by hand"


def pictures(stage: TableStage, game: Game, event: dict[str, Any], first: bool
             ) -> list[np.ndarray]:
    return stage.put_down(event["seat"], event["cards"])
