"""Tricky Dungeon at a simulated table: a card played face up is put down before the camera."""

from __future__ import annotations

from typing import Any

from companion.games.base import Game


def route(game: Game, event: dict[str, Any], camera: bool) -> str:
    if camera and event["type"] == "play" and not event.get("face_down"):
        return "camera"
    return "by hand"


def pictures(stage: Any, game: Game, event: dict[str, Any], first: bool) -> list[Any]:
    return stage.put_down(event["seat"], [event["card"]])
