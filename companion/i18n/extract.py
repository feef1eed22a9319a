"""Babel extractors: the names in the component data (a game's ``data/*.json``), and the
strings the web pages mark (``companion/web/static``).

The screens translate those names when they draw them (``_(trap["name"])``); this puts them
in the catalogue, with a comment saying where they come from. Wired in ``babel.cfg``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from html import unescape as html_unescape
from typing import Any, BinaryIO

#: data file -> the fields whose values people read (in the file's lists of items)
FIELDS = {
    "deathtrap-deck.json": ("name",),
    "rumble-characters.json": ("name",),
    "traps-catalog.json": ("name", "effect"),
}


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
    if name not in FIELDS:
        return
    text = fileobj.read().decode("utf-8")
    data = json.loads(text)
    fields = FIELDS[name]
    for item in _items(data, fields):
        for field in fields:
            value = item[field]
            line = text[:text.find(json.dumps(value, ensure_ascii=False))].count("\n") + 1
            yield line, "_", value, [f"{field} in {name}"]


#: The web pages' marks: ``t("...")`` (translated there) and ``mark("...")`` (translated
#: where it is shown) in their scripts, ``data-t="..."`` (an element's text) and
#: ``data-t-title``/``data-t-alt`` (its tooltip, its picture's words) in their HTML.
WEB_MARKS = re.compile(r'\b(?:t|mark)\("((?:[^"\\]|\\.)*)"|\bdata-t(?:-title|-alt)?="([^"]*)"')
#: The catalogue context of every string of the web pages (drawn by a browser, not a screen).
WEB = "web"


def web_strings(text: str) -> Iterator[tuple[int, str]]:
    """(line, message) of every string a web page's script or HTML marks."""
    for found in WEB_MARKS.finditer(text):
        script, html = found.groups()
        message = json.loads(f'"{script}"') if script is not None else html_unescape(html)
        yield text.count("\n", 0, found.start()) + 1, message


def extract_web(fileobj: BinaryIO, keywords: Any, comment_tags: Any, options: Any
                ) -> Iterator[tuple[int, str, tuple[str, str], list[str]]]:
    """Babel's extractor for ``companion/web/static``: each marked string, context ``web``."""
    for line, message in web_strings(fileobj.read().decode("utf-8")):
        yield line, "pgettext", (WEB, message), []
