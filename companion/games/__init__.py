"""The rules engines, one per game, pure Python with no I/O."""

from __future__ import annotations

import importlib

from companion.errors import OptionError
from companion.games.base import Game

#: game name -> "module:class" of its engine.
ENGINES = {
    "deathtrap": "companion.games.deathtrap:Deathtrap",
    "rumble": "companion.games.rumble:Rumble",
    "traps": "companion.games.traps:Traps",
    "tricky": "companion.games.tricky:Tricky",
}


def engine(name: object) -> type[Game]:
    """The engine class of a game, or an OptionError naming the games there are."""
    if not isinstance(name, str) or name not in ENGINES:
        raise OptionError(f"unknown game {name!r} (games: {', '.join(sorted(ENGINES))})")
    module_name, class_name = ENGINES[name].split(":")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if not exc.name or not module_name.startswith(exc.name):
            raise
        raise OptionError(f"the {name} engine is not available in this version") from None
    return getattr(module, class_name)
