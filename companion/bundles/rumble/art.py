"""Rumble in the Dungeon's demo art: a tile per room of the shipped map."""

from __future__ import annotations

from companion.games.spec import component_data
from companion.vision.art import ArtItem, hue_colour

#: A room tile's size (mm).
ROOM_TILE_MM = (90.0, 90.0)


def items() -> list[ArtItem]:
    rooms = component_data(__package__, "rumble-map.json")["map"]["rooms"]
    return [ArtItem(room, "Room", room, hue_colour(n / len(rooms) * 0.8 + 0.05), "tile",
                    size_mm=ROOM_TILE_MM)
            for n, room in enumerate(rooms)]
