"""``companion run --sim --feed LOG``: which stored session a log goes into, and from where.

The daemon may be killed at any moment and started again with the same arguments; it then
finds the session it was feeding (same header, stored events a prefix of the log's events)
and goes on after the last stored event, so the store ends up holding every event of the
log exactly once, in order. A log fed completely before is not stored a second time.
"""

from __future__ import annotations

import json
from typing import Any

from companion.errors import CompanionError, LogError
from companion.table import Header, StoredSession, TableStore


def _plain(event: Any) -> Any:
    """The event as the store gives it back (a JSON round trip)."""
    return json.loads(json.dumps(event))


def feed_session(store: TableStore, header: Header, events: list[tuple[int, Any]]
                 ) -> tuple[StoredSession, int]:
    """The session being fed with this log and how many of its events it already holds."""
    wanted = [_plain(event) for _, event in events]
    for info in reversed(store.sessions()):
        if info.header != header or info.events > len(wanted):
            continue
        _, stored = store.load(info.id)
        if stored == wanted[:len(stored)]:
            return store.open_session(info.id), len(stored)
    try:
        return store.new_session(header), 0
    except CompanionError as exc:
        raise LogError(1, f"header: {exc}") from None
