"""The game being played, read again in a seat page's language.

An engine writes some words when an event is applied (e.g. the table's latest event and a
seat's note, the set to beat), in the language drawn then: the table's. A seat
whose page is in another language gets its own copy of the session, kept in step event by
event inside ``using(lang)``, so that its page says all of it in its language. The daemon's
own session (the store, ``/api/table``, a seat link's ``/api``) is never touched.

Keeping a copy in step costs one ``apply`` per new event and language (at most one copy per
language some seat's page reads that is not the table's); it is read again from the start
only when the daemon's session is replaced (a new game, a rename, the table's language) or an
event was taken back.

A copy also says the seats' names in its language, as every session does when it is read
(an unnamed seat's "Seat 4" is "Joueur 4" in a French copy), in every word the engine writes
with a name.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.i18n import using
from companion.table.session import TableSession


@dataclass
class Copy:
    """One language's copy of one session: how many events it has taken, and the latest (the
    daemon session's own event object, to see one taken back and replaced)."""

    source: TableSession
    session: TableSession
    count: int = 0
    last: dict[str, Any] | None = None


class Mirrors:
    """One copy per language, of the daemon's current session (the daemon's thread only)."""

    def __init__(self) -> None:
        self.copies: dict[str, Copy] = {}

    def session(self, source: TableSession, lang: str) -> TableSession:
        """``source`` as the game would be had every event been applied in ``lang``."""
        kept = self.copies.get(lang)
        events = source.events
        if kept is None or kept.source is not source or kept.count > len(events) or (
                kept.count and events[kept.count - 1] is not kept.last):
            with using(lang):
                kept = self.copies[lang] = Copy(source, TableSession(source.header))
        with using(lang):
            for event in events[kept.count:]:
                kept.session.apply(event)
                kept.count, kept.last = kept.count + 1, event
        return kept.session

    def keep_only(self, langs: set[str]) -> None:
        """Let go of the copies no seat's page reads any more."""
        for lang in set(self.copies) - langs:
            del self.copies[lang]
