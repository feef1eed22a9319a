"""The rules engines, one per game, pure Python with no I/O.

Which games there are is the registry's to say (``companion.games.registry``: the
``companion.games`` entry points of the installed distributions).
"""

from __future__ import annotations

import importlib

from companion.errors import OptionError
from companion.games.base import Game
from companion.games.registry import plugin


def engine(name: object) -> type[Game]:
    """The engine class of a game, or an OptionError naming the games there are."""
    module_name, class_name = plugin(name).engine.split(":")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if not exc.name or not module_name.startswith(exc.name):
            raise
        raise OptionError(f"the {name} engine is not available in this version") from None
    return getattr(module, class_name)
