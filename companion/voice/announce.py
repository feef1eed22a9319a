"""What the table hears after an event, from the public views before and after it.

Only ``game.view(None)`` goes in (what every screen of the table may show), and the words
are the table's language's (``companion.voice.words``); what each game says is its
bundle's ``announce`` (``companion/bundles/<game>/voice.py``), given by the caller: the voice
never looks a game up.

>>> before = {"phase": "play", "turn": 0, "round": 1, "rounds": 4, "totals": [0, 0, 0, 0],
...           "to_beat": None, "leader": 0}
>>> after = dict(before, turn=1, to_beat={"seat": 0})
>>> from companion.bundles.deathtrap.voice import announce
>>> announcements(announce, before, after, ["Ann", "Bob", "Cy", "Dee"])
["Bob's turn"]
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from companion.voice.words import View

#: A game's announcer (its bundle's ``announce``): public views before and after, the seats.
Announce = Callable[[View, View, Sequence[str]], list[str]]


def announcements(announce: Announce | None, before: View, after: View, seats: Sequence[str]
                  ) -> list[str]:
    """What to say after an event that changed the public view ``before`` into ``after``
    (nothing for a game that announces nothing: ``announce`` None)."""
    return announce(before, after, seats) if announce else []
