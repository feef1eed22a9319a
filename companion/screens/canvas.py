"""Drawing on a 128x64 one-bit screen, readable at arm's length.

One typeface at every size: DejaVu Sans Condensed, shipped in ``fonts/`` cut to the Latin
letters the five languages need (Pillow's bundled font has no accented letters). Hinted for
screens, and narrower than Pillow's, so more words fit a line.

>>> image = blank()
>>> draw = ImageDraw.Draw(image)
>>> fit_text(draw, (0, 0, 128, 64), "12", largest=48) >= 40
True
"""

from __future__ import annotations

import io
from functools import lru_cache
from importlib import resources

from PIL import Image, ImageDraw, ImageFont

WIDTH, HEIGHT = 128, 64
#: The whole screen, as a box (left, top, right, bottom), right and bottom exclusive.
FULL = (0, 0, WIDTH, HEIGHT)
#: The smallest type we draw: still legible on a 0.96" screen from a seat.
SMALLEST = 10
#: Smaller still, for a text its reader holds close: a trap's whole effect on its victim's
#: own screen.
FINE = 8
ON, OFF = 255, 0

Box = tuple[int, int, int, int]


def blank() -> Image.Image:
    return Image.new("1", (WIDTH, HEIGHT), OFF)


#: Where an image keeps the words drawn on it: ((top, left, text), ...) in drawing order, each
#: text whole even where the screen cut it short or shows one page of it. A terminal too small
#: for the pictures shows these instead (the ``--sim`` board).
TEXT = "companion.text"


def written(image: Image.Image, top: int, left: int, text: str) -> None:
    """Note on ``image`` that ``text`` is shown at (``left``, ``top``) (a new tuple: a copy of
    the image made before keeps its own)."""
    image.info[TEXT] = (*image.info.get(TEXT, ()), (top, left, text))


def _noted(draw: ImageDraw.ImageDraw, box: Box, text: str) -> None:
    image = getattr(draw, "_image", None)  # the image Pillow's ImageDraw draws on
    if image is not None:
        written(image, box[1], box[0], text)


FONT = resources.files("companion.screens").joinpath("fonts", "DejaVuSansCondensed-Latin.ttf")


@lru_cache(maxsize=1)
def font_bytes() -> bytes:
    """The typeface's file, read once (28 KB): every size is made from these bytes, so a new
    size never opens a file (a daemon out of open files still draws; issue 53)."""
    return FONT.read_bytes()


@lru_cache(maxsize=64)
def font(size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(io.BytesIO(font_bytes()), size)


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
             align: str = "m", fill: int = ON, noted: bool = True) -> int:
    """Draw ``text`` as large as fits in ``box`` (centred, or ``align`` "l"/"r"); its size.
    ``noted``: noted as the words at the box's top (``written``; else by the caller)."""
    if noted:
        _noted(draw, box, text)
    size = fitting_size(draw, box, text, largest)
    text = cut(draw, text, box[2] - box[0], size)
    middle_y = (box[1] + box[3]) // 2
    if align == "l":
        xy, anchor = (box[0], middle_y), "lm"
    elif align == "r":
        xy, anchor = (box[2] - 1, middle_y), "rm"
    else:
        xy, anchor = ((box[0] + box[2]) // 2, middle_y), "mm"
    draw.text(xy, text, font=font(size), fill=fill, anchor=anchor)
    return size


def cut(draw: ImageDraw.ImageDraw, text: str, width: int, size: int) -> str:
    """``text``, its end cut to ".." if it is wider than ``width`` at ``size`` (the fit test
    checks that no string of the catalogues ever is at the smallest type)."""
    while len(text) > 3 and _size(draw, text, size)[0] > width:
        text = text[:-3].rstrip() + ".."
    return text


def fits(text: str, width: int, size: int = SMALLEST) -> bool:
    """Whether one line of ``text`` fits ``width`` pixels at type ``size``."""
    return _size(ImageDraw.Draw(blank()), text, size)[0] <= width


def wrap(draw: ImageDraw.ImageDraw, text: str, width: int, size: int) -> list[str]:
    """Split ``text`` into lines no wider than ``width`` at type ``size`` (words kept whole)."""
    lines: list[str] = []
    for word in text.split():
        if lines and _size(draw, f"{lines[-1]} {word}", size)[0] <= width:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    return lines


def layout(draw: ImageDraw.ImageDraw, box: Box, text: str, largest: int = 16,
           smallest: int = SMALLEST) -> tuple[int, list[list[str]]]:
    """The type size and the pages of lines ``text`` takes in ``box``: one page at the largest
    size whose lines all fit, else pages of lines at the ``smallest`` size."""
    width, height = box[2] - box[0], box[3] - box[1]
    size = largest
    while True:
        lines = wrap(draw, text, width, size)
        line_height = size + 2
        fitting = (len(lines) * line_height <= height
                   and all(_size(draw, line, size)[0] <= width for line in lines))
        if fitting or size <= smallest:
            break
        size -= 2 if size > 20 else 1  # as fitting_size: large type need not be exact
    per_page = max(1, (height + 2) // line_height)
    return size, [lines[i:i + per_page] for i in range(0, len(lines), per_page)] or [[]]


def page_count(box: Box, text: str, largest: int = 16) -> int:
    return len(layout(ImageDraw.Draw(blank()), box, text, largest)[1])


def paragraph(draw: ImageDraw.ImageDraw, box: Box, text: str, largest: int = 16,
              page: int = 0, smallest: int = SMALLEST) -> int:
    """Draw ``text`` wrapped into ``box`` at the largest size whose lines all fit; its size.
    Text too long for the box even in the ``smallest`` type is shown a page at a time:
    ``page`` (counted round) picks which."""
    _noted(draw, box, text)
    size, pages = layout(draw, box, text, largest, smallest)
    lines = pages[page % len(pages)]
    line_height = size + 2
    top = box[1] + max(0, (box[3] - box[1] - len(lines) * line_height) // 2)
    for index, line in enumerate(lines):
        draw.text(((box[0] + box[2]) // 2, top + index * line_height + line_height // 2),
                  cut(draw, line, box[2] - box[0], size), font=font(size), fill=ON, anchor="mm")
    return size


def title_bar(draw: ImageDraw.ImageDraw, text: str, height: int = 14) -> Box:
    """An inverted bar across the top with ``text``; returns the box left below it."""
    draw.rectangle((0, 0, WIDTH - 1, height - 1), fill=ON)
    fit_text(draw, (2, 0, WIDTH - 2, height), text, largest=height - 2, fill=OFF)
    return (0, height + 1, WIDTH, HEIGHT)
