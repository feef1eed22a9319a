"""The game's words the code makes from ids rather than spells out (its event types, the
fields of its events as a manual entry names them), marked here so that they are in the
catalogue, and the fields of its component data that people read.
``companion.i18n.names.event_word`` and ``field_word`` read them in the language drawn."""

from companion.i18n import NP_

EVENTS = (NP_("event", "escape"), NP_("event", "fight"), NP_("event", "move"),
          NP_("event", "secrets"), NP_("event", "start"))
FIELDS = (NP_("field", "character"), NP_("field", "characters"), NP_("field", "chest"),
          NP_("field", "to"), NP_("field", "victim"))
#: data file -> the fields whose values people read (in the file's lists of items)
DATA = {"rumble-characters.json": ("name",)}
