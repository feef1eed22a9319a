"""The game's state as its helper modules see it: a protocol the engine (``Deathtrap``) is
one of, so that the helpers take the state they read rather than import the engine back."""

from __future__ import annotations

from typing import Any, Protocol


class DeathtrapState(Protocol):
    """What ``view.py`` reads of a game of Deathtrap (see ``engine.py`` for each field)."""

    seats: list[str]
    options: dict[str, Any]
    round: int
    phase: str  # deal | exchange | pig | play | over
    dealer: int | None
    counts: list[int]
    pig: dict[str, Any] | None
    leader: int | None
    turn: int | None
    to_beat: dict[str, Any] | None
    passed: list[int]
    played: dict[str, int]
    last: dict[str, Any] | None
    history: tuple[tuple[int, ...], ...]

    def totals(self) -> list[int]: ...

    def finish_order(self) -> list[list[int]]: ...
