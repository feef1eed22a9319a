"""The shape of a game bundle: everything the program knows of a game besides its rules.

The engine (``companion.games``) decides what is legal; the bundle says how the game meets
the table: its screens, the words of its manual-entry forms, what a seat button's tap means,
its own dial flow, how the camera reads it, its demo art, simulator and demo settings. The
daemon, screens, camera, demo, config and CLI ask the bundle and never name a game.

The engine is the engine class itself. The parts that need Pillow, OpenCV, numpy or the
daemon (the screens, the camera mapper, the art, the simulated table) and the simulator are
``Lazy`` references, typed as what they are and imported only when asked for, so listing the
games stays cheap.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from typing import Any, Protocol, TypeVar

from companion.bundles.lazy import Lazy
from companion.errors import RuleViolation
from companion.games.base import Game
from companion.games.data import shipped_data
from companion.i18n import pgettext

#: (event type, seat) a manual entry starts at; None where there is no guess.
Expected = tuple[str | None, int | None]
T = TypeVar("T")


class Flow(Protocol):
    """A game's own dial flow (e.g. a dial setting a trap): turned, pressed, finished by a seat."""

    def turn(self, detents: int) -> None: ...

    def press(self) -> None: ...

    def event(self, seat: int) -> dict[str, Any] | None: ...

    def shown(self) -> dict[str, Any]: ...

    def check(self, game: Game) -> RuleViolation | None:
        """A refusal the public state already gives before the flow is complete (the flow
        then steps back); None if there is none yet."""


class Screens(Protocol):
    """A game's screens (its ``screens.py``): 128x64 images from views (Pillow's, typed Any
    so that naming them costs no import). It may also have ``dial_flow(shown)`` (its dial
    flow's screen) and ``facts(private, seats)`` (a seat's own facts in words)."""

    def table(self, view: dict[str, Any], seats: Sequence[str]) -> Any: ...

    def seat(self, view: dict[str, Any], seats: Sequence[str], peeking: bool) -> Any: ...


class Simulator(Protocol):
    """A random player (the engine's ``sim.py``): a table-log header and the events of one
    whole legal game."""

    def random_game(self, seed: int, seats: int, **options: Any
                    ) -> tuple[dict[str, Any], list[dict[str, Any]]]: ...


class Geometry(Protocol):
    """What a scene mapper reads of the table (``daemon.camera.TableGeometry``): the game's
    own settings of where its pieces lie (its ``Camera.settings``)."""

    def settings(self, kind: type[T]) -> T: ...


class SceneMapper(Protocol):
    """What the camera saw -> the game's events (``vision.events``: ``TurnMapper``)."""

    settles_first: bool  # the first settled scene is where the pieces stand, not a play

    def events(self, before: Any, after: Any, public: dict[str, Any]
               ) -> list[dict[str, Any]]: ...


class DialHands(Protocol):
    """What a game's ``by_dial`` may do at a simulated table (``daemon.player.TablePlayer``):
    read the game and the dial flow's state, press the dial's switch, turn it, tap a seat's
    button; each waits ``until`` the table shows the change."""

    @property
    def game(self) -> Game: ...

    def dial_shown(self) -> dict[str, Any] | None: ...

    def press_switch(self, until: Callable[[], bool]) -> None: ...

    def turn_dial(self, detents: int, until: Callable[[], bool]) -> None: ...

    def tap_seat(self, seat: int, until: Callable[[], bool]) -> None: ...


class TablePlay(Protocol):
    """How a simulated table plays an event (a bundle's ``play.py``, see daemon/player.py):
    its ``route``, and where a route needs them ``pictures`` and ``by_dial`` (given the
    ``DialHands``, nothing of the daemon)."""

    def route(self, game: Game, event: dict[str, Any], camera: bool) -> str: ...


#: Makes a game's scene mapper from the game and the table's geometry.
MapperFactory = Callable[[Game, Geometry], SceneMapper]


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


def _no_cards(game: Game) -> list[str] | None:
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
    """How the camera sees the game: its scene mapper (made with the game and the table
    geometry), the picture size it needs, and whether it reads markers only."""

    #: None: the ``mapper`` of the bundle package's ``camera.py`` (``packaged`` finds it).
    mapper: Lazy[MapperFactory] | None = None
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
    engine: type[Game]  # the rules engine
    screens: Lazy[Screens]
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
    #: The card (or tile) faces the camera tells apart in a game as its table plays it (its
    #: options, e.g. a ``deck``), each face once: what a reading may be corrected to, what
    #: is enrolled at the table. None: the ids of the demo art (``cards``).
    card_faces: Callable[[Game], list[str] | None] = _no_cards
    #: The game's own dial flow, made from its options (None: the dial enters by hand).
    dial: Callable[[Mapping[str, Any]], Flow | None] | None = None
    camera: Camera | None = None
    art: Lazy[Callable[[], list[Any]]] | None = None  # the demo art's ArtItems (vision.art)
    simulator: Lazy[Simulator] | None = None
    demo: Demo | None = None
    #: How the simulated table plays an event (see daemon/player.py).
    table_play: Lazy[TablePlay] | None = None
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
        return self.engine

    def screen_module(self) -> Screens:
        return self.screens()

    def flow(self, options: Mapping[str, Any]) -> Flow | None:
        return self.dial(options) if self.dial is not None else None

    def art_items(self) -> list[Any]:
        return self.art()() if self.art is not None else []

    def cards(self, game: Game) -> list[str]:
        """Every card (or tile) face of ``game`` the camera tells apart, each once, in the
        game's own order (its entry's ``cards``, else its demo art's ids)."""
        given = self.card_faces(game)
        if given is None:
            given = [item.item_id for item in self.art_items()]
        return list(dict.fromkeys(given))

    def random_game(self, seed: int, seats: int, **options: Any
                    ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        if self.simulator is None:
            raise ValueError(f"the game {self.name!r} has no simulator")
        return self.simulator().random_game(seed, seats, **options)

    def scene_mapper(self, game: Game, geometry: Geometry) -> SceneMapper | None:
        """The camera's reader of this game's scenes (None: the camera reads nothing)."""
        if self.camera is None or self.camera.mapper is None:
            return None
        return self.camera.mapper()(game, geometry)

    def player(self) -> TablePlay | None:
        return self.table_play() if self.table_play is not None else None


#: What an ``entry.py`` of a bundle package may define, taken as the fields of that name
#: (its ``cards`` as ``card_faces``).
ENTRY_FIELDS = {"candidates": "candidates", "names": "names", "expected_entry": "expected_entry",
                "tap": "tap", "cards": "card_faces"}


def _has(module: str) -> bool:
    """Is there such a module (its parent package need not exist either)?"""
    try:
        return importlib.util.find_spec(module) is not None
    except ModuleNotFoundError:
        return False


def packaged(package: str, engine: type[Game], **fields: Any) -> Bundle:
    """The bundle of a package laid out as the built-in ones, ``companion/bundles/<game>/``:
    ``screens.py``, and where there is one: ``entry.py`` (``candidates``, ``names``,
    ``expected_entry``, ``tap``, ``cards``), ``dial.py`` (``dial``), ``camera.py`` (``mapper``),
    ``art.py`` (``items``), ``play.py`` (the simulated table), ``voice.py`` (``announce``),
    ``words.py`` (its marked words; ``DATA``: ``data_words``), and the simulator
    ``rules/sim.py`` (or ``sim.py``). ``fields`` give the rest (or override these); the
    game's ``name`` is the package's own unless given."""
    name = fields.pop("name", package.rpartition(".")[2])
    found: dict[str, Any] = {"screens": Lazy[Screens](f"{package}.screens")}
    if _has(f"{package}.entry"):
        entry = importlib.import_module(f"{package}.entry")
        found.update({field_name: getattr(entry, key) for key, field_name in ENTRY_FIELDS.items()
                      if hasattr(entry, key)})
    if _has(f"{package}.dial"):
        found["dial"] = importlib.import_module(f"{package}.dial").dial
    if _has(f"{package}.camera"):
        mapper = Lazy[MapperFactory](f"{package}.camera", "mapper")
        given = fields.get("camera") or Camera()
        fields["camera"] = given if given.mapper is not None else replace(given, mapper=mapper)
    if _has(f"{package}.art"):
        found["art"] = Lazy[Callable[[], list[Any]]](f"{package}.art", "items")
    if _has(f"{package}.voice"):
        found["announce"] = importlib.import_module(f"{package}.voice").announce
    if _has(f"{package}.words"):
        found["data_words"] = getattr(importlib.import_module(f"{package}.words"), "DATA", {})
    if _has(f"{package}.play"):
        found["table_play"] = Lazy[TablePlay](f"{package}.play")
    for simulator in (f"{package}.rules.sim", f"{package}.sim"):
        if _has(simulator):
            found["simulator"] = Lazy[Simulator](simulator)
            break
    return Bundle(name=name, engine=engine, **{**found, **fields})
