"""What many tests do the same way: run a command and read what it printed, wait for observed
progress.

    code, out, err = run(capsys, "replay", "game.jsonl", "--json")
    wait_for(lambda: table.stored() == 3, "the third event stored")
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

import pytest

from companion.cli import main

#: How long a test waits for progress it expects: a bound on waiting, not a timing check.
WAIT = 60.0

Seen = TypeVar("Seen")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """``companion ARGV...`` in this process: its exit code, stdout and stderr."""
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def one_clear_line(err: str) -> None:
    """``err`` is one printable line of the form ``companion: ...``, no traceback."""
    assert err.startswith("companion: ") and err.count("\n") == 1 and "Traceback" not in err
    err.encode("utf-8")  # printable at all: no lone surrogate got through to the message


def wait_for(condition: Callable[[], Seen], what: str, timeout: float = WAIT) -> Seen:
    """Poll ``condition`` until it gives something true, and return that; an AssertionError
    naming ``what`` after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {timeout}s for {what}")
        time.sleep(0.01)
