"""A table log's `t` is a time and its objects give each key once (issue 40, item 4): a line
that breaks either rule is refused in one line naming the line and the field, exit 2, and
nothing is stored."""

from __future__ import annotations

import json

import pytest

from companion.cli import main
from companion.table import TableStore
from companion.table.log import parse_log

HEADER = '{"game": "traps", "seats": ["Ann", "Bob"], "seed": 7, "options": {}}'
EXPOSE = '{"type": "expose", "seat": 0, "square": "T1", "clicks": 3'


@pytest.mark.parametrize("stamp", ['"2026-01-02T20:00:00+01:00"', '"2026-01-02T19:00:00Z"',
                                   '"2026-01-02 20:00"', '"2026-01-02"'])
def test_an_iso_time_is_kept(stamp):
    _, events = parse_log([HEADER, EXPOSE + f', "t": {stamp}}}'])
    assert events[0][1]["t"] == json.loads(stamp)


@pytest.mark.parametrize(("stamp", "shown"), [
    ('"yesterday"', "'yesterday'"), ('"2026-13-01"', "'2026-13-01'"), ('""', "''"),
    ("1767380400", "1767380400"), ("null", "null"), ("true", "true"),
    ('["2026-01-02"]', '["2026-01-02"]'), ('"\\u001b[2J"', "'\\x1b[2J'"),
    ('"' + "9" * 80 + '"', "'" + "9" * 36 + "..."),
])
def test_a_t_that_is_no_time_names_its_line_and_field(stamp, shown, tmp_path, capsys):
    log = tmp_path / "game.jsonl"
    log.write_text(f"{HEADER}\n{EXPOSE}}}\n{EXPOSE}, \"t\": {stamp}}}\n")
    assert main(["replay", str(log)]) == 2
    out, err = capsys.readouterr()
    assert err == ("companion: line 3: field 't' must be an ISO time such as "
                   f"2026-01-02T20:00:00+01:00, got {shown}\n")
    assert main(["replay", "--json", str(log)]) == 2
    error = json.loads(capsys.readouterr().out)["error"]
    assert error["line"] == 3 and error["message"].startswith("field 't' must be an ISO time")


@pytest.mark.parametrize(("line", "number", "key"), [
    (HEADER.replace('"seed": 7', '"seed": 7, "seed": 8'), 1, "seed"),
    (HEADER.replace('"options": {}', '"options": {"squares": ["T1"], "squares": ["T2"]}'),
     1, "squares"),
])
def test_a_key_given_twice_in_the_header_is_refused(line, number, key, tmp_path, capsys):
    log = tmp_path / "game.jsonl"
    log.write_text(line + "\n")
    assert main(["replay", str(log)]) == 2
    assert capsys.readouterr().err == (f"companion: line {number}: key '{key}' given twice "
                                       "in one object\n")


def test_a_key_given_twice_in_an_event_is_refused_and_nothing_stored(tmp_path, capsys):
    log = tmp_path / "game.jsonl"
    log.write_text(f"{HEADER}\n{EXPOSE}}}\n{EXPOSE}, \"seat\": 1}}\n")
    db = tmp_path / "table.db"
    for argv in (["replay", str(log)], ["import", str(log), "--db", str(db)],
                 ["run", "--sim", "--feed", str(log), "--db", str(db)]):
        assert main(argv) == 2, argv
        err = capsys.readouterr().err
        assert err == "companion: line 3: key 'seat' given twice in one object\n", argv
    if db.exists():
        with TableStore(db) as store:
            assert store.sessions() == []


def test_a_bad_t_fed_to_the_daemon_stores_nothing(tmp_path, capsys):
    log = tmp_path / "game.jsonl"
    log.write_text(f'{HEADER}\n{EXPOSE}}}\n{EXPOSE}, "t": "soon"}}\n')
    db = tmp_path / "table.db"
    assert main(["run", "--sim", "--feed", str(log), "--db", str(db)]) == 2
    assert "line 3: field 't' must be an ISO time" in capsys.readouterr().err
    if db.exists():
        with TableStore(db) as store:
            assert store.sessions() == []
