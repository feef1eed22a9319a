"""Log lines that cannot be forged: whatever a client sends is escaped and cut before the
journal sees it (issue 53).

A seat's page, a fed log, a hub or a camera may hand the daemon any text (an event's type
with a newline and a made-up "stored #21" after it, a NUL, 3,000 characters). Two guards:

- ``quoted``: a value a client sent, as a log line may quote it: control characters written
  as escapes (``companion.terminal.escaped``), cut to ``QUOTED`` characters;
- ``OneLine``: the formatter of the daemon's log handler: every record's message is one line
  of at most ``LONGEST`` characters, whatever slipped through (a traceback, which is ours,
  still follows on its own lines).

>>> quoted("x\\ncompanion: stored #21: play seat 1, and more")
'x\\\\x0acompanion: stored #21: play seat 1, an...'
>>> import logging
>>> record = logging.makeLogRecord({"msg": "refused %s", "args": ("a\\x00b",)})
>>> OneLine("companion: %(message)s").format(record)
'companion: refused a\\\\x00b'
"""

from __future__ import annotations

import logging

from companion.terminal import escaped

#: The most characters of a client's value a log line quotes.
QUOTED = 40
#: The longest log message, escapes included.
LONGEST = 1000


def quoted(value: object, limit: int = QUOTED) -> str:
    """``value`` as a log line may quote it: escaped, and cut (marked ``...``) past
    ``limit`` characters."""
    text = str(value)
    cut = text[:limit] + ("..." if len(text) > limit else "")
    return escaped(cut)


class OneLine(logging.Formatter):
    """A formatter whose messages are each one line, escaped and cut (see the module)."""

    def formatMessage(self, record: logging.LogRecord) -> str:  # noqa: N802 - logging's name
        message = escaped(record.message)
        if len(message) > LONGEST:
            message = message[:LONGEST] + "..."
        record.message = message
        return super().formatMessage(record)
