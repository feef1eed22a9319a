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
#: The TCA9548A's addresses (its A0-A2 pins select one of these).
MUX_ADDRESSES = range(0x70, 0x78)
#: Linux numbers I2C adapters from 0; the mux overlay adds one per channel.
I2C_BUSES = range(0, 256)
#: A seat button and a seat screen per seat: the largest game seats 8.
MAX_SEATS = 8
#: Limits of the timing keys, in milliseconds: beyond them a control stops working as one.
TIMING_MS = {"bounce_ms": (0, 500), "hold_ms": (50, 10_000), "peek_timeout_ms": (500, 600_000)}


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


def _config_key(key: str, overrides: Mapping[str, Any]) -> str | None:
    """How the config names ``key`` (``[hardware.timing] hold_ms``) if it overrides it."""
    parts = key.split(".")
    node: Any = overrides
    section = ["hardware"]
    for index, part in enumerate(parts):
        name = part.split("[")[0]
        if not isinstance(node, Mapping) or name not in node:
            return None
        if "[" in part or index == len(parts) - 1 or not isinstance(node[name], Mapping):
            return f"[{'.'.join(section)}] {'.'.join(parts[index:])}"
        section.append(name)
        node = node[name]
    return None


class _Reader:
    """Typed access to the merged tables, with errors that name the file and the key (or the
    config's ``[hardware]`` key, where the config set it)."""

    def __init__(self, source: str, data: Mapping[str, Any],
                 overrides: Mapping[str, Any] | None = None) -> None:
        self.source = source
        self.data = data
        self.overrides = overrides or {}

    def error(self, key: str | None, problem: str) -> ConfigError:
        """``key`` (``timing.hold_ms``) ``problem`` (``must be ...``), named as the config
        names the key where it set it; ``key`` None: ``problem`` is the whole message."""
        named = _config_key(key, self.overrides) if key is not None else None
        if named:
            return ConfigError(f"{named}: {problem}", key=named)
        return ConfigError(f"{self.source}: {problem if key is None else f'{key} {problem}'}")

    def bounded(self, key: str, limits: range, what: str) -> int:
        value = self.get(key, int, what)
        if value not in limits:
            raise self.error(key, f"must be {what}, got {value}")
        return value

    def get(self, key: str, kind: type | tuple[type, ...], what: str) -> Any:
        node: Any = self.data
        for part in key.split("."):
            if not isinstance(node, Mapping) or part not in node:
                raise self.error(None, f"missing key {key} ({what})")
            node = node[part]
        return self.check(key, node, kind, what)

    def check(self, key: str, value: Any, kind: type | tuple[type, ...], what: str) -> Any:
        kinds = kind if isinstance(kind, tuple) else (kind,)
        if isinstance(value, bool) and bool not in kinds or not isinstance(value, kinds):
            raise self.error(key, f"must be {what}, got {value!r}")
        return value

    def gpio(self, key: str, value: Any = None) -> int:
        what = "a BCM GPIO number 0-27"
        pin = self.get(key, int, what) if value is None else self.check(key, value, int, what)
        if pin not in GPIO_RANGE:
            raise self.error(key, f"must be {what}, got {pin}")
        return pin

    def millis(self, key: str) -> float:
        value = self.get(key, (int, float), "a time in milliseconds")
        low, high = TIMING_MS[key.rpartition(".")[2]]
        if not low <= value <= high:  # NaN too
            raise self.error(key, f"must be between {low} and {high} ms, got {value}")
        return value / 1000


def _screens(reader: _Reader) -> tuple[ScreenWiring, ...]:
    items = reader.get("screens", list, "a list of [[screens]] tables")
    if not items:
        raise reader.error("screens", "must list the table screen and the seats' screens, "
                           "got none")
    screens: list[ScreenWiring] = []
    names_used: set[str] = set()
    places_used: dict[tuple[int, int], str] = {}
    for index, item in enumerate(items):
        key = f"screens[{index}]"
        reader.check(key, item, dict, "a table")
        sub = _Reader(reader.source, {key: item})
        name = sub.get(f"{key}.name", str, "'table' or 'seat:N'")
        seat = name[5:] if name.startswith("seat:") else ""
        if name != "table" and not (seat.isdecimal() and seat == str(int(seat))
                                    and int(seat) < MAX_SEATS):
            raise reader.error(f"{key}.name", f"must be 'table' or 'seat:N' (N 0-{MAX_SEATS - 1}), "
                               f"got {name!r}")
        if name in names_used:
            raise reader.error(None, f"{key}.name: screen {name!r} is listed twice")
        channel = sub.get(f"{key}.channel", int, "a multiplexer channel 0-7")
        if channel not in MUX_CHANNELS:
            raise reader.error(f"{key}.channel",
                               f"must be a multiplexer channel 0-7, got {channel}")
        address = sub.get(f"{key}.address", int, "an I2C address")
        if not 0x03 <= address <= 0x77:
            raise reader.error(f"{key}.address", f"must be an I2C address 0x03-0x77, got {address}")
        driver = sub.get(f"{key}.driver", str, "ssd1306 or sh1106")
        if driver not in DRIVERS:
            raise reader.error(f"{key}.driver", f"must be one of {', '.join(DRIVERS)}, "
                               f"got {driver!r}")
        place = (channel, address)
        if place in places_used:
            raise reader.error(None, f"{key}: channel {channel} address 0x{address:02X} is already "
                               f"used by screen {places_used[place]!r}")
        names_used.add(name)
        places_used[place] = name
        screens.append(ScreenWiring(name, channel, address, driver))
    if "table" not in names_used:
        raise reader.error("screens", "must include the table screen (name = 'table'), which "
                           "shows the menus")
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
    reader = _Reader(path.name, _merge(data, overrides or {}), overrides)
    seats = reader.get("buttons.seats", list, "a list of GPIO numbers, seat 0 first")
    if not 1 <= len(seats) <= MAX_SEATS:
        raise reader.error("buttons.seats", f"must list 1 to {MAX_SEATS} GPIO numbers (one per "
                           f"seat), got {len(seats)}")
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
        i2c_bus=reader.bounded("i2c.bus", I2C_BUSES, "an I2C bus number 0-255"),
        sda=reader.gpio("i2c.sda"),
        scl=reader.gpio("i2c.scl"),
        mux_address=reader.bounded("i2c.mux_address", MUX_ADDRESSES,
                                   "a TCA9548A address 0x70-0x77"),
        mux_mode=reader.get("i2c.mux_mode", str, " or ".join(MUX_MODES)),
        screens=_screens(reader),
        persist=reader.get("display.persist", bool, "true or false"),
    )
    if pinmap.mux_mode not in MUX_MODES:
        raise reader.error("i2c.mux_mode", f"must be one of {', '.join(MUX_MODES)}, "
                           f"got {pinmap.mux_mode!r}")
    if pinmap.hold_s <= pinmap.bounce_s:
        raise reader.error("timing.hold_ms", f"must be longer than timing.bounce_ms "
                           f"({pinmap.bounce_s * 1000:g}), got {pinmap.hold_s * 1000:g}")
    if any(screen.address == pinmap.mux_address for screen in pinmap.screens):
        raise reader.error("i2c.mux_address",
                           f"0x{pinmap.mux_address:02X} is also a screen address")
    used: dict[int, str] = {}
    for key, pin in pinmap.gpio_uses().items():
        if pin in used:
            raise reader.error(None, f"GPIO {pin} is used twice: {used[pin]} and {key}")
        used[pin] = key
    return pinmap
