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

from functools import cache
from importlib.metadata import EntryPoint, entry_points
from typing import Protocol

from companion.errors import OptionError
from companion.games.base import Game

#: The entry-point group every game is declared in.
GROUP = "companion.games"


class Plugin(Protocol):
    """What this layer needs of a game's bundle: its name and its engine."""

    @property
    def name(self) -> str: ...

    @property
    def engine(self) -> type[Game]:
        """The rules engine."""


_registered: dict[str, Plugin] = {}


@cache
def installed() -> dict[str, EntryPoint]:
    """The group's entry points by game name, listed once (the first of a name is kept)."""
    found: dict[str, EntryPoint] = {}
    for point in entry_points(group=GROUP):
        found.setdefault(point.name, point)
    return found


def names() -> tuple[str, ...]:
    """Every game's name, sorted."""
    return tuple(sorted({*installed(), *_registered}))


def unknown(name: object) -> OptionError:
    """The error for a game there is not, naming the games there are."""
    return OptionError(f"unknown game {name!r} (games: {', '.join(names())})")


def plugin(name: object) -> Plugin:
    """The bundle of game ``name`` (loaded on first use), or an OptionError."""
    if isinstance(name, str) and name in _registered:
        return _registered[name]
    point = installed().get(name) if isinstance(name, str) else None
    if point is None:
        raise unknown(name)
    return _load(point)


@cache
def _load(point: EntryPoint) -> Plugin:
    """The object an entry point names (loaded once), checked to be the bundle of a game of
    its name; an OptionError if it cannot be loaded or is not one."""
    where = f"the game {point.name!r} ({point.value})"
    try:
        found = point.load()
    except (ImportError, AttributeError) as error:
        raise OptionError(f"{where} cannot be loaded: {error}") from None
    engine = getattr(found, "engine", None)
    if getattr(found, "name", None) != point.name or not (
            isinstance(engine, type) and issubclass(engine, Game)):
        raise OptionError(f"{where} is not the bundle of a game named {point.name!r}")
    return found


def register(game: Plugin) -> None:
    """Make ``game`` known in this process too (it wins over an entry point of its name)."""
    _registered[game.name] = game


def unregister(name: str) -> None:
    """Take a game given to ``register`` away again."""
    _registered.pop(name, None)
