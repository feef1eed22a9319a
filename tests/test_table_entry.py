"""Manual entry and correction at the table, driven by the keys of ``--sim`` (the same input
events the dial and buttons send) and read off the screens: menus that start where the game
is, list forms whose entries stay put and whose picks can be taken back, cards by their
names, a disarm of a disarmed trap refused before the dice, what an undo took back, and a
refusal's banner gone at the next action."""

from table_driver import daemon_for
from table_driver import type_keys as keys

from companion.daemon.pages import Page, draw, with_notice
from companion.screens.common import error_screen
from companion.table import Header

DEATHTRAP = Header("deathtrap", ("Ann", "Bob", "Cy", "Dee"), 7, {})
TRAPS = Header("traps", ("Ann", "Bob"), 3, {
    "squares": ["T1", "T2"],
    "dials": {"T1": ["start", "x", {"trap": "monstrous-hand", "disarm": 10, "xp": 20}],
              "T2": ["start", {"trap": "falling-weight", "disarm": 7, "xp": 5}]}})






def menu_text(daemon):
    """The menu as the screen shows it: the title, then the entries, '>' on the cursor."""
    title, lines = daemon.display.menu.title_and_lines()
    return [title, *lines]


def labels(daemon):
    return [label for label, _ in daemon.display.menu.choices]


def shown(screen):
    return screen.images[-1].tobytes()


def game_screens(daemon):
    return daemon.display.game_images()


def dealt(store):
    daemon, screens = daemon_for(store, DEATHTRAP)
    daemon.stored_game.append({"type": "deal"})
    daemon.stored_game.append({"type": "pig", "seat": 1, "discard": "rat-man"})
    daemon.display.refresh()
    return daemon, screens


def test_the_entry_menus_start_at_the_likely_event_and_the_seat_whose_turn_it_is(store):
    daemon, screens = dealt(store)
    turn = daemon.stored_game.game.view(None)["turn"]
    keys(daemon, " ")  # a tap of the dial opens manual entry
    assert "> play" in menu_text(daemon)
    keys(daemon, " ")
    assert menu_text(daemon)[0] == "play: seat"
    assert f"> {DEATHTRAP.seats[turn]}" in menu_text(daemon)
    assert shown(screens["table"]) == draw(Page(*daemon.display.menu.title_and_lines())).tobytes()


def test_a_fresh_deathtrap_table_starts_the_entry_at_the_deal(store):
    daemon, _ = daemon_for(store, DEATHTRAP)
    keys(daemon, " ")
    assert "> deal" in menu_text(daemon)


def test_a_tricky_entry_starts_at_the_hero_of_the_active_seat(store):
    daemon, _ = daemon_for(store, Header("tricky", ("Ann", "Bob", "Cy"), 5, {}))
    daemon.stored_game.append({"type": "deal", "active": 2})
    keys(daemon, " ")
    assert "> hero" in menu_text(daemon)
    keys(daemon, " ")
    assert "> Cy" in menu_text(daemon)


def test_an_optional_list_offers_one_way_out_and_its_entries_never_move(store):
    daemon, _ = daemon_for(store, DEATHTRAP)
    keys(daemon, "   ")  # manual entry, deal, the dealer left out
    text = menu_text(daemon)
    assert text[0] == "deal: counts" and "?" not in text[0]
    assert labels(daemon).count("(leave out)") == 1 and "(none)" not in labels(daemon)
    before = labels(daemon)
    keys(daemon, ". .")  # the first count, then on to the next: nothing moved under the cursor
    first = before[1]
    assert menu_text(daemon)[0] == f"counts: {first}"
    assert labels(daemon)[0] == "(done)" and labels(daemon)[1:len(before)] == before[1:]
    assert labels(daemon)[-1] == f"(remove {first})"
    assert f"> {before[2]}" in menu_text(daemon)


def test_cards_are_named_as_printed_and_one_picked_by_mistake_is_taken_back(store):
    daemon, _ = dealt(store)
    keys(daemon, "   ")  # manual entry, play, by the seat whose turn it is
    assert labels(daemon)[:3] == ["(done)", "Rat Man", "Orc"]
    assert menu_text(daemon)[0] == "play: cards"
    keys(daemon, ". ")  # Rat Man, by mistake
    assert menu_text(daemon)[0] == "cards: Rat Man"
    assert labels(daemon)[-1] == "(remove Rat Man)"
    keys(daemon, ",, ")  # back past the top, the dial wraps to the last entry: remove it
    assert menu_text(daemon)[0] == "play: cards" and "(remove Rat Man)" not in labels(daemon)
    keys(daemon, " ")  # "(done)" with nothing picked is not an empty play
    assert menu_text(daemon)[0] == "cards: pick one first" and daemon.display.menu is not None
    keys(daemon, ".. ,, ")  # Orc, then "(done)"
    assert daemon.display.menu is None
    assert daemon.stored_game.session.in_force[-1]["cards"] == ["orc"]


class Clock:
    """The daemon's time, moved on by the test (how long a refusal stays shown)."""

    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


def disarmed(store, clock=None):
    daemon, screens = daemon_for(store, TRAPS, **({"clock": clock} if clock else {}))
    daemon.stored_game.append({"type": "expose", "seat": 0, "square": "T2", "clicks": 1})
    daemon.stored_game.append({"type": "disarm", "seat": 0, "square": "T2", "mode": "slow",
                         "dice": [6, 6]})
    daemon.display.refresh()
    assert daemon.stored_game.game.view(None)["squares"]["T2"]["status"] == "disarmed"
    return daemon, screens


def test_the_trap_dial_refuses_a_disarm_of_a_disarmed_trap_before_the_dice(store):
    clock = Clock()
    daemon, screens = disarmed(store, clock)
    keys(daemon, " . ")  # the trap dial: T2, then its action
    keys(daemon, ".. ")  # "Disarm quick": refused at once, the dice are not asked for
    assert daemon.display.dial_state()["step"] == "action"
    # Nothing secret in it: the whole table reads why, on the table screen, for a while.
    assert shown(screens["table"]) == error_screen("T2 is disarmed already").tobytes()
    assert len(daemon.stored_game.session.events) == 2
    clock.now += 60  # read: at the next turn of the dial, the dial is shown again
    keys(daemon, ",")
    assert shown(screens["table"]) == game_screens(daemon)["table"].tobytes()


def test_manual_entry_refuses_a_disarm_of_a_disarmed_trap_once_its_square_is_chosen(store):
    daemon, screens = disarmed(store)
    keys(daemon, "h ")  # a long press: manual entry (in Traps, the only way in)
    assert "> expose" in menu_text(daemon)
    keys(daemon, ".. ")  # disarm
    keys(daemon, " ")  # Ann
    keys(daemon, ". ")  # T2: refused before the mode and the dice
    assert daemon.display.menu is None
    assert len(daemon.stored_game.session.events) == 2
    assert daemon.display.table_notice == "refused: see Ann"
    message = "T2 is disarmed already [rule: disarm-disarmed]"
    assert shown(screens["seat:0"]) == error_screen(message).tobytes()
    assert shown(screens["seat:1"]) == game_screens(daemon)["seat:1"].tobytes()


def test_an_undo_says_on_the_table_screen_what_it_took_back(store):
    daemon, screens = dealt(store)
    keys(daemon, "u")  # a long press of the menu button
    assert [e["type"] for e in daemon.stored_game.session.in_force] == ["deal"]
    notice = "undone: pig by Bob"
    assert shown(screens["table"]) == with_notice(game_screens(daemon)["table"],
                                                  notice).tobytes()
    keys(daemon, "m")  # the next action: the scores, without the banner
    assert shown(screens["table"]) == game_screens(daemon)["table"].tobytes()


def test_an_undo_of_a_secret_names_only_its_type_and_seat(store):
    header = Header("rumble", ("Ann", "Bob", "Cy"), 4, {})
    daemon, screens = daemon_for(store, header)
    daemon.stored_game.append({"type": "secrets", "seat": 1, "characters": ["knight", "thief"]})
    keys(daemon, "u")
    assert daemon.display.table_notice == "undone: secrets by Bob"


def test_a_refusal_banner_goes_at_the_next_action(store):
    daemon, screens = dealt(store)
    turn = daemon.stored_game.game.view(None)["turn"]
    other = (turn + 1) % 4
    keys(daemon, str(other + 1))  # a pass out of turn
    assert daemon.display.table_notice == f"refused: see {DEATHTRAP.seats[other]}"
    keys(daemon, " ")  # the dial opens the entry menu: no stale banner over it
    assert shown(screens["table"]) == draw(Page(*daemon.display.menu.title_and_lines())).tobytes()
