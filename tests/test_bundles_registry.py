"""One registry of games, found through the ``companion.games`` entry points (issue 42): the
four built in are declared there like any other game, a game declared there is known to the
table log, every command's list and config whatever was imported first, and a broken
declaration is a clear error."""

from __future__ import annotations

import subprocess
import sys
from importlib.metadata import EntryPoint

import pytest
from built_in import GAMES as BUILT_IN

from companion.cli import build_parser, main
from companion.errors import OptionError
from companion.games import registry
from companion.games.registry import engine


def declare(monkeypatch: pytest.MonkeyPatch, name: str, value: str) -> None:
    """As if an installed distribution declared ``name = value`` in the group."""
    monkeypatch.setitem(registry.installed(), name,
                        (EntryPoint(name=name, value=value, group=registry.GROUP),))


@pytest.fixture
def tally(monkeypatch: pytest.MonkeyPatch) -> None:
    declare(monkeypatch, "tally", "toy_bundle:BUNDLE")


def test_the_built_in_games_are_entry_points_of_the_project():
    assert BUILT_IN == ("deathtrap", "rumble", "traps", "tricky")
    assert set(BUILT_IN) <= set(registry.installed())
    assert [bundle.name for bundle in registry.games()][:4] == ["traps", "deathtrap", "tricky",
                                                                 "rumble"]


def test_a_declared_game_is_known_everywhere(tally):
    assert "tally" in registry.names() and "tally" in registry.names()
    assert engine("tally").title == "Tally"
    assert registry.get("tally").engine.__name__ == "Tally"
    assert "tally" in registry.demo_games() or registry.get("tally").simulator is None


def test_a_declared_game_is_offered_by_the_commands(tally, capsys):
    code = main(["rules", "tally"])
    assert code == 0 and "Tally" in capsys.readouterr().out
    rules_help = build_parser().format_help()
    assert "rules" in rules_help
    with pytest.raises(SystemExit):
        main(["vision", "art", "--help"])
    assert "{" + ",".join(registry.art_games()) + "}" in capsys.readouterr().out


def test_no_import_order_matters_in_a_fresh_process():
    # Only the table layer is imported: no bundle, no daemon config, yet every game is known.
    code = ("from companion.table import Header, TableSession\n"
            "import sys\n"
            "session = TableSession(Header('tricky', ('Ann', 'Bob', 'Cy'), 1))\n"
            "print(session.game.title, 'companion.daemon.config' in sys.modules)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["Tricky", "Dungeon", "False"]


def test_the_daemon_config_takes_a_declared_game(tally):
    from companion.daemon.config import parse_config

    assert parse_config('[table]\ngame = "tally"\n').table.game == "tally"
    assert parse_config("").table.game == "traps"


@pytest.mark.parametrize(("value", "message"), [
    ("nowhere_at_all:BUNDLE", "cannot be loaded"),
    ("toy_bundle:NOTHING", "cannot be loaded"),
    ("tally_game:Tally", "is not the bundle of a game named 'broken'"),
])
def test_a_broken_declaration_is_a_clear_error(monkeypatch, capsys, value, message):
    declare(monkeypatch, "broken", value)
    with pytest.raises(OptionError, match=message):
        registry.get("broken")
    assert main(["rules", "broken"]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_an_unknown_game_names_the_games_there_are():
    with pytest.raises(OptionError, match=r"unknown game 'chess' \(games: deathtrap, .*tricky"):
        engine("chess")
