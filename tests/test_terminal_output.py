"""What the commands print is shown, never obeyed, by a terminal: a seat name holding escape
codes (or C1 controls, or bidirectional overrides) is printed escaped, in text and JSON."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from helpers import run
from hypothesis import given
from hypothesis import strategies as st

from companion.terminal import UNSAFE, escaped, json_escaped

#: A clear screen, a red colour, a C1 CSI, a bell, a right-to-left override, a newline.
NASTY = ["\x1b[2J\x1b[31mAnn", "B\x9b2Job\x07", "\u202eCy", "D\nee"]
HEADER = {"game": "traps", "seats": NASTY, "seed": 7, "options": {}}
#: Anything a terminal obeys: ESC, C0 and C1 controls (newlines between lines aside), DEL.
OBEYED = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


@pytest.fixture
def log(tmp_path):
    path = tmp_path / "g.jsonl"
    path.write_text(json.dumps(HEADER) + "\n" + json.dumps(
        {"type": "expose", "seat": 9, "square": "T1", "clicks": 3}) + "\n")
    return str(path)


def test_replay_text_and_json_escape_the_seat_names(log, capsys):
    code, out, err = run(capsys, "replay", log)
    assert code == 2  # seat 9 is no seat: the error line is printed too
    assert not OBEYED.search(out) and not OBEYED.search(err)
    assert "\\x1b[2J\\x1b[31mAnn" in out and "\\u202eCy" in out
    assert "  4  D\\x0aee" in out  # a newline in a name does not break the score table
    code, out, _ = run(capsys, "replay", log, "--json")
    assert not OBEYED.search(out)
    assert json.loads(out)["seats"] == NASTY  # the same names, only escaped


def test_export_and_sessions_escape_them_too(log, tmp_path, capsys):
    db = str(tmp_path / "t.db")
    lines = Path(log).read_text().splitlines()[:1]
    (tmp_path / "h.jsonl").write_text(lines[0] + "\n")
    assert run(capsys, "import", str(tmp_path / "h.jsonl"), "--db", db)[0] == 0
    code, out, _ = run(capsys, "sessions", "--db", db)
    assert code == 0 and not OBEYED.search(out) and "\\x1b[2J" in out
    code, out, _ = run(capsys, "export", "--db", db)
    assert code == 0 and not OBEYED.search(out.replace("\n", ""))
    assert json.loads(out)["seats"] == NASTY


def test_an_error_message_quoting_user_text_is_escaped(tmp_path, capsys):
    path = tmp_path / "g.jsonl"
    path.write_text(json.dumps({**HEADER, "options": {"\x1b]0;owned\x07": 1}}) + "\n")
    code, _, err = run(capsys, "replay", str(path))
    assert code == 2 and err.count("\n") == 1 and not OBEYED.search(err)


@given(st.text(st.characters(blacklist_categories=())))
def test_shown_text_holds_nothing_a_terminal_obeys_and_json_reads_back_the_same(text):
    assert not UNSAFE.search(escaped(text))
    as_json = json_escaped({"name": text}, indent=2)
    assert not OBEYED.search(as_json.replace("\n", ""))
    if not re.search("[\ud800-\udfff]", text):
        assert json.loads(as_json) == {"name": text}
