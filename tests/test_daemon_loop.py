"""The daemon's loop in this thread: new game, undo, refusals, confirm step, manual entry,
screens that fail and come back, and logs that carry no secrets."""

import logging

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from table_driver import daemon_for, give, hold, tap, turn

from companion.bundles.rumble.rules.sim import random_game
from companion.daemon.camera import SceneSettled, TableGeometry
from companion.daemon.daemon import Daemon
from companion.daemon.dialogues import DELETE, DONE, START, TYPE
from companion.daemon.displays import MemoryScreen
from companion.daemon.items import CameraProposal, FedEvent
from companion.hardware.events import InputEvent
from companion.table import Header, TableStore
from companion.vision.scene import Piece, TableScene

DEATHTRAP = Header("deathtrap", ("Ann", "Bob", "Cy", "Dee"), 7, {})








class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


@pytest.fixture
def table(tmp_path):
    store = TableStore(tmp_path / "table.db")
    yield store
    store.close()






def choose(daemon, value):
    """Turn the dial to the menu entry with this value and press the dial."""
    menu = daemon.display.menu
    index = [v for _, v in menu.choices].index(value)
    give(daemon, turn(index - menu.cursor), tap("encoder-switch:0"))


def test_a_new_game_is_picked_with_the_dial_on_the_table_screen(table):
    daemon, screens = daemon_for(table, default_game="tricky", default_seats=["Ann", "Bob"])
    assert daemon.display.asks == "new game" and daemon.stored_game is None
    assert daemon.display.menu.choices[0][1] == "tricky"  # the configured game comes first
    choose(daemon, "rumble")
    assert daemon.display.menu.cursor == 0  # rumble needs 3 seats at least: 2 is not offered
    choose(daemon, 4)
    assert daemon.display.menu.title == "Who plays?"  # "start" first: one press keeps them
    choose(daemon, START)
    assert daemon.stored_game is not None and daemon.display.menu is None
    assert daemon.stored_game.header.game == "rumble"
    assert daemon.stored_game.header.seats == ("Ann", "Bob", "Seat 3", "Seat 4")
    assert [info.header.game for info in table.sessions()] == ["rumble"]
    assert screens["seat:3"].images, "every seat's screen shows the new game"


def test_seats_are_named_from_the_known_players_or_spelt_with_the_dial(table):
    one_x = {"squares": ["T1"], "dials": {"T1": ["start", "x"]}}
    table.new_session(Header("traps", ("Dee", "Eve"), 1, one_x),
                      [{"type": "trigger", "seat": 0, "square": "T1", "clicks": 1}])
    daemon, _ = daemon_for(table, default_game="traps", default_seats=["Ann", "Bob"])
    choose(daemon, "traps")
    choose(daemon, 3)
    choose(daemon, 0)  # seat 1 (Ann) is somebody else tonight
    assert daemon.display.menu.title == "Seat 1: who?"
    assert [label for label, _ in daemon.display.menu.choices][1:] == ["Dee", "Eve"]
    choose(daemon, "Eve")
    choose(daemon, 2)  # seat 3 gets a name nobody has used: spelt letter by letter
    choose(daemon, TYPE)
    for letter in "Gus":
        choose(daemon, letter)
    assert daemon.display.menu.title == "Name: Gus_"
    choose(daemon, DONE)
    choose(daemon, 1)  # seat 2 typed as "eve": the same person as seat 1, refused
    choose(daemon, TYPE)
    for letter in "eve":
        choose(daemon, letter)
    choose(daemon, DONE)
    assert daemon.display.menu.title == "eve: taken"
    choose(daemon, DELETE)
    choose(daemon, DONE)  # "ev" is a new name
    choose(daemon, START)
    assert daemon.stored_game.header.seats == ("Eve", "ev", "Gus")
    assert sorted(table.player_names()) == ["Dee", "Eve", "Gus", "ev"]


def test_the_unfinished_session_is_resumed(table):
    stored = table.new_session(DEATHTRAP, [{"type": "deal"}])
    daemon, _ = daemon_for(table)
    assert daemon.stored_game.id == stored.id and daemon.display.menu is None
    assert len(daemon.stored_game.session.events) == 1


def test_a_long_press_of_the_menu_button_undoes_the_latest_event(table):
    daemon, _ = daemon_for(table, header=DEATHTRAP)
    give(daemon, CameraProposal({"type": "deal"}))
    assert len(daemon.stored_game.session.in_force) == 1
    give(daemon, hold("menu"))
    assert daemon.stored_game.session.in_force == []
    _, entries = table.load(daemon.stored_game.id)
    assert [e["type"] for e in entries] == ["deal", "undo"]
    give(daemon, tap("menu"))  # a tap is not a long press: nothing more is undone
    assert len(table.load(daemon.stored_game.id)[1]) == 2


def test_a_refused_tap_stores_nothing_and_tells_only_that_seat_why(table, caplog):
    daemon, screens = daemon_for(table, header=DEATHTRAP)
    give(daemon, CameraProposal({"type": "deal"}))
    seat2_before = screens["seat:2"].images[-1].tobytes()
    seat1_before = screens["seat:1"].images[-1].tobytes()
    with caplog.at_level(logging.INFO, logger="companion"):
        give(daemon, tap("seat:2"))  # a pass before the Exploding Pig is played
    assert len(table.load(daemon.stored_game.id)[1]) == 1
    assert daemon.display.seat_error(2) is not None
    assert screens["seat:2"].images[-1].tobytes() != seat2_before
    assert screens["seat:1"].images[-1].tobytes() == seat1_before
    assert daemon.display.table_notice == "refused: see Cy"
    assert "refused pass seat 3" in caplog.text and daemon.display.seat_error(2) not in caplog.text


def test_an_unsure_sighting_waits_for_a_yes_on_the_table_screen(table):
    daemon, _ = daemon_for(table, header=DEATHTRAP, confirm_below=0.8)
    give(daemon, CameraProposal({"type": "deal"}, confidence=0.5))
    assert daemon.display.asks == "confirm" and daemon.stored_game.session.in_force == []
    choose(daemon, True)
    assert [e["type"] for e in daemon.stored_game.session.in_force] == ["deal"]
    give(daemon, CameraProposal({"type": "pig", "seat": 1, "discard": "orc"}, confidence=0.4))
    choose(daemon, False)
    assert len(daemon.stored_game.session.in_force) == 1 and daemon.display.menu is None
    give(daemon, CameraProposal({"type": "pig", "seat": 1, "discard": "orc"}, confidence=0.95))
    assert len(daemon.stored_game.session.in_force) == 2


def test_a_card_the_camera_cannot_see_is_entered_with_the_dial(table):
    daemon, _ = daemon_for(table, header=DEATHTRAP)
    give(daemon, tap("encoder-switch:0"))
    assert daemon.display.asks == "entry"
    choose(daemon, "deal")
    for _ in range(2):  # dealer and counts are optional: leave them out
        choose(daemon, [v for _, v in daemon.display.menu.choices][0])
    give(daemon, tap("encoder-switch:0"))
    choose(daemon, "pig")
    choose(daemon, 2)
    choose(daemon, "troll")
    choose(daemon, [v for _, v in daemon.display.menu.choices][0])  # no lead named
    in_force = [{k: v for k, v in e.items() if k != "t"}
                for e in daemon.stored_game.session.in_force]
    assert in_force == [{"type": "deal"}, {"type": "pig", "seat": 2, "discard": "troll"}]


def test_a_long_press_leaves_a_menu_without_storing_anything(table):
    daemon, _ = daemon_for(table, header=DEATHTRAP)
    give(daemon, tap("encoder-switch:0"), hold("menu"))
    assert daemon.display.menu is None and daemon.stored_game.session.events == []


def test_camera_scenes_become_events_through_the_loop(table):
    daemon, _ = daemon_for(table, header=DEATHTRAP, watching=True, confirm_below=0.5)
    assert daemon.watching  # a reader of its scenes: the scene below becomes an event
    give(daemon, CameraProposal({"type": "deal"}),
         CameraProposal({"type": "pig", "seat": 0, "discard": "orc"}))
    turn_seat = daemon.stored_game.game.view(None)["turn"]
    zone = TableGeometry().table(len(DEATHTRAP.seats)).seat_position(turn_seat)
    cards = TableScene((Piece("troll", zone, None), Piece("troll", zone, None)))
    give(daemon, SceneSettled(cards, 0.9))
    assert daemon.stored_game.session.in_force[-1]["cards"] == ["troll", "troll"]
    assert daemon.stored_game.session.in_force[-1]["seat"] == turn_seat


class FlakyScreen(MemoryScreen):
    broken = False

    def show(self, image):
        if self.broken:
            raise OSError("no answer on the bus")
        super().show(image)


def test_a_screen_that_fails_is_reported_on_the_others_and_retried(table):
    clock = Clock()
    flaky = FlakyScreen("seat:1")
    others = [MemoryScreen("table"), MemoryScreen("seat:0")]
    daemon = Daemon(table, screens=[*others, flaky], retry_seconds=5, clock=clock)
    daemon.supervisor.start_all(0.0)
    daemon.use_stored_game(table.new_session(DEATHTRAP))
    daemon.display.refresh()
    table_before = others[0].images[-1].tobytes()
    flaky.broken = True
    # A refusal to show on seat 1's screen:
    give(daemon, CameraProposal({"type": "deal"}), tap("seat:1"))
    assert daemon.supervisor.failures() == {"seat:1": "no answer on the bus"}
    assert others[0].images[-1].tobytes() != table_before, "the table screen shows the failure"
    assert len(daemon.stored_game.session.in_force) == 1, "the game goes on"
    flaky.broken = False
    clock.now = 4.0
    assert not daemon.supervisor.tick(clock.now)  # not yet time to retry
    clock.now = 5.5
    assert daemon.supervisor.tick(clock.now)
    daemon.display.refresh()
    assert daemon.supervisor.failures() == {}
    assert flaky.images, "the screen is drawn again once it answers"


def test_the_log_names_event_types_and_seats_but_no_secret(table, caplog):
    header, events = random_game(4, 3)
    events = events[:40]
    assert any(event["type"] == "secrets" for event in events)
    daemon, _ = daemon_for(table, seats=3, header=Header.from_json(header))
    with caplog.at_level(logging.DEBUG, logger="companion"):
        for line, event in enumerate(events, start=2):
            fed = FedEvent(line, event)
            give(daemon, fed)
            assert fed.error is None and fed.done.is_set()
    words = {value for event in events for key, value in event.items()
             if key not in ("type", "seat") and isinstance(value, str)}
    words |= {name for event in events for name in event.get("characters", [])}
    assert "stored #40: " in caplog.text
    assert not [word for word in words if word in caplog.text]


CONTROLS = ["menu", "encoder-switch:0", "encoder:0", "seat:0", "seat:1", "seat:2"]


@settings(max_examples=25, deadline=None)
@given(game=st.sampled_from(["traps", "tricky", "rumble"]),
       presses=st.lists(st.tuples(st.sampled_from(CONTROLS),
                                  st.sampled_from(["press", "release", "hold", "dial"]),
                                  st.sampled_from([-1, 1])), max_size=60))
def test_any_fumbling_at_the_controls_leaves_a_store_that_replays(tmp_path_factory, game,
                                                                  presses):
    """Whatever is pressed, the loop never fails, and the store holds exactly the session."""
    store = TableStore(tmp_path_factory.mktemp("fumble") / "table.db")
    try:
        daemon, _ = daemon_for(store, seats=3, header=Header(game, ("Ann", "Bob", "Cy"), 5, {}))
        for control, kind, value in presses:
            if kind == "dial":
                give(daemon, InputEvent("dial", "encoder:0", value))
            elif control != "encoder:0":
                give(daemon, InputEvent(kind, control, 1 if kind == "hold" else 0))
        _, entries = store.load(daemon.stored_game.id)
        assert entries == daemon.stored_game.session.events
        totals = daemon.stored_game.game.totals()
        assert store.open_session(daemon.stored_game.id).game.totals() == totals
    finally:
        store.close()


def test_the_sim_board_draws_lit_screens_in_place_with_the_log_under_them():
    import io

    from PIL import Image, ImageDraw

    from companion.daemon.displays import TerminalBoard, TerminalScreen

    stream = io.StringIO()
    board = TerminalBoard(stream, footer="keys: q quit")
    table, seat, dark = (TerminalScreen(name, board) for name in ("table", "seat:0", "seat:7"))
    lit = Image.new("1", (128, 64))
    ImageDraw.Draw(lit).rectangle((0, 0, 9, 1), fill=1)  # a 10 x 2 bar in the top-left corner
    table.show(lit)
    seat.show(lit)
    dark.show(Image.new("1", (128, 64)))
    board.note("companion: ready")
    text = board.text(width=300, height=100)
    first, second = text.splitlines()[:2]
    assert "table" in first and "seat 1" in first and "seat 8" not in text  # side by side
    assert second.startswith("\u2588" * 10 + " ") and second.count("\u2588" * 10) == 2
    assert text.endswith("companion: ready\nkeys: q quit")
    # never taller than the terminal, its last line left free for the cursor (at 130x20 the
    # screens do not fit as pictures and are told as words)
    assert len(board.text(width=130, height=20).splitlines()) <= 19
    # Drawn in place, whole: a screen's new image waits for the end of the redraw (the
    # daemon's watch) or a log line, never drawn beside another screen not yet new.
    assert stream.getvalue().count("\x1b[H\x1b[J") == 1
