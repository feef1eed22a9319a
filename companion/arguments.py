"""What the command line's parsers share: lists read only when argparse needs them.

A list the parser shows or checks that only a registry knows (the games, the demo's games,
the languages) is a :class:`Later`: building the parser asks no registry, so
``companion --help`` loads no game (issue 43). It imports nothing of the companion: every
layer may use it.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterable, Iterator


class Later:
    """A list of names worked out each time it is read: as an argument's ``choices`` argparse
    reads it only to check a value or to show the usage; in a help text (``%(name)s``) it is
    the names joined with ", ", read only when that help is shown.

    >>> games = Later(lambda: ["rumble", "traps"])
    >>> "traps" in games, "tricky" in games, list(games), str(games)
    (True, False, ['rumble', 'traps'], 'rumble, traps')
    """

    def __init__(self, find: Callable[[], Iterable[str]]) -> None:
        self._find = find

    def __iter__(self) -> Iterator[str]:
        return iter(list(self._find()))

    def __contains__(self, item: object) -> bool:
        return item in list(self._find())

    def __str__(self) -> str:
        return ", ".join(self._find())


def later(action: argparse.Action, **lists: Callable[[], Iterable[str]]) -> argparse.Action:
    """Give an argument lists read only when argparse needs them: ``choices=find`` makes
    ``find()`` its choices; any other ``name=find`` fills ``%(name)s`` in its help text.

    >>> parser = argparse.ArgumentParser(prog="rules")
    >>> _ = later(parser.add_argument("game", help="%(games)s"), games=lambda: ["traps"])
    >>> _ = later(parser.add_argument("--art"), choices=lambda: ["tricky"])
    >>> parser.format_usage().strip()
    'usage: rules [-h] [--art {tricky}] game'
    >>> [line.split() for line in parser.format_help().splitlines() if "game " in line]
    [['game', 'traps']]
    """
    for name, find in lists.items():
        setattr(action, name, Later(find))
    return action

