"""Opening the table's screens: a luma device per screen of the pin map, behind the TCA9548A.

Two ways through the multiplexer:

- ``overlay`` (preferred): with ``dtoverlay=i2c-mux,pca9548,addr=0x70`` in
  ``/boot/firmware/config.txt`` the kernel gives each channel its own ``/dev/i2c-N``; we find
  N in sysfs (``/sys/bus/i2c/devices/1-0070/channel-K``) and luma talks to it directly.
- ``select``: for boards without the overlay, :class:`MuxChannel` is a luma serial interface
  that selects its channel on the multiplexer before each write.

``dummy`` devices (tests, ``--sim``) keep the last image in memory.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from luma.core.device import dummy
from luma.core.error import DeviceNotFoundError, DevicePermissionError
from luma.core.interface.serial import i2c
from luma.oled.device import sh1106, ssd1306

from companion.errors import ConfigError
from companion.hardware.panel import COLUMN_OFFSET, Panel
from companion.hardware.pins import PinMap, ScreenWiring

SYSFS_I2C = Path("/sys/bus/i2c/devices")

def open_driver(driver: str, serial: Any) -> Any:
    """The luma device of a screen, its memory offset agreeing with the panel's writes."""
    if driver == "sh1106":
        return sh1106(serial, page_address_offset=COLUMN_OFFSET["sh1106"])
    return ssd1306(serial)


class Multiplexer:
    """A TCA9548A on an open smbus: remembers the selected channel to skip needless writes."""

    def __init__(self, bus: Any, address: int = 0x70) -> None:
        self.bus = bus
        self.address = address
        self.channel: int | None = None

    def select(self, channel: int) -> None:
        if channel != self.channel:
            self.bus.write_byte(self.address, 1 << channel)
            self.channel = channel


class MuxChannel:
    """luma serial interface to one address behind one multiplexer channel (``select`` mode)."""

    def __init__(self, mux: Multiplexer, channel: int, address: int) -> None:
        self.mux = mux
        self.channel = channel
        self._serial = i2c(bus=mux.bus, address=address)

    def command(self, *cmd: int) -> None:
        self.mux.select(self.channel)
        self._serial.command(*cmd)

    def data(self, data: Any) -> None:
        self.mux.select(self.channel)
        self._serial.data(data)

    def cleanup(self) -> None:
        """The bus is shared by every channel: it is closed once, by whoever opened it."""


def channel_bus(bus: int, mux_address: int, channel: int, sysfs: Path = SYSFS_I2C) -> int:
    """The ``/dev/i2c-N`` number the i2c-mux overlay gave to a multiplexer channel."""
    link = sysfs / f"{bus}-{mux_address:04x}" / f"channel-{channel}"
    try:
        target = os.readlink(link)
    except OSError:
        raise ConfigError(
            f"i2c.mux_mode is 'overlay' but {link} does not exist: add "
            f"'dtoverlay=i2c-mux,pca9548,addr=0x{mux_address:02x}' to config.txt and reboot, "
            f"or set i2c.mux_mode = \"select\"") from None
    return int(Path(target).name.removeprefix("i2c-"))


def _open_error(wiring: ScreenWiring, exc: Exception) -> ConfigError:
    return ConfigError(f"screen {wiring.name} (channel {wiring.channel}, address "
                       f"0x{wiring.address:02X}): {exc}; run 'companion doctor'")


def open_panels(pinmap: PinMap, *, simulate: bool = False, names: list[str] | None = None,
                smbus_opener: Callable[[int], Any] | None = None,
                sysfs: Path = SYSFS_I2C) -> dict[str, Panel]:
    """A :class:`Panel` per screen of the pin map (or only ``names``), ready to ``show``.

    ``simulate`` gives luma ``dummy`` devices. ``smbus_opener(bus_number)`` opens a bus for
    ``select`` mode (default: smbus2), e.g. a :class:`~companion.hardware.simbus.SimBus`.
    """
    wanted = [w for w in pinmap.screens if names is None or w.name in names]
    if simulate:
        return {w.name: Panel(dummy(mode="1"), pinmap.persist) for w in wanted}
    panels: dict[str, Panel] = {}
    mux: Multiplexer | None = None
    for wiring in wanted:
        try:
            if pinmap.mux_mode == "select":
                if mux is None:
                    opener = smbus_opener or _smbus2
                    mux = Multiplexer(opener(pinmap.i2c_bus), pinmap.mux_address)
                serial: Any = MuxChannel(mux, wiring.channel, wiring.address)
            else:
                port = channel_bus(pinmap.i2c_bus, pinmap.mux_address, wiring.channel, sysfs)
                serial = i2c(port=port, address=wiring.address)
            device = open_driver(wiring.driver, serial)
        except (DeviceNotFoundError, DevicePermissionError, OSError) as exc:
            raise _open_error(wiring, exc) from None
        panels[wiring.name] = Panel(device, pinmap.persist)
    return panels


def _smbus2(bus: int) -> Any:
    import smbus2

    try:
        return smbus2.SMBus(bus)
    except OSError as exc:
        raise ConfigError(f"cannot open /dev/i2c-{bus}: {exc.strerror}; is I2C enabled "
                          f"(raspi-config) and are you in the i2c group?") from None
