"""Words the code makes from ids (``dwarven-hunter`` -> "Dwarven Hunter", an event type, a
field of an event) rather than spells out: marked here so that they are in the catalogue.
``event_word`` and ``field_word`` read them in the language being drawn.
"""

from __future__ import annotations

from companion.i18n import N_, NP_, pgettext

TRICKY_HEROES = (
    N_("Thief"), N_("Assassin"), N_("Barbarian"), N_("Wizard"), N_("Witch"),
    N_("Dwarven Hunter"), N_("Trickster"), N_("Seer"), N_("Troubadour"), N_("Sorcerer"),
    N_("Knight"), N_("Ninja"), N_("Elvish Hunter"), N_("Nymph"), N_("Fairy Scout"))
TRICKY_SUITS = (N_("red"), N_("blue"), N_("yellow"), N_("green"), N_("Red"), N_("Blue"),
                N_("Yellow"), N_("Green"))
#: Event types as a manual entry's menu offers them.
EVENTS = (
    NP_("event", "counterattack"), NP_("event", "deal"), NP_("event", "disarm"),
    NP_("event", "escape"), NP_("event", "exchange"), NP_("event", "expose"),
    NP_("event", "fight"), NP_("event", "hero"), NP_("event", "move"),
    NP_("event", "open cards"), NP_("event", "pass"), NP_("event", "pig"), NP_("event", "play"),
    NP_("event", "predict"), NP_("event", "reveal"), NP_("event", "secrets"),
    NP_("event", "start"), NP_("event", "trigger"), NP_("event", "trump"), NP_("event", "undo"))
#: Fields of an event, as a manual entry asks for them.
FIELDS = (
    NP_("field", "active"), NP_("field", "attack"), NP_("field", "card"),
    NP_("field", "cards"), NP_("field", "character"), NP_("field", "characters"),
    NP_("field", "chest"), NP_("field", "clicks"), NP_("field", "count"),
    NP_("field", "counts"), NP_("field", "damage"), NP_("field", "damaged"),
    NP_("field", "dealer"), NP_("field", "dice"), NP_("field", "discard"),
    NP_("field", "face down"), NP_("field", "hero"), NP_("field", "lead"), NP_("field", "mode"),
    NP_("field", "refuse"), NP_("field", "seat"), NP_("field", "square"), NP_("field", "suit"),
    NP_("field", "to"), NP_("field", "trump suit"), NP_("field", "trump value"),
    NP_("field", "variable die"), NP_("field", "victim"), NP_("field", "quick"),
    NP_("field", "slow"))


def event_word(kind: str) -> str:
    """An event type in the language drawn: ``open_cards`` -> "open cards"."""
    return pgettext("event", kind.replace("_", " "))


def field_word(key: str) -> str:
    return pgettext("field", key.replace("_", " "))
