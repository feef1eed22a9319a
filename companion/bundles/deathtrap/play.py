"""Deathtrap Dungeon at a simulated table (the demo, the end-to-end tests): a set played face
up is put down before the camera, a pass is a tap of the seat's button."""

from __future__ import annotations

from typing import Any

from companion.games.base import Game


def route(game: Game, event: dict[str, Any], camera: bool) -> str:
    if camera and event["type"] == "play" and not event.get("face_down"):
        return "camera"
    return "button" if event["type"] == "pass" else "by hand"


def pictures(stage: Any, game: Game, event: dict[str, Any], first: bool) -> list[Any]:
    return stage.put_down(event["seat"], event["cards"])
