"""Tricky Dungeon's demo art: a card per suit and value of the shipped deck."""

from __future__ import annotations

from companion.games.spec import component_data
from companion.vision.art import ArtItem

SUIT_COLOURS = {"red": (50, 50, 200), "blue": (190, 90, 30), "yellow": (40, 200, 230),
                "green": (60, 150, 40)}


def items() -> list[ArtItem]:
    data = component_data(__package__, "tricky-deck.json")
    suits = [c["suit"] for c in data["colours"]]
    return [ArtItem(f"{s}-{v}", s.title(), str(v), SUIT_COLOURS.get(s, (128, 128, 128)), "card")
            for s in suits for v in data["values"]]
