"""The table's language: the config's ``[table] language``, unless one was chosen at the
table since. The choice is kept in a small state file beside the store (``table.db.language``)
so that it outlives a restart; the table log is not touched.

>>> import tempfile, pathlib
>>> kept = LanguageChoice(pathlib.Path(tempfile.mkdtemp()) / "table.db", "fr")
>>> kept.load()
'fr'
>>> kept.save("de"); kept.load()
'de'
"""

from __future__ import annotations

import contextlib
import logging
import os
from pathlib import Path

from companion.i18n import LANGUAGES, check

log = logging.getLogger("companion.i18n")


class LanguageChoice:
    """Where the language chosen at the table is kept (None: nowhere, e.g. a demo)."""

    def __init__(self, db: Path | None, configured: str) -> None:
        self.path = db.with_name(db.name + ".language") if db is not None else None
        self.configured = check(configured)

    def load(self) -> str:
        """The language chosen at the table if one was (and is still known), else the
        config's."""
        if self.path is None:
            return self.configured
        try:
            chosen = self.path.read_text("utf-8").strip()
        except OSError:
            return self.configured
        return chosen if chosen in LANGUAGES else self.configured

    def save(self, lang: str) -> None:
        """Keep ``lang`` (written whole, then renamed: a power cut leaves the old or the
        new). A disk that refuses is logged: the table plays on in the language chosen."""
        if self.path is None:
            return
        temporary = self.path.with_name(self.path.name + ".new")
        try:
            with open(temporary, "w", encoding="utf-8") as out:
                out.write(check(lang) + "\n")
                out.flush()
                os.fsync(out.fileno())
            os.replace(temporary, self.path)
        except OSError as error:
            log.warning("language not kept: %s", error)
            with contextlib.suppress(OSError):
                temporary.unlink()

