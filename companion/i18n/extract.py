"""Babel's extractor of the strings the web pages mark (``companion/web/static``), wired in
``babel.cfg``. The names in a game's component data are extracted by the games' layer
(``companion.games.catalogue``): each game's bundle says which fields people read.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from html import unescape as html_unescape
from typing import Any, BinaryIO

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
