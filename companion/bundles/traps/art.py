"""Mage Knight traps' demo art: a tile per trap of the shipped catalogue."""

from __future__ import annotations

from companion.games.spec import component_data
from companion.vision.art import ArtItem, hue_colour

#: A trap tile's size (mm).
TRAP_TILE_MM = (60.0, 60.0)


def items() -> list[ArtItem]:
    traps = component_data(__package__, "traps-catalog.json")["traps"]
    return [ArtItem(t, info.get("name", t), "T", hue_colour(n / len(traps)), "trap",
                    size_mm=TRAP_TILE_MM)
            for n, (t, info) in enumerate(traps.items())]
