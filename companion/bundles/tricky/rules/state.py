"""The game's state as its helper modules see it: a protocol the engine (``Tricky``) is one
of, so that the helpers take the state they read and change rather than import the engine
back."""

from __future__ import annotations

import random
from typing import Any, Protocol

from companion.bundles.tricky.rules.deck import Deck
from companion.bundles.tricky.rules.round import Revoke, Round, RoundResult


class TrickyState(Protocol):
    """What ``prepare.py``, ``tricks.py`` and ``view.py`` read and change of a game of
    Tricky Dungeon (see ``engine.py`` for each field and method)."""

    seats: list[str]
    options: dict[str, Any]
    deck: Deck
    history: tuple[RoundResult, ...]
    revokes: tuple[Revoke, ...]
    heroes_used: tuple[tuple[str, ...], ...]
    current: Round | None  # the round in play, or the one just finished

    @property
    def finished(self) -> bool: ...

    def rng(self, *keys: object) -> random.Random: ...

    def totals(self) -> list[int]: ...

    def rounds(self) -> list[list[int]]: ...

    def winners(self) -> list[int]: ...

    def rounds_to_play(self) -> int | None: ...

    def hand_size(self) -> int: ...

    def hero_choices(self, seat: int) -> list[str]: ...

    def playing_round(self) -> Round: ...

    def check_card(self, card: str, field: str = "card") -> None: ...

    def check_suit(self, suit: str) -> None: ...

    def exchange_limit(self, seat: int) -> int | None: ...

    def to_play(self) -> int | None: ...
