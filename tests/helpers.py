"""What many tests do the same way: run a command and read what it printed.

    code, out, err = run(capsys, "replay", "game.jsonl", "--json")
"""

from __future__ import annotations

import pytest

from companion.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """``companion ARGV...`` in this process: its exit code, stdout and stderr."""
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def one_clear_line(err: str) -> None:
    """``err`` is one printable line of the form ``companion: ...``, no traceback."""
    assert err.startswith("companion: ") and err.count("\n") == 1 and "Traceback" not in err
    err.encode("utf-8")  # printable at all: no lone surrogate got through to the message
