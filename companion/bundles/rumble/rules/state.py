"""The game's state as its helper modules see it: a protocol the engine (``Rumble``) is one
of, so that the helpers take the state they read and change rather than import the engine
back."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol


class RumbleState(Protocol):
    """What ``actions.py`` and ``view.py`` read and change of a game of Rumble (see
    ``engine.py`` for each field)."""

    seats: list[str]
    options: dict[str, Any]
    start_rooms: Mapping[str, str]
    doors: Mapping[str, tuple[str, ...]]
    adventure: int
    phase: str
    starters: list[int]
    turn: int | None
    actions: int
    positions: dict[str, str]
    chest: str | None
    exits: list[list[str]]
    escaped: list[str | None]
    secrets: list[list[tuple[str, ...] | None]]
    carried: list[int | None]
    source: list[str | None]
    scores: tuple[tuple[int, ...], ...]
    rankings: tuple[tuple[str, ...], ...]
    last: dict[str, Any] | None

    @property
    def finished(self) -> bool: ...

    def totals(self) -> list[int]: ...

    def deal(self, adventure: int) -> list[list[str] | None]: ...

    def waiting_for(self) -> list[int]: ...

    def own_secrets(self, seat: int) -> list[str] | None: ...

    def legal_actions(self, seat: int) -> list[dict[str, Any]]: ...

    def refused_actions(self, seat: int) -> list[dict[str, Any]]: ...
