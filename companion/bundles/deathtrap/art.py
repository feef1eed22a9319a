"""Deathtrap Dungeon's demo art: a card per creature of the shipped deck, and the specials."""

from __future__ import annotations

from companion.bundles.deathtrap.entry import SPECIALS
from companion.games.spec import component_data
from companion.vision.art import ArtItem, hue_colour

SPECIAL_VALUES = {"chaindog": "W", "red-lotus": "W", "exploding-pig": "P", "killing-machine": "K"}


def items() -> list[ArtItem]:
    creatures = component_data(__package__, "deathtrap-deck.json")["creatures"]
    art = [ArtItem(c["id"], c["name"], str(c["value"]), hue_colour(n / len(creatures)), "card")
           for n, c in enumerate(creatures)]
    art += [ArtItem(i, i.replace("-", " ").title(), SPECIAL_VALUES[i],
                    (40, 40, 40) if i == "killing-machine" else (90, 60, 150), "card")
            for i in SPECIALS]
    return art
