"""Opening the table's screens: a luma device per screen of the pin map, behind the TCA9548A.

Two ways through the multiplexer:

- ``overlay`` (preferred): with ``dtoverlay=i2c-mux,pca9548,addr=0x70`` in
  ``/boot/firmware/config.txt`` the kernel gives each channel its own ``/dev/i2c-N``; we find
  N in sysfs (``/sys/bus/i2c/devices/1-0070/channel-K``) and luma talks to it directly.
- ``select``: for boards without the overlay, :class:`MuxChannel` is a luma serial interface
  that selects its channel on the multiplexer before each write, holding the bus from the
  select to the end of the write; every screen on one bus shares one :class:`Multiplexer`
  (``MULTIPLEXERS``), however it was opened.

``dummy`` devices (tests, ``--sim``) keep the last image in memory.
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
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
    """A TCA9548A on an open smbus, shared by every screen behind it: remembers the selected
    channel to skip needless writes, and ``on(channel)`` holds the bus from the select to the
    end of the write, so no other screen's select comes between (screens are drawn from the
    loop, and opened again after a fault from elsewhere)."""

    def __init__(self, bus: Any, address: int = 0x70) -> None:
        self.bus = bus
        self.address = address
        self.channel: int | None = None
        self.lock = threading.RLock()

    def select(self, channel: int) -> None:
        with self.lock:
            if channel != self.channel:
                self.channel = None  # not known until the write went through
                self.bus.write_byte(self.address, 1 << channel)
                self.channel = channel

    @contextmanager
    def on(self, channel: int) -> Iterator[None]:
        """The bus held with ``channel`` selected."""
        with self.lock:
            self.select(channel)
            yield


class MuxChannel:
    """luma serial interface to one address behind one multiplexer channel (``select`` mode)."""

    def __init__(self, mux: Multiplexer, channel: int, address: int,
                 release: Callable[[], None] | None = None) -> None:
        self.mux = mux
        self.channel = channel
        self._serial = i2c(bus=mux.bus, address=address)
        self._release = release
        self._closed = False

    def command(self, *cmd: int) -> None:
        with self._on():
            self._serial.command(*cmd)

    def data(self, data: Any) -> None:
        with self._on():
            self._serial.data(data)

    def _on(self) -> contextlib.AbstractContextManager[None]:
        if self._closed:  # e.g. luma's own clean-up at exit, after ours
            raise OSError(f"multiplexer channel {self.channel} is closed")
        return self.mux.on(self.channel)

    def cleanup(self) -> None:
        """The bus is shared by every channel: it is closed with the last one open."""
        if not self._closed:
            self._closed = True
            if self._release is not None:
                self._release()


class SharedMultiplexers:
    """One :class:`Multiplexer` per bus (opener, bus number, address), shared by every screen
    opened on it, however many times ``open_panels`` is called (each daemon screen opens its
    own): two objects for one chip would each believe their own channel still selected. The
    bus is closed when the last channel on it is."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._open: dict[tuple[Any, int, int], tuple[Multiplexer, int]] = {}

    def channel(self, opener: Callable[[int], Any], bus: int, address: int, channel: int,
                device_address: int) -> MuxChannel:
        key = (opener, bus, address)
        with self._lock:
            mux, users = self._open.get(key) or (Multiplexer(opener(bus), address), 0)
            self._open[key] = (mux, users + 1)
        try:
            return MuxChannel(mux, channel, device_address, lambda: self._release(key))
        except Exception:
            self._release(key)
            raise

    def _release(self, key: tuple[Any, int, int]) -> None:
        with self._lock:
            mux, users = self._open[key]
            if users > 1:
                self._open[key] = (mux, users - 1)
                return
            del self._open[key]
        with contextlib.suppress(OSError):
            mux.bus.close()


MULTIPLEXERS = SharedMultiplexers()


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
    for wiring in wanted:
        serial: Any = None
        try:
            if pinmap.mux_mode == "select":
                serial = MULTIPLEXERS.channel(smbus_opener or _smbus2, pinmap.i2c_bus,
                                              pinmap.mux_address, wiring.channel,
                                              wiring.address)
            else:
                port = channel_bus(pinmap.i2c_bus, pinmap.mux_address, wiring.channel, sysfs)
                serial = i2c(port=port, address=wiring.address)
            device = open_driver(wiring.driver, serial)
        except (DeviceNotFoundError, DevicePermissionError, OSError) as exc:
            if isinstance(serial, MuxChannel):
                serial.cleanup()
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
