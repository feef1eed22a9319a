"""The Tricky Dungeon deck: colours, values, stars and the symbols the heroes collect.

The composition is *assumed* (docs/rulings.md) and lives in ``data/tricky-deck.json``;
a table replaces it with the ``deck`` option. Cards are named ``SUIT-VALUE``.

Example::

    deck = Deck(default_deck())
    deck.suit("green-4"), deck.value("green-4"), deck.stars("green-4")   # ('green', 4, 4)
    deck.is_potion("green-6")                                           # True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from companion.games.data import shipped_data

GAME_FOLDER = "companion.bundles.tricky"
DECK_FILE = "tricky-deck.json"
#: Symbol lists of the deck file: the values that carry each symbol in every colour.
SYMBOLS = ("spells", "goblins", "orcs", "torches", "ogres")
DECK_KEYS = ("about", "colours", "values", *SYMBOLS, "hand_size")
PLAYER_COUNTS = ("2", "3", "4")


def default_deck() -> dict[str, Any]:
    """The shipped (assumed) deck data."""
    return check_deck(shipped_data(GAME_FOLDER, DECK_FILE))


def _whole(value: Any, what: str, minimum: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise ValueError(f"{what} must be a whole number of at least {minimum}, got {value!r}")
    return value


def check_deck(data: Any) -> dict[str, Any]:
    """Check deck data (the ``deck`` option); raise ValueError naming the bad key."""
    if not isinstance(data, dict):
        raise ValueError("must be an object with colours, values, symbols and hand_size")
    for key in data:
        if key not in DECK_KEYS:
            raise ValueError(f"unknown key '{key}' (keys: {', '.join(DECK_KEYS)})")
    for key in DECK_KEYS[1:]:
        if key not in data:
            raise ValueError(f"missing key '{key}'")
    values = data["values"]
    if not isinstance(values, list) or not values:
        raise ValueError("'values' must be a non-empty list of card values")
    for value in values:
        _whole(value, "every entry of 'values'")
    if len(set(values)) != len(values):
        raise ValueError("'values' must not repeat a value")
    colours = data["colours"]
    if not isinstance(colours, list) or not colours:
        raise ValueError("'colours' must be a non-empty list of {suit, stars, potion}")
    for colour in colours:
        if not isinstance(colour, dict) or set(colour) != {"suit", "stars", "potion"}:
            raise ValueError(f"each colour must be {{suit, stars, potion}}, got {colour!r}")
        suit = colour["suit"]
        if not isinstance(suit, str) or not suit.strip() or suit != suit.strip():
            raise ValueError(f"a colour's 'suit' must be a name, got {suit!r}")
        _whole(colour["stars"], f"stars of {suit}")
        if colour["potion"] not in values:
            raise ValueError(f"the potion of {suit} must be one of 'values', got "
                             f"{colour['potion']!r}")
    suits = [colour["suit"] for colour in colours]
    if len(set(suits)) != len(suits):
        raise ValueError("two colours have the same suit name")
    stars = [colour["stars"] for colour in colours]
    # Stars break ties between trumps of equal value, so two colours must never share a count.
    if len(set(stars)) != len(stars):
        raise ValueError("every colour needs a different number of stars")
    for key in SYMBOLS:
        if not isinstance(data[key], list) or any(v not in values for v in data[key]):
            raise ValueError(f"'{key}' must be a list of values from 'values'")
    hand_size = data["hand_size"]
    if not isinstance(hand_size, dict) or set(hand_size) != set(PLAYER_COUNTS):
        raise ValueError("'hand_size' must give the cards per player for \"2\", \"3\" and \"4\"")
    deck_size = len(values) * len(colours)
    for players, size in hand_size.items():
        _whole(size, f"hand_size of {players} players", minimum=1)
        if int(players) * size > deck_size:
            raise ValueError(f"{players} hands of {size} need more than the {deck_size} cards")
    return data


@dataclass(frozen=True, init=False)
class Deck:
    """Read-only questions about cards, built from checked deck data.

    Immutable (a frozen dataclass of tuples, frozensets and read-only mappings): every copy
    of a game shares it."""

    suits: tuple[str, ...]
    values: tuple[int, ...]
    potions: frozenset[str]
    cards: tuple[str, ...]
    _stars: Mapping[str, int]
    _symbols: Mapping[str, frozenset[int]]
    _hand_size: Mapping[int, int]
    _card_set: frozenset[str]

    def __init__(self, data: dict[str, Any]) -> None:
        suits = tuple(colour["suit"] for colour in data["colours"])
        values = tuple(data["values"])
        fields = {
            "suits": suits,
            "values": values,
            "potions": frozenset(f"{c['suit']}-{c['potion']}" for c in data["colours"]),
            "cards": tuple(f"{s}-{v}" for s in suits for v in values),
            "_stars": MappingProxyType({c["suit"]: c["stars"] for c in data["colours"]}),
            "_symbols": MappingProxyType({key: frozenset(data[key]) for key in SYMBOLS}),
            "_hand_size": MappingProxyType({int(players): size for players, size
                                            in data["hand_size"].items()}),
        }
        fields["_card_set"] = frozenset(fields["cards"])
        for name, value in fields.items():
            object.__setattr__(self, name, value)

    def is_card(self, card: str) -> bool:
        return card in self._card_set

    def describe(self) -> str:
        """How a card is written, for error messages."""
        low, high = min(self.values), max(self.values)
        return f"cards are SUIT-VALUE, suit {', '.join(self.suits)}, value {low} to {high}"

    def suit(self, card: str) -> str:
        return card.rsplit("-", 1)[0]

    def value(self, card: str) -> int:
        return int(card.rsplit("-", 1)[1])

    def stars(self, card: str) -> int:
        return self._stars[self.suit(card)]

    def hand_size(self, players: int) -> int:
        return self._hand_size[players]

    def leftover(self, players: int) -> int:
        """Cards put aside after the deal: the pile exchanges and the Trickster draw from."""
        return len(self.cards) - players * self.hand_size(players)

    def is_potion(self, card: str) -> bool:
        return card in self.potions

    def has(self, symbol: str, card: str) -> bool:
        """Whether ``card`` shows ``symbol``: potions, or a symbol list of the deck file.

        Goblins and orcs are the listed values that are not potions (the rules' wording).
        """
        if symbol == "potions":
            return self.is_potion(card)
        if symbol in ("goblins", "orcs") and self.is_potion(card):
            return False
        return self.value(card) in self._symbols[symbol]
