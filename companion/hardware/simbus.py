"""A simulated I2C bus with OLED controllers and a TCA9548A on it (``--sim``, tests, benchmarks).

It speaks the smbus calls luma's ``i2c`` interface makes, keeps each controller's display
memory the way the chip does (SSD1306 horizontal addressing, SH1106 page addressing) and
counts the bytes that would cross the wire, so what reaches the glass can be checked as
an image and the I2C cost of an update measured.

>>> bus = SimBus()
>>> oled = bus.attach(0x3C, "ssd1306")
>>> bus.write_i2c_block_data(0x3C, 0x00, [0xAF, 0x21, 0, 127, 0x22, 0, 7])
>>> bus.write_i2c_block_data(0x3C, 0x40, [0xFF])
>>> oled.image().getpixel((0, 7)), oled.image().getpixel((1, 0))
(255, 0)
"""

from __future__ import annotations

import numpy as np
from PIL import Image

# Commands followed by parameter bytes, and how many.
_SSD1306_PARAMETERS = {0x20: 1, 0x21: 2, 0x22: 2, 0x81: 1, 0x8D: 1, 0xA8: 1, 0xD3: 1,
                       0xD5: 1, 0xD9: 1, 0xDA: 1, 0xDB: 1}
_SH1106_PARAMETERS = {0x81: 1, 0x8D: 1, 0xA8: 1, 0xAD: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1,
                      0xDA: 1, 0xDB: 1}
_CONTROL_COMMAND, _CONTROL_DATA = 0x00, 0x40


class SimController:
    """The display memory of one SSD1306 (128 columns) or SH1106 (132 columns, 2 hidden)."""

    def __init__(self, driver: str, width: int = 128, height: int = 64) -> None:
        self.driver = driver
        self.width, self.height = width, height
        self.offset = 2 if driver == "sh1106" else 0
        self.memory = np.zeros((height // 8, width + 2 * self.offset), dtype=np.uint8)
        self.on = False
        self.page = 0
        self.column = 0
        self.window = (0, width - 1, 0, height // 8 - 1)  # SSD1306: columns, pages
        self._pending: list[int] = []

    def command(self, data: list[int]) -> None:
        parameters = _SH1106_PARAMETERS if self.driver == "sh1106" else _SSD1306_PARAMETERS
        self._pending.extend(data)
        while self._pending:
            code = self._pending[0]
            needed = parameters.get(code, 0)
            if len(self._pending) <= needed:
                return  # parameters arrive in the next transaction
            arguments = self._pending[1:1 + needed]
            del self._pending[:1 + needed]
            self._execute(code, arguments)

    def _execute(self, code: int, arguments: list[int]) -> None:
        if code in (0xAE, 0xAF):
            self.on = code == 0xAF
        elif self.driver == "sh1106":
            if 0xB0 <= code <= 0xB7:
                self.page = code - 0xB0
            elif code <= 0x0F:
                self.column = (self.column & 0xF0) | code
            elif code <= 0x1F:
                self.column = (self.column & 0x0F) | (code & 0x0F) << 4
        elif code == 0x21:
            self.window = (arguments[0], arguments[1], *self.window[2:])
            self.column = arguments[0]
        elif code == 0x22:
            self.window = (*self.window[:2], arguments[0], arguments[1])
            self.page = arguments[0]

    def data(self, data: list[int]) -> None:
        for byte in data:
            if self.driver == "sh1106":
                if self.column < self.memory.shape[1]:
                    self.memory[self.page, self.column] = byte
                self.column += 1
                continue
            self.memory[self.page, self.column] = byte
            first_column, last_column, first_page, last_page = self.window
            if self.column < last_column:
                self.column += 1
            else:
                self.column = first_column
                self.page = first_page if self.page >= last_page else self.page + 1

    def image(self) -> Image.Image:
        """What the glass shows (blank when the display is off)."""
        visible = self.memory[:, self.offset:self.offset + self.width]
        bits = (visible[:, None, :] >> np.arange(8, dtype=np.uint8)[None, :, None]) & 1
        pixels = bits.reshape(self.height, self.width) if self.on else np.zeros(
            (self.height, self.width), dtype=np.uint8)
        return Image.fromarray((pixels * 255).astype(np.uint8)).convert("1")


class SimBus:
    """One I2C bus: controllers by address, optionally behind a TCA9548A at ``mux_address``."""

    def __init__(self, mux_address: int | None = None) -> None:
        self.mux_address = mux_address
        self.selected = 0  # channel mask of the multiplexer
        self.mux_writes: list[int] = []
        self.controllers: dict[tuple[int | None, int], SimController] = {}
        self.bytes_sent = 0
        self.transactions = 0

    def attach(self, address: int, driver: str, channel: int | None = None) -> SimController:
        controller = SimController(driver)
        self.controllers[(channel, address)] = controller
        return controller

    def _target(self, address: int) -> SimController:
        for (channel, at), controller in self.controllers.items():
            if at == address and (channel is None or self.selected >> channel & 1):
                return controller
        raise OSError(121, f"no device answers at 0x{address:02X}")  # EREMOTEIO, as Linux

    def _count(self, payload: int) -> None:
        self.transactions += 1
        self.bytes_sent += 1 + payload  # the address byte, then the payload

    def read_byte(self, address: int) -> int:
        """A probe, as i2cdetect and ``companion doctor`` do: OSError if nothing answers."""
        self._count(1)
        if address != self.mux_address:
            self._target(address)
            return 0
        return self.selected

    def write_byte(self, address: int, value: int) -> None:
        self._count(1)
        if address != self.mux_address:
            raise OSError(121, f"no device answers at 0x{address:02X}")
        self.selected = value
        self.mux_writes.append(value)

    def write_i2c_block_data(self, address: int, register: int, data: list[int]) -> None:
        self._count(1 + len(data))
        controller = self._target(address)
        if register == _CONTROL_COMMAND:
            controller.command(list(data))
        elif register == _CONTROL_DATA:
            controller.data(list(data))

    def close(self) -> None:
        """Nothing to release: the bus lives in memory."""
