"""A store with one of its tables dropped (issue 40, item 4): `companion check` and every
command that writes agree that it is not sound, by one shared rule
(``companion.table.store.schema_problem``); what can still be exported still can be."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from companion.cli import main
from companion.table import Header, TableStore

TRAPS = Header("traps", ("Ann", "Bob"), 7)
EXPOSE = {"type": "expose", "seat": 0, "square": "T1", "clicks": 3}


@pytest.fixture
def stored(tmp_path) -> Path:
    path = tmp_path / "table.db"
    with TableStore(path) as store:
        store.new_session(TRAPS).append(EXPOSE)
    return path


def drop(path: Path, table: str) -> None:
    db = sqlite3.connect(path)
    db.execute(f"DROP TABLE {table}")
    db.commit()
    db.close()


@pytest.mark.parametrize("table", ["results", "players", "seats"])
def test_check_and_run_agree_a_store_without_one_of_its_tables_is_damaged(stored, table,
                                                                          tmp_path, capsys):
    drop(stored, table)
    before = stored.read_bytes()
    db = str(stored)
    assert main(["check", "--db", db]) == 2
    out = capsys.readouterr().out
    assert "DAMAGED" in out and f"its tables are incomplete: no {table} table" in out
    assert "can be exported" in out
    log = tmp_path / "g.jsonl"
    log.write_text(json.dumps(TRAPS.to_json()) + "\n" + json.dumps(EXPOSE) + "\n")
    for argv in (["run", "--sim", "--feed", str(log)], ["import", str(log)]):
        assert main([*argv, "--db", db]) == 2, argv
        err = capsys.readouterr().err
        assert err == (f"companion: the table store {db} is damaged (no {table} table): "
                       f"`companion check --db {db}` says which sessions can still be "
                       "exported\n"), argv
    assert stored.read_bytes() == before
    # What check says can be exported, can.
    assert main(["export", "--db", db, "1"]) == 0
    assert json.loads(capsys.readouterr().out.splitlines()[1]) == EXPOSE


def test_a_whole_store_is_sound_to_both(stored, tmp_path, capsys):
    assert main(["check", "--db", str(stored)]) == 0
    assert "sound" in capsys.readouterr().out
    with TableStore(stored) as store:
        assert len(store.sessions()) == 1


def test_a_file_with_only_other_tables_is_a_new_store(tmp_path):
    # The web pages' tables may be made before the first game: that is no damage.
    path = tmp_path / "table.db"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE web_links (seat INTEGER)")
    db.commit()
    db.close()
    with TableStore(path) as store:
        assert store.sessions() == []
