"""The web pages' own words in each language, from the gettext catalogues (context ``web``).

The pages' scripts mark their strings ``t("...")`` and their HTML ``data-t="..."`` (Babel
extracts the same marks into the catalogues: ``companion.i18n.extract.extract_web``); a page
fetches ``/i18n/LANG.json``, every marked string in LANG, and draws itself in it.

>>> words = json.loads(page_words("fr"))
>>> words["Your name"]
'Votre nom'
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources

from companion.i18n import LANGUAGES, NAMES, check, translator
from companion.i18n.extract import WEB, web_strings

STATIC = resources.files("companion.web") / "static"


@cache
def marked() -> tuple[str, ...]:
    """Every string the pages' scripts and HTML mark."""
    found: set[str] = set()
    for item in STATIC.iterdir():
        if item.name.endswith((".js", ".html")):
            found.update(message for _, message in web_strings(item.read_text("utf-8")))
    return tuple(sorted(found))


@cache
def page_words(lang: str) -> str:
    """The marked strings in ``lang``, as the JSON object a page loads."""
    tr = translator(check(lang))
    return json.dumps({message: tr.pgettext(WEB, message) for message in marked()},
                      ensure_ascii=False)


def choices() -> list[list[str]]:
    """The languages a seat's page offers, each in its own words."""
    return [[lang, NAMES[lang]] for lang in LANGUAGES]
