"""The rules engines, one per game, pure Python with no I/O.

Which games there are is the registry's to say (``companion.games.registry``: the
``companion.games`` entry points of the installed distributions).
"""

from __future__ import annotations

from companion.games.base import Game
from companion.games.registry import plugin


def engine(name: object) -> type[Game]:
    """The engine class of a game, or an OptionError naming the games there are (or saying
    why a declared one cannot be loaded)."""
    return plugin(name).engine
