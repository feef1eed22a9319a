"""The 15 heroes of Tricky Dungeon: sets, trumps, trick order and the gold each earns.

Everything here comes from the rule text (section 6) and the player-count numbers of
docs/rulings.md, which are options of the game (``thief_gold_2_3``, ``knight_above_4``, ...).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.bundles.tricky.rules.deck import Deck
from companion.i18n import _

HERO_SETS: dict[str, tuple[str, ...]] = {
    "A": ("thief", "assassin", "barbarian", "wizard", "witch"),
    "B": ("dwarven-hunter", "trickster", "seer", "troubadour", "sorcerer"),
    "C": ("knight", "ninja", "elvish-hunter", "nymph", "fairy-scout"),
}
ALL_HEROES: tuple[str, ...] = tuple(hero for heroes in HERO_SETS.values() for hero in heroes)

#: What the active player chooses with the hero event.
CHOSEN_TRUMP = {"barbarian": "suit", "knight": "value"}
#: Heroes whose trump is a symbol of the deck: every card showing it is trump.
SYMBOL_TRUMP = {"wizard": "spells", "sorcerer": "spells", "witch": "potions",
                "elvish-hunter": "potions", "dwarven-hunter": "torches"}
#: The Troubadour's trump suit is named by the player on the active player's left.
NEIGHBOUR_TRUMP = frozenset({"troubadour"})
#: Who wins a trick among the cards of the led suit, when no trump was played.
TRICK_ORDER = {"nymph": "lowest", "fairy-scout": "second highest"}

TRICKSTER_OPEN_CARDS = 4


def title(hero: str) -> str:
    """``dwarven-hunter`` -> ``Dwarven Hunter``."""
    return _(hero.replace("-", " ").title())


@dataclass(frozen=True)
class Haul:
    """What the active player took in a round: the inputs of every hero's gold."""

    tricks: int
    cards: tuple[str, ...]
    won_last: bool
    prediction: int | None

    def count(self, deck: Deck, symbol: str) -> int:
        return sum(deck.has(symbol, card) for card in self.cards)


def _by_players(options: Mapping[str, Any], stem: str, players: int) -> int:
    return options[f"{stem}_4"] if players == 4 else options[f"{stem}_2_3"]


def hero_gold(hero: str, haul: Haul, deck: Deck, players: int,
              options: Mapping[str, Any]) -> int:
    """The gold the active player earns with ``hero`` (before the 1 gold to the others)."""
    potions = haul.count(deck, "potions")
    tricks_and_potions = haul.tricks + potions
    if hero == "thief":
        return max(0, _by_players(options, "thief_gold", players) - haul.tricks)
    if hero == "trickster":
        return max(0, _by_players(options, "trickster_gold", players) - tricks_and_potions)
    if hero in ("barbarian", "sorcerer", "knight"):
        return max(0, tricks_and_potions - _by_players(options, f"{hero}_above", players))
    if hero == "assassin":
        return 4 if haul.won_last else 0
    if hero == "wizard":
        return 2 * potions
    if hero in ("witch", "ninja"):
        return haul.count(deck, "spells")
    if hero == "dwarven-hunter":
        return haul.count(deck, "goblins")
    if hero == "elvish-hunter":
        return haul.count(deck, "orcs")
    if hero == "seer":
        return 5 if haul.prediction == tricks_and_potions else 0
    if hero == "troubadour":
        return tricks_and_potions
    if hero == "nymph":
        return 2 * haul.count(deck, "ogres")
    if hero == "fairy-scout":
        return 2 * haul.tricks
    raise ValueError(f"unknown hero {hero!r}")


def is_trump(card: str, trump: Mapping[str, Any] | None, deck: Deck) -> bool:
    """Whether ``card`` is trump under ``trump`` ({suit}, {value}, {symbol} or None)."""
    if not trump:
        return False
    if "suit" in trump:
        return deck.suit(card) == trump["suit"]
    if "value" in trump:
        return deck.value(card) == trump["value"]
    return deck.has(trump["symbol"], card)


def trick_winner(cards: Sequence[str], hero: str, trump: Mapping[str, Any] | None,
                 deck: Deck, trump_order: str) -> int:
    """The index in ``cards`` (play order, the lead first) of the card that wins the trick."""
    trumps = [i for i, card in enumerate(cards) if is_trump(card, trump, deck)]
    if trumps:
        def strength(i: int) -> tuple[int, int]:
            value, stars = deck.value(cards[i]), deck.stars(cards[i])
            return (stars, value) if trump_order == "stars" else (value, stars)
        return max(trumps, key=strength)
    led = deck.suit(cards[0])
    followers = sorted((i for i, card in enumerate(cards) if deck.suit(card) == led),
                       key=lambda i: deck.value(cards[i]), reverse=True)
    order = TRICK_ORDER.get(hero, "highest")
    if order == "lowest":
        return followers[-1]
    if order == "second highest" and len(followers) > 1:
        return followers[1]
    return followers[0]
