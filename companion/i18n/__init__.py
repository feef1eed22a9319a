"""The players' languages: gettext catalogues, plural forms, the table's language.

Every string a player reads or hears goes through ``_`` (or ``ngettext``, ``pgettext``)
when it is drawn or spoken, so switching the table's language changes every screen at the
next redraw. The catalogues are compiled ``.mo`` files shipped in ``locale/`` (made from the
``.po`` files with Babel: ``python -m companion.i18n.build``); loading them needs only the
standard library's ``gettext``.

- ``use(lang)``: the table's language (the daemon sets it from the config or the menu).
- ``using(lang)``: a block drawn in another language (a seat's web page) without touching
  the table's; it holds in the calling thread (and asyncio task) only.
- ``translator(lang)``: the catalogue of one language, with ``gettext``, ``ngettext``,
  ``pgettext`` and ``npgettext``.

>>> with using("fr"):
...     ngettext("{n} trick", "{n} tricks", 2).format(n=2)
'2 plis'
>>> _("Scores")
'Scores'
"""

from __future__ import annotations

import gettext as _gettext
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from pathlib import Path

DOMAIN = "companion"
LOCALE_DIR = Path(__file__).parent / "locale"
#: The languages the companion speaks, in the order the menu offers them.
LANGUAGES = ("en", "fr", "de", "it", "es")
#: Each language by its own name, as the language menu shows it.
NAMES = {"en": "English", "fr": "Français", "de": "Deutsch", "it": "Italiano",
         "es": "Español"}
DEFAULT = "en"

_table = DEFAULT
_lock = threading.Lock()
_override: ContextVar[str | None] = ContextVar("companion_language", default=None)


class UnknownLanguage(ValueError):
    """A language the companion has no catalogue for."""


def check(lang: str) -> str:
    """``lang`` if the companion speaks it; UnknownLanguage naming the known ones if not."""
    if lang not in LANGUAGES:
        raise UnknownLanguage(f"unknown language {lang!r} (languages: {', '.join(LANGUAGES)})")
    return lang


@cache
def translator(lang: str) -> _gettext.GNUTranslations:
    """The catalogue of ``lang`` (one of LANGUAGES), loaded once.

    >>> translator("de").ngettext("{n} trick", "{n} tricks", 1).format(n=1)
    '1 Stich'
    """
    check(lang)
    with open(LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.mo", "rb") as catalogue:
        return _gettext.GNUTranslations(catalogue)


def use(lang: str) -> None:
    """Make ``lang`` the table's language (every screen drawn from now on)."""
    global _table
    translator(check(lang))  # loaded here, so a broken catalogue fails at the choice
    with _lock:
        _table = lang


def current() -> str:
    """The language strings are translated into here: a ``using`` block's, else the table's."""
    return _override.get() or _table


@contextmanager
def using(lang: str) -> Iterator[None]:
    """Translate into ``lang`` inside the block, in this thread only."""
    translator(check(lang))
    token = _override.set(lang)
    try:
        yield
    finally:
        _override.reset(token)


def _(message: str) -> str:
    return translator(current()).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    return translator(current()).ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    return translator(current()).pgettext(context, message)


def npgettext(context: str, singular: str, plural: str, n: int) -> str:
    return translator(current()).npgettext(context, singular, plural, n)


def NP_(context: str, message: str) -> str:
    """``N_`` with a context (``pgettext`` translates it where it is shown)."""
    return message


def translated(text: str) -> str:
    """``text`` (a name kept in a table or the data, marked with ``N_`` where it is written)
    in the language being drawn; the same as ``_``, but not a mark for the catalogue."""
    return _(text)


def translated_in(context: str, text: str) -> str:
    """``text`` (marked ``NP_(context, ...)`` where it is written) in the language drawn;
    the same as ``pgettext``, but not a mark for the catalogue."""
    return pgettext(context, text)


def N_(message: str) -> str:
    """Marks ``message`` for the catalogue where it is defined; ``_`` translates it where it
    is shown (names kept in tables and data)."""
    return message
