"""What each screen shows: a ``Page`` per screen, built from the session's views only.

The table screen gets the public view (``game.view(None)``), a seat's screen gets that seat's
view; nothing else ever reaches a screen, so a secret cannot leak through the daemon. Menus
and notices (a part that failed, an event the rules refused) are added on top.

>>> page = Page("table", "Traps", ("T1 hidden",), notice="hub: unplugged")
>>> text_lines(page)[-1]
'! hub: unplugged'
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageDraw

from companion.screens.canvas import SMALLEST, WIDTH, blank, font, title_bar

#: Characters of a text line on the terminal rendering of a screen.
TEXT_WIDTH = 24


@dataclass(frozen=True)
class Page:
    """One screen's content: ``screen`` is ``table`` or ``seat:N``."""

    screen: str
    title: str
    lines: tuple[str, ...]
    notice: str = ""


def _short(value: Any) -> str:
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def view_lines(view: Mapping[str, Any]) -> tuple[str, ...]:
    """A view as ``key: value`` lines, nested objects one level down, for a small screen."""
    lines = []
    for key, value in view.items():
        if isinstance(value, dict) and value and all(isinstance(v, dict) for v in value.values()):
            lines.append(f"{key}:")
            lines.extend(f" {k}: {_short(v)}" for k, v in value.items())
        else:
            lines.append(f"{key}: {_short(value)}")
    return tuple(lines)


def table_page(title: str, view: Mapping[str, Any], menu: Sequence[str] | None,
               notice: str) -> Page:
    """The table screen: a menu when one is open, else the public view."""
    if menu:
        return Page("table", menu[0], tuple(menu[1:]), notice)
    return Page("table", title, view_lines(view), notice)


def seat_page(seat: int, name: str, view: Mapping[str, Any], notice: str = "") -> Page:
    return Page(f"seat:{seat}", name, view_lines(view), notice)


def message_page(screen: str, title: str, *lines: str) -> Page:
    return Page(screen, title, tuple(lines))


def text_lines(page: Page) -> list[str]:
    """The page as plain text lines (terminal, logs of the demo)."""
    lines = [f"[{page.title}]"[:TEXT_WIDTH]] + [line[:TEXT_WIDTH] for line in page.lines]
    if page.notice:
        lines.append(f"! {page.notice}"[:TEXT_WIDTH])
    return lines


def draw(page: Page) -> Image.Image:
    """The page on a 128x64 one-bit image: a title bar, the lines, the notice at the bottom."""
    image = blank()
    pen = ImageDraw.Draw(image)
    left, top, _, bottom = title_bar(pen, page.title)
    type_face = font(SMALLEST)
    line_height = SMALLEST + 1
    lines = list(page.lines)
    if page.notice:
        bottom -= line_height
        pen.rectangle((0, bottom, WIDTH - 1, bottom + line_height - 1), fill=1)
        pen.text((1, bottom), "! " + page.notice, font=type_face, fill=0)
    for index, line in enumerate(lines):
        y = top + index * line_height
        if y + line_height > bottom:
            break
        pen.text((left + 1, y), line, font=type_face, fill=1)
    return image
