"""Game bundles: one package per game with everything the program knows of it besides its
rules engine, found through one registry.

Every game is declared as an entry point of the ``companion.games`` group by the
distribution that holds it (the four built in: this project's pyproject.toml); the registry
(``companion.games.registry``) lists them once, lazily, so a game installed with ``pip`` is
in every menu, the demo, config and the table log with no file of ``companion/`` naming it.
``register`` adds a game defined elsewhere for this process only (a test's toy game).

>>> [bundle.name for bundle in bundles()][:4]
['traps', 'deathtrap', 'tricky', 'rumble']
>>> get("tricky").engine_class().title
'Tricky Dungeon'
"""

from __future__ import annotations

from companion.bundles.bundle import (
    Bundle,
    Camera,
    Demo,
    Expected,
    Flow,
    Lazy,
    MapperFactory,
    SceneMapper,
    Screens,
    Simulator,
    TablePlay,
)
from companion.errors import OptionError
from companion.games import registry

__all__ = ["Bundle", "Camera", "Demo", "Expected", "Flow", "Lazy", "MapperFactory", "SceneMapper",
           "Screens", "Simulator", "TablePlay", "art_games", "bundles", "demo_games", "get",
           "names", "piece_markers", "register", "unregister", "vision_settings"]


def register(bundle: Bundle) -> None:
    """Make ``bundle`` one of the games in this process: in every menu, the demo, config and
    the table log (an installed game needs no call: its entry point is found)."""
    registry.register(bundle)


def unregister(name: str) -> None:
    """Take a game registered by ``register`` away again (a test's toy game)."""
    registry.unregister(name)


def bundles() -> list[Bundle]:
    """Every game, in menu order (the first is the default game). A declared game that cannot
    be loaded is left out, said once in one line on stderr; ``get`` names what is wrong
    with it."""
    found = []
    for name in registry.names():
        try:
            bundle = get(name)
            found.append((bundle.order, bundle.name, bundle))
        except OptionError as error:
            registry.report(str(error))
    return [bundle for _, _, bundle in sorted(found, key=lambda entry: entry[:2])]


def names() -> tuple[str, ...]:
    """The games' names, sorted (as config and error messages list them)."""
    return tuple(sorted(bundle.name for bundle in bundles()))


def get(name: object) -> Bundle:
    """The bundle of game ``name``, or an OptionError naming the games there are."""
    found = registry.plugin(name)
    if not isinstance(found, Bundle):
        raise OptionError(f"the game {name!r} is declared by {found!r}, not by a Bundle")
    return found


def demo_games() -> list[str]:
    """The games ``companion demo`` plays, in its order: those with a demo and a simulator."""
    return [bundle.name for bundle in bundles() if bundle.demo and bundle.simulator]


def art_games() -> list[str]:
    """The games with demo art (``companion vision art``), in menu order."""
    return [bundle.name for bundle in bundles() if bundle.art]


def pile_games() -> tuple[str, ...]:
    """The card games whose plays lay copies of one card together (the camera counts them)."""
    return tuple(sorted(bundle.name for bundle in bundles()
                        if bundle.camera is not None and bundle.camera.piles))


def card_games() -> tuple[str, ...]:
    """The games whose cards the camera reads from the card library (not from markers alone):
    only their faces are in the demo library the daemon loads."""
    return tuple(sorted(bundle.name for bundle in bundles()
                        if bundle.camera is not None and not bundle.camera.markers_only))


def piece_markers() -> dict[int, str]:
    """The markers the pieces of every game wear, id -> its label on the marker sheet, by id."""
    found: dict[int, str] = {}
    for bundle in bundles():
        if bundle.camera is not None:
            found.update(bundle.camera.marker_labels())
    return dict(sorted(found.items()))


def vision_settings() -> list[type]:
    """The games' own keys of the config's ``[vision]`` section (``Camera.settings``)."""
    return [bundle.camera.settings for bundle in bundles()
            if bundle.camera is not None and bundle.camera.settings is not None]
