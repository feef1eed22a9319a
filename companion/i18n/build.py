"""Keeps the catalogues in step with the code (Babel; for developers and translators).

``python -m companion.i18n.build`` extracts every marked string (``babel.cfg``), writes the
template ``locale/companion.pot``, merges it into each language's ``.po`` (new strings come
in empty, changed ones fuzzy: translate them, then drop the fuzzy flag) and compiles the
``.mo`` files the companion loads. ``--check`` changes nothing: it says what is out of date
(exit 1), as the tests do.
"""

from __future__ import annotations

import argparse
import io
import sys
from datetime import datetime
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import read_mo, write_mo
from babel.messages.pofile import read_po, write_po

from companion.i18n import DOMAIN, LANGUAGES, LOCALE_DIR

ROOT = Path(__file__).resolve().parents[2]
MAPPING = Path(__file__).parent / "babel.cfg"
KEYWORDS = {"_": None, "N_": None, "ngettext": (1, 2), "pgettext": ((1, "c"), 2),
            "npgettext": ((1, "c"), 2, 3), "NP_": ((1, "c"), 2)}
#: Extracted comments: a line starting "i18n:" just above a marked string.
COMMENT_TAGS = ("i18n:",)
FIXED_DATE = datetime(2026, 1, 1)


def template() -> Catalog:
    """Every marked string of the code and the data, as Babel extracts it now."""
    with open(MAPPING, encoding="utf-8") as config:
        method_map, options_map = parse_mapping_cfg(config)
    catalog = Catalog(project="dungeon-table-companion", domain=DOMAIN,
                      creation_date=FIXED_DATE, fuzzy=False)
    for path, line, message, comments, context in extract_from_dir(
            ROOT, method_map, options_map, keywords=KEYWORDS, comment_tags=COMMENT_TAGS,
            strip_comment_tags=True):
        catalog.add(message, None, [(path, line)], auto_comments=comments, context=context)
    return catalog


def po_path(lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def read(lang: str) -> Catalog:
    with open(po_path(lang), "rb") as po:
        return read_po(po, locale=lang, domain=DOMAIN)


def write(catalog: Catalog, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    buffer = io.BytesIO()
    write_po(buffer, catalog, width=100, sort_output=True, include_lineno=False)
    path.write_bytes(buffer.getvalue())


def compiled(catalog: Catalog) -> bytes:
    buffer = io.BytesIO()
    write_mo(buffer, catalog, use_fuzzy=False)
    return buffer.getvalue()


def translations(mo: bytes) -> dict:
    """What a compiled catalogue holds, as it is read back: (context, id) -> string, the
    header included. Releases of Babel lay the same translations out in other bytes (2.19 against
    2.18), so catalogues are compared by this, not byte for byte."""
    def plain(value: object) -> object:
        return tuple(value) if isinstance(value, list | tuple) else value
    return {(message.context, plain(message.id)): plain(message.string)
            for message in read_mo(io.BytesIO(mo))}


def update() -> None:
    pot = template()
    write(pot, LOCALE_DIR / f"{DOMAIN}.pot")
    for lang in LANGUAGES:
        path = po_path(lang)
        catalog = read(lang) if path.exists() else Catalog(locale=lang, domain=DOMAIN,
                                                           creation_date=FIXED_DATE)
        catalog.update(pot, update_creation_date=False)
        catalog.obsolete.clear()
        catalog.revision_date = FIXED_DATE
        catalog.project, catalog.version = "dungeon-table-companion", "0.1.0"
        catalog.fuzzy = False  # the header: the messages keep their own flags
        write(catalog, path)
        path.with_suffix(".mo").write_bytes(compiled(read(lang)))


def problems() -> list[str]:
    """What is out of date or missing: the tests and ``--check`` fail on any."""
    wanted = {(message.context, message.id) for message in template() if message.id}
    found = []
    for lang in LANGUAGES:
        catalog = read(lang)
        have = {(message.context, message.id) for message in catalog if message.id}
        found += [f"{lang}: not in the catalogue: {m!r}" for m in sorted(wanted - have, key=str)]
        found += [f"{lang}: no longer in the code: {m!r}" for m in sorted(have - wanted, key=str)]
        for message in catalog:
            if not message.id:
                continue
            strings = message.string if isinstance(message.string, tuple) else (message.string,)
            if message.fuzzy:
                found.append(f"{lang}: fuzzy: {message.id!r}")
            elif not all(strings):
                found.append(f"{lang}: untranslated: {message.id!r}")
        mo = po_path(lang).with_suffix(".mo")
        if not mo.exists() or translations(mo.read_bytes()) != translations(compiled(catalog)):
            found.append(f"{lang}: {mo.name} is not compiled from the .po")
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m companion.i18n.build",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="change nothing; list problems")
    args = parser.parse_args(argv)
    if not args.check:
        update()
    found = problems()
    for problem in found:
        print(problem)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
