"""The games there are: one registry, found through the ``companion.games`` entry points.

Every game, the four built in and any other, is declared the same way, by the distribution
that holds it (pyproject.toml)::

    [project.entry-points."companion.games"]
    mygame = "my_game_package:BUNDLE"

The group is listed once, when a game is first asked for, and an entry point is loaded only
when its game is (``companion rules GAME`` imports that game alone), so nothing depends on
what was imported before. What an entry point names is the game's bundle
(``companion.bundles.Bundle``); this layer reads only its ``name`` and ``engine``.
``register`` adds a game defined elsewhere for this process only (a test's toy game).

>>> names()[:4]
('deathtrap', 'rumble', 'traps', 'tricky')
>>> plugin("tricky").engine.title
'Tricky Dungeon'
"""

from __future__ import annotations

import sys
from functools import cache
from importlib.metadata import EntryPoint, entry_points
from typing import Protocol

from companion.errors import OptionError
from companion.games.base import Game

#: The entry-point group every game is declared in.
GROUP = "companion.games"
#: How much of a broken plug-in's error a line quotes.
QUOTED = 200


class Plugin(Protocol):
    """What this layer needs of a game's bundle: its name and its engine."""

    @property
    def name(self) -> str: ...

    @property
    def engine(self) -> type[Game]:
        """The rules engine."""


_registered: dict[str, Plugin] = {}
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
    """Every game's name, sorted: those declared (loaded or not yet) and those registered,
    less those whose every declaration was found broken."""
    declared = {name for name, points in installed().items()
                if not all(point in _broken for point in points)}
    return tuple(sorted({*declared, *_registered}))


def unknown(name: object) -> OptionError:
    """The error for a game there is not, naming the games there are."""
    return OptionError(f"unknown game {name!r} (games: {', '.join(names())})")


def plugin(name: object) -> Plugin:
    """The bundle of game ``name`` (loaded on first use), or an OptionError. Where several
    distributions declare the name, the first that loads is the game; one that does not is
    said once (``report``) and left out."""
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


@cache
def _load(point: EntryPoint) -> Plugin:
    """The object an entry point names (loaded once), checked to be the bundle of a game of
    its name; an OptionError if it cannot be loaded or is not one.

    Anything a plug-in raises while it is imported or asked its name and engine (SystemExit
    included: a plug-in does not end the companion) makes it broken; only Ctrl-C goes on.
    """
    if point in _broken:
        raise _broken[point]
    where = f"the game {point.name!r} ({source(point)})"
    try:
        found = point.load()
        engine = getattr(found, "engine", None)
        named = getattr(found, "name", None) == point.name
        is_game = named and isinstance(engine, type) and issubclass(engine, Game)
    except KeyboardInterrupt:
        raise
    except BaseException as error:  # noqa: BLE001 - any plug-in's failure, SystemExit too
        problem = OptionError(f"{where} cannot be loaded ({_quoted(error)})")
    else:
        if is_game:
            return found
        problem = OptionError(f"{where} is not the bundle of a game named {point.name!r}")
    _broken[point] = problem
    raise problem


@cache
def report(problem: str) -> None:
    """Say once, in one line on stderr, that a declared game is left out (and why)."""
    print(f"companion: {problem}: left out of the games", file=sys.stderr)


def register(game: Plugin) -> None:
    """Make ``game`` known in this process too (it wins over an entry point of its name)."""
    _registered[game.name] = game


def unregister(name: str) -> None:
    """Take a game given to ``register`` away again."""
    _registered.pop(name, None)
