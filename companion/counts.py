"""Counts in the English of the command line and the log: "1 event", "2 events".

(What players read is counted by the catalogues' plural rules: ``companion.i18n.ngettext``.)
"""

from __future__ import annotations


def noun(n: int, singular: str, plural: str | None = None) -> str:
    """The noun for ``n`` of a thing.

    >>> noun(1, "event"), noun(0, "event"), noun(2, "entry", "entries")
    ('event', 'events', 'entries')
    """
    return singular if n == 1 else plural or f"{singular}s"


def counted(n: int, singular: str, plural: str | None = None) -> str:
    """``n`` and the noun for it.

    >>> counted(1, "event"), counted(14, "event"), counted(1, "entry", "entries")
    ('1 event', '14 events', '1 entry')
    """
    return f"{n} {noun(n, singular, plural)}"
