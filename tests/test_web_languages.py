"""The web pages in the five languages: every string the pages mark is in every catalogue, a
seat's page switched to French is French while another seat's stays English, the choice is
kept for that seat (a reload, a restart), and the table page follows the table's language."""

import copy
import json
import os
from pathlib import Path

import pytest
from helpers import wait_for
from web_table import LiveTable, act, get_json, random_game, request

from companion.bundles.deathtrap.rules.deck import WILDS, Pack, default_deck
from companion.bundles.rumble.rules import data as rumble_data
from companion.daemon.items import CameraProposal, Stop
from companion.errors import RuleViolation
from companion.games.spec import component_data
from companion.i18n import LANGUAGES, translator, use, using
from companion.i18n.extract import WEB
from companion.screens.common import error_screen
from companion.table import Header
from companion.table.session import TableSession
from companion.web.delta import PageState
from companion.web.snapshot import PRIVATE_KEYS, Pictures, key_words, private_part
from companion.web.words import marked, page_words

WAIT_MS = 60_000
#: The traps' English names, as the rule text prints them.
TRAP_NAMES = {key: trap["name"]
              for key, trap in component_data("companion.bundles.traps",
                                              "traps-catalog.json")["traps"].items()}
#: Where the screenshot for docs/web.md goes, when asked (COMPANION_SCREENSHOTS=docs/images).
SHOTS = os.environ.get("COMPANION_SCREENSHOTS")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_marked_string_of_the_pages_is_translated(lang):
    """The pages' words come from the catalogue (test_i18n_catalogues fails on any left
    untranslated); here: every one the pages mark is served, and none is left English."""
    words = json.loads(page_words(lang))
    assert set(words) == set(marked()) and len(words) > 40
    assert all(translator(lang).pgettext(WEB, m) == words[m] for m in marked())
    if lang != "en":
        same = {m for m, text in words.items() if text == m}
        assert same <= {"a, b, ...", "R{n}", "Total", "Scores", "Table", "live", "menu",
                        "Simulator", "dial", "{field} (optional)"}, same


@pytest.mark.parametrize(("game", "seats"), [("deathtrap", 4), ("rumble", 3), ("traps", 2),
                                             ("tricky", 3)])
def test_every_key_a_seats_page_lists_as_its_own_has_its_words(game, seats):
    """The keys of a seat's own view (its page's list under the peek button) are marked for
    the catalogue: over whole random games, none is missing from ``PRIVATE_KEYS``."""
    known = set(PRIVATE_KEYS)
    for seed in range(3):
        header, events = random_game(game, seed, seats)
        session = TableSession(header)
        for event in events:
            session.apply(event)
            public = session.result(None)["state"]
            for seat in range(seats):
                keys = private_part(session.result(seat)["state"], public)
                assert {key.replace("_", " ") for key in keys} <= known, (game, keys)
    with using("fr"):
        assert key_words(["your_turn"]) == {"your_turn": "à vous"}


def test_a_seat_reads_its_page_in_french_while_another_stays_english(browser, tmp_path):
    header = Header("deathtrap", ("Ann", "Bob", "Cy", "Dee"), 6)
    with LiveTable(tmp_path, header) as table:
        links = table.links()
        french = browser.new_page()
        french.goto(links[1])
        english = browser.new_page()
        english.goto(links[2])
        for page in (french, english):
            page.wait_for_selector("#peek:has-text('Hold to see your secrets')",
                                   timeout=WAIT_MS)
        french.select_option("#language", "fr")
        french.wait_for_selector("#peek:has-text('Maintenir pour voir vos secrets')",
                                 timeout=WAIT_MS)
        french.wait_for_selector("#tap:has-text('Passer')", timeout=WAIT_MS)
        french.wait_for_selector("html[lang=fr]", state="attached", timeout=WAIT_MS)
        french.wait_for_selector("#connection:has-text('en direct')", timeout=WAIT_MS)
        if SHOTS:
            french.set_viewport_size({"width": 420, "height": 900})
            french.screenshot(path=str(Path(SHOTS) / "web-seat-fr.png"), full_page=True)
        assert french.inner_text("h2[data-t='The table']") == "La table"
        assert "Place" in french.inner_text(".scores thead")
        # The other seat's page, and the table page, stay in the table's language.
        english.reload()
        english.wait_for_selector("#tap:has-text('Pass')", timeout=WAIT_MS)
        assert english.inner_text("#peek") == "Hold to see your secrets"
        assert english.eval_on_selector("html", "e => e.lang") == "en"
        board = browser.new_page()
        board.goto(table.url + "/")
        board.wait_for_selector("h2:has-text('What happened')", timeout=WAIT_MS)
        # A refusal on the French page is French; the choice survives a reload.
        french.fill("#name", "Ann")
        french.click("#naming button")
        french.wait_for_selector("#named:has-text('est déjà à la place 1')", timeout=WAIT_MS)
        french.reload()
        french.wait_for_selector("#peek:has-text('Maintenir')", timeout=WAIT_MS)
        assert french.input_value("#language") == "fr"
        # Nothing private of another seat reached either page.
        other = get_json(links[2] + "/api")["state"]
        mine = get_json(links[1] + "/api")["state"]
        for key in ("hand", "cards"):
            if key in other and other[key] and other.get(key) != mine.get(key):
                assert json.dumps(other[key]) not in french.content()
    with LiveTable(tmp_path, None) as again:  # a restart: seat 1 still reads French
        link = again.links()[1]  # the same token, on the new run's port
        assert link.rsplit("/", 1)[1] == links[1].rsplit("/", 1)[1]
        wait_for(lambda: again.web.languages.get((again.daemon.stored_game.id, 1)) == "fr",
                 "seat 1's language read back")
        page = browser.new_page()
        page.goto(link)
        page.wait_for_selector("#peek:has-text('Maintenir')", timeout=WAIT_MS)
        again.daemon.submit(Stop("test over"))


def test_a_refusal_of_a_french_seat_shows_on_its_page_in_french(browser, tmp_path):
    """The daemon draws a refusal on the refused seat's own screen, in the table's language
    (English here); the seat's page, read in French, shows it in French: its words and the
    picture of its screen."""
    header = Header("rumble", ("Ann", "Bob", "Cy"), 6)
    move = {"type": "move", "seat": 1, "character": "knight", "to": "A1"}  # Cy's turn
    said = {}
    for lang in ("en", "fr"):
        with using(lang), pytest.raises(RuleViolation) as refused:
            TableSession(header).check(move)
        said[lang] = str(refused.value)
    with using("fr"):
        french_screen = Pictures().url(error_screen(said["fr"]))
    with LiveTable(tmp_path, header) as table:
        link = table.links()[1]
        assert request(link + "/language", {"lang": "fr"})[0] == 200
        page = browser.new_page()
        frames, states = [], []  # every message the page is sent; its channel after each

        def follow(socket) -> None:
            held = PageState()  # a socket (re)opened starts from the whole channel

            def received(frame) -> None:
                frames.append(frame)
                states.append(copy.deepcopy(held.take(json.loads(frame))))
            socket.on("framereceived", received)
        page.on("websocket", follow)
        page.goto(link)
        page.wait_for_selector("#connection:has-text('en direct')", timeout=WAIT_MS)
        # Every text the page's refusal line shows, however briefly (a refusal goes after
        # a few seconds).
        page.evaluate("""() => {
            const line = document.getElementById("error");
            window.said = [];
            new MutationObserver(() => window.said.push(line.textContent)).observe(
                line, {childList: true, subtree: true, characterData: true});
        }""")
        assert act(link, move)[0] == 200
        page.wait_for_function("(text) => window.said.includes(text)", arg=said["fr"],
                               timeout=WAIT_MS)

        def refusal_sent():
            # Playwright hands over the frames received only while it is called.
            page.wait_for_timeout(20)
            return next((state for state in states if state.get("error")), None)

        sent = wait_for(refusal_sent, "the refusal sent to the page")
        assert sent["error"] == said["fr"] and sent["screen"] == french_screen
        # The table's own screen for Bob said it in English.
        bob = next(s for s in table.daemon.screens.values() if s.name == "seat:1")
        assert any(image.tobytes() == error_screen(said["en"]).tobytes()
                   for image in bob.images)
        assert said["en"] not in json.dumps(frames)


def test_a_language_the_pages_do_not_have_is_refused(tmp_path):
    header = Header("traps", ("Ann", "Bob"), 1)
    with LiveTable(tmp_path, header) as table:
        link = table.links()[0]
        status, body = request(link + "/language", {"lang": "xx"})
        assert status == 400 and json.loads(body)["error"].startswith("lang: one of en")
        assert request(table.url + "/i18n/xx.json")[0] == 404
        assert request(table.url + "/i18n/de.json")[0] == 200
        assert request(table.url + "/s/" + "x" * 32 + "/language", {"lang": "fr"})[0] == 403


def french_names(ids, names):
    """What the French pages call these things (the catalogue's names, the rule texts')."""
    tr = translator("fr")
    return [tr.gettext(names.get(i, i)) for i in ids]


def played(table, events):
    """The table takes ``events`` as if seen at the table; wait until all are stored."""
    for event in events:
        table.daemon.submit(CameraProposal(event, 1.0))
    wait_for(lambda: table.stored() == len(events), "the events stored")


GAMES_IN_FRENCH = [("rumble", 2, 3, 1), ("deathtrap", 1, 4, 4), ("traps", 1, 2, 4)]


@pytest.mark.parametrize(("game", "seed", "seats", "count"), GAMES_IN_FRENCH,
                         ids=[g[0] for g in GAMES_IN_FRENCH])
def test_a_french_table_and_a_french_seat_say_the_game_in_french(browser, tmp_path, game,
                                                                  seed, seats, count):
    """The state lines and the names of characters, cards and traps: the table page of a
    French table, and a seat page read in French at an English table (the game read again
    in French for it), both in a real browser."""
    header, events = random_game(game, seed, seats)
    try:
        for table_language in ("fr", "en"):
            folder = tmp_path / table_language
            folder.mkdir()
            with LiveTable(folder, header, language=table_language) as table:
                played(table, events[:count])
                # The pages follow the store a moment later: /api/table as the daemon sees
                # the game now, before it is asked whose turn it is.
                with using(table_language):
                    now = json.loads(json.dumps(table.daemon.stored_game.session.result(None)))
                wait_for(lambda now=now: get_json(table.url + "/api/table") == now,
                         "/api/table after the events")
                # The seat to act now (its page lists its legal actions), else the first.
                turn = now["state"].get("turn")
                seat = turn if isinstance(turn, int) else 0
                link = table.links()[seat]
                if table_language == "en":
                    assert request(link + "/language", {"lang": "fr"})[0] == 200
                    page = browser.new_page()
                    page.goto(link)
                else:
                    page = browser.new_page()
                    page.goto(table.url + "/")
                page.wait_for_selector("html[lang=fr]", state="attached", timeout=WAIT_MS)
                page.wait_for_selector(f'body[data-events="{count}"]', state="attached",
                                       timeout=WAIT_MS)
                words = page.locator("#words").text_content()
                state = get_json(link + "/api")["state"]
                french_state_shown(game, words, state)
                if table_language == "en":
                    facts = page.locator("#private").text_content()
                    french_facts_shown(game, facts, state)
                    # The seat's own JSON (the contract's) stays the daemon's view, in the
                    # table's language.
                    assert get_json(link + "/api") == table.daemon.stored_game.session.result(seat)
                page.close()
    finally:
        use("en")


def french_state_shown(game, words, state):
    if game == "rumble":
        assert "aventure 1 sur 3, jeu" in words, words
        ids = list(state["positions"])
        for name in french_names(ids, rumble_data.character_names()):
            assert name in words, (name, words)
        assert "Chevalier" in words or "Voleur" in words
    elif game == "deathtrap":
        assert "manche 1 sur 4, jeu" in words and "cartes en main" in words, words
        beat = state["to_beat"]
        with using("fr"):
            creature = next(c for c in beat["cards"] if c not in WILDS)
            name = Pack.from_option(default_deck()).title(creature)
        assert f"à battre : {beat['count']} x {name}" in words, words
    else:
        triggered = [s for s in state["squares"].values() if s["status"] == "triggered"]
        assert triggered and "déclenché" in words and "PX :" in words, words
        for square in triggered:
            name = french_names([square["trap"]], TRAP_NAMES)[0]
            assert name in words and name != TRAP_NAMES[square["trap"]], (name, words)


def french_facts_shown(game, facts, state):
    if game == "rumble":
        assert " + ".join(french_names(state["secrets"], rumble_data.character_names())) \
            in facts, facts
        assert "déplacer" in facts, facts
    elif game == "deathtrap":
        assert "cartes en main" in facts and "false" not in facts, facts
    assert "{" not in facts and "true" not in facts, facts
