"""Screens as the daemon sees them: parts that show a ``Page``.

``PanelScreen`` is an OLED of the pin map (or luma's ``dummy`` device when simulated);
``MemoryScreen`` keeps every image it showed (the demo's PNG files and GIF);
``TerminalScreen`` draws it on the ``TerminalBoard`` of ``--sim`` (all screens, in place).
"""

from __future__ import annotations

import contextlib
import logging
import shutil
import sys
import textwrap
import threading
from collections import deque
from typing import Any, TextIO

from PIL import Image

from companion.daemon.parts import Part, Submit
from companion.games import registry
from companion.hardware.panel import Panel
from companion.hardware.pins import PinMap
from companion.screens.canvas import TEXT
from companion.terminal import escaped

#: Characters across one screen on the board (one per pixel), and lines down (two pixels each).
TILE_WIDTH = 128
SCREEN_ROWS = 32
#: The narrowest column a screen's words get side by side with another's.
TEXT_COLUMN = 30
#: Pixels between the tops of two words drawn on one row of a screen.
ROW_SLACK = 2
#: The latest log lines under the pictures (a terminal showing the screens as text shows as
#: many of the ``LOG_KEPT`` latest as fit).
LOG_LINES = 6
LOG_KEPT = 24


class Screen(Part):
    """A part that shows 128x64 images; ``show`` raises if the screen does not answer."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.last_sent: bytes | None = None  # the image last shown, to skip unchanged ones

    def start(self, submit: Submit) -> None:
        self.last_sent = None  # a reopened screen must be drawn again

    def show(self, image: Image.Image) -> None:
        raise NotImplementedError

    def show_if_changed(self, image: Image.Image) -> None:
        """``show`` the image unless it is the one last shown (raises as ``show`` does: the
        image is then still to show)."""
        data = image.tobytes()
        if data != self.last_sent:
            self.show(image)
            self.last_sent = data


class PanelScreen(Screen):
    """A screen of the pin map, through ``companion.screens`` (``simulate``: a dummy device)."""

    def __init__(self, name: str, pinmap: PinMap, simulate: bool = False) -> None:
        super().__init__(name)
        self.pinmap = pinmap
        self.simulate = simulate
        self.panel: Panel | None = None

    def start(self, submit: Submit) -> None:
        from companion.hardware.oled import open_panels

        super().start(submit)
        self.panel = open_panels(self.pinmap, simulate=self.simulate, names=[self.name])[self.name]

    def show(self, image: Image.Image) -> None:
        if self.panel is None:
            raise OSError(f"screen {self.name} is not open")
        self.panel.show(image)

    def stop(self) -> None:
        if self.panel is not None:
            with contextlib.suppress(Exception):  # a dead screen may fail to close too
                self.panel.close()
            self.panel = None


class MemoryScreen(Screen):
    """Keeps every image shown, in order (no hardware)."""

    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.images: list[Image.Image] = []

    def show(self, image: Image.Image) -> None:
        self.images.append(image.copy())


def half_blocks(image: Image.Image, scale: int = 1) -> list[str]:
    """A one-bit image as terminal text, two pixel rows per character (``scale``: shrink by)."""
    small = image.convert("1").resize((image.width // scale, image.height // scale))
    pixels: Any = small.load()
    glyphs = {(0, 0): " ", (1, 0): "\u2580", (0, 1): "\u2584", (1, 1): "\u2588"}
    rows = []
    for y in range(0, small.height, 2):
        rows.append("".join(glyphs[(int(bool(pixels[x, y])), int(bool(pixels[x, y + 1])))]
                            for x in range(small.width)))
    return rows


#: Quadrant blocks by their lit pixels: bit 1 top left, 2 top right, 4 bottom left, 8 bottom
#: right.
QUADRANTS = (" \u2598\u259d\u2580\u2596\u258c\u259e\u259b"
             "\u2597\u259a\u2590\u259c\u2584\u2599\u259f\u2588")


def quadrant_blocks(image: Image.Image) -> list[str]:
    """A one-bit image as terminal text, two by two pixels per character: every pixel kept,
    in half the width of ``half_blocks`` (the pixels drawn narrow)."""
    pixels: Any = image.convert("1").load()

    def lit(x: int, y: int) -> int:
        return int(bool(pixels[x, y]))

    return ["".join(QUADRANTS[lit(x, y) | lit(x + 1, y) << 1 | lit(x, y + 1) << 2
                              | lit(x + 1, y + 1) << 3] for x in range(0, image.width, 2))
            for y in range(0, image.height, 2)]


#: The ways a screen is drawn as a picture, the larger first: a function from an image to
#: lines, and the characters across.
PICTURES = ((half_blocks, TILE_WIDTH), (quadrant_blocks, TILE_WIDTH // 2))


class TerminalScreen(Screen):
    """One screen of ``--sim``: its images go to the terminal board shared by all screens."""

    def __init__(self, name: str, board: TerminalBoard) -> None:
        super().__init__(name)
        self.board = board

    def show(self, image: Image.Image) -> None:
        self.board.update(self.name, image)


class TerminalBoard:
    """Every screen of ``--sim`` drawn together, in place, as a grid of half-block pictures
    (one character per pixel across, two down: small type stays legible), with the lines that
    stay (the web pages' address), the latest log lines and the keys under them.

    Where not every picture fits, the table's, the acting seat's (a menu on its screen, its
    refusal, the seat the game waits for; ``watch``) and the seat held (``h`` and its key:
    ``attend``) or picked with tab (``cycle``) until the game moves on are drawn first. A
    terminal too small for even those pictures (80x24, the default of most terminals and of
    ssh to a Pi) shows two screens as text instead: the table's, and beside it the seat held or
    picked, else the acting seat's. A screen that is all dark (a seat not in the game) takes
    no room.
    """

    def __init__(self, stream: TextIO | None = None, footer: str = "",
                 log_lines: int = LOG_LINES) -> None:
        self.stream = stream
        self.footer = footer
        self.images: dict[str, Image.Image] = {}
        self.log_lines = log_lines
        self.log: deque[str] = deque(maxlen=LOG_KEPT)
        self.kept: list[str] = []  # lines that stay under the board (``keep``)
        self.lock = threading.Lock()
        self.acting: str | None = None  # the seat's screen the game waits on (``watch``)
        self.pinned: str | None = None  # a seat's screen held or picked, till the game moves
        self.moves: int | None = None  # the events stored when last watched
        self.closed = False  # the daemon has stopped: nothing more is drawn

    def cycle(self) -> None:
        """The next seat's screen beside the table's (the tab key, where not all fit)."""
        with self.lock:
            seats = [name for name, image in self.images.items()
                     if name != "table" and image.getbbox()]
            if seats:
                beside = self.beside()
                after = seats.index(beside) + 1 if beside in seats else 0
                self.pinned = seats[after % len(seats)]
            self._draw()

    def attend(self, name: str) -> None:
        """A seat's button held (``h`` and its key): its screen beside the table's."""
        with self.lock:
            self.pinned = name
            self._draw()

    def watch(self, display: Any, images: dict[str, Image.Image]) -> None:
        """After each redraw (a watcher of ``Daemon.display``): the acting seat; a seat held or
        picked is let go once an event is stored; the board drawn, every screen as now."""
        acting = acting_seat(display)
        stored_game = display.stored_game
        moves = len(stored_game.session.events) if stored_game is not None else None
        with self.lock:
            if moves != self.moves:
                self.pinned = None
            self.moves = moves
            self.acting = None if acting is None else f"seat:{acting}"
            self._draw()

    def update(self, name: str, image: Image.Image) -> None:
        """A screen's new image, drawn with the others at the end of the redraw (``watch``):
        the terminal never shows a frame with one screen new and another not yet (an undo's
        notice beside the refusal it took away)."""
        with self.lock:
            self.images[name] = image.convert("1")

    def note(self, line: str) -> None:
        with self.lock:
            self.log.append(line)
            self._draw()

    def keep(self, line: str) -> None:
        """A line that stays under the board (not scrolled away by the log): the web pages'
        address."""
        with self.lock:
            if line not in self.kept:
                self.kept.append(line)
            self._draw()

    def beside(self) -> str | None:
        """The seat's screen shown beside the table's: held or picked, else the acting seat's,
        else the first seat's in the game."""
        for name in (self.pinned, self.acting):
            if name is not None and name in self.images and self.images[name].getbbox():
                return name
        return next((name for name, image in self.images.items()
                     if name != "table" and image.getbbox()), None)

    def text(self, width: int, height: int) -> str:
        """The board for a terminal of ``width`` x ``height`` characters: every lit screen
        (the table screen first) as half blocks, or as quadrant blocks if only they fit. Where
        not all fit, the table's, the seat's held or picked and the acting seat's are drawn
        first and the others as room allows, those left out named on a line. Under
        them the lines kept, the log lines and the keys. Where not even the table's and that
        seat's pictures fit: the screens as text (``as_text``)."""
        latest = list(self.log)[-self.log_lines:]
        below = [part for line in [*self.kept, *latest, self.footer]
                 for part in textwrap.wrap(line, width) or [""]]
        room = max(0, height - len(below) - 1)  # the last line stays free for the cursor
        lit = [(name, image) for name, image in self.images.items() if image.getbbox()]
        if not lit:
            return "\n".join(below)
        needed = ["table", *dict.fromkeys(name for name in (self.beside(), self.acting)
                                          if name is not None and name in dict(lit))]
        whole = next(((draw, tile_width) for draw, tile_width in PICTURES
                      if tile_width <= width
                      and (width + 1) // (tile_width + 1) * _rows_fitting(room) >= len(lit)),
                     None)
        if whole is not None:
            draw, tile_width = whole
            tiles = [self.picture_tile(name, image, draw, tile_width) for name, image in lit]
            return "\n".join([*_grid(tiles, tile_width, width)][:room] + below)
        # Not every screen fits: the smaller pictures, the table's, the seat's held or picked
        # and the acting seat's first, then as many others as there is room for.
        draw, tile_width = PICTURES[-1]
        capacity = (width + 1) // (tile_width + 1) * _rows_fitting(room - 3)  # 3: "not shown"
        if width < tile_width or capacity < len(needed):
            return self.as_text(width, height)
        others = [name for name, _ in lit if name not in needed]
        chosen = {*needed, *others[:capacity - len(needed)]}
        hidden = [label(name) for name, _ in lit if name not in chosen]
        tiles = [self.picture_tile(name, image, draw, tile_width)
                 for name, image in lit if name in chosen]
        told = textwrap.wrap(f"not shown: {', '.join(hidden)} (tab, or h and a seat's key, "
                             "shows one)", width)
        return "\n".join([*_grid(tiles, tile_width, width), *told][:room] + below)

    def picture_tile(self, name: str, image: Image.Image, draw: Any, tile_width: int
                     ) -> list[str]:
        """One screen as a picture under a rule with its name (the acting seat's said so)."""
        title = f" {label(name)}{' (acting)' if name == self.acting else ''} "
        return [title.center(tile_width, "-")[:tile_width], *draw(image)]

    def as_text(self, width: int, height: int) -> str:
        """The table's screen and the seat's beside it (``beside``) as their words, side by
        side where two columns of 30 fit; under them the lines kept, the keys and as many of
        the latest log lines as fit (for a terminal as small as 80x24)."""
        second = self.beside()
        names = ["table", *([second] if second else [])]
        across = 2 if second and width >= 2 * TEXT_COLUMN + 2 else 1
        column = width if across == 1 else (width - 2) // 2
        tiles = [self.text_tile(name, column) for name in names]
        if across == 2:
            rows = max(len(tile) for tile in tiles)
            lines = [f"{tiles[0][n] if n < len(tiles[0]) else '':<{column}}  "
                     f"{tiles[1][n] if n < len(tiles[1]) else ''}".rstrip()
                     for n in range(rows)]
        else:
            lines = [line for tile in tiles for line in tile]
        kept = [part for line in self.kept for part in textwrap.wrap(line, width)]
        keys = textwrap.wrap(self.footer, width)
        left = max(0, height - 1 - len(kept) - len(keys))
        lines = lines[:left]
        logged = [part for line in self.log for part in textwrap.wrap(line, width) or [""]]
        fit = max(0, left - len(lines))
        return "\n".join([*lines, *kept, *(logged[-fit:] if fit else []), *keys])

    def text_tile(self, name: str, width: int) -> list[str]:
        """One screen as text: a rule with its name, then its words wrapped to ``width``."""
        title = f" {label(name)} "
        if name != "table":
            title = f" {label(name)}{' (acting)' if name == self.acting else ''}, tab: next "
        image = self.images.get(name)
        words = screen_text(image) if image is not None else []
        body = [part for line in words for part in textwrap.wrap(line, width) or [""]]
        return [title.center(width, "-")[:width], *(body or ["(a picture: a larger terminal "
                                                            "shows it)"])]

    def close(self) -> None:
        """The daemon has stopped: the board stays as last drawn, the cursor on a line of its
        own under it (the shell's prompt is not written onto the keys' line)."""
        with self.lock:
            if not self.closed:
                self.closed = True
                stream = self.stream or sys.stdout
                stream.write("\n")
                stream.flush()

    def _draw(self) -> None:
        if self.closed:
            return
        stream = self.stream or sys.stdout
        size = shutil.get_terminal_size()
        # Home and clear, so the board stays in place instead of scrolling.
        stream.write("\x1b[H\x1b[J" + self.text(size.columns, size.lines))
        stream.flush()


def screen_text(image: Image.Image) -> list[str]:
    """The words on a screen (those its drawing noted: ``canvas.TEXT``), a line each row of
    the screen from the top, the words side by side in a row (a name and its score) kept on
    one line; control characters shown, never obeyed."""
    rows: list[tuple[int, list[str]]] = []
    for top, _left, text in sorted(image.info.get(TEXT, ()), key=lambda item: item[:2]):
        if rows and top - rows[-1][0] <= ROW_SLACK:
            rows[-1][1].append(text)
        else:
            rows.append((top, [text]))
    return [escaped("  ".join(" ".join(text.split()) for text in texts)) for _, texts in rows]


def acting_seat(display: Any) -> int | None:
    """The seat whose screen matters now (a ``TableDisplay``): a menu on its screen, its refusal
    showing, else the seat the game waits for (its bundle's ``expected_entry``)."""
    menu, stored_game = display.menu, display.stored_game
    if menu is not None and menu.seat is not None:
        return int(menu.seat)
    if stored_game is None:
        return None
    for seat in range(len(stored_game.header.seats)):
        if display.seat_error(seat) is not None:
            return seat
    return registry.get(stored_game.game.name).expected_entry(stored_game.game)[1]


def label(name: str) -> str:
    """A screen's name as a person reads it: seats from 1, as their keys ("seat:0" is "seat 1").

    >>> label("seat:0"), label("table")
    ('seat 1', 'table')
    """
    if name.startswith("seat:") and name[5:].isdigit():
        return f"seat {int(name[5:]) + 1}"
    return name


def _rows_fitting(room: int) -> int:
    """How many rows of pictures fit in ``room`` lines (a blank line between two rows)."""
    tile = SCREEN_ROWS + 1  # the rule over a picture, then its lines
    return 0 if room < tile else 1 + (room - tile) // (tile + 1)


def _grid(tiles: list[list[str]], tile_width: int, width: int) -> list[str]:
    """Tiles side by side in rows as many as fit across ``width``, a blank line under each
    row."""
    per_row = max(1, (width + 1) // (tile_width + 1))
    lines: list[str] = []
    for first in range(0, len(tiles), per_row):
        row = tiles[first:first + per_row]
        lines += [" ".join(tile[n] for tile in row) for n in range(len(row[0]))] + [""]
    return lines


class BoardLog(logging.Handler):
    """Log records shown under the board instead of scrolling it away; a record logged with
    ``extra=STAYS`` (the web pages' address) stays there."""

    def __init__(self, board: TerminalBoard) -> None:
        super().__init__()
        self.board = board

    def emit(self, record: logging.LogRecord) -> None:
        if getattr(record, "stays", False):
            self.board.keep(self.format(record))
        else:
            self.board.note(self.format(record))


#: ``extra`` of a log record that stays under the ``--sim`` board (``BoardLog``).
STAYS = {"stays": True}
