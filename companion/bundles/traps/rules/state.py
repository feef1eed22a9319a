"""The game's state as its helper modules see it: a protocol the engine (``Traps``) is one
of, so that the helpers take the state they read and change rather than import the engine
back."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from companion.bundles.traps.rules.options import Attempt


class TrapsState(Protocol):
    """What ``disarm.py`` and ``view.py`` read and change of a game of traps (see
    ``engine.py`` for each field and method)."""

    seats: list[str]
    options: dict[str, Any]
    dials: Mapping[str, tuple[Any, ...]]
    squares: dict[str, dict[str, Any]]
    xp: list[int]
    attempts: tuple[Attempt, ...]
    step: int
    last: str
    note: dict[str, Any]
    sprung: dict[str, Any] | None

    @property
    def name(self) -> str: ...

    @property
    def finished(self) -> bool: ...

    def roll_die(self, what: str) -> int: ...

    def square_of(self, event: dict[str, Any]) -> tuple[str, dict[str, Any]]: ...

    def reading_of(self, square: str) -> str | dict[str, Any]: ...

    def trap_of(self, reading: dict[str, Any]) -> dict[str, Any]: ...

    def who(self, seat: int) -> str: ...

    def spring(self, square: str, seat: int, how: str) -> None: ...

    def jaws_counterattack(self, attack: int, dice: list[int], damage: int
                           ) -> dict[str, Any]: ...
