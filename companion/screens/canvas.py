"""Drawing on a 128x64 one-bit screen, readable at arm's length.

Pillow's bundled scalable font (``ImageFont.load_default(size=...)``, Pillow >= 10.1 with
FreeType) is the only font: nothing to ship, and one typeface at every size.

>>> image = blank()
>>> draw = ImageDraw.Draw(image)
>>> fit_text(draw, (0, 0, 128, 64), "12", largest=48) >= 40
True
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

WIDTH, HEIGHT = 128, 64
#: The whole screen, as a box (left, top, right, bottom), right and bottom exclusive.
FULL = (0, 0, WIDTH, HEIGHT)
#: The smallest type we draw: still legible on a 0.96" screen from a seat.
SMALLEST = 10
ON, OFF = 255, 0

Box = tuple[int, int, int, int]


def blank() -> Image.Image:
    return Image.new("1", (WIDTH, HEIGHT), OFF)


@lru_cache(maxsize=64)
def font(size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.load_default(size=size)  # type: ignore[return-value]


def _size(draw: ImageDraw.ImageDraw, text: str, size: int) -> tuple[int, int]:
    return _measured(text, size, draw.fontmode)


@lru_cache(maxsize=4096)
def _measured(text: str, size: int, fontmode: str) -> tuple[int, int]:
    """A text's width and height at ``size`` (measured once: fitting tries several sizes)."""
    draw = ImageDraw.Draw(Image.new("1" if fontmode == "1" else "L", (1, 1)))
    left, top, right, bottom = draw.textbbox((0, 0), text, font=font(size), anchor="mm")
    return right - left, bottom - top


def fitting_size(draw: ImageDraw.ImageDraw, box: Box, text: str, largest: int) -> int:
    """The largest type size, at most ``largest``, at which ``text`` fits in ``box``."""
    width, height = box[2] - box[0], box[3] - box[1]
    size = largest
    while size > SMALLEST:
        text_width, text_height = _size(draw, text, size)
        if text_width <= width and text_height <= height:
            break
        size -= 2 if size > 20 else 1
    return size


def fit_text(draw: ImageDraw.ImageDraw, box: Box, text: str, largest: int = 16,
             align: str = "m", fill: int = ON) -> int:
    """Draw ``text`` as large as fits in ``box`` (centred, or ``align`` "l"/"r"); its size."""
    size = fitting_size(draw, box, text, largest)
    while len(text) > 3 and _size(draw, text, size)[0] > box[2] - box[0]:
        text = text[:-3].rstrip() + ".."  # too long even in the smallest type: cut the end
    middle_y = (box[1] + box[3]) // 2
    if align == "l":
        xy, anchor = (box[0], middle_y), "lm"
    elif align == "r":
        xy, anchor = (box[2] - 1, middle_y), "rm"
    else:
        xy, anchor = ((box[0] + box[2]) // 2, middle_y), "mm"
    draw.text(xy, text, font=font(size), fill=fill, anchor=anchor)
    return size


def wrap(draw: ImageDraw.ImageDraw, text: str, width: int, size: int) -> list[str]:
    """Split ``text`` into lines no wider than ``width`` at type ``size`` (words kept whole)."""
    lines: list[str] = []
    for word in text.split():
        if lines and _size(draw, f"{lines[-1]} {word}", size)[0] <= width:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    return lines


def paragraph(draw: ImageDraw.ImageDraw, box: Box, text: str, largest: int = 16) -> int:
    """Draw ``text`` wrapped into ``box`` at the largest size whose lines all fit; its size."""
    width, height = box[2] - box[0], box[3] - box[1]
    size = largest
    while True:
        lines = wrap(draw, text, width, size)
        line_height = size + 2
        fits = (len(lines) * line_height <= height
                and all(_size(draw, line, size)[0] <= width for line in lines))
        if fits or size <= SMALLEST:
            break
        size -= 1
    top = box[1] + max(0, (height - len(lines) * line_height) // 2)
    for index, line in enumerate(lines):
        if top + (index + 1) * line_height > box[3] + 2:
            break  # the rest cannot be shown at a legible size
        draw.text(((box[0] + box[2]) // 2, top + index * line_height + line_height // 2), line,
                  font=font(size), fill=ON, anchor="mm")
    return size


def title_bar(draw: ImageDraw.ImageDraw, text: str, height: int = 14) -> Box:
    """An inverted bar across the top with ``text``; returns the box left below it."""
    draw.rectangle((0, 0, WIDTH - 1, height - 1), fill=ON)
    fit_text(draw, (2, 0, WIDTH - 2, height), text, largest=height - 2, fill=OFF)
    return (0, height + 1, WIDTH, HEIGHT)
