"""Screens as the daemon sees them: parts that show a ``Page``.

``PanelScreen`` is an OLED of the pin map (or luma's ``dummy`` device when simulated);
``MemoryScreen`` keeps every image it showed (the demo's PNG files and GIF);
``TerminalScreen`` draws the page in a terminal as half-block art with its text below.
"""

from __future__ import annotations

import contextlib
import sys
import threading
from typing import Any, TextIO

from PIL import Image

from companion.daemon.pages import Page, draw, text_lines
from companion.daemon.parts import Part, Submit
from companion.hardware.pins import PinMap
from companion.screens.panel import Panel


class Screen(Part):
    """A part that shows pages; ``show`` raises if the screen does not answer."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.page: Page | None = None

    def start(self, submit: Submit) -> None:
        self.page = None  # a reopened screen must be drawn again

    def show(self, page: Page) -> None:
        raise NotImplementedError


class PanelScreen(Screen):
    """A screen of the pin map, through ``companion.screens`` (``simulate``: a dummy device)."""

    def __init__(self, name: str, pinmap: PinMap, simulate: bool = False) -> None:
        super().__init__(name)
        self.pinmap = pinmap
        self.simulate = simulate
        self.panel: Panel | None = None

    def start(self, submit: Submit) -> None:
        from companion.screens.devices import open_panels

        super().start(submit)
        self.panel = open_panels(self.pinmap, simulate=self.simulate, names=[self.name])[self.name]

    def show(self, page: Page) -> None:
        if self.panel is None:
            raise OSError(f"screen {self.name} is not open")
        self.panel.show(draw(page))
        self.page = page

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

    def show(self, page: Page) -> None:
        self.images.append(draw(page))
        self.page = page


def half_blocks(image: Image.Image) -> list[str]:
    """A one-bit image as terminal text, two pixel rows per character (scaled to half width)."""
    small = image.convert("1").resize((image.width // 2, image.height // 2))
    pixels: Any = small.load()
    glyphs = {(0, 0): " ", (1, 0): "\u2580", (0, 1): "\u2584", (1, 1): "\u2588"}
    rows = []
    for y in range(0, small.height, 2):
        rows.append("".join(glyphs[(int(bool(pixels[x, y])), int(bool(pixels[x, y + 1])))]
                            for x in range(small.width)))
    return rows


class TerminalScreen(Screen):
    """Draws its page on a text stream (``--sim``): half-block art, then the plain text."""

    lock = threading.Lock()  # screens of one terminal must not interleave their lines

    def __init__(self, name: str, stream: TextIO | None = None, art: bool = True) -> None:
        super().__init__(name)
        self.stream = stream
        self.art = art

    def show(self, page: Page) -> None:
        stream = self.stream or sys.stdout
        lines = [f"--- {self.name} " + "-" * max(0, 28 - len(self.name))]
        if self.art:
            lines += half_blocks(draw(page))
        lines += text_lines(page)
        with self.lock:
            stream.write("\n".join(lines) + "\n")
            stream.flush()
        self.page = page
