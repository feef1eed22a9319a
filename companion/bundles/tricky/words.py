"""The game's words the code makes from ids rather than spells out (``dwarven-hunter`` ->
"Dwarven Hunter", a suit, its event types, the fields of its events as a manual entry names
them), marked here so that they are in the catalogue. ``companion.i18n.names.event_word``
and ``field_word`` read the events and fields in the language drawn."""

from companion.i18n import N_, NP_

HEROES = (
    N_("Thief"), N_("Assassin"), N_("Barbarian"), N_("Wizard"), N_("Witch"),
    N_("Dwarven Hunter"), N_("Trickster"), N_("Seer"), N_("Troubadour"), N_("Sorcerer"),
    N_("Knight"), N_("Ninja"), N_("Elvish Hunter"), N_("Nymph"), N_("Fairy Scout"))
SUITS = (N_("red"), N_("blue"), N_("yellow"), N_("green"), N_("Red"), N_("Blue"),
         N_("Yellow"), N_("Green"))
EVENTS = (NP_("event", "deal"), NP_("event", "exchange"), NP_("event", "hero"),
          NP_("event", "open cards"), NP_("event", "play"), NP_("event", "predict"),
          NP_("event", "reveal"), NP_("event", "trump"))
FIELDS = (NP_("field", "active"), NP_("field", "card"), NP_("field", "cards"),
          NP_("field", "count"), NP_("field", "face down"), NP_("field", "hero"),
          NP_("field", "refuse"), NP_("field", "suit"), NP_("field", "trump suit"),
          NP_("field", "trump value"))
