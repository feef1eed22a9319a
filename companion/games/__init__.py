"""What every game's rules share, and the registry of the games there are. Each game's own
engine lives in its bundle (``companion/bundles/<game>/rules/``).

- ``base``: ``Game``, the shape of a game (options, checked events, views, scores);
- ``state``: copying a game's state; ``views``: a state's views worked out once;
- ``data``: the component data a game ships; ``sim``: what the random players share;
- ``registry``: which games there are (the ``companion.games`` entry points of the
  installed distributions); ``engine(name)`` below gives a game's engine class.

``base``, ``state`` and ``views`` are pure Python with no I/O, as the engines are.
"""

from __future__ import annotations

from companion.games.base import Game
from companion.games.registry import plugin


def engine(name: object) -> type[Game]:
    """The engine class of a game, or an OptionError naming the games there are (or saying
    why a declared one cannot be loaded)."""
    return plugin(name).engine
