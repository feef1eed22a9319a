"""Screens every game shares: scoreboard, errors, the seat header, the peek hint.

Each screen is a pure function from what it shows to a 128x64 one-bit image.

>>> image = error_screen("Orc does not beat Skeleton")
>>> image.size, image.mode
((128, 64), '1')
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from companion.i18n import _
from companion.places import ordinal
from companion.screens.canvas import (
    HEIGHT,
    OFF,
    ON,
    SMALLEST,
    WIDTH,
    Box,
    blank,
    fit_text,
    fits,
    font,
    page_count,
    paragraph,
    title_bar,
)

HEADER = 14
#: Where a refusal that holds no seat's secret is shown: the table screen (the controls'
#: ``error`` key, beside the seats' numbers).
TABLE = -1
#: Where a refusal's message goes: everything under the title bar.
ERROR_BOX: Box = (0, 15, WIDTH, HEIGHT)
#: Where a seat screen's secret goes while its owner peeks (everything under the header).
SECRET_BOX: Box = (0, HEADER + 1, WIDTH, HEIGHT)


def short(name: str, limit: int = 7) -> str:
    """A seat name cut to fit a column of the scoreboard."""
    return name if len(name) <= limit else name[:limit - 1] + "."


def seat_header(draw: ImageDraw.ImageDraw, name: str, score: str) -> Box:
    """The inverted header of a seat screen: the seat's name left, its score right."""
    draw.rectangle((0, 0, WIDTH - 1, HEADER - 1), fill=ON)
    fit_text(draw, (2, 0, 74, HEADER), short(name, 10), largest=12, align="l", fill=OFF)
    fit_text(draw, (76, 0, WIDTH - 2, HEADER), score, largest=12, align="r", fill=OFF)
    return SECRET_BOX


def seat_screen(name: str, score: str) -> tuple[Image.Image, ImageDraw.ImageDraw, Box]:
    """A seat's screen to draw on: the image, its drawing surface, and the box under the
    header (``seat_header``: the seat's name and its score) where the rest goes."""
    image = blank()
    draw = ImageDraw.Draw(image)
    return image, draw, seat_header(draw, name, score)


def score_width(score: str, size: int) -> int:
    """The pixels ``score`` and a space before it take at ``size``."""
    return round(font(size).getlength(f" {score}"))


def scoreboard(title: str, seats: Sequence[str], totals: Sequence[int],
               highlight: Sequence[int] = ()) -> Image.Image:
    """Every seat's total, two columns of up to four; ``highlight`` seats are inverted."""
    image = blank()
    draw = ImageDraw.Draw(image)
    top = title_bar(draw, title)[1]
    rows = (len(seats) + 1) // 2
    row_height = min(24, (HEIGHT - top) // max(rows, 1))
    column_width = WIDTH // 2 if len(seats) > 1 else WIDTH
    for seat, (name, total) in enumerate(zip(seats, totals, strict=True)):
        column, row = (seat // rows, seat % rows) if len(seats) > 1 else (0, 0)
        left, upper = column * column_width, top + row * row_height
        box = (left + 1, upper, left + column_width - 1, upper + row_height)
        fill = ON
        if seat in highlight:
            draw.rectangle((box[0], box[1], box[2] - 1, box[3] - 1), fill=ON)
            fill = OFF
        # The name and its score at one size, at least a space apart ("Ann 11", never
        # "Ann11"): the largest size at which both fit with a space between them.
        name, score = short(name), str(total)
        width = box[2] - box[0] - 3
        size = next((size for size in range(row_height - 2, SMALLEST, -1)
                     if fits(f"{name} {score}", width, size)), SMALLEST)
        scores_box = (box[0] + 1, box[1], box[2] - 2, box[3])
        right = fit_text(draw, scores_box, score, largest=size, align="r", fill=fill)
        names_box = (box[0] + 1, box[1], box[2] - 2 - score_width(score, right), box[3])
        fit_text(draw, names_box, name, largest=size, align="l", fill=fill)
    return image


def final_scores(seats: Sequence[str], totals: Sequence[int]) -> Image.Image:
    """The table screen once the game is over: every total, the winners' inverted (the
    highest total; a tie shares the win)."""
    best = max(totals)
    winners = [seat for seat, total in enumerate(totals) if total == best]
    return scoreboard(_("Final scores"), seats, totals, winners)


#: How long each page of a long refusal is shown.
PAGE_SECONDS = 3.0


def error_screen(message: str, shown_for: float = 0.0) -> Image.Image:
    """A refused action, on the screen of the seat that made it; a message longer than the
    screen turns its pages every PAGE_SECONDS (``shown_for``: seconds since it came)."""
    image = blank()
    draw = ImageDraw.Draw(image)
    pages = error_pages(message)
    title = _("Not allowed") if pages == 1 else _("Not allowed {page}/{pages}").format(
        page=int(shown_for // PAGE_SECONDS) % pages + 1, pages=pages)
    paragraph(draw, title_bar(draw, title), message, largest=14,
              page=int(shown_for // PAGE_SECONDS))
    return image


def error_pages(message: str) -> int:
    """The pages ``error_screen`` shows ``message`` in."""
    return page_count(ERROR_BOX, message, largest=14)


def headline(title: str, big: str, small: str = "") -> Image.Image:
    """A title bar, one large line (the number or word that matters) and a small line."""
    image = blank()
    draw = ImageDraw.Draw(image)
    top = title_bar(draw, title)[1]
    bottom = HEIGHT - 13 if small else HEIGHT
    fit_text(draw, (0, top, WIDTH, bottom), big, largest=bottom - top)
    if small:
        fit_text(draw, (0, bottom, WIDTH, HEIGHT), small, largest=12)
    return image


def body(draw: ImageDraw.ImageDraw, box: Box, big: str, small: str = "") -> None:
    """A large line and an optional small one under it, inside ``box``."""
    bottom = box[3] - 13 if small else box[3]
    # A long name (a trap's, as the rules print it) takes two lines rather than be cut.
    paragraph(draw, (box[0], box[1], box[2], bottom), big, largest=bottom - box[1])
    if small:
        fit_text(draw, (box[0], bottom, box[2], box[3]), small, largest=12)


def peek_hint(draw: ImageDraw.ImageDraw, box: Box, what: str) -> None:
    """Tell the seat that something private waits behind a held button."""
    body(draw, box, what, _("hold your button to peek"))


def placing(totals: Sequence[int], seat: int) -> str:
    """The seat's place by total, ties sharing it ("2nd", "1st, tied").

    >>> placing([5, 9, 9], 1), placing([5, 9, 9], 0)
    ('1st, tied', '3rd')
    """
    place = 1 + sum(total > totals[seat] for total in totals)
    tied = sum(total == totals[seat] for total in totals) > 1
    return (_("{place}, tied") if tied else "{place}").format(place=ordinal(place))


def final_place(draw: ImageDraw.ImageDraw, box: Box, totals: Sequence[int], seat: int,
                score: str) -> None:
    """A seat's screen once the game is over: its place, then its score (in words)."""
    body(draw, box, _("{place} place").format(place=placing(totals, seat)), score)
