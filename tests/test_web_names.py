"""A seat names itself from its own page: checked (a refusal naming the field), stored before
it is shown, then on the table page, the seat's page, the OLED screens and the scoreboard, in
``companion seats`` and the players of the history; kept across a restart; the table log and
its export keep the header's names. Only a seat's own link names that seat."""

import json
import subprocess
import sys

import pytest
from helpers import wait_for
from web_table import LiveTable, get_json, request

from companion.daemon.items import Stop
from companion.games import registry
from companion.hardware.events import InputEvent
from companion.screens.common import scoreboard
from companion.table import Header, TableStore
from companion.table.players import PlayerError, check_seat_name

WAIT_MS = 60_000


def name(link, text):
    status, body = request(link + "/name", {"name": text})
    return status, json.loads(body) if body else None


def latest(screen):
    return screen.images[-1] if screen.images else None


def test_a_seat_names_itself_everywhere_and_the_name_survives_a_restart(tmp_path):
    header = Header("deathtrap", ("Ann", "Bob", "Cy", "Dee"), 5)
    with LiveTable(tmp_path, header) as table:
        links = table.links()
        assert name(links[1], "  Zoé  Martin ") == (200, {"name": "Zoé Martin"})
        # Durable before the answer: the store says so from another connection.
        with TableStore(table.db, read_only=True) as store:
            session = store.latest()
            assert store.seat_names(session, header) == ("Ann", "Zoé Martin", "Cy", "Dee")
        wait_for(lambda: get_json(table.url + "/api/table")["seats"][1] == "Zoé Martin",
                 "the table page's seats")
        assert get_json(links[1] + "/api")["seats"] == ["Ann", "Zoé Martin", "Cy", "Dee"]
        seats = json.loads(subprocess.run(
            [sys.executable, "-m", "companion.cli", "seats", "--db", table.db, "--json"],
            capture_output=True, text=True, timeout=120, check=True).stdout)
        assert [s["name"] for s in seats] == ["Ann", "Zoé Martin", "Cy", "Dee"]
        daemon = table.daemon
        game = daemon.stored_game.game
        screens = registry.get("deathtrap").screen_module()
        own = screens.seat(game.view(1), ("Ann", "Zoé Martin", "Cy", "Dee"), False)
        wait_for(lambda: latest(daemon.screens["seat:1"]) == own, "seat 1's OLED")
        assert own != screens.seat(game.view(1), ("Ann", "Bob", "Cy", "Dee"), False)
        daemon.submit(InputEvent("press", "menu"))  # a tap of the menu button: the scores
        daemon.submit(InputEvent("release", "menu"))
        board = scoreboard("Scores", ("Ann", "Zoé Martin", "Cy", "Dee"), tuple(game.totals()))
        wait_for(lambda: latest(daemon.screens["table"]) == board, "the scoreboard")
    with TableStore(table.db) as store:
        assert "Zoé Martin" in store.player_names()
        exported = store.open_session(store.latest()).export_lines()
        assert json.loads(exported[0])["seats"] == ["Ann", "Bob", "Cy", "Dee"]  # as played
    with LiveTable(tmp_path, None) as again:  # a restart resumes the game with the name
        wait_for(lambda: again.daemon.stored_game is not None, "the game resumed")
        assert again.daemon.stored_game.game.seats[1] == "Zoé Martin"
        assert get_json(again.url + "/api/table")["seats"] == ["Ann", "Zoé Martin", "Cy", "Dee"]
        again.daemon.submit(Stop("test over"))


@pytest.mark.parametrize(("typed", "why"), [
    ("", "name: a player name cannot be empty"),
    ("   ", "name: a player name cannot be empty"),
    ("A" * 17, "name: at most 16 characters, got 17"),
    ("<b>x</b>", "name: letters, digits, spaces and - ' . _ & only, not '<'"),
    ("Ann\u200b", "name: "),
    ("\u5f20\u4f1f", "name: letters, digits, spaces and - ' . _ & only, not '\u5f20'"),
    ("bob", "name: 'Bob' sits at seat 2 already"),
])
def test_a_bad_name_is_refused_naming_the_field_and_nothing_changes(tmp_path, typed, why):
    header = Header("tricky", ("Ann", "Bob", "Cy"), 9)
    with LiveTable(tmp_path, header) as table:
        links = table.links()
        status, answer = name(links[0], typed)
        assert status in (400, 409) and answer["error"].startswith(why), answer
        assert get_json(table.url + "/api/table")["seats"] == ["Ann", "Bob", "Cy"]
        with TableStore(table.db, read_only=True) as store:
            assert store.seat_names(store.latest(), header) == ("Ann", "Bob", "Cy")


def test_only_a_seats_own_link_names_it(tmp_path):
    header = Header("traps", ("Ann", "Bob"), 3)
    with LiveTable(tmp_path, header) as table:
        links = table.links()
        status, _ = request(links[1] + "/name", {"name": "Eve", "seat": 0})
        assert status == 200  # a seat in the body is not read: the link's seat is named
        wait_for(lambda: get_json(table.url + "/api/table")["seats"] == ["Ann", "Eve"],
                 "seat 1 named")
        token = links[0].rsplit("/", 1)[1]
        for wrong in (token[:-1] + ("A" if token[-1] != "A" else "B"), "x" * 32, ""):
            assert request(f"{table.url}/s/{wrong}/name", {"name": "Mallory"})[0] in (403, 404)
        assert request(links[0] + "/name", {"nom": "Ann"})[0] == 400
        assert get_json(table.url + "/api/table")["seats"] == ["Ann", "Eve"]


def test_the_name_rules_on_their_own():
    assert check_seat_name(" Jean-Luc  O'Neil ") == "Jean-Luc O'Neil"
    assert check_seat_name("Ørjan Ž.") == "Ørjan Ž."
    with pytest.raises(PlayerError, match="^name: "):
        check_seat_name("tab\there")


def test_a_name_typed_on_a_phone_shows_on_the_page_in_the_browser(browser, tmp_path):
    header = Header("deathtrap", ("Ann", "Bob", "Cy", "Dee"), 4)
    with LiveTable(tmp_path, header) as table:
        links = table.links()
        board = browser.new_page()
        board.goto(table.url + "/")
        phone = browser.new_page()
        phone.goto(links[2])
        phone.wait_for_selector("#title:has-text('Cy')", timeout=WAIT_MS)
        phone.fill("#name", "Bob")
        phone.click("#naming button")
        phone.wait_for_selector("#named:has-text('sits at seat 2')", timeout=WAIT_MS)
        phone.fill("#name", "Dana")
        phone.click("#naming button")
        phone.wait_for_selector("#named:has-text('Dana')", timeout=WAIT_MS)
        phone.wait_for_selector("#title:has-text('Dana')", timeout=WAIT_MS)
        board.wait_for_selector(".scores td:has-text('Dana')", timeout=WAIT_MS)
        other = browser.new_page()
        other.goto(links[0])
        other.wait_for_selector(".scores td:has-text('Dana')", timeout=WAIT_MS)
        assert other.input_value("#name") == "Ann"
