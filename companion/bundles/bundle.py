"""The shape of a game bundle: everything the program knows of a game besides its rules.

The engine (``companion.games``) decides what is legal; the bundle says how the game meets
the table: its screens, the words of its manual-entry forms, what a seat button's tap means,
its own dial flow, how the camera reads it, its demo art, simulator and demo settings. The
daemon, screens, camera, demo, config and CLI ask the bundle and never name a game.

Fields that need OpenCV or numpy (the camera mapper, the art) are ``"module:attribute"``
paths, imported only when asked for, so listing the games stays cheap.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from types import ModuleType
from typing import Any, Protocol

from companion.errors import RuleViolation
from companion.games.base import Game
from companion.games.data import shipped_data
from companion.i18n import pgettext

#: (event type, seat) a manual entry starts at; None where there is no guess.
Expected = tuple[str | None, int | None]


class Flow(Protocol):
    """A game's own dial flow (e.g. a dial setting a trap): turned, pressed, finished by a seat."""

    def turn(self, detents: int) -> None: ...

    def press(self) -> None: ...

    def event(self, seat: int) -> dict[str, Any] | None: ...

    def shown(self) -> dict[str, Any]: ...

    def check(self, game: Game) -> RuleViolation | None:
        """A refusal the public state already gives before the flow is complete (the flow
        then steps back); None if there is none yet."""


def load(path: str) -> Any:
    """``"package.module:attribute"`` -> the attribute; ``"package.module"`` -> the module."""
    module_name, _, attribute = path.partition(":")
    module = importlib.import_module(module_name)
    return getattr(module, attribute) if attribute else module


@cache
def component_data(package: str, name: str) -> Any:
    """A component data file a game ships in its folder, ``<package>/data/<name>`` (read
    once): ``component_data(__package__, "deck.json")`` in a bundle's module."""
    return shipped_data(package, name)


def _no_words(game: Game, key: str) -> list[str]:
    return []


def _no_names(game: Game) -> dict[str, str]:
    return {}


def _no_guess(game: Game) -> Expected:
    return None, None


def _no_tap(seat: int) -> dict[str, Any] | None:
    return None


@dataclass(frozen=True)
class Demo:
    """How ``companion demo`` plays the game: seats and options, and ``--quick``'s."""

    seats: int
    options: Mapping[str, Any] = field(default_factory=dict)
    quick: Mapping[str, Any] = field(default_factory=dict)
    #: What ``--quick`` plays of the game, in its help (empty: the whole game).
    quick_words: str = ""

    def settings(self, quick: bool) -> tuple[int, dict[str, Any]]:
        return self.seats, {**self.options, **(self.quick if quick else {})}


@dataclass(frozen=True)
class Camera:
    """How the camera sees the game: its scene mapper (``"module:Class"``, made with the game
    and the table geometry), the picture size it needs, and whether it reads markers only."""

    mapper: str
    size: tuple[int, int] = (640, 480)
    markers_only: bool = False  # pieces read from their markers, no card library
    #: A play lays several copies of one card together, overlapping (a set of one creature):
    #: the camera looks for copies under each card of this game it reads.
    piles: bool = False
    #: The ArUco markers the game's pieces wear, id -> its label on the printed marker sheet
    #: (the table's corners are everyone's): the camera places these on the table.
    markers: Callable[[], Mapping[int, str]] | None = None
    #: The game's own keys of the config's ``[vision]`` section (where its pieces lie on the
    #: table): a frozen dataclass, each field with its default and ``metadata={"range": ...}``.
    #: The mapper finds the values read from the config in ``TableGeometry.settings``.
    settings: type | None = None

    def marker_labels(self) -> Mapping[int, str]:
        return self.markers() if self.markers is not None else {}


@dataclass(frozen=True)
class Bundle:
    """One game as the rest of the program meets it. See the module docstring."""

    name: str
    engine: str  # "module:Class" of the rules engine (companion.games)
    screens: str  # module with table(view, seats), seat(view, seats, peeking) [, flow(shown)]
    #: Place in the new-game menu's order and the demo's (lowest first; the first is the
    #: default game).
    order: int = 100
    #: Text fields of manual entry: the values offered, display names, keys shown as printed.
    candidates: Callable[[Game, str], list[str]] = _no_words
    names: Callable[[Game], dict[str, str]] = _no_names
    as_printed: tuple[str, ...] = ()
    #: Event types whose fields after ``seat`` may be that seat's secret: entered on its screen.
    private_entries: tuple[str, ...] = ()
    #: The event and seat the game most likely waits for (the manual entry starts there).
    expected_entry: Callable[[Game], Expected] = _no_guess
    #: What a seat button's tap means when no flow is open (None: nothing).
    tap: Callable[[int], dict[str, Any] | None] = _no_tap
    #: The game's own dial flow, made from its options (None: the dial enters by hand).
    dial: Callable[[Mapping[str, Any]], Flow | None] | None = None
    camera: Camera | None = None
    art: str = ""  # "module:function" -> the demo art's ArtItems
    simulator: str = ""  # module with random_game(seed, seats, **options)
    demo: Demo | None = None
    #: How the simulated table plays an event: "module:attribute" (see daemon/player.py).
    table_play: str = ""
    #: What one step of a game's score track is called (plots: "after each round").
    step: str = "round"
    #: What the voice says after an event, from the public views before and after it (None:
    #: nothing): ``announce(before, after, seats) -> [sentences]``.
    announce: Callable[[dict[str, Any], dict[str, Any], list[str]], list[str]] | None = None
    #: Where the bundle's words in each language will live (gettext catalogues).
    locale: str = ""
    #: Its component data files' fields that people read, file name -> fields (its
    #: ``words.py``'s ``DATA``): the catalogue's extractor takes their values.
    data_words: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    #: The game's name on one line of a menu (marked ``NP_("game", ...)``; translated where
    #: it is shown); empty: the engine's title.
    menu_title: str = ""

    def title_line(self) -> str:
        """The game's name for a menu line, in the language drawn (its whole title is in
        ``companion rules``)."""
        return pgettext("game", self.menu_title) if self.menu_title \
            else self.engine_class().title

    def engine_class(self) -> type[Game]:
        return load(self.engine)

    def screen_module(self) -> ModuleType:
        return load(self.screens)

    def flow(self, options: Mapping[str, Any]) -> Flow | None:
        return self.dial(options) if self.dial is not None else None

    def art_items(self) -> list[Any]:
        return load(self.art)() if self.art else []

    def random_game(self, seed: int, seats: int, **options: Any
                    ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        return load(self.simulator).random_game(seed, seats, **options)

    def scene_mapper(self, game: Game, geometry: Any) -> Any:
        """The camera's reader of this game's scenes (None: the camera reads nothing)."""
        return load(self.camera.mapper)(game, geometry) if self.camera else None

    def player(self) -> Any:
        return load(self.table_play) if self.table_play else None



#: What an ``entry.py`` of a bundle package may define, taken as the fields of that name.
ENTRY_FIELDS = ("candidates", "names", "expected_entry", "tap")


def _has(module: str) -> bool:
    """Is there such a module (its parent package need not exist either)?"""
    try:
        return importlib.util.find_spec(module) is not None
    except ModuleNotFoundError:
        return False


def packaged(package: str, engine: str, **fields: Any) -> Bundle:
    """The bundle of a package laid out as the built-in ones, ``companion/bundles/<game>/``:
    ``screens.py``, and where there is one: ``entry.py`` (``candidates``, ``names``,
    ``expected_entry``, ``tap``), ``dial.py`` (``dial``), ``camera.py`` (``mapper``),
    ``art.py`` (``items``), ``play.py`` (the simulated table), ``voice.py`` (``announce``),
    ``words.py`` (its marked words; ``DATA``: ``data_words``), and the simulator
    ``rules/sim.py`` (or ``<engine module>_sim``). ``fields`` give the rest (or override
    these); the game's ``name`` is the package's own unless given."""
    name = fields.pop("name", package.rpartition(".")[2])
    found: dict[str, Any] = {"screens": f"{package}.screens"}
    if _has(f"{package}.entry"):
        entry = importlib.import_module(f"{package}.entry")
        found.update({key: getattr(entry, key) for key in ENTRY_FIELDS if hasattr(entry, key)})
    if _has(f"{package}.dial"):
        found["dial"] = importlib.import_module(f"{package}.dial").dial
    if _has(f"{package}.camera"):
        found["camera"] = Camera(f"{package}.camera:mapper")
    if _has(f"{package}.art"):
        found["art"] = f"{package}.art:items"
    if _has(f"{package}.voice"):
        found["announce"] = importlib.import_module(f"{package}.voice").announce
    if _has(f"{package}.words"):
        found["data_words"] = getattr(importlib.import_module(f"{package}.words"), "DATA", {})
    if _has(f"{package}.play"):
        found["table_play"] = f"{package}.play"
    for simulator in (f"{package}.rules.sim", engine.partition(":")[0] + "_sim"):
        if _has(simulator):
            found["simulator"] = simulator
            break
    return Bundle(name=name, engine=engine, **{**found, **fields})
