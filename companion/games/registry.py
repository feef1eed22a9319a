"""The games there are, and every question about them: the one registry.

Every game, the four built in and any other, is declared the same way, by the distribution
that holds it (pyproject.toml)::

    [project.entry-points."companion.games"]
    mygame = "my_game_package:BUNDLE"

The group is listed once, when a game is first asked for, and an entry point is loaded only
when its game is (``companion rules GAME`` imports that game alone), so nothing depends on
what was imported before. What an entry point names is the game's ``Bundle``: it is checked
against the contract (``companion.games.spec``) as it loads, so a game missing a part it
must give, or giving one of the wrong type, is one line naming the game and the part (said
once on stderr), and is left out while every other game plays on. ``register`` adds a game
defined elsewhere for this process only (a test's toy game), checked the same way.

The questions asked of every game at once (the demo's games, the markers the pieces wear...)
are answered here from each game's declared parts (``answers``), as pluggy calls one hook
of every plug-in: no caller loops over the games.

>>> names()[:4]
('deathtrap', 'rumble', 'traps', 'tricky')
>>> get("tricky").engine.title
'Tricky Dungeon'
>>> [bundle.name for bundle in games()][:4]
['traps', 'deathtrap', 'tricky', 'rumble']
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from functools import cache
from importlib.metadata import EntryPoint, entry_points
from typing import Any, TypeVar

from companion.errors import OptionError
from companion.games.base import Game
from companion.games.spec import BrokenContract, Bundle, check_modules, conform

#: The entry-point group every game is declared in.
GROUP = "companion.games"
#: How much of a broken plug-in's error a line quotes.
QUOTED = 200
T = TypeVar("T")

_registered: dict[str, Bundle] = {}
#: Declarations that could not be loaded, and why (each tried once per process).
_broken: dict[EntryPoint, OptionError] = {}


@cache
def installed() -> dict[str, tuple[EntryPoint, ...]]:
    """The group's entry points by game name, listed once: every declaration of a name, in
    the order ``importlib.metadata`` finds them (the first that loads is the game)."""
    found: dict[str, tuple[EntryPoint, ...]] = {}
    for point in entry_points(group=GROUP):
        found[point.name] = (*found.get(point.name, ()), point)
    return found


def names() -> tuple[str, ...]:
    """Every game's name, sorted, without loading any: those declared and those registered,
    less those whose every declaration was found broken (``games`` loads them all)."""
    declared = {name for name, points in installed().items()
                if not all(point in _broken for point in points)}
    return tuple(sorted({*declared, *_registered}))


def unknown(name: object) -> OptionError:
    """The error for a game there is not, naming the games there are."""
    return OptionError(f"unknown game {name!r} (games: {', '.join(names())})")


def get(name: object) -> Bundle:
    """The bundle of game ``name`` (loaded and checked on first use), or an OptionError.
    Where several distributions declare the name, the first that loads is the game; one
    that does not is said once (``report``) and left out."""
    if isinstance(name, str) and name in _registered:
        return _registered[name]
    points = installed().get(name, ()) if isinstance(name, str) else ()
    if not points:
        raise unknown(name)
    failures: list[OptionError] = []
    for point in points:
        try:
            found = _load(point)
        except OptionError as error:
            failures.append(error)
            continue
        for failure in failures:
            report(str(failure))
        return found
    raise failures[0]


def engine(name: object) -> type[Game]:
    """The rules engine of game ``name`` (``get(name).engine``): all the table needs."""
    return get(name).engine


def games() -> list[Bundle]:
    """Every game, loaded, in menu order (the first is the default game). A declared game
    that cannot be loaded is left out, said once in one line on stderr."""
    found = []
    for name in names():
        try:
            bundle = get(name)
        except OptionError as error:
            report(str(error))
            continue
        found.append((bundle.order, bundle.name, bundle))
    return [bundle for _, _, bundle in sorted(found, key=lambda row: row[:2])]


def source(point: EntryPoint) -> str:
    """Where a declaration comes from: its distribution and what it names."""
    dist = getattr(point, "dist", None)
    named = f"{dist.name} {dist.version}" if dist is not None else "an unnamed distribution"
    return f"{named}: {point.value}"


def _quoted(error: BaseException) -> str:
    """A plug-in's error on one line, cut short: it is the plug-in's text, not ours."""
    text = " ".join(str(error).split()) or "(no message)"
    text = text if len(text) <= QUOTED else text[:QUOTED - 3] + "..."
    return f"{type(error).__name__}: {text}".encode("ascii", "backslashreplace").decode()


def checked(found: Any, name: str) -> Bundle:
    """``found`` as the bundle of the game ``name``, checked against the contract
    (``spec.conform``): BrokenContract naming the part that is missing or of the wrong
    type. Anything the object raises while it is read goes up."""
    own = getattr(found, "name", None)
    if own != name:
        raise BrokenContract("name", f"is {own!r}: it is not the bundle of a game named "
                                     f"{name!r}")
    bundle = conform(Bundle, found)
    check_modules(bundle)
    return bundle


@cache
def _load(point: EntryPoint) -> Bundle:
    """The bundle an entry point names (loaded and checked once); an OptionError if it
    cannot be loaded or does not keep the contract.

    Anything a plug-in raises while it is imported or read (SystemExit included: a plug-in
    does not end the companion) makes it broken; only Ctrl-C goes on.
    """
    if point in _broken:
        raise _broken[point]
    where = f"the game {point.name!r} ({source(point)})"
    try:
        return checked(point.load(), point.name)
    except KeyboardInterrupt:
        raise
    except BrokenContract as error:
        problem = OptionError(f"{where}: {error}")
    except BaseException as error:  # noqa: BLE001 - any plug-in's failure, SystemExit too
        problem = OptionError(f"{where} cannot be loaded ({_quoted(error)})")
    _broken[point] = problem
    raise problem


@cache
def report(problem: str) -> None:
    """Say once, in one line on stderr, that a declared game is left out (and why)."""
    print(f"companion: {problem}: left out of the games", file=sys.stderr)


def register(game: Any) -> None:
    """Make ``game`` one of the games in this process too (it wins over an entry point of
    its name), checked as an installed one is: an OptionError naming the part it lacks."""
    name = getattr(game, "name", None)
    try:
        _registered[str(name)] = checked(game, str(name))
    except BrokenContract as error:
        raise OptionError(f"the game {name!r}: {error}") from None


def unregister(name: str) -> None:
    """Take a game given to ``register`` away again."""
    _registered.pop(name, None)


# --- questions asked of every game ----------------------------------------------------------

def answers(question: Callable[[Bundle], T | None]) -> list[tuple[str, T]]:
    """Every game's answer to ``question``, asked of its declared parts, in menu order; a
    game whose answer is None (it does not have the part) is left out."""
    return [(bundle.name, answer) for bundle in games()
            if (answer := question(bundle)) is not None]


def default_game() -> str:
    """The game first in the menus (the config's default)."""
    return games()[0].name


def demo_games() -> list[str]:
    """The games ``companion demo`` plays, in its order: those with a demo and a simulator."""
    return [name for name, _ in answers(lambda b: b.demo if b.simulator else None)]


def art_games() -> list[str]:
    """The games with demo art (``companion vision art``), in menu order."""
    return [name for name, _ in answers(lambda b: b.art)]


def pile_games() -> tuple[str, ...]:
    """The card games whose plays lay copies of one card together (the camera counts them)."""
    return tuple(sorted(name for name, _ in answers(
        lambda b: b.camera if b.camera is not None and b.camera.piles else None)))


def card_games() -> tuple[str, ...]:
    """The games whose cards the camera reads from the card library (not from markers alone):
    only their faces are in the demo library the daemon loads."""
    return tuple(sorted(name for name, _ in answers(
        lambda b: b.camera if b.camera is not None and not b.camera.markers_only else None)))


def piece_markers() -> dict[int, str]:
    """The markers the pieces of every game wear, id -> its label on the marker sheet, by id."""
    found: dict[int, str] = {}
    for _, labels in answers(lambda b: b.camera.marker_labels() if b.camera else None):
        found.update(labels)
    return dict(sorted(found.items()))


def vision_settings() -> list[type]:
    """The games' own keys of the config's ``[vision]`` section (``CameraParts.settings``)."""
    return [kind for _, kind in answers(lambda b: b.camera.settings if b.camera else None)]


def data_words() -> dict[str, tuple[str, ...]]:
    """Every game's data files, file name -> the fields whose values people read."""
    return {file: fields for _, words in answers(lambda b: b.data_words)
            for file, fields in words.items()}
