"""Babel extractor for the names in the component data (``companion/data/*.json``).

The screens translate those names when they draw them (``_(trap["name"])``); this puts them
in the catalogue, with a comment saying where they come from. Wired in ``babel.cfg``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any, BinaryIO

#: data file -> (list key, fields whose values people read)
FIELDS = {
    "deathtrap-deck.json": ("creatures", ("name",)),
    "rumble-characters.json": ("characters", ("name",)),
    "traps-catalog.json": ("traps", ("name", "effect")),
}


def extract_data(fileobj: BinaryIO, keywords: Any, comment_tags: Any, options: Any
                 ) -> Iterator[tuple[int, str, str, list[str]]]:
    """(line, funcname, message, comments) for each name in a data file Babel hands us."""
    name = getattr(fileobj, "name", "").replace("\\", "/").rsplit("/", 1)[-1]
    if name not in FIELDS:
        return
    text = fileobj.read().decode("utf-8")
    data = json.loads(text)
    key, fields = FIELDS[name]
    items = data[key].values() if isinstance(data[key], dict) else data[key]
    for item in items:
        for field in fields:
            value = item[field]
            line = text[:text.find(json.dumps(value, ensure_ascii=False))].count("\n") + 1
            yield line, "_", value, [f"{field} in companion/data/{name}"]
