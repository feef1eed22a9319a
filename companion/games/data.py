"""The component data a game ships in its folder: ``companion/bundles/<game>/data/*.json``
(decks, catalogues, maps), read the same way by its rules, its bundle and the camera."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any


def shipped_data(package: str, name: str) -> Any:
    """The JSON file ``name`` of the game package ``package``'s ``data/`` folder.

    >>> sorted(shipped_data("companion.bundles.tricky", "tricky-deck.json"))[:2]
    ['about', 'colours']
    """
    return json.loads(resources.files(package).joinpath("data", name).read_text("utf-8"))
