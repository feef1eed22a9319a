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
from companion.hardware.panel import Panel
from companion.hardware.pins import PinMap


class Screen(Part):
    """A part that shows 128x64 images; ``show`` raises if the screen does not answer."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.shown: bytes | None = None  # the image last shown, to skip unchanged ones

    def start(self, submit: Submit) -> None:
        self.shown = None  # a reopened screen must be drawn again

    def show(self, image: Image.Image) -> None:
        raise NotImplementedError


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


class TerminalScreen(Screen):
    """One screen of ``--sim``: its images go to the terminal board shared by all screens."""

    def __init__(self, name: str, board: TerminalBoard) -> None:
        super().__init__(name)
        self.board = board

    def show(self, image: Image.Image) -> None:
        self.board.update(self.name, image)


class TerminalBoard:
    """Every screen of ``--sim`` drawn together, in place, as a grid of half-block pictures
    (one character per pixel across, two down: small type stays legible), with the latest
    log lines and the keys under them. Zoom the terminal out to see more screens at once.

    A screen that is all dark (a seat not in the game) takes no room.
    """

    def __init__(self, stream: TextIO | None = None, footer: str = "", log_lines: int = 6
                 ) -> None:
        self.stream = stream
        self.footer = footer
        self.images: dict[str, Image.Image] = {}
        self.log: deque[str] = deque(maxlen=log_lines)
        self.lock = threading.Lock()
        self.focus = 0  # the screen shown when only one fits (a small terminal)

    def cycle(self) -> None:
        """The next screen, on a terminal that shows one at a time (the tab key)."""
        with self.lock:
            self.focus += 1
            self._draw()

    def update(self, name: str, image: Image.Image) -> None:
        with self.lock:
            self.images[name] = image.convert("1")
            self._draw()

    def note(self, line: str) -> None:
        with self.lock:
            self.log.append(line)
            self._draw()

    def text(self, width: int, height: int) -> str:
        """The board for a terminal of ``width`` x ``height`` characters: every lit screen
        (the table screen first) as half blocks, or as quadrant blocks if only they fit; the
        screens that fit neither way are named. Then the log lines and the keys."""
        below = [part for line in [*self.log, self.footer]
                 for part in textwrap.wrap(line, width) or [""]]
        room = max(0, height - len(below) - 1)  # the last line stays free for the cursor
        lit = [(name, image) for name, image in self.images.items() if image.getbbox()]
        if lit and room < SCREEN_ROWS + 1:  # not one whole screen fits: one at a time, smaller
            return self.one_screen(lit, width, height)
        for draw, tile_width in ((half_blocks, TILE_WIDTH), (quadrant_blocks, TILE_WIDTH // 2)):
            tiles = [(label(name), [f" {label(name)} ".center(tile_width, "-"), *draw(image)])
                     for name, image in lit]
            lines, hidden = _grid(tiles, tile_width, width, room)
            if not hidden:
                break
        if hidden:
            lines = [*_grid(tiles, tile_width, width, room - 1)[0],
                     f"not shown: {', '.join(hidden)} (a larger terminal shows them)"]
        return "\n".join([*lines[:room], *below])

    def one_screen(self, lit: list[tuple[str, Image.Image]], width: int, height: int) -> str:
        """One screen (``focus``), shrunk to fit if need be, for a terminal as small as 80x24;
        tab shows the next. The keys, then as many log lines as fit, under it."""
        name, image = lit[self.focus % len(lit)]
        picture = half_blocks(image) if width >= TILE_WIDTH and height >= 40 else \
            half_blocks(image, scale=2)
        across = len(picture[0])
        title = f" {label(name)} ({self.focus % len(lit) + 1}/{len(lit)}), tab: next "
        lines = [title.center(across, "-")[:width], *(row[:width] for row in picture)]
        left = max(0, height - len(lines) - 1)
        keys = textwrap.wrap(self.footer, width)[:left]
        logged = [part for line in self.log for part in textwrap.wrap(line, width) or [""]]
        below = [*logged[len(logged) - (left - len(keys)):], *keys] if left > len(keys) \
            else keys
        return "\n".join([*lines, *below])

    def _draw(self) -> None:
        stream = self.stream or sys.stdout
        size = shutil.get_terminal_size()
        # Home and clear, so the board stays in place instead of scrolling.
        stream.write("\x1b[H\x1b[J" + self.text(size.columns, size.lines))
        stream.flush()


def label(name: str) -> str:
    """A screen's name as a person reads it: seats from 1, as their keys ("seat:0" is "seat 1").

    >>> label("seat:0"), label("table")
    ('seat 1', 'table')
    """
    if name.startswith("seat:") and name[5:].isdigit():
        return f"seat {int(name[5:]) + 1}"
    return name


def _grid(tiles: list[tuple[str, list[str]]], tile_width: int, width: int, room: int
          ) -> tuple[list[str], list[str]]:
    """Tiles side by side in rows within ``room`` lines (the first row even if it must be
    cut); the names of those left out."""
    per_row = max(1, (width + 1) // (tile_width + 1))
    lines: list[str] = []
    for first in range(0, len(tiles), per_row):
        row = [tile for _, tile in tiles[first:first + per_row]]
        block = [" ".join(tile[n] for tile in row) for n in range(len(row[0]))]
        if lines and len(lines) + len(block) > room:
            return lines, [name for name, _ in tiles[first:]]
        lines += [*block, ""]
    return lines, []


class BoardLog(logging.Handler):
    """Log records shown under the board instead of scrolling it away."""

    def __init__(self, board: TerminalBoard) -> None:
        super().__init__()
        self.board = board

    def emit(self, record: logging.LogRecord) -> None:
        self.board.note(self.format(record))


#: Characters across one screen on the board (one per pixel), and lines down (two pixels each).
TILE_WIDTH = 128
SCREEN_ROWS = 32
