"""A config cannot brick the store: every value that reaches a new game's header is checked
as the header reader checks it, and the store never writes a header its reader refuses."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from built_in import GAMES as BUILT_IN
from hypothesis import given
from hypothesis import strategies as st

from companion.daemon.config import parse_config
from companion.daemon.dialogues import START, new_game, seat_names
from companion.errors import ConfigError, LogError
from companion.games.registry import engine
from companion.table import Header, TableStore


@pytest.mark.parametrize(("text", "named"), [
    ('[table]\nseats = [""]\n', "[table] seats: 'seats' must hold non-empty names"),
    ('[table]\nseats = ["Ann", "  "]\n', "[table] seats: 'seats' must hold non-empty names"),
    ('[table]\nseats = ["a", "b", "c", "d", "e", "f", "g", "h", "i"]\n',
     "[table] seats: at most 8 names"),
    ("[options.traps]\nsquares = [1979-05-27]\n", "[options.traps]"),
])
def test_a_config_value_that_would_make_an_unreadable_header_is_refused(text, named):
    with pytest.raises(ConfigError) as error:
        parse_config(text)
    assert named in str(error.value)


def test_run_with_such_a_config_stops_before_anything_starts(tmp_path):
    config = tmp_path / "c.toml"
    config.write_text('[table]\nseats = [""]\n')
    db = tmp_path / "t.db"
    done = subprocess.run([sys.executable, "-m", "companion.cli", "run", "--sim", "--config",
                           str(config), "--db", str(db)], stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr.startswith("companion: [table] seats:") and done.stderr.count("\n") == 1
    assert not db.exists()


def test_the_store_refuses_to_write_a_header_its_reader_refuses(tmp_path):
    store = TableStore(tmp_path / "t.db")
    for header in (Header("traps", ("", "Bob"), 7), Header("traps", ("Ann", "Ann"), 7),
                   Header("traps", ("Ann", "Bob"), 2**70),
                   Header("traps", ("Ann", "Bob"), 7, {"squares": [float("nan")]})):
        with pytest.raises(LogError, match="header"):
            store.new_session(header)
    assert store.sessions() == []


def test_made_up_seat_names_never_repeat_a_configured_one():
    assert seat_names(["Seat 3", "Bob"], 4) == ("Seat 3", "Bob", "Seat 4", "Seat 5")


@given(st.lists(st.text(min_size=1).filter(str.strip), min_size=1, max_size=8, unique=True),
       st.sampled_from(BUILT_IN))
def test_every_new_game_a_valid_config_offers_can_be_stored_and_read_back(seats, game):
    try:
        config = parse_config(f"[table]\nseats = {_toml_list(seats)}\ngame = {game!r}\n")
    except ConfigError:
        return  # refused whole, before anything starts
    cls = engine(game)
    for count in range(cls.min_seats, cls.max_seats + 1):
        steps = new_game(game, config.table.seats, config.options)
        next(steps)
        steps.send(game)
        steps.send(count)  # "Who plays?": start keeps the names the config gives
        try:
            steps.send(START)
        except StopIteration as done:
            header = done.value
        assert Header.from_json(json.loads(header.to_line())) == header


def _toml_list(names: list[str]) -> str:
    return json.dumps(names)  # a JSON list of strings is a TOML array


def test_a_store_bricked_by_an_older_version_no_longer_stops_the_daemon(tmp_path):
    from companion.daemon.daemon import Daemon
    from companion.daemon.displays import MemoryScreen

    store = TableStore(tmp_path / "t.db")
    store.new_session(Header("traps", ("Ann", "Bob"), 7))
    # What a config with seats = [""] made an older companion store.
    store.db.execute("UPDATE sessions SET header = ? WHERE id = 1", (json.dumps(
        {"game": "traps", "seats": ["", "Bob"], "seed": 7, "options": {}}),))
    daemon = Daemon(store, screens=[MemoryScreen("table")])
    daemon.resume_or_offer()
    assert daemon.stored_game is None and daemon.display.asks == "new game"
    assert daemon.display.table_notice == "session 1 unreadable"
    daemon.start_game(Header("traps", ("Ann", "Bob"), 8))
    assert daemon.stored_game is not None and daemon.stored_game.id == 2
