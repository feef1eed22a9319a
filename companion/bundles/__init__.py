"""Game bundles: one package per game with everything the program knows of it besides its
rules engine, found through one registry.

Every package under ``companion/bundles/`` defines ``BUNDLE`` (a :class:`Bundle`); the
registry finds them itself, so adding a game is one new package (or, for a game defined
elsewhere, one ``register`` call). Registering a bundle also makes its engine known to
``companion.games.engine``, so the table log, ``replay`` and ``export`` read its sessions.

>>> [bundle.name for bundle in bundles()]
['traps', 'deathtrap', 'tricky', 'rumble']
>>> get("tricky").engine_class().title
'Tricky Dungeon'
"""

from __future__ import annotations

import importlib
import pkgutil

from companion.bundles.bundle import Bundle, Camera, Demo, Expected, Flow, load
from companion.errors import OptionError
from companion.games import ENGINES

__all__ = ["Bundle", "Camera", "Demo", "Expected", "Flow", "bundles", "demo_games", "get",
           "load", "names", "register", "unregister"]

_REGISTERED: dict[str, Bundle] = {}
_FOUND: list[bool] = []


def _find() -> None:
    """Register the packages of this folder, once."""
    if _FOUND:
        return
    _FOUND.append(True)
    for found in pkgutil.iter_modules(__path__):
        if found.ispkg:
            register(importlib.import_module(f"{__name__}.{found.name}").BUNDLE)


def register(bundle: Bundle) -> None:
    """Make ``bundle`` one of the games: in every menu, the demo, config and the table log."""
    _REGISTERED[bundle.name] = bundle
    ENGINES[bundle.name] = bundle.engine


def unregister(name: str) -> None:
    """Take a game registered by ``register`` away again (a test's toy game)."""
    _REGISTERED.pop(name, None)
    ENGINES.pop(name, None)


def bundles() -> list[Bundle]:
    """Every game, in menu order."""
    _find()
    return sorted(_REGISTERED.values(), key=lambda bundle: (bundle.order, bundle.name))


def names() -> tuple[str, ...]:
    """The games' names, sorted (as config and error messages list them)."""
    return tuple(sorted(bundle.name for bundle in bundles()))


def get(name: object) -> Bundle:
    """The bundle of game ``name``, or an OptionError naming the games there are."""
    _find()
    if not isinstance(name, str) or name not in _REGISTERED:
        raise OptionError(f"unknown game {name!r} (games: {', '.join(names())})")
    return _REGISTERED[name]


def demo_games() -> list[str]:
    """The games ``companion demo`` plays, in its order: those with a demo and a simulator."""
    return [bundle.name for bundle in bundles() if bundle.demo and bundle.simulator]


def pile_games() -> tuple[str, ...]:
    """The card games whose plays lay copies of one card together (the camera counts them)."""
    return tuple(sorted(bundle.name for bundle in bundles()
                        if bundle.camera is not None and bundle.camera.piles))


def card_games() -> tuple[str, ...]:
    """The games whose cards the camera reads from the card library (not from markers alone):
    only their faces are in the demo library the daemon loads."""
    return tuple(sorted(bundle.name for bundle in bundles()
                        if bundle.camera is not None and not bundle.camera.markers_only))
