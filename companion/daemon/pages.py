"""The daemon's own screen content: menus on the table screen, and notices laid over a
game's screen (a part that failed, an event the rules refused).

Game screens themselves come from ``companion.screens`` (drawn from views only); nothing here
draws game state.

>>> image = draw(Page("New game", ("> Traps", "  Tricky")))
>>> image.size, image.mode
((128, 64), '1')
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image, ImageDraw

from companion.screens.canvas import (
    HEIGHT,
    SMALLEST,
    WIDTH,
    blank,
    cut,
    fit_text,
    font,
    title_bar,
    written,
)

#: Height of the notice bar at the bottom of a screen.
NOTICE_HEIGHT = SMALLEST + 2


@dataclass(frozen=True)
class Page:
    """A title and a few lines of text (a menu, a message)."""

    title: str
    lines: tuple[str, ...]


def draw(page: Page) -> Image.Image:
    """The page on a 128x64 one-bit image: a title bar, then the lines."""
    image = blank()
    pen = ImageDraw.Draw(image)
    left, top, _, bottom = title_bar(pen, page.title)
    line_height = SMALLEST + 1
    for index, line in enumerate(page.lines):
        y = top + index * line_height
        if y + line_height > bottom:
            break
        pen.text((left + 1, y), cut(pen, line, WIDTH - left - 2, SMALLEST), font=font(SMALLEST),
                 fill=1)
        written(image, y, left + 1, line)
    return image


def with_notice(image: Image.Image, notice: str) -> Image.Image:
    """The image with an inverted bar at the bottom carrying ``notice`` (shrunk to fit)."""
    if not notice:
        return image
    marked = image.copy()
    pen = ImageDraw.Draw(marked)
    top = HEIGHT - NOTICE_HEIGHT
    pen.rectangle((0, top, WIDTH - 1, HEIGHT - 1), fill=1)
    fit_text(pen, (1, top, WIDTH - 1, HEIGHT), "! " + notice, largest=SMALLEST, fill=0,
             noted=False)
    written(marked, HEIGHT, 0, "! " + notice)  # a line of its own, under the screen's words
    return marked
