"""The pin map: which GPIO, bus, multiplexer channel and address each part of the table uses.

Read from ``hardware/pinmap.toml``; the daemon's config may override any key with a
``[hardware]`` section of the same shape. Every problem is a ConfigError naming the key:

>>> load_pinmap(overrides={"encoder": {"a": 5}})
Traceback (most recent call last):
...
companion.errors.ConfigError: pinmap.toml: GPIO 5 is used twice: encoder.a and buttons.seats[0]
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.errors import ConfigError

#: The shipped pin map: hardware/pinmap.toml (the README's wiring table), linked into the package.
DEFAULT_PINMAP = Path(__file__).resolve().parents[1] / "data" / "pinmap.toml"

DRIVERS = ("ssd1306", "sh1106")
MUX_MODES = ("overlay", "select")
# BCM GPIO numbers on the 40-pin header.
GPIO_RANGE = range(0, 28)
MUX_CHANNELS = range(0, 8)


@dataclass(frozen=True)
class ScreenWiring:
    """One OLED: ``name`` is ``table`` or ``seat:N``; it sits on a multiplexer channel."""

    name: str
    channel: int
    address: int
    driver: str


@dataclass(frozen=True)
class PinMap:
    encoder_a: int
    encoder_b: int
    encoder_switch: int
    seat_buttons: tuple[int, ...]
    menu: int
    bounce_s: float
    hold_s: float
    peek_timeout_s: float
    i2c_bus: int
    sda: int
    scl: int
    mux_address: int
    mux_mode: str
    screens: tuple[ScreenWiring, ...]
    persist: bool

    def screen(self, name: str) -> ScreenWiring:
        for wiring in self.screens:
            if wiring.name == name:
                return wiring
        raise ConfigError(f"pinmap: no screen named {name!r}")

    def gpio_uses(self) -> dict[str, int]:
        """Every GPIO in use, by the key that names it."""
        uses = {"encoder.a": self.encoder_a, "encoder.b": self.encoder_b,
                "encoder.switch": self.encoder_switch, "buttons.menu": self.menu,
                "i2c.sda": self.sda, "i2c.scl": self.scl}
        uses.update({f"buttons.seats[{seat}]": pin for seat, pin in enumerate(self.seat_buttons)})
        return uses


def _merge(base: Mapping[str, Any], overrides: Mapping[str, Any]) -> dict[str, Any]:
    merged = dict(base)
    for key, value in overrides.items():
        if isinstance(value, Mapping) and isinstance(merged.get(key), Mapping):
            merged[key] = _merge(merged[key], value)
        else:
            merged[key] = value
    return merged


class _Reader:
    """Typed access to the merged tables, with errors that name the file and the key."""

    def __init__(self, source: str, data: Mapping[str, Any]) -> None:
        self.source = source
        self.data = data

    def error(self, message: str) -> ConfigError:
        return ConfigError(f"{self.source}: {message}")

    def get(self, key: str, kind: type | tuple[type, ...], what: str) -> Any:
        node: Any = self.data
        for part in key.split("."):
            if not isinstance(node, Mapping) or part not in node:
                raise self.error(f"missing key {key} ({what})")
            node = node[part]
        return self.check(key, node, kind, what)

    def check(self, key: str, value: Any, kind: type | tuple[type, ...], what: str) -> Any:
        kinds = kind if isinstance(kind, tuple) else (kind,)
        if isinstance(value, bool) and bool not in kinds or not isinstance(value, kinds):
            raise self.error(f"{key} must be {what}, got {value!r}")
        return value

    def gpio(self, key: str, value: Any = None) -> int:
        what = "a BCM GPIO number 0-27"
        pin = self.get(key, int, what) if value is None else self.check(key, value, int, what)
        if pin not in GPIO_RANGE:
            raise self.error(f"{key} must be {what}, got {pin}")
        return pin

    def millis(self, key: str) -> float:
        value = self.get(key, (int, float), "a time in milliseconds")
        if value < 0:
            raise self.error(f"{key} must not be negative, got {value}")
        return value / 1000


def _screens(reader: _Reader) -> tuple[ScreenWiring, ...]:
    entries = reader.get("screens", list, "a list of [[screens]] tables")
    screens: list[ScreenWiring] = []
    seen_names: set[str] = set()
    seen_places: dict[tuple[int, int], str] = {}
    for index, entry in enumerate(entries):
        key = f"screens[{index}]"
        reader.check(key, entry, dict, "a table")
        sub = _Reader(reader.source, {key: entry})
        name = sub.get(f"{key}.name", str, "'table' or 'seat:N'")
        if name != "table" and not (name.startswith("seat:") and name[5:].isdigit()):
            raise reader.error(f"{key}.name must be 'table' or 'seat:N', got {name!r}")
        if name in seen_names:
            raise reader.error(f"{key}.name: screen {name!r} is listed twice")
        channel = sub.get(f"{key}.channel", int, "a multiplexer channel 0-7")
        if channel not in MUX_CHANNELS:
            raise reader.error(f"{key}.channel must be a multiplexer channel 0-7, got {channel}")
        address = sub.get(f"{key}.address", int, "an I2C address")
        if not 0x03 <= address <= 0x77:
            raise reader.error(f"{key}.address must be an I2C address 0x03-0x77, got {address}")
        driver = sub.get(f"{key}.driver", str, "ssd1306 or sh1106")
        if driver not in DRIVERS:
            raise reader.error(f"{key}.driver must be one of {', '.join(DRIVERS)}, "
                               f"got {driver!r}")
        place = (channel, address)
        if place in seen_places:
            raise reader.error(f"{key}: channel {channel} address 0x{address:02X} is already "
                               f"used by screen {seen_places[place]!r}")
        seen_names.add(name)
        seen_places[place] = name
        screens.append(ScreenWiring(name, channel, address, driver))
    return tuple(screens)


def load_pinmap(path: Path | str | None = None,
                overrides: Mapping[str, Any] | None = None) -> PinMap:
    """The pin map in ``path`` (default: the checkout's), with a config's ``[hardware]`` on top."""
    path = Path(path) if path is not None else DEFAULT_PINMAP
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ConfigError(f"cannot read the pin map {path}: {exc.strerror}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path.name}: not valid TOML: {exc}") from None
    reader = _Reader(path.name, _merge(data, overrides or {}))
    seats = reader.get("buttons.seats", list, "a list of GPIO numbers, seat 0 first")
    pinmap = PinMap(
        encoder_a=reader.gpio("encoder.a"),
        encoder_b=reader.gpio("encoder.b"),
        encoder_switch=reader.gpio("encoder.switch"),
        seat_buttons=tuple(reader.gpio(f"buttons.seats[{seat}]", pin)
                           for seat, pin in enumerate(seats)),
        menu=reader.gpio("buttons.menu"),
        bounce_s=reader.millis("timing.bounce_ms"),
        hold_s=reader.millis("timing.hold_ms"),
        peek_timeout_s=reader.millis("timing.peek_timeout_ms"),
        i2c_bus=reader.get("i2c.bus", int, "an I2C bus number"),
        sda=reader.gpio("i2c.sda"),
        scl=reader.gpio("i2c.scl"),
        mux_address=reader.get("i2c.mux_address", int, "an I2C address"),
        mux_mode=reader.get("i2c.mux_mode", str, " or ".join(MUX_MODES)),
        screens=_screens(reader),
        persist=reader.get("display.persist", bool, "true or false"),
    )
    if pinmap.mux_mode not in MUX_MODES:
        raise reader.error(f"i2c.mux_mode must be one of {', '.join(MUX_MODES)}, "
                           f"got {pinmap.mux_mode!r}")
    if any(screen.address == pinmap.mux_address for screen in pinmap.screens):
        raise reader.error(f"i2c.mux_address 0x{pinmap.mux_address:02X} is also a screen address")
    used: dict[int, str] = {}
    for key, pin in pinmap.gpio_uses().items():
        if pin in used:
            raise reader.error(f"GPIO {pin} is used twice: {used[pin]} and {key}")
        used[pin] = key
    return pinmap
