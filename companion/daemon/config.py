"""The daemon's configuration: one human-edited TOML file with named sections.

Everything is checked before any hardware is touched; a wrong value is reported with its
section and key, e.g. ``[hub] baud: must be a whole number, got "fast"``. A missing section or
key takes its default, so an empty file is a valid config (no pins, no hub, no camera,
screens drawn in memory only). Pin wiring lives in the pin map (hardware/pinmap.toml); its
``[hardware]`` section here overrides keys of it.

>>> config = parse_config('[hub]\\nenabled = true\\nport = "/dev/ttyACM0"\\n')
>>> config.hub.port
'/dev/ttyACM0'
"""

from __future__ import annotations

import ipaddress
import re
import tomllib
import typing
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from companion.daemon.camera import TableGeometry
from companion.daemon.dialogues import seat_names
from companion.errors import CompanionError, ConfigError, LogError
from companion.games import registry
from companion.hardware.pins import DEFAULT_PINMAP, PinMap, load_pinmap
from companion.i18n import LANGUAGES
from companion.table.log import Header


def default_game() -> str:
    """The game a new game offers first unless the config says otherwise: the first in the
    registry's menu order."""
    return registry.default_game()


def _choice(*choices: str) -> dict[str, Any]:
    return {"choices": choices}


def playable() -> tuple[str, ...]:
    """The games that load, sorted (a declared game found broken is left out)."""
    return tuple(sorted(bundle.name for bundle in registry.games()))


def _a_game() -> dict[str, Any]:
    """The key names a game: one of those installed, asked when the config is read."""
    return {"choices": playable}


def _range(low: float, high: float) -> dict[str, Any]:
    return {"range": (low, high)}


def _address() -> dict[str, Any]:
    return {"address": True}


def _not_a_key() -> dict[str, Any]:
    """A field the section's keys are read into, not a key of its own."""
    return {"not_a_key": True}


_HOST_LABEL = re.compile(r"[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?")


def address_problem(text: str) -> str | None:
    """Why ``text`` cannot be an address to serve on, or None: an IPv4 or IPv6 address, a
    host name, or empty (every address).

    >>> address_problem("999.1.1.1")
    'must be an IP address (0.0.0.0: every address, 127.0.0.1: this machine only) or a host name'
    >>> [address_problem(ok) for ok in ("0.0.0.0", "::1", "raspberrypi.local", "")]
    [None, None, None, None]
    """
    if not text:
        return None
    try:
        ipaddress.ip_address(text)
        return None
    except ValueError:
        pass
    labels = text.removesuffix(".").split(".")
    numeric = all(label.isdigit() for label in labels)  # 999.1.1.1 is no name, nor an address
    if (numeric or len(text) > 253
            or not all(_HOST_LABEL.fullmatch(label) for label in labels)):
        return ("must be an IP address (0.0.0.0: every address, 127.0.0.1: this machine only) "
                "or a host name")
    return None


@dataclass(frozen=True)
class TableConfig:
    """Where the table log is kept and what a new game offers first."""

    db: str = ""  # empty: the state directory's table.db (companion.paths.default_db)
    game: str = field(default_factory=default_game, metadata=_a_game())
    seats: list[str] = field(default_factory=lambda: ["Ann", "Bob", "Cy"])
    #: what the screens (and the voice) speak; a choice made at the table overrides it
    language: str = field(default="en", metadata=_choice(*LANGUAGES))


@dataclass(frozen=True)
class InputsConfig:
    """The trap dial and buttons on the Pi's GPIO pins (wiring in the pin map)."""

    enabled: bool = False
    pinmap: str = ""  # empty: the pin map shipped with the package
    pin_factory: str = field(default="", metadata=_choice("", "lgpio", "rpigpio", "mock"))


@dataclass(frozen=True)
class ScreensConfig:
    """The OLED screens (one for the table, one per seat; wiring in the pin map)."""

    enabled: bool = False  # false: screens are drawn only in memory (and in the log of --sim)


@dataclass(frozen=True)
class HubConfig:
    """The serial hub (a microcontroller with more controls, on USB)."""

    enabled: bool = False
    port: str = ""  # empty: /dev/companion-hub (the udev rule), else the Pico's /dev/serial/by-id
    baud: int = field(default=115200, metadata=_range(1200, 4_000_000))


@dataclass(frozen=True)
class CameraConfig:
    """The overhead camera, or image files standing in for it."""

    enabled: bool = False
    source: str = field(default="picamera", metadata=_choice("picamera", "device", "files"))
    device: int = field(default=0, metadata=_range(0, 64))
    files: str = ""  # a folder of frames, for source = "files"
    fps: float = field(default=4.0, metadata=_range(0.2, 60))
    #: source = "files": play the folder again from its first frame once it ends (false: once)
    loop: bool = False


@dataclass(frozen=True)
class VisionConfig:
    """How sure the recogniser must be before a seen card becomes an event without asking."""

    library: str = ""  # empty: the card library shipped with the package
    confirm_below: float = field(default=0.8, metadata=_range(0, 1))
    settle_seconds: float = field(default=0.8, metadata=_range(0, 10))
    # The play area between the corner markers' centres, and the markers' printed size.
    table_width_mm: float = field(default=800.0, metadata=_range(100, 5000))
    table_height_mm: float = field(default=560.0, metadata=_range(100, 5000))
    marker_mm: float = field(default=40.0, metadata=_range(5, 500))
    #: The games' own keys of this section (where their pieces lie: a bundle's
    #: ``CameraParts.settings``), read into one object each.
    games: tuple[Any, ...] = field(default=(), metadata=_not_a_key())

    def geometry(self) -> TableGeometry:
        return TableGeometry(self.table_width_mm, self.table_height_mm, self.marker_mm,
                             self.games)


@dataclass(frozen=True)
class DaemonConfig:
    """Timing of the daemon itself."""

    retry_seconds: float = field(default=5.0, metadata=_range(0.1, 3600))
    log_level: str = field(default="info", metadata=_choice("debug", "info", "warning", "error"))


@dataclass(frozen=True)
class WebConfig:
    """The table's web pages on the LAN: the table page, the seats' phones (docs/web.md)."""

    enabled: bool = False
    #: the address to serve on; 127.0.0.1: this machine only
    listen: str = field(default="0.0.0.0", metadata=_address())
    port: int = field(default=8080, metadata=_range(1, 65535))


@dataclass(frozen=True)
class VoiceConfig:
    """Spoken announcements through espeak-ng, in the table's language (off by default)."""

    enabled: bool = False
    speed: int = field(default=150, metadata=_range(80, 450))  # words per minute


@dataclass(frozen=True)
class Config:
    table: TableConfig = field(default_factory=TableConfig)
    inputs: InputsConfig = field(default_factory=InputsConfig)
    screens: ScreensConfig = field(default_factory=ScreensConfig)
    hub: HubConfig = field(default_factory=HubConfig)
    camera: CameraConfig = field(default_factory=CameraConfig)
    vision: VisionConfig = field(default_factory=VisionConfig)
    daemon: DaemonConfig = field(default_factory=DaemonConfig)
    web: WebConfig = field(default_factory=WebConfig)
    voice: VoiceConfig = field(default_factory=VoiceConfig)
    #: game name -> option overrides for new games (the ``[options.GAME]`` tables)
    options: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: overrides of the pin map (``[hardware]``, same shape as hardware/pinmap.toml)
    hardware: dict[str, Any] = field(default_factory=dict)

    def pinmap(self) -> PinMap:
        """The pin map with this config's ``[hardware]`` overrides; ConfigError if wrong."""
        return load_pinmap(self.inputs.pinmap or None, self.hardware)


#: The config's sections by name (``[table]``, ``[web]`` ...), each the dataclass it is read into.
SECTIONS: dict[str, type] = {f.name: typing.get_type_hints(Config)[f.name]
                             for f in fields(Config) if f.name not in ("options", "hardware")}
_TYPE_NAMES = {bool: "true or false", int: "a whole number", float: "a number", str: "a string"}


def _check_value(where: str, value: Any, kind: Any, meta: Any) -> Any:
    """The value, checked against the key's type and limits; ConfigError naming ``where``."""
    if typing.get_origin(kind) is list:
        (item_kind,) = typing.get_args(kind)
        if not isinstance(value, list):
            raise ConfigError(f"{where}: must be a list of {_TYPE_NAMES[item_kind]}s, "
                              f"got {value!r}")
        return [_check_value(f"{where}[{i}]", item, item_kind, meta)
                for i, item in enumerate(value)]
    accepted = (int, float) if kind is float else (kind,)
    if isinstance(value, bool) is not (kind is bool) or not isinstance(value, accepted):
        raise ConfigError(f"{where}: must be {_TYPE_NAMES[kind]}, got {value!r}")
    choices = meta.get("choices")
    if callable(choices):
        choices = choices()
    if choices is not None and value not in choices:
        allowed = ", ".join(repr(c) for c in choices)
        raise ConfigError(f"{where}: must be one of {allowed}; got {value!r}")
    if "range" in meta:
        low, high = meta["range"]
        if not low <= value <= high:
            raise ConfigError(f"{where}: must be between {low} and {high}, got {value!r}")
    if "address" in meta and (problem := address_problem(value)):
        raise ConfigError(f"{where}: {problem}, got {value!r}")
    return float(value) if kind is float else value


def _keys(kind: type) -> dict[str, tuple[type, Any]]:
    """The keys of a section's dataclass ``kind``: name -> (that dataclass, its field)."""
    return {f.name: (kind, f) for f in fields(kind) if not f.metadata.get("not_a_key")}


def _section(name: str, given: Any) -> Any:
    """A section read into its dataclass; ``[vision]`` also holds the games' own keys
    (``registry.vision_settings``), each game's read into its own dataclass."""
    cls = SECTIONS[name]
    if not isinstance(given, dict):
        raise ConfigError(f"[{name}]: must be a section (a table), got {given!r}")
    kinds = [cls, *(registry.vision_settings() if name == "vision" else [])]
    known = {key: found for kind in kinds for key, found in _keys(kind).items()}
    values: dict[type, dict[str, Any]] = {kind: {} for kind in kinds}
    for key, value in given.items():
        if key not in known:
            raise ConfigError(f"[{name}] {key}: unknown key (known: {', '.join(known)})")
        kind, key_field = known[key]
        values[kind][key] = _check_value(f"[{name}] {key}", value,
                                         typing.get_type_hints(kind)[key], key_field.metadata)
    section = cls(**values[cls])
    if name == "vision":
        section = replace(section, games=tuple(kind(**values[kind]) for kind in kinds[1:]))
    return section


def _options(given: Any) -> dict[str, dict[str, Any]]:
    if not isinstance(given, dict):
        raise ConfigError(f"[options]: must be a section of [options.GAME] tables, got {given!r}")
    checked = {}
    for game, overrides in given.items():
        where = f"[options.{game}]"
        if game not in playable():
            raise ConfigError(f"{where}: unknown game (games: {', '.join(playable())})")
        if not isinstance(overrides, dict):
            raise ConfigError(f"{where}: must be a table of options, got {overrides!r}")
        try:
            registry.get(game).engine.resolve_options(overrides)
        except CompanionError as exc:
            raise ConfigError(f"{where}: {exc}") from None
        checked[game] = overrides
    return checked


def _header_problem(header: Header) -> str | None:
    """Why the store would refuse this header (its reader's own words), or None."""
    try:
        header.to_line()
    except LogError as exc:
        return exc.message.removeprefix("header: ")
    return None


def check_new_game_headers(config: Config) -> None:
    """Every header a new game started from the menu can get from this config, read back as
    the store reads it: a config must not start a game the store could not hold."""
    seats = config.table.seats
    largest = max(bundle.engine.max_seats for bundle in registry.games())
    if len(seats) > largest:
        raise ConfigError(f"[table] seats: at most {largest} names (the largest game's "
                          f"seats), got {len(seats)}")
    problem = _header_problem(Header(config.table.game, tuple(seats), 0))
    if problem:
        raise ConfigError(f"[table] seats: {problem}")
    for bundle in registry.games():
        name, cls = bundle.name, bundle.engine
        for count in range(cls.min_seats, cls.max_seats + 1):
            header = Header(name, seat_names(seats, count), 0, config.options.get(name, {}))
            problem = _header_problem(header)
            if problem:
                raise ConfigError(f"[options.{name}]: a new game would store a header that "
                                  f"cannot be read back: {problem}")


def config_pinmap_keys() -> dict[str, Any]:
    """The shape of the shipped pin map, which ``[hardware]`` overrides must follow."""
    return tomllib.loads(DEFAULT_PINMAP.read_text(encoding="utf-8"))


def _check_hardware_keys(given: dict[str, Any], shape: dict[str, Any], where: str) -> None:
    for key, value in given.items():
        if key not in shape:
            raise ConfigError(f"[{where}] {key}: unknown key (known: {', '.join(shape)})")
        if isinstance(value, dict) and isinstance(shape[key], dict):
            _check_hardware_keys(value, shape[key], f"{where}.{key}")


def parse_config(text: str, origin: str = "config") -> Config:
    """A checked Config from TOML text; ConfigError naming the section and key if it is wrong."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{origin}: not valid TOML ({exc})") from None
    sections: dict[str, Any] = {}
    for name, given in data.items():
        if name == "options":
            sections[name] = _options(given)
        elif name == "hardware":
            if not isinstance(given, dict):
                raise ConfigError(f"[hardware]: must be a section (a table), got {given!r}")
            _check_hardware_keys(given, config_pinmap_keys(), "hardware")
            sections[name] = given
        elif name in SECTIONS:
            sections[name] = _section(name, given)
        else:
            known = ", ".join([*SECTIONS, "options", "hardware"])
            raise ConfigError(f"[{name}]: unknown section (known: {known})")
    config = Config(**sections)
    if not config.table.seats or len(set(config.table.seats)) != len(config.table.seats):
        raise ConfigError("[table] seats: must be a non-empty list of different names")
    check_new_game_headers(config)
    try:
        config.pinmap()
    except ConfigError as exc:
        if exc.key is not None:  # it names the config's own key already
            raise
        raise ConfigError(f"[hardware] / [inputs] pinmap: {exc}") from None
    try:
        config.vision.geometry().table()
    except ConfigError as exc:
        raise ConfigError(f"[vision] table_width_mm / table_height_mm / marker_mm: "
                          f"{str(exc).removeprefix('vision: ')}") from None
    return config


def load_config(path: str | Path | None) -> Config:
    """The config in ``path`` (None: all defaults); a missing file is a ConfigError."""
    if path is None:
        return Config()
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError(f"no such config file: {path}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"cannot read the config file {path}: {exc}") from None
    return parse_config(text, str(path))
