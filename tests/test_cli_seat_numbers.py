"""Seats counted from 1 in what a person reads from the command line (issue 44): the seats'
links, the replay table and the spreadsheet export, as on the table, the keys and the pages.
The table log, ``--seat N`` and every ``--json`` keep their 0-based indices (the contract).
Each command is run as a user runs it: a process of its own."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys

import pytest

from companion.bundles.tricky.rules import sim as tricky_sim
from companion.table import Header, TableStore
from companion.web.tokens import TokenBook

URL = "http://192.0.2.7:8080"


def companion(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "companion.cli", *args],
                          capture_output=True, text=True, timeout=120)


@pytest.fixture
def linked_store(tmp_path):
    """A store with an unfinished Tricky game whose seats have links, as the daemon makes
    them when it serves the pages."""
    path = tmp_path / "table.db"
    with TableStore(path) as store:
        session = store.new_session(Header("tricky", ("Ann", "Bob", "Cy"), 4)).id
    book = TokenBook(str(path))
    book.set_url(URL)
    book.serve(session, 3)
    book.close()
    return str(path)


def test_seats_lists_seat_1_to_n_and_json_keeps_the_indices(linked_store):
    listed = companion("seats", "--db", linked_store, "--no-qr")
    assert listed.returncode == 0, listed.stderr
    lines = [line for line in listed.stdout.splitlines() if line.startswith("seat")]
    assert [line.split("  ")[0] for line in lines] == ["seat 1: Ann", "seat 2: Bob",
                                                       "seat 3: Cy"]
    as_json = json.loads(companion("seats", "--db", linked_store, "--json").stdout)
    assert [(link["seat"], link["name"]) for link in as_json] == [(0, "Ann"), (1, "Bob"),
                                                                  (2, "Cy")]


def test_reissue_takes_the_seat_as_listed(linked_store):
    before = {link["name"]: link["url"] for link in
              json.loads(companion("seats", "--db", linked_store, "--json").stdout)}
    result = companion("seats", "--db", linked_store, "--reissue", "1", "--json")
    assert result.returncode == 0, result.stderr
    (fresh,) = json.loads(result.stdout)
    assert fresh["name"] == "Ann" and fresh["seat"] == 0 and fresh["url"] != before["Ann"]
    after = {link["name"]: link["url"] for link in
             json.loads(companion("seats", "--db", linked_store, "--json").stdout)}
    assert after["Bob"] == before["Bob"] and after["Cy"] == before["Cy"]


@pytest.mark.parametrize(("seat", "says"), [("0", "counted from 1"), ("4", "seats are 1 to 3"),
                                            ("Ann", "give a seat number")])
def test_a_seat_not_listed_is_one_clear_line_exit_2(linked_store, seat, says):
    result = companion("seats", "--db", linked_store, "--reissue", seat)
    assert result.returncode == 2
    assert says in result.stderr and "Traceback" not in result.stderr
    assert result.stderr.count("\n") == 1


LOG = ('{"game": "traps", "seats": ["Ann", "Bob"], "seed": 7, "options": {}}\n'
       '{"type": "expose", "seat": 0, "square": "T1", "clicks": 3}\n')


def test_the_replay_table_counts_seats_from_1(tmp_path):
    log = tmp_path / "game.jsonl"
    log.write_text(LOG)
    result = companion("replay", str(log))
    assert result.returncode == 0, result.stderr
    rows = [line.split() for line in result.stdout.splitlines()[2:4]]
    assert [row[:2] for row in rows] == [["1", "Ann"], ["2", "Bob"]]
    # --seat and --json keep the table log's 0-based indices
    assert json.loads(companion("replay", str(log), "--json").stdout)["seats"] == ["Ann", "Bob"]
    mine = companion("replay", str(log), "--seat", "0")
    assert mine.returncode == 0 and "reading_seen" in mine.stdout


def test_the_spreadsheet_counts_seats_from_1(tmp_path):
    log = tmp_path / "game.jsonl"
    header, events = tricky_sim.random_game(3, 3, rounds_per_player=1)
    log.write_text("".join(json.dumps(line) + "\n" for line in [header, *events]))
    db = str(tmp_path / "table.db")
    assert companion("import", str(log), "--db", db).returncode == 0
    rows = list(csv.DictReader(io.StringIO(companion("export", "--csv", "--db", db).stdout)))
    assert [(row["seat"], row["player"]) for row in rows] == [
        ("1", header["seats"][0]), ("2", header["seats"][1]), ("3", header["seats"][2])]
