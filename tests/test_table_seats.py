"""Seats as people count them: by name, or from 1 as the seat keys and the "Seat N" names do,
on every screen, in the confirm step and in the daemon's log lines; the table log keeps its
0-based indices."""

import logging

from table_driver import type_keys as keys

from companion.daemon.daemon import Daemon
from companion.daemon.displays import MemoryScreen
from companion.daemon.items import CameraProposal
from companion.screens.common import error_screen
from companion.table import Header

DEATHTRAP = Header("deathtrap", ("Ann", "Bob", "Cy", "Dee"), 7, {})


def dealt(store):
    screens = [MemoryScreen("table")] + [MemoryScreen(f"seat:{n}") for n in range(4)]
    daemon = Daemon(store, screens=screens, confirm_below=0.8)
    daemon.supervisor.start_all(daemon.clock())
    daemon.use_stored_game(store.new_session(DEATHTRAP))
    daemon.stored_game.append({"type": "deal"})
    daemon.stored_game.append({"type": "pig", "seat": 1, "discard": "rat-man"})
    daemon.display.refresh()
    return daemon, {screen.name: screen for screen in screens}




def test_the_confirm_step_names_the_cards_and_the_seat_as_people_do(store):
    daemon, _ = dealt(store)
    turn = daemon.stored_game.game.view(None)["turn"]
    daemon.handle(CameraProposal({"type": "play", "seat": turn, "cards": ["rat-man", "rat-man"]},
                                 0.5))
    daemon.display.refresh()
    title = daemon.display.menu.title_and_lines()[0]
    assert title == f"Seen: play Rat Man, Rat Man by {DEATHTRAP.seats[turn]}?"


def test_a_turn_refusal_names_both_seats_on_the_seats_own_screen(store, caplog):
    daemon, screens = dealt(store)
    turn = daemon.stored_game.game.view(None)["turn"]
    other = (turn + 1) % 4
    with caplog.at_level(logging.INFO, logger="companion"):
        keys(daemon, str(other + 1))  # the key of seat N+1 is seat index N's button
    message = (f"it is {DEATHTRAP.seats[turn]}'s turn, not {DEATHTRAP.seats[other]}'s "
               "[rule: turn]")
    assert screens[f"seat:{other}"].images[-1].tobytes() == error_screen(message).tobytes()
    assert f"refused pass seat {other + 1}" in caplog.text  # the log counts from 1 too
    keys(daemon, str(turn + 1))  # the leader may not pass either: named, not numbered
    message = (f"{DEATHTRAP.seats[turn]} leads this hand and must play a set: only followers "
               "may pass [rule: lead]")
    assert screens[f"seat:{turn}"].images[-1].tobytes() == error_screen(message).tobytes()
    keys(daemon, "   . , ")  # the leader's play by hand (Rat Man): the log keeps the index
    assert daemon.stored_game.session.in_force[-1] == {
        **daemon.stored_game.session.in_force[-1], "type": "play", "seat": turn}


def test_doctor_names_the_seat_buttons_from_1_as_the_table_counts_them():
    from gpiozero.pins.mock import MockFactory

    from companion.hardware.doctor import Machine, check_gpio
    from companion.hardware.pins import load_pinmap

    pinmap = load_pinmap()
    machine = Machine(pin_factory=MockFactory())
    findings = {finding.what: finding.ok for finding in check_gpio(pinmap, machine)}
    assert findings[f"seat 1 button (GPIO {pinmap.seat_buttons[0]})"] is True
    assert not any("seat 0 " in what for what in findings)
    assert f"seat {len(pinmap.seat_buttons)} button (GPIO {pinmap.seat_buttons[-1]})" in findings


def test_a_rumble_sighting_reads_as_a_sentence(store):
    from companion.bundles.rumble.rules.engine import Rumble
    from companion.daemon.recorder import sighting_in_words

    game = Rumble(["Ann", "Bob", "Cy"], seed=1)
    move = {"type": "move", "seat": 1, "character": "twin-thief", "to": "B2", "chest": True}
    assert sighting_in_words(move, game) == "move Twin Thief to B2 with the chest by Bob"
