"""The state of one Tricky Dungeon round, typed, and the records of finished ones.

``Round`` is the round in play (a plain dataclass: a copy of the game copies it); the
records that stay once it is over (``RoundResult``, ``Revoke``) are frozen, so every copy
of the game shares them however long the game grows.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.bundles.tricky.rules.deck import Deck
from companion.bundles.tricky.rules.heroes import NEIGHBOUR_TRUMP, TRICKSTER_OPEN_CARDS
from companion.i18n import NP_

#: Phases of a round: the active player chooses a hero, cards are exchanged and the heroes'
#: choices made, tricks are played, then it is over.
HERO, PREPARE, PLAY, OVER = "hero", "prepare", "play", "over"
#: What the table waits for before the first card, and how a screen asks for it.
WAITING = {"open-cards": NP_("text", "Turn 4 cards face up"),
           "trump": NP_("text", "Name the trump suit"),
           "predict": NP_("text", "Predict tricks + potions")}


@dataclass
class TrickPlay:
    """One card of the trick in play: a card, or the Ninja's face-down card (its suit only)."""

    seat: int
    card: str | None = None
    suit: str | None = None

    def as_view(self) -> dict[str, Any]:
        """As the views and the log show it: {seat, card} or {seat, suit, face_down}."""
        if self.card is not None:
            return {"seat": self.seat, "card": self.card}
        return {"seat": self.seat, "suit": self.suit, "face_down": True}


@dataclass(frozen=True)
class LastTrick:
    """The trick finished last in this round: its number, its cards in play order, who won."""

    number: int
    cards: tuple[tuple[int, str], ...]  # (seat, card)
    winner: int

    def as_view(self) -> dict[str, Any]:
        return {"number": self.number, "winner": self.winner,
                "cards": [{"seat": seat, "card": card} for seat, card in self.cards]}


@dataclass(frozen=True)
class RoundResult:
    """A finished round: its active player, hero and trump, tricks won and gold per seat."""

    active: int
    hero: str
    trump: Mapping[str, Any] | None
    tricks: tuple[int, ...]
    gold: tuple[int, ...]


@dataclass(frozen=True)
class Revoke:
    """A seat that played a suit in ``played_in`` after showing out of it in ``trick``."""

    round: int
    seat: int
    suit: str
    trick: int
    played_in: int

    def as_view(self) -> dict[str, Any]:
        return {"round": self.round, "seat": self.seat, "suit": self.suit,
                "trick": self.trick, "played_in": self.played_in}


@dataclass
class Round:
    """The round in play. ``seats`` is the number of players."""

    active: int
    seats: int
    offers: tuple[str, ...] = ()  # random dungeon: the heroes drawn, in order
    phase: str = HERO
    hero: str | None = None
    trump: dict[str, Any] | None = None
    refused: list[str] = field(default_factory=list)
    opened: bool = False  # the Trickster's four cards are face up
    open_cards: list[str] = field(default_factory=list)
    exchanged: list[int | None] = field(default_factory=list)
    discards: list[str] = field(default_factory=list)
    prediction: int | None = None
    leader: int = 0
    trick: list[TrickPlay] = field(default_factory=list)
    played: dict[str, int] = field(default_factory=dict)  # card -> the trick it was played in
    won: list[int] = field(default_factory=list)
    collected: list[list[str]] = field(default_factory=list)
    last_trick: LastTrick | None = None
    voids: list[dict[str, int]] = field(default_factory=list)  # per seat: suit -> trick shown out

    @classmethod
    def deal(cls, active: int, seats: int, offers: tuple[str, ...]) -> Round:
        return cls(active, seats, offers, leader=active, exchanged=[None] * seats,
                   won=[0] * seats, collected=[[] for _ in range(seats)],
                   voids=[{} for _ in range(seats)])

    @property
    def playing(self) -> bool:
        return self.phase != OVER

    def offer(self) -> str:
        """Random dungeon: the hero drawn now."""
        return self.offers[len(self.refused)]

    def trick_number(self) -> int:
        return sum(self.won) + 1

    def trick_full(self) -> bool:
        return len(self.trick) == self.seats

    def left_of(self, seat: int) -> int:
        return (seat + 1) % self.seats

    def lead_suit(self, deck: Deck) -> str | None:
        if not self.trick:
            return None
        lead = self.trick[0]
        return lead.suit if lead.card is None else deck.suit(lead.card)

    def pile(self, deck: Deck) -> int:
        """Cards left in the leftover pile for exchanges."""
        opened = TRICKSTER_OPEN_CARDS if self.opened else 0
        exchanged = sum(count or 0 for count in self.exchanged)
        return deck.leftover(self.seats) - opened - exchanged

    def waiting_for(self) -> tuple[int, str] | None:
        """Who must act before the first card, and what they must do (None: nobody)."""
        if self.hero == "trickster" and not self.opened:
            return self.active, "open-cards"
        if self.hero in NEIGHBOUR_TRUMP and self.trump is None:
            return self.left_of(self.active), "trump"
        if self.hero == "seer" and self.prediction is None:
            return self.active, "predict"
        return None

    def to_play(self) -> int | None:
        """The seat the table waits for (None once the round is over)."""
        if self.phase == OVER:
            return None
        if self.phase == HERO:
            return self.active
        if self.phase == PREPARE:
            waiting = self.waiting_for()
            return waiting[0] if waiting else self.active
        if self.trick_full():
            return next(play.seat for play in self.trick if play.card is None)
        return (self.leader + len(self.trick)) % self.seats
