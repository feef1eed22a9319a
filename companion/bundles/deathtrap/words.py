"""The game's words the code makes from ids rather than spells out (its event types, the
fields of its events as a manual entry names them), marked here so that they are in the
catalogue, and the fields of its component data that people read.
``companion.i18n.names.event_word`` and ``field_word`` read them in the language drawn."""

from companion.i18n import NP_

EVENTS = (NP_("event", "deal"), NP_("event", "pass"), NP_("event", "pig"),
          NP_("event", "play"))
FIELDS = (NP_("field", "cards"), NP_("field", "counts"), NP_("field", "dealer"),
          NP_("field", "discard"), NP_("field", "lead"))
#: data file -> the fields whose values people read (in the file's lists of items)
DATA = {"deathtrap-deck.json": ("name",)}
