"""What a table finds playing ``companion run --sim`` by keyboard: holds (peeks, manual entry
in Traps), seat names in menus, repeated cards, and every screen on the terminal board."""

import io
import logging

from PIL import Image
from table_driver import daemon_for, type_keys

from companion.bundles.traps import screens as traps
from companion.daemon.displays import TerminalBoard, TerminalScreen
from companion.daemon.sources import KeyPresses
from companion.table import Header

TRAPS = Header("traps", ("Ann", "Bob"), 3, {
    "squares": ["T1", "T2"],
    "dials": {"T1": ["start", "x", {"trap": "monstrous-hand", "disarm": 10, "xp": 20}],
              "T2": ["start", {"trap": "falling-weight", "disarm": 7, "xp": 5}]}})
DEATHTRAP = Header("deathtrap", ("Ann", "Bob", "Cy", "Dee"), 7, {})






def shown(screen):
    return screen.images[-1].tobytes()


def test_h_then_a_control_key_holds_it_a_seat_until_the_next_key():
    presses = KeyPresses()
    assert presses.events("h") == []
    assert [(e.kind, e.control) for e in presses.events("1")] == [
        ("press", "seat:0"), ("hold", "seat:0")]
    assert [(e.kind, e.control) for e in presses.events(".")] == [
        ("release", "seat:0"), ("dial", "encoder:0")]
    assert [(e.kind, e.control) for e in presses.events("h") + presses.events(" ")] == [
        ("press", "encoder-switch:0"), ("hold", "encoder-switch:0"),
        ("release", "encoder-switch:0")]
    assert [e.kind for e in presses.events("1")] == ["press", "release"]  # a plain tap again


def test_the_exposing_seat_peeks_by_keyboard_and_only_its_screen_shows_the_reading(store):
    daemon, screens = daemon_for(store, TRAPS)
    presses = type_keys(daemon, " " + " " + " " + ",," + "1")  # expose T1, 2 clicks, by Ann
    assert daemon.stored_game.session.events[-1]["type"] == "expose"
    hint = {name: shown(screen) for name, screen in screens.items()}
    type_keys(daemon, "h1", presses)
    seats = daemon.stored_game.header.seats
    assert shown(screens["seat:0"]) == traps.seat(daemon.stored_game.game.view(0), seats,
                                                  True).tobytes()
    assert shown(screens["seat:0"]) != hint["seat:0"]
    assert shown(screens["table"]) == hint["table"] and shown(screens["seat:1"]) == hint["seat:1"]
    type_keys(daemon, "h2", presses)  # Bob holds: he has no reading; Ann's peek has ended
    assert {name: shown(screen) for name, screen in screens.items()} == hint
    assert len(daemon.stored_game.session.events) == 1  # holding is not a tap: nothing stored


def test_a_held_dial_switch_opens_manual_entry_in_traps(store):
    daemon, _ = daemon_for(store, TRAPS)
    type_keys(daemon, "h ")
    assert daemon.display.asks == "entry" and daemon.display.dial_state() is None
    assert daemon.display.menu.title == "Enter by hand"


def test_manual_entry_names_seats_as_their_screens_do_and_repeats_a_card_in_one_press(store):
    daemon, screens = daemon_for(store, DEATHTRAP)
    daemon.stored_game.append({"type": "deal"})
    daemon.stored_game.append({"type": "pig", "seat": 1, "discard": "rat-man"})
    leader = daemon.stored_game.game.view(None)["turn"]
    type_keys(daemon, " ")  # enter by hand: the menu starts at play, the likely next event
    type_keys(daemon, " ")
    assert [label for label, _ in daemon.display.menu.choices] == list(DEATHTRAP.seats)
    type_keys(daemon, " " + ".. " + " ")  # the leader (the cursor starts on it); orc, orc again
    assert daemon.display.menu.choices[daemon.display.menu.cursor][1] == "orc"
    type_keys(daemon, ",, ")  # back past rat-man to "(done)"
    assert daemon.stored_game.session.events[-1]["cards"] == ["orc", "orc"]
    assert daemon.stored_game.session.events[-1]["seat"] == leader


def lit_screen():
    image = Image.new("1", (128, 64))
    image.putpixel((0, 0), 1)
    image.putpixel((3, 1), 1)
    return image


def test_the_board_draws_five_screens_narrower_rather_than_cut_one_off():
    board = TerminalBoard(io.StringIO(), footer="keys: q quit")
    for name in ("table", "seat:0", "seat:1", "seat:2", "seat:3"):
        TerminalScreen(name, board).show(lit_screen())
    text = board.text(width=270, height=90)
    assert all(f" {label} " in text for label in ("table", "seat 1", "seat 2", "seat 3", "seat 4"))
    assert "not shown" not in text and "seat:0" not in text  # seats counted as their keys
    first_row = text.splitlines()[1]
    assert first_row.startswith("\u2598\u2597 ") and len(first_row) == 4 * 64 + 3
    # a terminal too small even for quadrant blocks says which screens it leaves out
    small = board.text(width=130, height=50)
    assert "not shown: seat 2, seat 3, seat 4" in small and " seat 1 " in small


def test_a_refused_dial_stays_to_be_put_right_and_a_long_press_only_leaves_it(store):
    daemon, screens = daemon_for(store, TRAPS)
    type_keys(daemon, " " + " " + "." + " " + "2")  # trigger T1 with no clicks, by Bob
    assert daemon.stored_game.session.events == []
    assert daemon.display.table_notice.startswith("refused")
    dial = daemon.display.dial_state()
    assert dial["step"] == "clicks" and dial["action"] == "trigger"
    type_keys(daemon, ",," + "2")  # the d8 said 2: turned, and tapped again
    assert daemon.stored_game.session.events[-1]["clicks"] == 2
    type_keys(daemon, " ")  # a new dial flow ...
    type_keys(daemon, "u")  # ... left by a long press: the trigger is not undone
    assert daemon.display.dial_state() is None and len(daemon.stored_game.session.events) == 1
    type_keys(daemon, "u")  # with no dial open, the long press undoes
    assert daemon.stored_game.session.events[-1]["type"] == "undo"


def test_secret_characters_entered_by_hand_show_only_on_that_seats_screen(store):
    header = Header("rumble", ("Ann", "Bob", "Cy"), 4, {"deal_secrets": False})
    daemon, screens = daemon_for(store, header)
    before = {name: shown(screen) for name, screen in screens.items()}
    type_keys(daemon, " ")  # a tap opens the entry in Rumble, at the likely "move"
    assert daemon.display.menu.choices[daemon.display.menu.cursor][1] == "move"
    type_keys(daemon, ",,")
    assert daemon.display.menu.choices[daemon.display.menu.cursor][1] == "secrets"
    type_keys(daemon, " " + ". ")  # secrets, for Bob
    assert daemon.display.menu.seat == 1
    table_now = shown(screens["table"])
    type_keys(daemon, ". ")  # Bob picks a character: its name is in the menu's title
    assert daemon.display.menu.title.startswith("characters: ")
    assert shown(screens["table"]) == table_now  # the table screen only says who is at it
    for other in ("seat:0", "seat:2"):
        assert shown(screens[other]) == before[other]
    assert shown(screens["seat:1"]) != before["seat:1"]
    type_keys(daemon, ". ,, ")  # a second character, then back to "(done)", first
    assert daemon.display.menu is None
    assert daemon.stored_game.session.events[-1]["type"] == "secrets"
    images = daemon.display.game_images()  # every screen back to the game
    assert all(shown(screens[name]) == image.tobytes() for name, image in images.items())


def test_a_new_game_can_be_started_from_manual_entry_leaving_this_one_unfinished(store):
    daemon, _ = daemon_for(store, TRAPS)
    type_keys(daemon, "   ,,1")  # Ann exposes T1
    first = daemon.stored_game.id
    type_keys(daemon, "h ,,")  # manual entry; "(new game)" is two turns back, before "(language)"
    assert daemon.display.menu.choices[daemon.display.menu.cursor][0] == "(new game)"
    type_keys(daemon, " ")
    assert daemon.display.asks == "new game"
    type_keys(daemon, "u")  # thought better of it: back to the game, nothing stored
    assert daemon.display.menu is None and daemon.stored_game.id == first
    assert len(daemon.stored_game.session.events) == 1
    type_keys(daemon, "h ,, ")
    menu = daemon.display.menu
    type_keys(daemon, "." * [v for _, v in menu.choices].index("deathtrap") + " " + " " + " ")
    assert daemon.stored_game.header.game == "deathtrap" and daemon.stored_game.id != first
    assert store.latest(unfinished=True) == daemon.stored_game.id  # the one resumed after a restart
    assert {info.id: info.finished for info in store.sessions()}[first] is False


def test_tricky_deal_offers_its_active_player_by_name(store):
    daemon, _ = daemon_for(store, Header("tricky", ("Ann", "Bob", "Cy"), 2, {}))
    type_keys(daemon, "  ")  # enter by hand: deal
    assert daemon.display.menu.title == "deal: active"
    assert [label for label, _ in daemon.display.menu.choices] == ["(leave out)", "Ann", "Bob",
                                                                    "Cy"]
    type_keys(daemon, ".. ")
    assert daemon.stored_game.session.events[-1] == {**daemon.stored_game.session.events[-1],
                                                "type": "deal", "active": 1}


def test_a_refusal_that_would_tell_a_seats_reading_is_told_to_that_seat_only(store, caplog):
    daemon, screens = daemon_for(store, TRAPS)
    type_keys(daemon, "   ," + "1")  # Ann exposes T1 one click: no trap ("x"), on her dial only
    with caplog.at_level(logging.INFO, logger="companion"):
        type_keys(daemon, " " + " " + ".." + " " + "1")  # ... and tries a quick disarm of it
    assert "disarm-no-trap" in daemon.display.seat_error(0)  # Ann's own screen says why
    assert daemon.display.table_notice == "refused: see Ann"
    assert "no-trap" not in caplog.text and "refused disarm seat 1" in caplog.text
    assert shown(screens["seat:1"]) == daemon.display.game_images()["seat:1"].tobytes()


def test_turning_the_dial_begins_the_trap_dial_too(store):
    daemon, _ = daemon_for(store, TRAPS)
    type_keys(daemon, ".")
    dial = daemon.display.dial_state()
    assert dial["step"] == "square" and dial["square"] == "T2"
    type_keys(daemon, " " + " " + "," + "2")  # expose T2 one click, by Bob
    assert daemon.stored_game.session.events[-1] == {**daemon.stored_game.session.events[-1],
                                                "type": "expose", "square": "T2", "seat": 1}
