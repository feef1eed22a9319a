"""Requests the HTTP parser refuses (no ``Host``, two of them, a broken request line, a
header too long): aiohttp answers them 400 by itself and logs each one with a traceback of
its own parser, ten lines a request. Here a burst of them is one line in the log, naming
what was wrong (escaped and cut: it may quote the request) and who sent it; anything else
aiohttp logs (an error in a route: a fault of ours) keeps its traceback.
"""

from __future__ import annotations

import logging

from aiohttp.http_exceptions import HttpProcessingError

from companion.daemon.logline import quoted
from companion.web.admission import Burst

#: The logger given to aiohttp's request handlers (``AppRunner(logger=...)``).
NAME = "companion.web.requests"


class Malformed(logging.Filter):
    """Turns aiohttp's records of refused requests into one line per burst."""

    def __init__(self) -> None:
        super().__init__()
        self.burst = Burst()

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        if not isinstance(error, HttpProcessingError):
            return True
        if not self.burst.starts():
            return False
        sender = record.args[0] if isinstance(record.args, tuple) and record.args else "?"
        record.msg = "malformed requests (%s, from %s): answered 400; one line per burst"
        record.args = (quoted(error.message or type(error).__name__, 60), quoted(sender))
        record.exc_info, record.exc_text = None, None
        record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True


def request_logger() -> logging.Logger:
    """The logger for aiohttp's request handlers, its records of refused requests in short."""
    logger = logging.getLogger(NAME)
    if not any(isinstance(f, Malformed) for f in logger.filters):
        logger.addFilter(Malformed())
    return logger
