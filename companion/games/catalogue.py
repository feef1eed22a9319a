"""Babel's extractor of the names in the games' component data (a game's ``data/*.json``):
the screens translate those names when they draw them (``_(trap["name"])``); this puts them
in the catalogue, with a comment saying where they come from. Which fields of which file
people read, each game's bundle says (``data_words``, from its ``words.py``), as the
registry gathers them (``registry.data_words``). Wired in ``companion/i18n/babel.cfg``.

>>> registry.data_words()["traps-catalog.json"]
('name', 'effect')
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any, BinaryIO

from companion.games import registry


def _items(data: dict[str, Any], fields: tuple[str, ...]) -> Iterator[dict[str, Any]]:
    """The items of the file's top-level lists (or tables) that have all of ``fields``."""
    for value in data.values():
        items = value.values() if isinstance(value, dict) else value
        if isinstance(items, list) or isinstance(value, dict):
            yield from (item for item in items
                        if isinstance(item, dict) and all(f in item for f in fields))


def extract_data(fileobj: BinaryIO, keywords: Any, comment_tags: Any, options: Any
                 ) -> Iterator[tuple[int, str, str, list[str]]]:
    """(line, funcname, message, comments) for each name in a data file Babel hands us."""
    name = getattr(fileobj, "name", "").replace("\\", "/").rsplit("/", 1)[-1]
    fields = registry.data_words().get(name)
    if fields is None:
        return
    text = fileobj.read().decode("utf-8")
    data = json.loads(text)
    for item in _items(data, fields):
        for field in fields:
            value = item[field]
            line = text[:text.find(json.dumps(value, ensure_ascii=False))].count("\n") + 1
            yield line, "_", value, [f"{field} in {name}"]
