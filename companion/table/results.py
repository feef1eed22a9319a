"""The result of each finished game, kept beside its events so that history and the league
read one row per game instead of replaying every game ever played.

A result holds public facts only (totals, winners, the game's figures, the score after
each round, when it began and ended): what every player saw once the game ended. It is
written in the transaction that stores the event finishing the game and dropped by an undo
that reopens it. ``last_seq`` and ``version`` say whether a row still describes its session:
an older companion may have stored events since, or a newer one counts figures differently.

>>> from companion.bundles.traps.rules.engine import Traps
>>> one_x = {"squares": ["T1"], "dials": {"T1": ["start", "x"]}}
>>> game = Traps(["Ann", "Bob"], seed=1, options=one_x)
>>> game.apply({"type": "trigger", "seat": 0, "square": "T1", "clicks": 1})
>>> summary(game, [{"t": "2026-01-02T20:00:00+00:00"}], "2026-01-02T19:30:00+00:00")["ended"]
'2026-01-02T20:00:00+00:00'
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from companion.games.base import Game

SCHEMA = """
CREATE TABLE IF NOT EXISTS results (
    session_id INTEGER PRIMARY KEY REFERENCES sessions(id),
    version INTEGER NOT NULL,
    last_seq INTEGER NOT NULL,
    body TEXT NOT NULL
);
"""
#: Raised whenever what a result holds, or how a game counts its figures, changes.
VERSION = 1


def _time(event: Any) -> str | None:
    stamp = event.get("t") if isinstance(event, dict) else None
    return stamp if isinstance(stamp, str) and parse_time(stamp) is not None else None


def parse_time(text: str) -> datetime | None:
    """An ISO time as an aware datetime (UTC when it names no zone), None if it is none."""
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        return None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def summary(game: Game, events: Sequence[Any], created: str,
            now: str | None = None) -> dict[str, Any]:
    """The result of a finished game: when it began and ended, and its public facts.

    It began at its first event's time (or when it was stored), and ended at its last
    event's time (or ``now``, when the finishing event carries none).
    """
    times = [stamp for stamp in map(_time, events) if stamp]
    return {
        "started": times[0] if times else created,
        "ended": _time(events[-1]) if events and _time(events[-1]) else now,
        "totals": game.totals(),
        "winners": game.winners(),
        "figures": game.figures(),
        "track": game.score_track(),
    }


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def dump(body: dict[str, Any]) -> str:
    return json.dumps(body, separators=(",", ":"), ensure_ascii=False)
