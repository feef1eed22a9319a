"""The durable store: resume, undo, round trips, and SIGKILL at random moments."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import tally_game
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.errors import RuleViolation
from companion.table import Header, TableSession, TableStore
from companion.table.log import parse_log

HEADER = Header("tally", ("Ann", "Bob", "Cy"), 11, {"goal": 30})


@pytest.fixture(autouse=True)
def tally() -> Iterator[None]:
    tally_game.register()
    yield
    tally_game.unregister()


def add(seat: int, points: int) -> dict:
    return {"type": "add", "seat": seat, "points": points}


def test_refused_event_is_not_stored_and_state_unchanged(tmp_path):
    store = TableStore(tmp_path / "t.db")
    stored_game = store.new_session(HEADER)
    stored_game.append(add(0, 3))
    before = stored_game.game.referee_view()
    with pytest.raises(RuleViolation, match="turn-order"):
        stored_game.append(add(0, 3))
    assert stored_game.game.referee_view() == before
    assert store.load(stored_game.id)[1] == [add(0, 3)]


def test_resume_the_unfinished_session_after_restart(tmp_path):
    path = tmp_path / "t.db"
    with TableStore(path) as store:
        done = store.new_session(Header("tally", ("A", "B"), 1, {"goal": 1}))
        done.append(add(0, 1))
        stored_game = store.new_session(HEADER)
        stored_game.append(add(0, 2))
        stored_game.append(add(1, 5))
    with TableStore(path) as store:
        assert store.latest(unfinished=True) == stored_game.id
        assert store.latest() == stored_game.id
        again = store.open_session(store.latest(unfinished=True))
        assert again.game.totals() == [2, 5, 0]
        assert [s.finished for s in store.sessions()] == [True, False]


def test_undo_after_the_end_reopens_the_session(tmp_path):
    store = TableStore(tmp_path / "t.db")
    stored_game = store.new_session(Header("tally", ("A", "B"), 1, {"goal": 3}))
    stored_game.append(add(0, 4))
    assert store.latest(unfinished=True) is None
    stored_game.append({"type": "undo"})
    assert store.latest(unfinished=True) == stored_game.id
    assert stored_game.game.totals() == [0, 0]


def test_a_failed_write_rolls_back_memory(tmp_path):
    store = TableStore(tmp_path / "t.db")
    stored_game = store.new_session(HEADER)
    stored_game.append(add(0, 3))
    store.db.execute("CREATE TRIGGER full BEFORE INSERT ON events "
                     "BEGIN SELECT RAISE(ABORT, 'disk full'); END")
    with pytest.raises(Exception, match="disk full"):
        stored_game.append(add(1, 3))
    assert stored_game.game.totals() == [3, 0, 0]
    assert stored_game.session.in_force == [add(0, 3)]


entry = st.one_of(
    st.builds(add, st.integers(0, 2), st.integers(0, 7)),
    st.just({"type": "undo"}),
)


@settings(max_examples=60)
@given(st.lists(entry, max_size=40))
def test_export_import_replay_round_trip(tmp_path_factory, entries):
    """Whatever is accepted, exported, imported and replayed gives the same results."""
    path = tmp_path_factory.mktemp("rt") / "t.db"
    with TableStore(path) as store:
        stored_game = store.new_session(HEADER)
        for item in entries:
            try:
                stored_game.append(item)
            except Exception as exc:  # refused: nothing stored, nothing changed
                assert isinstance(exc, RuleViolation)
        lines = stored_game.export_lines()
        header, events = parse_log(lines)
        copy = store.new_session(header, [e for _, e in events])
        assert copy.export_lines() == lines
        assert copy.session.result(referee=True) == stored_game.session.result(referee=True)
    with TableStore(path) as store:
        reopened = store.open_session(copy.id)
        assert reopened.session.result(referee=True) == stored_game.session.result(referee=True)
        # undo is exact: the state equals a replay of only the events still in force
        plain = TableSession(HEADER)
        for event in stored_game.session.in_force:
            plain.apply(event)
        assert plain.result(referee=True) == stored_game.session.result(referee=True)


def test_sigkill_while_appending_loses_no_acknowledged_event(tmp_path):
    """A writer killed at random moments: every acknowledged event survives, once, in order."""
    total, db = 60, tmp_path / "kill.db"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(Path(tally_game.__file__).parent),
                                                        os.environ.get("PYTHONPATH", "")])}
    writer = [sys.executable, str(Path(tally_game.__file__).parent / "table_writer.py"), str(db),
              str(total)]
    rng = random.Random(2026)
    for _ in range(25):
        process = subprocess.Popen(writer, stdout=subprocess.PIPE, text=True, env=env)
        assert process.stdout is not None
        acked = []
        wanted = rng.randrange(0, 8)
        while len(acked) < wanted:
            line = process.stdout.readline()
            if not line:
                break
            acked.append(int(line.split()[1]))
        os.kill(process.pid, signal.SIGKILL)
        process.wait()
        with TableStore(db) as store:
            session_id = store.latest()
            if session_id is None:
                continue
            stored = store.load(session_id)[1]
        assert [e["t"] for e in stored] == [f"e{i}" for i in range(len(stored))]
        assert all(index < len(stored) for index in acked)
    done = subprocess.run(writer, capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
    with TableStore(db) as store:
        assert len(store.sessions()) == 1
        stored = store.load(store.latest())[1]
    assert stored == [json.loads(json.dumps(tally_game_event(i))) for i in range(total)]


def tally_game_event(index: int) -> dict:
    import table_writer
    return table_writer.event(index)
