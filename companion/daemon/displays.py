"""Screens as the daemon sees them: parts that show a ``Page``.

``PanelScreen`` is an OLED of the pin map (or luma's ``dummy`` device when simulated);
``MemoryScreen`` keeps every image it showed (the demo's PNG files and GIF);
``TerminalScreen`` draws the image in a terminal as half-block art.
"""

from __future__ import annotations

import contextlib
import sys
import threading
from typing import Any, TextIO

from PIL import Image

from companion.daemon.parts import Part, Submit
from companion.hardware.pins import PinMap
from companion.screens.panel import Panel


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
        from companion.screens.devices import open_panels

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


class TerminalScreen(Screen):
    """Draws its image on a text stream (``--sim``) as half-block art under its name."""

    lock = threading.Lock()  # screens of one terminal must not interleave their lines

    def __init__(self, name: str, stream: TextIO | None = None) -> None:
        super().__init__(name)
        self.stream = stream

    def show(self, image: Image.Image) -> None:
        stream = self.stream or sys.stdout
        lines = [f"+-- {self.name} " + "-" * max(0, 122 - len(self.name))]
        lines += ["|" + row for row in half_blocks(image)]
        with self.lock:
            stream.write("\n".join(lines) + "\n")
            stream.flush()
