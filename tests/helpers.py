"""What many tests do the same way: run a command and read what it printed, wait for observed
progress, check that a game refuses an event and changes nothing.

    code, out, err = run(capsys, "replay", "game.jsonl", "--json")
    wait_for(lambda: table.stored() == 3, "the third event stored")
    refused(game, {"type": "pass", "seat": 1}, "lead", "must play a set")
"""

from __future__ import annotations

import copy
import time
from collections.abc import Callable
from typing import Any, TypeVar

import pytest

from companion.cli import main
from companion.errors import CompanionError, RuleViolation
from companion.games.base import Game

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


def everything_seen(game: Game) -> list[Any]:
    """A copy of what the table, the referee and every seat see of ``game``, and its totals."""
    return copy.deepcopy([game.view(None), game.referee_view(), game.totals(),
                          *(game.view(seat) for seat in range(len(game.seats)))])


def refused(game: Game, event: dict[str, Any], rule: str | None = None, *words: str,
            error: type[CompanionError] = RuleViolation) -> None:
    """``game`` refuses ``event`` with ``error`` (for ``rule``, when given), its message
    holding each of ``words``, and nothing anyone sees of the game changes.

    ``refused(game, event, "turn", "Bob's turn")`` is a RuleViolation of the rule ``turn``;
    ``refused(game, event, None, "field 'dice'", error=EventError)`` a malformed event.
    """
    before = everything_seen(game)
    with pytest.raises(error) as caught:
        game.apply(event)
    refusal = caught.value
    if rule is not None:
        assert isinstance(refusal, RuleViolation), refusal
        assert refusal.rule == rule, refusal
        assert f"[rule: {rule}]" in str(refusal)
    message = refusal.message if isinstance(refusal, RuleViolation) else str(refusal)
    for word in words:
        assert word in message, (word, message)
    assert everything_seen(game) == before
