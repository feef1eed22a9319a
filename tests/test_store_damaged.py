"""A store with damaged pages (a valid first page, garbage after it): every command says so
in one line and exits 2; `companion check` runs SQLite's integrity check and says which
sessions can still be exported, and those really can be."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import one_clear_line, run

from companion.table import Header, TableStore

TRAPS = Header("traps", ("Ann", "Bob"), 7)
PAGE = 4096


def event(session: int, n: int) -> dict:
    """Legal in traps whatever came before: expose and undo, marked with where it is."""
    marker = f"S{session}-E{n:03d}-" + "x" * 60
    if n % 2:
        return {"type": "undo", "t": marker}
    return {"type": "expose", "seat": 0, "square": "T1", "clicks": 3, "t": marker}


@pytest.fixture
def store_of_three(tmp_path) -> Path:
    """Three sessions of 150 events each, cleanly closed."""
    path = tmp_path / "table.db"
    with TableStore(path) as store:
        for session in (1, 2, 3):
            stored_game = store.new_session(TRAPS)
            for n in range(150):
                stored_game.append(event(session, n))
    return path


def damage(path: Path, marker: bytes | None = None) -> None:
    """Overwrite with garbage the page holding ``marker``, or every page after the first."""
    data = bytearray(path.read_bytes())
    if marker is None:
        start, end = PAGE, len(data)
    else:
        start = data.index(marker) // PAGE * PAGE
        end = start + PAGE
    data[start:end] = b"\x5a" * (end - start)
    path.write_bytes(bytes(data))


def test_every_command_on_a_store_of_garbage_pages_is_one_line_and_exit_2(store_of_three,
                                                                           tmp_path, capsys):
    damage(store_of_three)
    before = store_of_three.read_bytes()
    db = str(store_of_three)
    log = tmp_path / "g.jsonl"
    # Without its marker: a log's `t` must be a time.
    log.write_text(json.dumps(TRAPS.to_json()) + "\n"
                   + json.dumps({**event(9, 0), "t": "2026-01-02T20:00:00Z"}) + "\n")
    for argv in (["sessions"], ["export"], ["export", "2"], ["import", str(log)],
                 ["run", "--sim", "--feed", str(log)]):
        code, _, err = run(capsys, *argv, "--db", db)
        assert code == 2, argv
        one_clear_line(err)
        assert "damaged" in err and f"companion check --db {db}" in err, argv
    # The daemon itself, as systemd starts it: one line on stderr, exit 2, no restart loop of
    # tracebacks.
    done = subprocess.run([sys.executable, "-m", "companion.cli", "run", "--sim", "--db", db],
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "damaged" in done.stderr
    assert store_of_three.read_bytes() == before  # nothing written into the damage
    code, out, _ = run(capsys, "check", "--db", db)
    assert code == 2 and "DAMAGED" in out and "can be exported" not in out


def test_check_names_the_sessions_that_can_still_be_exported(store_of_three, capsys):
    damage(store_of_three, b"S2-E075-")
    db = str(store_of_three)
    code, out, err = run(capsys, "check", "--db", db)
    assert code == 2 and err == ""
    assert "SQLite's integrity check found:" in out
    exportable = out.split("can be exported")[1].split("cannot be exported")[0]
    lost = out.split("cannot be exported")[1]
    assert [line.split()[0] for line in exportable.splitlines()[1:]] == ["1", "3"]
    assert lost.splitlines()[1].split()[0] == "2" and "damaged" in lost
    for session in (1, 3):  # what check promised: written whole, the damage said, exit 2
        code, out, err = run(capsys, "export", str(session), "--db", db)
        assert code == 2
        assert [json.loads(line) for line in out.splitlines()] == [
            TRAPS.to_json(), *(event(session, n) for n in range(150))]
        one_clear_line(err)
        assert "damaged" in err and f"session {session} was read whole" in err
    code, _, err = run(capsys, "export", "2", "--db", db)
    assert code == 2
    one_clear_line(err)


def test_check_of_a_sound_store_says_so_and_changes_nothing(store_of_three, capsys):
    before = store_of_three.read_bytes()
    code, out, _ = run(capsys, "check", "--db", str(store_of_three))
    assert code == 0 and "sound (3 sessions)" in out and "integrity check: ok" in out
    assert "cannot be exported" not in out and store_of_three.read_bytes() == before


def test_check_of_a_file_that_is_no_store_or_no_file(tmp_path, capsys):
    text = tmp_path / "notes.txt"
    text.write_text("not a database, just text\n" * 300)
    code, _, err = run(capsys, "check", "--db", str(text))
    assert code == 2 and "not a table store" in err
    one_clear_line(err)
    code, _, err = run(capsys, "check", "--db", str(tmp_path / "none.db"))
    assert code == 2 and "no table store at" in err
    assert not (tmp_path / "none.db").exists()


def test_a_stored_header_its_reader_refuses_is_named_by_session(tmp_path, capsys):
    path = tmp_path / "t.db"
    with TableStore(path) as store:
        store.new_session(TRAPS)
        store.new_session(TRAPS)
        # What an older companion could store: a header with an empty seat name.
        store.db.execute("UPDATE sessions SET header = ? WHERE id = 2",
                         (json.dumps({**TRAPS.to_json(), "seats": ["", "Bob"]}),))
    code, _, err = run(capsys, "export", "--db", str(path))
    assert code == 2 and "stored session 2" in err
    one_clear_line(err)
    code, out, _ = run(capsys, "check", "--db", str(path))
    assert code == 2
    assert "   1  traps, 0 events" in out and "   2  its header cannot be read" in out


@pytest.mark.parametrize("command", [["sessions"], ["history"], ["league"], ["players"],
                                     ["export"], ["export", "--csv"]])
def test_a_mistyped_store_name_is_said_not_read_as_an_empty_store(tmp_path, capsys, command):
    """``--db /no/such/x.db`` named a store that is not there: one line naming ``--db`` and
    the path, exit 2, and nothing is created (a new store is made by run or import only)."""
    missing = tmp_path / "no" / "such.db"
    code, out, err = run(capsys, *command, "--db", str(missing))
    assert code == 2 and out == ""
    one_clear_line(err)
    assert "--db" in err and str(missing) in err
    assert not missing.exists() and not missing.parent.exists()


@pytest.mark.parametrize("command", [["sessions"], ["sessions", "--json"], ["history"],
                                     ["league"], ["players"], ["export", "--csv"],
                                     ["export", "--bgstats"], ["seats"], ["seats", "--json"]])
def test_a_store_damaged_where_a_command_does_not_look_is_said_by_it_all_the_same(
        store_of_three, capsys, command):
    """Issue 53: after part of a copied store was overwritten, `check` said DAMAGED but
    these printed their whole results, exit 0, no warning."""
    damage(store_of_three, b"S2-E075-")
    code, out, err = run(capsys, *command, "--db", str(store_of_three))
    assert code == 2, (command, out[:200])
    if "--json" in command:  # the contract's JSON error, on stdout
        said = json.loads(out)["error"]["message"]
    else:
        assert out == "", (command, out[:200])
        one_clear_line(err)
        said = err
    assert "is damaged" in said and "companion check --db" in said
