"""The contract of a game: what a game must give the companion and what it may, typed.

The engine (``Game``) decides what is legal; the rest of the ``Bundle`` says how the game
meets the table: its screens, the words of its manual-entry forms, what a seat button's tap
means, its own dial flow, how the camera reads it, its demo art, simulator and demo settings.
The daemon, the commands and the web pages ask the registry (``companion.games.registry``)
for the bundle and never name a game; the camera, the screens, the voice and the history are
handed its parts.

A game **must** give its ``name``, its ``engine`` (a ``Game`` subclass) and its ``screens``;
every other field of ``Bundle`` it **may** give, each typed. The registry checks a game
against these types when it loads it (``conform``): a part missing or of the wrong type is
one line naming the game and the part, and the game is left out (pluggy checks a plug-in
against its hook specification the same way). Each game declares its parts by name in its
package's ``__init__.py`` (``BUNDLE = Bundle(...)``): nothing is found by probing files.

The parts that need Pillow, OpenCV, numpy or the daemon (the screens, the camera mapper, the
art, the simulated table) and the simulator are ``Lazy`` references, typed as what they are
and imported only when asked for, so listing the games stays cheap; the module each names
must exist when the game loads.
"""

from __future__ import annotations

import importlib.util
import re
import types
from collections.abc import Callable, Mapping, Sequence
from dataclasses import MISSING, dataclass, field, fields
from functools import cache
from typing import Any, Protocol, TypeVar, Union, get_args, get_origin, get_type_hints

from companion.errors import OptionError, RuleViolation
from companion.games.base import Game
from companion.games.data import shipped_data
from companion.games.lazy import Lazy
from companion.i18n import pgettext

#: (event type, seat) a manual entry starts at; None where there is no guess.
Expected = tuple[str | None, int | None]
T = TypeVar("T")


class Flow(Protocol):
    """A game's own dial flow (e.g. a dial setting a trap): turned, pressed, finished by a seat."""

    def turn(self, detents: int) -> None: ...

    def press(self) -> None: ...

    def event(self, seat: int) -> dict[str, Any] | None: ...

    def dial_state(self) -> dict[str, Any]: ...

    def check(self, game: Game) -> RuleViolation | None:
        """A refusal the public state already gives before the flow is complete (the flow
        then steps back); None if there is none yet."""


#: A screen drawn from a view and the seats' names (a Pillow image, typed Any so that naming
#: it costs no import).
TableScreen = Callable[[dict[str, Any], Sequence[str]], Any]
SeatScreen = Callable[[dict[str, Any], Sequence[str], bool], Any]


@dataclass(frozen=True)
class Screens:
    """A game's screens, as its screens module gives them (checked when first loaded,
    ``Bundle.screen_module``): the module's ``table`` and ``seat``, and where it has them
    ``dial_flow(dial_state)`` (its dial flow's screen), ``facts(private, seats)`` (a seat's own
    facts in words), ``TABLE_KEYS`` and ``SEAT_KEYS`` (the keys of the views the screens
    read: drawn from those alone)."""

    table: TableScreen
    seat: SeatScreen
    dial_flow: Callable[[dict[str, Any]], Any] | None = None
    facts: Callable[[dict[str, Any], Sequence[str]], dict[str, str]] | None = None
    table_keys: tuple[str, ...] | None = None
    seat_keys: tuple[str, ...] | None = None


#: The names a screens module gives its parts under (the module's own -> ``Screens``'s).
SCREENS_MODULE = {"table": "table", "seat": "seat", "dial_flow": "dial_flow",
                  "facts": "facts", "TABLE_KEYS": "table_keys", "SEAT_KEYS": "seat_keys"}


class Simulator(Protocol):
    """A random player (the engine's ``sim.py``): a table-log header and the events of one
    whole legal game."""

    def random_game(self, seed: int, seats: int, **options: Any
                    ) -> tuple[dict[str, Any], list[dict[str, Any]]]: ...


class Geometry(Protocol):
    """What a scene mapper reads of the table (``daemon.camera.TableGeometry``): the game's
    own settings of where its pieces lie (its ``CameraParts.settings``)."""

    def settings(self, kind: type[T]) -> T: ...


class PlacedPiece(Protocol):
    """A card or tile as a game's mapper reads it (``vision.scene.Piece``): its id, where it
    lies on the table (mm) and whose zone that is (a seat, or None for the centre)."""

    @property
    def item_id(self) -> str: ...

    @property
    def centre_mm(self) -> tuple[float, float]: ...

    @property
    def zone(self) -> int | None: ...


class SettledScene(Protocol):
    """What a settled picture holds, as a game's mapper reads it (``vision.scene.TableScene``:
    games know no vision): its pieces, and its markers (marker id, table mm)."""

    @property
    def pieces(self) -> Sequence[PlacedPiece]: ...

    @property
    def markers(self) -> Sequence[tuple[int, tuple[float, float]]]: ...


class SceneMapper(Protocol):
    """What the camera saw -> the game's events (``vision.events``: ``TurnMapper``)."""

    settles_first: bool  # the first settled scene is where the pieces stand, not a play

    def events(self, before: SettledScene, after: SettledScene, public: dict[str, Any]
               ) -> list[dict[str, Any]]: ...


class DialHands(Protocol):
    """What a game's ``by_dial`` may do at a simulated table (``daemon.player.TablePlayer``):
    read the game and the dial flow's state, press the dial's switch, turn it, tap a seat's
    button; each waits ``until`` the table shows the change."""

    @property
    def game(self) -> Game: ...

    def dial_state(self) -> dict[str, Any] | None: ...

    def press_switch(self, until: Callable[[], bool]) -> None: ...

    def turn_dial(self, detents: int, until: Callable[[], bool]) -> None: ...

    def tap_seat(self, seat: int, until: Callable[[], bool]) -> None: ...


class TablePlay(Protocol):
    """How a simulated table plays an event (a bundle's ``play.py``, see daemon/player.py):
    its ``route``, and where a route needs them ``pictures`` (given a
    ``vision.synthetic.TableStage`` to draw on) and ``by_dial`` (given the ``DialHands``),
    nothing of the daemon."""

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
class CameraParts:
    """How the camera sees the game: its scene mapper (made with the game and the table
    geometry), the picture size it needs, and whether it reads markers only."""

    #: The game's scene mapper (its ``camera.py``'s ``mapper``; None: the camera reads
    #: nothing of the game).
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
    """One game as the rest of the program meets it: the contract (see the module
    docstring). The fields without a default are the parts a game must give."""

    name: str
    engine: type[Game]  # the rules engine
    #: Its screens module (``screens.py``): ``table`` and ``seat``, and what ``Screens`` lists.
    screens: Lazy[Any]
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
    camera: CameraParts | None = None
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
    #: Its component data files' fields that people read, file name -> fields (its
    #: ``words.py``'s ``DATA``): the catalogue's extractor takes their values.
    data_words: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    #: The game's name on one line of a menu (marked ``NP_("game", ...)``; translated where
    #: it is shown); empty: the engine's title.
    menu_title: str = ""

    def title_line(self) -> str:
        """The game's name for a menu line, in the language drawn (its whole title is in
        ``companion rules``)."""
        return pgettext("game", self.menu_title) if self.menu_title else self.engine.title

    def screen_module(self) -> Screens:
        """Its screens, loaded and checked against ``Screens`` (once)."""
        return _screens_of(self.name, self.screens)

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


# --- the check ------------------------------------------------------------------------------

class BrokenContract(OptionError):
    """A game does not keep the contract: ``part`` is missing or not of its type."""

    def __init__(self, part: str, problem: str) -> None:
        super().__init__(f"its part {part!r} {problem}")
        self.part = part


def _words(hint: Any) -> str:
    """A type as people read it: ``type[Game] | None``, without module paths."""
    text = hint.__name__ if isinstance(hint, type) and not get_args(hint) else str(hint)
    return re.sub(r"\b(?:[a-z_]\w*\.)+", "", text).replace("NoneType", "None")


def _what(value: Any) -> str:
    """What a value is, in a few words: ``the class Tally``, ``str``."""
    return f"the class {value.__name__}" if isinstance(value, type) else type(value).__name__


def fits(value: Any, hint: Any) -> bool:
    """Is ``value`` of type ``hint`` (as far as a value shows it: a callable's signature is
    not read, nor a protocol's methods)?

    >>> fits(("a", "b"), tuple[str, ...]), fits(("a", 1), tuple[str, ...])
    (True, False)
    >>> fits(Game, type[Game]), fits(int, type[Game]), fits(None, type[Game] | None)
    (False, False, True)
    """
    origin, args = get_origin(hint), get_args(hint)
    if hint is Any or isinstance(hint, TypeVar):
        return True
    if hint is None or hint is type(None):
        return value is None
    if origin in (Union, types.UnionType):
        return any(fits(value, arg) for arg in args)
    if origin is type:
        wanted = args[0] if args else object
        return isinstance(value, type) and (wanted is Any or issubclass(value, wanted)
                                            and value is not wanted)
    if origin is tuple:
        if not isinstance(value, tuple):
            return False
        if len(args) == 2 and args[1] is Ellipsis:
            return all(fits(item, args[0]) for item in value)
        return len(args) == len(value) and all(map(fits, value, args))
    if origin in (Mapping, dict):
        return isinstance(value, Mapping) and all(
            fits(key, args[0]) and fits(item, args[1]) for key, item in value.items())
    if origin is Callable or hint is Callable:
        return callable(value)
    if isinstance(origin, type):
        return isinstance(value, origin)
    if isinstance(hint, type) and not getattr(hint, "_is_protocol", False):
        return isinstance(value, hint)
    return True


@cache
def _hints(kind: type) -> dict[str, Any]:
    return get_type_hints(kind)


def conform(kind: type[T], found: Any, names: Mapping[str, str] | None = None) -> T:
    """``found`` as a ``kind`` (a dataclass of the contract: ``Bundle``, ``Screens``), each of
    its fields read from ``found``'s attribute of that name (or of the name ``names`` maps to
    it) and checked against its type; BrokenContract naming the first part missing (one
    without a default) or of another type. Anything ``found`` raises while read goes up."""
    names = names or {spec.name: spec.name for spec in fields(kind)}  # type: ignore[arg-type]
    given: dict[str, Any] = {}
    hints = _hints(kind)
    for own, part in names.items():
        spec = next(spec for spec in fields(kind) if spec.name == part)  # type: ignore[arg-type]
        value = getattr(found, own, MISSING)
        if value is MISSING:
            if spec.default is MISSING and spec.default_factory is MISSING:
                raise BrokenContract(own, "is missing (a game must give it)")
            continue
        if not fits(value, hints[part]):
            raise BrokenContract(own, f"is {_what(value)}, not {_words(hints[part])}")
        given[part] = value
    return found if isinstance(found, kind) and len(given) == len(names) else kind(**given)


def check_modules(bundle: Bundle) -> None:
    """Every ``Lazy`` part of ``bundle`` names a module there is (nothing is imported but the
    packages holding them): a misspelt module is a broken game at load, not at first draw."""
    parts = {spec.name: getattr(bundle, spec.name) for spec in fields(Bundle)}
    if bundle.camera is not None:
        parts["camera.mapper"] = bundle.camera.mapper
    for part, value in parts.items():
        if isinstance(value, Lazy) and not _exists(value.module):
            raise BrokenContract(part, f"names no module {value.module!r}")


def _exists(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


@cache
def _screens_of(game: str, module: Lazy[Any]) -> Screens:
    """The screens module ``module`` of ``game``, checked against ``Screens`` once; an
    OptionError naming the game and the part if it does not keep it."""
    try:
        return conform(Screens, module(), SCREENS_MODULE)
    except BrokenContract as error:
        raise OptionError(f"the game {game!r}: its screens ({module}): {error}") from None
