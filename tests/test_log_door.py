"""Bad input is refused at the door: lone surrogates, huge lines and files, numbers that are
not JSON, in every way a header or an event comes in (import, replay, --feed, the store, the
daemon's session). One clear line, exit 2, nothing stored."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import one_clear_line, run
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.errors import CompanionError, EventError, LogError
from companion.table import Header, TableSession, TableStore
from companion.table.log import MAX_LINE_BYTES, parse_log, read_log

HEADER = {"game": "traps", "seats": ["Ann", "Bob"], "seed": 7, "options": {}}
EXPOSE = {"type": "expose", "seat": 0, "square": "T1", "clicks": 3}
#: JSON text (escaped, as a file holds it) with a lone surrogate in each place one can hide.
SURROGATE_LINES = {
    "seat name": [json.dumps({**HEADER, "seats": ["Ann", "\ud800"]}), json.dumps(EXPOSE)],
    "option key": [json.dumps({**HEADER, "options": {"\udc00": 1}})],
    "option value": [json.dumps({**HEADER, "options": {"squares": ["T1", "\udbff"]}})],
    "t": [json.dumps(HEADER), json.dumps({**EXPOSE, "t": "2026-01-01\ud800"})],
    "event field": [json.dumps(HEADER), json.dumps({**EXPOSE, "square": "\udfff"})],
    "event key": [json.dumps(HEADER), json.dumps({**EXPOSE, "\ud800": 1})],
}


def write(path: Path, lines: list[str]) -> str:
    path.write_text("".join(line + "\n" for line in lines), encoding="ascii")
    return str(path)


@pytest.mark.parametrize("where", SURROGATE_LINES)
def test_a_lone_surrogate_is_refused_by_replay_import_and_feed(tmp_path, capsys, where):
    log = write(tmp_path / "bad.jsonl", SURROGATE_LINES[where])
    db = tmp_path / "t.db"
    code, _, err = run(capsys, "replay", log)
    assert code == 2 and "lone surrogate" in err
    one_clear_line(err)
    code, out, _ = run(capsys, "replay", log, "--json")
    assert code == 2 and "lone surrogate" in json.loads(out)["error"]["message"]
    code, _, err = run(capsys, "import", log, "--db", str(db))
    assert code == 2 and "lone surrogate" in err
    one_clear_line(err)
    code, _, err = run(capsys, "run", "--sim", "--feed", log, "--db", str(db))
    assert code == 2 and "lone surrogate" in err
    one_clear_line(err)
    code, out, _ = run(capsys, "sessions", "--db", str(db), "--json")
    assert code == 0 and json.loads(out) == []  # nothing stored by any of them


def test_the_refusal_names_the_line_and_the_field(tmp_path):
    with pytest.raises(LogError) as error:
        read_log(write(tmp_path / "g.jsonl", SURROGATE_LINES["t"]))
    assert error.value.line == 2 and "'t'" in error.value.message
    with pytest.raises(LogError) as error:
        read_log(write(tmp_path / "g.jsonl", SURROGATE_LINES["seat name"]))
    assert error.value.line == 1 and "'seats'[1]" in error.value.message


def test_a_header_or_event_from_anywhere_else_is_refused_too(tmp_path):
    with pytest.raises(LogError, match="lone surrogate"):
        Header.from_json({**HEADER, "seats": ["Ann", "B\ud800b"]})
    session = TableSession(Header.from_json(HEADER))
    with pytest.raises(EventError, match="lone surrogate"):
        session.apply({**EXPOSE, "t": "\ud800"})
    assert session.events == []
    store = TableStore(tmp_path / "t.db")
    with pytest.raises(LogError, match="lone surrogate"):
        store.new_session(Header("traps", ("Ann", "\udc00"), 7))
    stored_game = store.new_session(Header.from_json(HEADER))
    with pytest.raises(EventError, match="lone surrogate"):
        stored_game.append({**EXPOSE, "square": "\ud800"})
    assert store.sessions()[0].events == 0 and len(store.sessions()) == 1


def test_replay_of_an_endless_file_stops_at_the_line_cap(capsys):
    code, _, err = run(capsys, "replay", "/dev/zero")
    assert code == 2 and "line 1: longer than 1 MiB" in err
    one_clear_line(err)


def test_a_line_just_under_the_cap_is_read_and_one_over_is_not(tmp_path):
    # Padded with a key of its own: `t` must be a time (tests/test_log_fields.py).
    pad = MAX_LINE_BYTES - len(json.dumps({**EXPOSE, "pad": ""}))
    fits = json.dumps({**EXPOSE, "pad": "x" * pad})
    assert len(fits) == MAX_LINE_BYTES
    header, events = read_log(write(tmp_path / "g.jsonl", [json.dumps(HEADER), fits]))
    assert events[0][1]["pad"] == "x" * pad
    over = json.dumps({**EXPOSE, "pad": "x" * (pad + 1)})
    with pytest.raises(LogError, match="longer than 1 MiB") as error:
        read_log(write(tmp_path / "g.jsonl", [json.dumps(HEADER), over]))
    assert error.value.line == 2


def test_a_log_file_larger_than_the_cap_is_refused(tmp_path, monkeypatch):
    monkeypatch.setattr("companion.table.log.MAX_LOG_BYTES", 4096)
    lines = [json.dumps(HEADER)] + [json.dumps({"type": "undo"})] * 400
    with pytest.raises(LogError, match="larger than"):
        read_log(write(tmp_path / "g.jsonl", lines))


@pytest.mark.parametrize("text", ["1" * 5000, "NaN", "-Infinity", '{"x": Infinity}'])
def test_numbers_json_does_not_have_are_bad_json_not_a_traceback(tmp_path, capsys, text):
    log = write(tmp_path / "g.jsonl", [json.dumps(HEADER), text])
    code, _, err = run(capsys, "replay", log)
    assert code == 2 and "line 2: not valid JSON" in err
    one_clear_line(err)


# Arbitrary text, surrogates and controls included, as lines of a log: the parser either
# reads it or refuses it with a LogError whose message can be printed. Nothing else.
TEXT = st.text(st.characters(blacklist_categories=()), max_size=60)
JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | TEXT,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TEXT, inner, max_size=4),
    max_leaves=12)


def _line(value: object) -> str:
    return json.dumps(value) if not isinstance(value, str) else value


@settings(max_examples=300)
@given(st.lists(JSONISH | TEXT, min_size=1, max_size=4),
       st.dictionaries(st.sampled_from(["game", "seats", "seed", "options", "x"]), JSONISH))
def test_fuzz_the_header_and_event_parser(lines, header_fields):
    log = [json.dumps({**HEADER, **header_fields}), *map(_line, lines)]
    try:
        header, events = parse_log(log)
        session = TableSession(header)
        for _, event in events:
            try:
                session.apply(event)
            except CompanionError as error:
                str(error).encode("utf-8")
    except CompanionError as error:
        str(error).encode("utf-8")
