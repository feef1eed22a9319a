"""A fifth game with no change outside its bundle: the toy Tally (tests/toy_bundle.py), once
registered, is offered by the new-game menu, plays through the daemon with the InputEvents a
table sends (its own dial flow, a seat's tap, a manual entry, a refusal), is drawn on the
screens by its bundle, and its exported log replays with ``companion replay``."""

import json

import pytest
import tally_game  # noqa: F401 - the engine of the toy bundle (Tally)
import toy_bundle
from table_driver import daemon_for, give, hold, tap, turn

from companion.cli import main
from companion.daemon.ui import TableUI
from companion.games import registry


@pytest.fixture
def tally():
    registry.register(toy_bundle.BUNDLE)
    yield toy_bundle
    registry.unregister("tally")


def choose(daemon, value):
    """Turn the dial to the entry of ``value`` and press, as a person would."""
    menu = daemon.display.menu
    give(daemon, turn(menu.values().index(value) - menu.cursor), tap("encoder-switch:0"))


def shown(screens, name):
    return screens[name].images[-1].tobytes()


def test_the_toy_game_plays_through_the_daemon_the_screens_and_replay(tally, store, tmp_path,
                                                                       capsys):
    daemon, screens = daemon_for(store, seats=2, default_seats=["Ann", "Bob"],
                                 options={"tally": {"goal": 8}})
    # The new-game menu offers it, as it offers the four games.
    assert daemon.display.asks == "new game" and "tally" in daemon.display.menu.values()
    choose(daemon, "tally")
    choose(daemon, 2)
    assert daemon.display.menu.title == "Who plays?"
    give(daemon, tap("encoder-switch:0"))  # "start"
    assert daemon.stored_game.header.game == "tally"
    assert daemon.stored_game.game.options["goal"] == 8

    # Its own dial flow: three detents set 4 points, Ann's tap adds them.
    give(daemon, turn(3))
    assert daemon.display.dial_state() == {"points": 4}
    assert shown(screens, "table") == tally.dial_flow({"points": 4}).tobytes()
    give(daemon, tap("seat:0"))
    assert daemon.display.dial_state() is None and daemon.stored_game.game.totals() == [4, 0]
    game = daemon.stored_game.game  # each event gives a new state: read it again
    assert shown(screens, "table") == tally.table(game.view(None), game.seats).tobytes()

    # Out of turn: refused, and the reason is on Ann's own screen only.
    give(daemon, turn(1), tap("seat:0"))
    assert daemon.stored_game.game.totals() == [4, 0]
    assert "turn-order" not in daemon.display.table_notice
    assert daemon.display.table_notice == "refused: see Ann"
    assert "turn" in daemon.display.seat_error(0)
    give(daemon, hold("menu"))  # leave the dial flow

    # By hand: a long press of the dial; the menu starts at the add and at Bob, whose turn it is.
    give(daemon, hold("encoder-switch:0"))
    menu = daemon.display.menu
    assert daemon.display.asks == "entry" and menu.values()[menu.cursor] == "add"
    give(daemon, tap("encoder-switch:0"))
    assert daemon.display.menu.values()[daemon.display.menu.cursor] == 1
    give(daemon, tap("encoder-switch:0"))
    choose(daemon, 5)
    assert daemon.display.menu is None and daemon.stored_game.game.totals() == [4, 5]

    # A held seat button peeks at the seat's secret, drawn by the bundle's seat screen.
    give(daemon, hold("seat:1")[:2])
    game = daemon.stored_game.game
    assert shown(screens, "seat:1") == tally.seat(game.view(1), game.seats, True).tobytes()
    give(daemon, hold("seat:1")[2:])

    give(daemon, turn(5), tap("seat:0"))  # Ann adds 6: 10 of 8, the game is over
    assert daemon.stored_game.game.finished and daemon.stored_game.game.totals() == [10, 5]

    log = tmp_path / "tally.jsonl"
    log.write_text("".join(line + "\n" for line in daemon.stored_game.export_lines()))
    capsys.readouterr()
    assert main(["replay", str(log), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["totals"] == [10, 5]


def test_the_table_controls_ask_the_bundle_what_a_tap_and_the_dial_mean(tally):
    ui = TableUI("tally", 2)
    assert ui.has_flow
    ui.handle(turn(2)[0], 0.0)
    ui.handle(turn(2)[1], 0.0)
    assert ui.dial_state() == {"points": 3}
    ui.handle(tap("seat:1")[0], 0.1)
    assert ui.handle(tap("seat:1")[1], 0.2) == {"type": "add", "seat": 1, "points": 3}


def test_unregistered_it_is_no_game_again(tally):
    registry.unregister("tally")
    with pytest.raises(Exception, match="unknown game 'tally'"):
        registry.get("tally")
    registry.register(tally.BUNDLE)
    assert registry.get("tally").screen_module().table is tally.table
