"""What the table hears after an event, from the public views before and after it.

Only ``game.view(None)`` goes in (what every screen of the table may show), and the words
are the table's language's (``companion.voice.words``); when each game says what is its
bundle's (``companion/bundles/<game>/voice.py``).

>>> before = {"phase": "play", "turn": 0, "round": 1, "rounds": 4, "totals": [0, 0, 0, 0],
...           "to_beat": None, "leader": 0}
>>> after = dict(before, turn=1, to_beat={"seat": 0})
>>> announcements("deathtrap", before, after, ["Ann", "Bob", "Cy", "Dee"])
["Bob's turn"]
"""

from __future__ import annotations

from collections.abc import Sequence

from companion import bundles
from companion.voice.words import View


def announcements(game: str, before: View, after: View, seats: Sequence[str]) -> list[str]:
    """What to say after an event that changed the public view ``before`` into ``after``."""
    said = bundles.get(game).announce
    return said(before, after, seats) if said else []
