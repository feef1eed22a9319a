"""`companion history` as a user meets it (issue 44): newest first by when each game was
played, not by when it was stored; a game whose table log kept no times has a length of
play "unknown", not "0 min". Each command runs in a process of its own."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import UTC, datetime, timedelta

import pytest

from companion.bundles.tricky.rules import sim as tricky_sim


def companion(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "companion.cli", *args],
                          capture_output=True, text=True, timeout=120)


def write_log(path, seed: int, begun: datetime | None) -> None:
    """A whole short Tricky game; its events a minute apart from ``begun`` (None: no times)."""
    header, events = tricky_sim.random_game(seed, 3, rounds_per_player=1)
    if begun is not None:
        events = [{**event, "t": (begun + timedelta(minutes=n)).isoformat()}
                  for n, event in enumerate(events)]
    path.write_text("".join(json.dumps(line) + "\n" for line in [header, *events]))


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    """Session 1 played in March 2021, session 2 (imported later) in January 2021, session 3
    from a log with no times (so played, as far as anyone knows, when it was stored)."""
    folder = tmp_path_factory.mktemp("order")
    db = str(folder / "table.db")
    for seed, begun in ((1, datetime(2021, 3, 1, 20, tzinfo=UTC)),
                        (2, datetime(2021, 1, 5, 20, tzinfo=UTC)), (3, None)):
        log = folder / f"game{seed}.jsonl"
        write_log(log, seed, begun)
        stored = companion("import", str(log), "--db", db)
        assert stored.returncode == 0, stored.stderr
    return db


def test_history_is_newest_first_by_when_the_game_was_played(store):
    listed = json.loads(companion("history", "--db", store, "--json").stdout)
    assert [game["session"] for game in listed] == [3, 1, 2]
    text = companion("history", "--db", store).stdout
    firsts = [line.split()[0] for line in text.splitlines() if line.startswith("#")]
    assert firsts == ["#3", "#1", "#2"]


def test_a_log_without_times_has_an_unknown_length_not_0_min(store):
    listed = {game["session"]: game for game in
              json.loads(companion("history", "--db", store, "--json").stdout)}
    assert listed[3]["minutes"] is None
    assert listed[1]["minutes"] > 0 and listed[2]["minutes"] > 0  # a minute between events
    text = companion("history", "--db", store).stdout
    (untimed,) = [line for line in text.splitlines() if line.startswith("#3 ")]
    assert "length unknown" in untimed and "min" not in untimed
    (timed,) = [line for line in text.splitlines() if line.startswith("#1 ")]
    assert timed.startswith("#1    2021-03-01 20:00  ") and f"{listed[1]['minutes']} min" in timed


def test_the_exports_take_the_games_in_the_order_they_were_played(store):
    played = json.loads(companion("export", "--bgstats", "--db", store).stdout)
    newest = json.loads(companion("history", "--db", store, "--json").stdout)[0]
    assert played["plays"][0]["playDate"] == newest["date"][:19].replace("T", " ")
    rows = companion("export", "--csv", "--db", store).stdout.splitlines()[1:]
    assert [row.split(",")[0] for row in rows[::3]] == ["2", "1", "3"]  # oldest first
