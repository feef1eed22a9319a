"""A physical screen that is only written when its image changed, and then only in part.

I2C time is the limit (a full 128x64 frame is 1 KiB at 400 kHz, several milliseconds per
screen), so a :class:`Panel` compares the new image with the one on the glass and sends
only the 8-pixel-high pages that changed, and in each only the columns that changed.
SSD1306 and SH1106 are written directly with their addressing commands through luma's public
``command`` and ``data``; where the glass starts in the controller's memory is ours to say
(:data:`COLUMN_OFFSET`, and the SH1106 is opened with the same offset). Any other luma device
(e.g. ``dummy``) gets the whole image from ``device.display``.

>>> from luma.core.device import dummy
>>> panel = Panel(dummy(mode="1"))
>>> blank = Image.new("1", (128, 64))
>>> panel.show(blank), panel.show(blank)
(True, False)
"""

from __future__ import annotations

from typing import Any

from luma.oled.device import sh1106, ssd1306
from PIL import Image

#: First column of the 128x64 glass in each controller's memory: the SSD1306 has exactly 128
#: columns; the SH1106 has 132 and the glass sits at 2 (we open it with that offset).
COLUMN_OFFSET = {"ssd1306": 0, "sh1106": 2}


def pages(image: Image.Image) -> list[bytes]:
    """The controller's memory layout of an image (its height a multiple of 8): one bytes per
    8-pixel-high page, a byte per column, the page's top row in the least significant bit.
    Turned a quarter clockwise, a one-bit image's rows are its columns read from the bottom
    up, and PIL packs them eight pixels to a byte, the first in the most significant bit:
    each byte is one column of one page, the pages from the bottom up."""
    one = image.convert("1")
    width, height = one.size
    columns = one.transpose(Image.Transpose.ROTATE_270).tobytes()
    count = height // 8
    return [columns[count - 1 - page::count][:width] for page in range(count)]


def changed_spans(before: list[bytes] | None, after: list[bytes]) -> list[tuple[int, int, int]]:
    """(page, first column, last column + 1) of every page that differs (every page, whole,
    if nothing was written before)."""
    if before is None:
        return [(page, 0, len(now)) for page, now in enumerate(after)]
    spans = []
    for page, (was, now) in enumerate(zip(before, after, strict=True)):
        if was != now:
            changed = [column for column, (a, b) in enumerate(zip(was, now, strict=True))
                       if a != b]
            spans.append((page, changed[0], changed[-1] + 1))
    return spans


class Panel:
    """One screen: ``show(image)`` redraws only what changed; ``persist`` keeps it at exit."""

    def __init__(self, device: Any, persist: bool = False) -> None:
        self.device = device
        self.device.persist = persist
        self.last_sent: Image.Image | None = None
        self._memory: list[bytes] | None = None  # what the controller holds, as pages

    def show(self, image: Image.Image) -> bool:
        """Put ``image`` on the screen; False (and nothing sent) if it is already there."""
        image = image.convert("1")
        if self.last_sent is not None and self.last_sent.tobytes() == image.tobytes():
            return False
        if isinstance(self.device, (ssd1306, sh1106)):
            self._write_changes(self.device.preprocess(image))
        else:
            self.device.display(image)
        self.last_sent = image.copy()
        return True

    def _write_changes(self, image: Image.Image) -> None:
        memory = pages(image)
        for page, start, end in changed_spans(self._memory, memory):
            self._address(page, start, end)
            self.device.data(list(memory[page][start:end]))
        self._memory = memory

    def _address(self, page: int, start: int, end: int) -> None:
        device = self.device
        if isinstance(device, sh1106):
            # Page addressing: page, then the column as two nibbles after the panel's offset.
            column = start + COLUMN_OFFSET["sh1106"]
            device.command(0xB0 | page, column & 0x0F, 0x10 | column >> 4)
        else:
            # Horizontal addressing limited to a window of one page.
            first = COLUMN_OFFSET["ssd1306"]
            device.command(0x21, first + start, first + end - 1, 0x22, page, page)

    def close(self) -> None:
        """Release the bus; the screen is switched off unless ``persist`` is set."""
        self.device.cleanup()
