"""The table-log commands as a user meets them: exit codes, one-line errors, JSON shapes."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
import toy_bundle
from helpers import run

from companion.games import registry

HEADER = {"game": "tally", "seats": ["Ann", "Bob"], "seed": 7, "options": {}}


@pytest.fixture(autouse=True)
def tally() -> Iterator[None]:
    registry.register(toy_bundle.BUNDLE)  # its engine: tally_game.Tally
    yield
    registry.unregister("tally")


def write_log(path: Path, *lines: object) -> str:
    path.write_text("".join((x if isinstance(x, str) else json.dumps(x)) + "\n" for x in lines))
    return str(path)


def test_replay_prints_scores_and_public_state(tmp_path, capsys):
    log = write_log(tmp_path / "g.jsonl", HEADER, {"type": "add", "seat": 0, "points": 4},
                    {"type": "add", "seat": 1, "points": 6})
    code, out, err = run(capsys, "replay", log, "--json")
    assert code == 0 and err == ""
    result = json.loads(out)
    assert result["totals"] == [4, 6]
    assert result["finished"] is False and result["winners"] == []
    assert "secret" not in result["state"] and "secrets" not in result["state"]


def test_replay_seat_and_referee_views(tmp_path, capsys):
    log = write_log(tmp_path / "g.jsonl", HEADER)
    _, out, _ = run(capsys, "replay", log, "--json", "--seat", "1")
    secret = json.loads(out)["state"]["secret"]
    _, out, _ = run(capsys, "replay", log, "--json", "--referee")
    assert json.loads(out)["state"]["secrets"][1] == secret
    _, out, _ = run(capsys, "replay", log, "--json")
    assert str(secret) not in out
    _, out, _ = run(capsys, "replay", log)
    assert str(secret) not in out


def test_replay_stops_at_illegal_line_and_prints_state_before(tmp_path, capsys):
    log = write_log(tmp_path / "g.jsonl", HEADER, {"type": "add", "seat": 0, "points": 4},
                    {"type": "add", "seat": 0, "points": 2},
                    {"type": "add", "seat": 1, "points": 2})
    code, out, err = run(capsys, "replay", log)
    assert code == 2
    assert "line 3" in err and "turn-order" in err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert "Ann" in out and "4" in out
    code, out, _ = run(capsys, "replay", log, "--json")
    result = json.loads(out)
    assert code == 2
    assert result["totals"] == [4, 0]
    assert result["error"]["line"] == 3 and "turn-order" in result["error"]["message"]


MALFORMED = {
    "bad json": (['{"type": "add", "seat": 0,'], 2, "not valid JSON"),
    "unknown type": ([{"type": "dance", "seat": 0}], 2, "unknown event type 'dance'"),
    "missing field": ([{"type": "add", "seat": 0}], 2, "missing field 'points'"),
    "wrong type": ([{"type": "add", "seat": "0", "points": 3}], 2, "field 'seat'"),
    "bool as int": ([{"type": "add", "seat": 0, "points": True}], 2, "field 'points'"),
    "unknown seat": ([{"type": "add", "seat": 5, "points": 3}], 2, "unknown seat 5"),
    "huge number": ([{"type": "add", "seat": 0, "points": 10**40}], 2, "between"),
    "unknown field": ([{"type": "add", "seat": 0, "points": 3, "x": 1}], 2, "unknown field 'x'"),
    "not an object": (["[1, 2]"], 2, "JSON object"),
    "deep nesting": (["[" * 100000 + "]" * 100000], 2, "not valid JSON"),
}


@pytest.mark.parametrize("case", sorted(MALFORMED))
def test_malformed_event_lines(tmp_path, capsys, case):
    lines, line_no, needle = MALFORMED[case]
    log = write_log(tmp_path / "g.jsonl", HEADER, *lines)
    code, out, err = run(capsys, "replay", log)
    assert code == 2
    assert f"line {line_no}" in err and needle in err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1
    code, out, _ = run(capsys, "replay", log, "--json")
    assert code == 2
    assert json.loads(out)["error"]["line"] == line_no


BAD_HEADERS = {
    "unknown option": ({**HEADER, "options": {"goals": 3}}, "unknown option 'goals'"),
    "bad option value": ({**HEADER, "options": {"goal": "x"}}, "option 'goal'"),
    "unknown game": ({**HEADER, "game": "chess"}, "unknown game 'chess'"),
    "missing seed": ({k: v for k, v in HEADER.items() if k != "seed"}, "missing field 'seed'"),
    "seed as text": ({**HEADER, "seed": "7"}, "'seed' must be a whole number"),
    "huge seed": ({**HEADER, "seed": 10**30}, "'seed' must be between"),
    "seats not a list": ({**HEADER, "seats": "Ann"}, "'seats'"),
    "too few seats": ({**HEADER, "seats": ["Ann"]}, "needs 2 to 6 seats"),
    "duplicate seat": ({**HEADER, "seats": ["Ann", "Ann"]}, "different"),
    "unknown header field": ({**HEADER, "sede": 1}, "unknown field 'sede'"),
}


@pytest.mark.parametrize("case", sorted(BAD_HEADERS))
def test_bad_headers(tmp_path, capsys, case):
    header, needle = BAD_HEADERS[case]
    log = write_log(tmp_path / "g.jsonl", header)
    code, out, err = run(capsys, "replay", log)
    assert code == 2 and out == ""
    assert "line 1" in err and needle in err and "Traceback" not in err
    code, out, _ = run(capsys, "replay", log, "--json")
    assert code == 2 and json.loads(out) == {"error": {"line": 1, "message": json.loads(
        out)["error"]["message"]}}


def test_missing_and_empty_files(tmp_path, capsys):
    code, out, err = run(capsys, "replay", str(tmp_path / "nope.jsonl"))
    assert code == 2 and "no such file" in err
    code, out, err = run(capsys, "replay", write_log(tmp_path / "e.jsonl"))
    assert code == 2 and "empty" in err
    (tmp_path / "bin.jsonl").write_bytes(b"\xff\xfe\x00")
    code, out, err = run(capsys, "replay", str(tmp_path / "bin.jsonl"))
    assert code == 2 and "UTF-8" in err


def test_seat_out_of_range_is_a_user_error(tmp_path, capsys):
    code, _, err = run(capsys, "replay", write_log(tmp_path / "g.jsonl", HEADER), "--seat", "9")
    assert code == 2 and "--seat 9" in err


def test_undo_in_a_log(tmp_path, capsys):
    log = write_log(tmp_path / "g.jsonl", HEADER, {"type": "add", "seat": 0, "points": 4},
                    {"type": "undo"}, {"type": "add", "seat": 0, "points": 3},
                    {"type": "undo"}, {"type": "undo"})
    code, out, err = run(capsys, "replay", log, "--json")
    assert code == 2 and json.loads(out)["totals"] == [0, 0]
    assert json.loads(out)["error"] == {"line": 6, "message": "nothing to undo [rule: undo]"}


def test_import_export_sessions(tmp_path, capsys):
    db = str(tmp_path / "t.db")
    lines = [HEADER, {"type": "add", "seat": 0, "points": 4}, {"type": "undo"},
             {"type": "add", "seat": 0, "points": 5, "t": "2026-11-22T10:00:00Z"}]
    log = write_log(tmp_path / "g.jsonl", *lines)
    code, out, _ = run(capsys, "import", log, "--db", db)
    assert code == 0 and "session 1" in out
    code, out, _ = run(capsys, "export", "--db", db)
    assert code == 0
    assert [json.loads(x) for x in out.splitlines()] == lines
    code, out, _ = run(capsys, "sessions", "--db", db, "--json")
    assert json.loads(out)[0]["events"] == 3
    code, _, err = run(capsys, "export", "9", "--db", db)
    assert code == 2 and "no session 9" in err


def test_one_event_is_counted_in_the_singular(tmp_path, capsys):
    """"(1 event)", never "(1 events)": import, sessions and check count as people do."""
    db = str(tmp_path / "t.db")
    log = write_log(tmp_path / "g.jsonl", HEADER, {"type": "add", "seat": 0, "points": 4})
    code, out, _ = run(capsys, "import", log, "--db", db)
    assert code == 0 and out.rstrip().endswith("(1 event)"), out
    code, out, _ = run(capsys, "sessions", "--db", db)
    assert code == 0 and " 1 event " in out and "1 events" not in out, out
    code, out, _ = run(capsys, "check", "--db", db)
    assert code == 0 and "1 event," in out and "1 events" not in out, out


def test_import_refuses_an_illegal_log_and_stores_nothing(tmp_path, capsys):
    db = str(tmp_path / "t.db")
    log = write_log(tmp_path / "g.jsonl", HEADER, {"type": "add", "seat": 1, "points": 4})
    code, _, err = run(capsys, "import", log, "--db", db)
    assert code == 2 and "line 2" in err
    code, out, err = run(capsys, "sessions", "--db", db, "--json")
    # Nothing stored: no session, or no store at all (then --db is said to name none).
    assert (code == 0 and json.loads(out) == []) or (code == 2 and "no table store" in out)


def test_rules_lists_options(capsys):
    code, out, _ = run(capsys, "rules", "tally", "--json")
    assert code == 0
    assert json.loads(out)["options"]["goal"] == {"default": 20, "help": "points that end the game"}
    code, out, _ = run(capsys, "rules", "tally")
    assert "goal = 20" in out
    code, _, err = run(capsys, "rules", "chess")
    assert code == 2 and "unknown game 'chess'" in err


def test_cli_entry_point_runs_without_traceback(tmp_path):
    import subprocess
    import sys
    done = subprocess.run([sys.executable, "-m", "companion.cli", "replay", str(tmp_path / "x")],
                          capture_output=True, text=True)
    assert done.returncode == 2 and done.stderr.startswith("companion: no such file")
