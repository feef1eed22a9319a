"""The Deathtrap Dungeon pack: creature cards from a data file plus the four special cards.

The creature list is *assumed* (docs/rulings.md) and lives in ``data/deathtrap-deck.json``
in the game's folder; a table replaces it with the header option ``deck``.
The specials always stay.

>>> pack = Pack.from_option(default_deck())
>>> pack.size, pack.value["skeleton"], pack.name["red-lotus"]
(82, 3, 'Red Lotus')
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from companion.games.data import shipped_data
from companion.i18n import N_, translated

CHAINDOG = "chaindog"
RED_LOTUS = "red-lotus"
EXPLODING_PIG = "exploding-pig"
KILLING_MACHINE = "killing-machine"
WILDS = (CHAINDOG, RED_LOTUS)
SPECIALS = (CHAINDOG, RED_LOTUS, EXPLODING_PIG, KILLING_MACHINE)
SPECIAL_NAMES = {CHAINDOG: N_("Chaindog"), RED_LOTUS: N_("Red Lotus"),
                 EXPLODING_PIG: N_("Exploding Pig"), KILLING_MACHINE: N_("The Killing Machine")}

GAME_FOLDER = "companion.bundles.deathtrap"
DECK_FILE = "deathtrap-deck.json"


def default_deck() -> dict[str, Any]:
    """The shipped (assumed) deck data, as the ``deck`` option takes it."""
    return check_deck(shipped_data(GAME_FOLDER, DECK_FILE))


def check_deck(value: Any) -> dict[str, Any]:
    """Check a ``deck`` option; raise ValueError saying which creature is wrong."""
    if not isinstance(value, dict) or not isinstance(value.get("creatures"), list):
        raise ValueError('must be an object {"creatures": [{"id", "name", "value", "copies"}]}')
    for key in value:
        if key not in ("creatures", "note"):
            raise ValueError(f"unknown key '{key}' (a deck has 'creatures' and an optional 'note')")
    creatures = value["creatures"]
    if not creatures:
        raise ValueError("'creatures' must list at least one creature")
    seen: set[str] = set()
    for index, creature in enumerate(creatures):
        where = f"creature {index + 1}"
        if not isinstance(creature, dict) or set(creature) != {"id", "name", "value", "copies"}:
            raise ValueError(f"{where} must have exactly id, name, value and copies")
        card_id, name = creature["id"], creature["name"]
        if not isinstance(card_id, str) or not card_id.strip():
            raise ValueError(f"{where}: 'id' must be a non-empty string")
        if card_id in SPECIALS:
            raise ValueError(f"{where}: '{card_id}' is a special card, not a creature")
        if card_id in seen:
            raise ValueError(f"{where}: id '{card_id}' appears twice")
        seen.add(card_id)
        if not isinstance(name, str) or not name.strip():
            raise ValueError(f"{where} ('{card_id}'): 'name' must be a non-empty string")
        for field, low in (("value", 1), ("copies", 1)):
            number = creature[field]
            if isinstance(number, bool) or not isinstance(number, int) or not low <= number <= 999:
                raise ValueError(f"{where} ('{card_id}'): '{field}' must be a whole number "
                                 f"from {low} to 999, got {number!r}")
    return value


@dataclass(frozen=True)
class Pack:
    """Lookup tables of one pack: card id -> name (as printed in English; ``title`` reads it
    in the language drawn), value (creatures only), copies.

    Read-only (a frozen dataclass of read-only mappings): every copy of a game shares it."""

    name: Mapping[str, str]
    value: Mapping[str, int]
    copies: Mapping[str, int]
    size: int

    @classmethod
    def from_option(cls, deck: dict[str, Any]) -> Pack:
        name = {c["id"]: c["name"] for c in deck["creatures"]}
        value = {c["id"]: c["value"] for c in deck["creatures"]}
        copies = {c["id"]: c["copies"] for c in deck["creatures"]}
        name.update(SPECIAL_NAMES)
        copies.update(dict.fromkeys(SPECIALS, 1))
        return cls(MappingProxyType(name), MappingProxyType(value), MappingProxyType(copies),
                   sum(copies.values()))

    def title(self, card: str) -> str:
        """The card's name in the language being drawn."""
        return translated(self.name[card])

    def is_creature(self, card: str) -> bool:
        return card in self.value

    def known(self, card: str) -> bool:
        return card in self.copies
