"""What the screens say at moments a table watches: a trap going off (its public effect on the
table screen, the whole of it on the victim's own), and each seat's place and score once a
Rumble or Tricky game is over. Driven through the daemon with the keys of ``--sim`` or the
fed events of a table log, read off the screens the daemon drew."""

import pytest
from PIL import ImageDraw
from table_driver import daemon_for
from table_driver import type_keys as keys

from companion.bundles.rumble import screens as rumble
from companion.bundles.rumble.rules import sim as rumble_sim
from companion.bundles.traps import screens as traps
from companion.bundles.tricky import screens as tricky
from companion.bundles.tricky.rules import sim as tricky_sim
from companion.daemon.items import FedEvent
from companion.errors import RuleViolation
from companion.screens.canvas import FINE, blank
from companion.screens.common import final_place, paragraph, placing, seat_header
from companion.table import Header

TRAPS = Header("traps", ("Ann", "Bob", "Cy"), 3, {
    "squares": ["T1", "T2"],
    "dials": {"T1": ["start", "x", {"trap": "monstrous-hand", "disarm": 10, "xp": 20}],
              "T2": ["start", {"trap": "falling-weight", "disarm": 7, "xp": 5}]}})






def feed(daemon, events):
    for line, event in enumerate(events, start=2):
        daemon.handle(FedEvent(line, event))
        daemon.display.refresh()


def shown(screen):
    return screen.images[-1].tobytes()


def test_a_triggered_trap_is_told_on_the_table_and_in_full_on_the_victims_screen(store):
    daemon, screens = daemon_for(store, TRAPS)
    before = {name: shown(screen) for name, screen in screens.items()}
    keys(daemon, " . . ")  # the trap dial: T2, trigger
    keys(daemon, ",2")  # one click, and Bob taps his button: it goes off on him
    assert daemon.stored_game.session.in_force[-1]["type"] == "trigger"
    assert shown(screens["table"]) == traps.sprung_table(
        daemon.stored_game.game.view(None)["sprung"], TRAPS.seats).tobytes()
    assert daemon.stored_game.game.view(None)["sprung"]["name"] == "Falling Weight"
    image = blank()
    pen = ImageDraw.Draw(image)
    box = seat_header(pen, "Bob", "0 XP")
    paragraph(pen, box, "Falling Weight: 3 clicks of damage. 3 clicks to the trigger "
                        "(Dodge avoids); falls only once", largest=14, smallest=FINE)
    assert shown(screens["seat:1"]) == image.tobytes()
    assert shown(screens["seat:0"]) == before["seat:0"]  # nothing on the others' screens
    assert shown(screens["seat:2"]) == before["seat:2"]
    keys(daemon, "   ,1")  # the next event (Ann exposes T1): back to the squares
    view = daemon.stored_game.game.view(None)
    assert view["sprung"] is None
    assert shown(screens["table"]) == traps.table(view, TRAPS.seats).tobytes()


def test_a_refused_event_keeps_the_trap_that_went_off_on_the_table(store):
    daemon, screens = daemon_for(store, TRAPS)
    keys(daemon, " . . ,2")  # T2 goes off on Bob
    sprung = shown(screens["table"])
    with pytest.raises(RuleViolation):
        daemon.stored_game.game.apply({"type": "disarm", "seat": 0, "square": "T1", "mode": "quick",
                                 "dice": [6, 6]})
    daemon.display.refresh()
    assert shown(screens["table"]) == sprung


def final_seat(view_totals, seat, name, unit, score):
    image = blank()
    pen = ImageDraw.Draw(image)
    total = view_totals[seat]
    final_place(pen, seat_header(pen, name, score), view_totals, seat,
                f"game over: {total} {unit[:-1] if total == 1 and unit == 'points' else unit}")
    return image.tobytes()


@pytest.mark.parametrize("game", ["tricky", "rumble"])
def test_at_the_end_each_seat_reads_its_place_and_score(store, game):
    sim = {"tricky": tricky_sim, "rumble": rumble_sim}[game]
    header, events = sim.random_game(4, 3)
    header = Header(game, tuple(header["seats"]), header["seed"], header["options"])
    daemon, screens = daemon_for(store, header)
    feed(daemon, events)
    assert daemon.stored_game.game.finished
    view = daemon.stored_game.game.view(None)
    totals = view["gold"] if game == "tricky" else view["totals"]
    unit = "gold" if game == "tricky" else "points"
    unit_short = "gold" if game == "tricky" else "pts"
    for seat, name in enumerate(header.seats):
        short = unit_short[:-1] if totals[seat] == 1 and unit_short == "pts" else unit_short
        expected = final_seat(totals, seat, name, unit, f"{totals[seat]} {short}")
        assert shown(screens[f"seat:{seat}"]) == expected
        module = tricky if game == "tricky" else rumble
        own = module.seat(daemon.stored_game.game.view(seat), header.seats, False)
        assert own.tobytes() == expected
    best = max(totals)
    assert placing(totals, totals.index(best)).startswith("1st")
    assert placing([3, 3, 1], 2) == "3rd" and placing([3, 3, 1], 0) == "1st, tied"
