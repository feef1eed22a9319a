"""Where the store lives: created private (0600 in 0700 folders), read without writing by the
commands that only read (so a read-only file or mount can be read), and a path or number
that cannot be a store or a session is one clear line, not a traceback."""

from __future__ import annotations

import json
import os
import stat
import sys
from pathlib import Path

import pytest
import sandbox
from helpers import one_clear_line, run

from companion.table import Header, TableStore

TRAPS = Header("traps", ("Ann", "Bob"), 7)
EXPOSE = {"type": "expose", "seat": 0, "square": "T1", "clicks": 3}


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def a_store(path: Path) -> Path:
    with TableStore(path) as store:
        store.new_session(TRAPS).append(EXPOSE)
    return path


def test_a_new_store_is_0600_in_0700_folders_it_creates(tmp_path, capsys):
    log = tmp_path / "g.jsonl"
    log.write_text(json.dumps(TRAPS.to_json()) + "\n")
    db = tmp_path / "state" / "companion" / "table.db"
    there = mode(tmp_path)
    old = os.umask(0o022)  # the usual umask: 0644 files, 0755 folders
    try:
        assert run(capsys, "import", str(log), "--db", str(db))[0] == 0
    finally:
        os.umask(old)
    assert mode(db) == 0o600
    assert mode(db.parent) == 0o700 and mode(db.parent.parent) == 0o700
    assert mode(tmp_path) == there  # a folder that was there is left as it was
    with TableStore(db) as store:  # open: SQLite's own files take the store's mode
        store.new_session(TRAPS).append(EXPOSE)
        assert mode(Path(f"{db}-wal")) == 0o600 and mode(Path(f"{db}-shm")) == 0o600


def test_an_existing_store_and_folder_keep_their_modes(tmp_path):
    folder = tmp_path / "shared"
    folder.mkdir(mode=0o750)
    db = a_store(folder / "table.db")
    db.chmod(0o640)
    a_store(db)
    assert mode(db) == 0o640 and mode(folder) == 0o750


def test_reading_commands_create_nothing(tmp_path, capsys):
    db = tmp_path / "none" / "table.db"
    code, out, _ = run(capsys, "sessions", "--db", str(db), "--json")
    assert code == 2 and "no table store at" in json.loads(out)["error"]["message"]
    code, _, err = run(capsys, "export", "--db", str(db))
    assert code == 2 and "no table store at" in err
    assert not db.parent.exists()


def test_reading_commands_leave_a_store_unchanged(tmp_path, capsys):
    db = a_store(tmp_path / "table.db")
    before = db.read_bytes()
    for argv in (["sessions"], ["export"], ["check"]):
        assert run(capsys, *argv, "--db", str(db))[0] == 0
    assert db.read_bytes() == before


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write a read-only file")
def test_a_read_only_store_file_can_be_read(tmp_path, capsys):
    db = a_store(tmp_path / "table.db")
    db.chmod(0o400)
    tmp_path.chmod(0o500)
    try:
        code, out, _ = run(capsys, "sessions", "--db", str(db), "--json")
        assert code == 0 and json.loads(out)[0]["events"] == 1
        code, out, _ = run(capsys, "export", "--db", str(db))
        assert code == 0 and json.loads(out.splitlines()[1]) == EXPOSE
        code, _, err = run(capsys, "import", str(db), "--db", str(db))
        assert code == 2
    finally:
        tmp_path.chmod(0o700)


def test_a_store_on_a_read_only_mount_can_be_read(tmp_path):
    folder = tmp_path / "store"
    folder.mkdir()
    db = a_store(folder / "table.db")
    companion = f"{sys.executable} -m companion.cli"
    done = sandbox.run(
        f"mount --bind {folder} {folder} && mount -o remount,bind,ro {folder} && "
        f"{companion} sessions --db {db} --json && {companion} export --db {db} && "
        f"{companion} check --db {db} && {{ {companion} import {db} --db {db}; "
        f"echo exit $?; }}")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert json.loads(lines[0])[0]["events"] == 1
    assert json.loads(lines[2]) == EXPOSE
    assert any("sound" in line for line in lines) and lines[-1] == "exit 2"
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize("db", ["/proc/nope/x.db", "/dev/null/x.db"])
def test_a_store_path_that_cannot_be_is_one_line(tmp_path, capsys, db):
    log = tmp_path / "g.jsonl"
    log.write_text(json.dumps(TRAPS.to_json()) + "\n")
    for argv in (["import", str(log)], ["run", "--sim", "--feed", str(log)], ["export"]):
        code, _, err = run(capsys, *argv, "--db", db)
        assert code == 2, argv
        one_clear_line(err)


def test_a_session_number_too_large_for_sqlite_is_no_session(tmp_path, capsys):
    db = a_store(tmp_path / "table.db")
    for number in ("999999999999999999999999999999", "0", "-1", str(2**63)):
        code, _, err = run(capsys, "export", "--db", str(db), "--", number)
        assert code == 2 and f"no session {number}" in err, number
        one_clear_line(err)
