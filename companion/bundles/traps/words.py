"""The game's words the code makes from ids rather than spells out (its event types, the
fields of its events and their choices as a manual entry names them), marked here so that
they are in the catalogue, and the fields of its component data that people read.
``companion.i18n.names.event_word`` and ``field_word`` read them in the language drawn."""

from companion.i18n import NP_

EVENTS = (NP_("event", "counterattack"), NP_("event", "disarm"), NP_("event", "expose"),
          NP_("event", "trigger"))
FIELDS = (NP_("field", "attack"), NP_("field", "clicks"), NP_("field", "damage"),
          NP_("field", "damaged"), NP_("field", "dice"), NP_("field", "mode"),
          NP_("field", "square"), NP_("field", "variable die"),
          # the choices of ``mode``
          NP_("field", "quick"), NP_("field", "slow"))
#: data file -> the fields whose values people read (in the file's lists of items)
DATA = {"traps-catalog.json": ("name", "effect")}
