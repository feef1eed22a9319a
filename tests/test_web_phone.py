"""A seat's page on a phone, in a real browser (Debian's Chromium, as a phone: a touch screen
of 360 to 430 CSS pixels that zooms a page out when it is wider): the page fits with no
sideways scroll whatever the game shows, the peek says sentences a player reads (not the
view's field names), in the page's language.

Skipped where no browser is installed (a fresh clone), failed instead under CI (CI=1).
``COMPANION_SCREENSHOTS=docs/images`` also writes the phone page at 390 px for docs/web.md."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from helpers import wait_for
from web_table import LiveTable, random_game, request

from companion.daemon.dialogues import seat_names
from companion.daemon.items import CameraProposal
from companion.i18n import LANGUAGES, translator
from companion.table import Header
from companion.table.session import TableSession
from companion.web.snapshot import PRIVATE_KEYS

WAIT_MS = 60_000
#: The phones' widths in CSS pixels: a small Android, an iPhone, a large phone.
WIDTHS = (360, 390, 430)
SHOTS = os.environ.get("COMPANION_SCREENSHOTS")


def played(table: LiveTable, events: list[dict]) -> None:
    """The table takes ``events`` (after those it has) as if seen; wait until stored."""
    done = table.stored()
    for event in events[done:]:
        table.daemon.submit(CameraProposal(event, 1.0))
    wait_for(lambda: table.stored() == len(events), "the events stored")


def phone(browser, link: str, width: int):
    """The seat's page on a phone ``width`` CSS pixels wide."""
    page = browser.new_context(viewport={"width": width, "height": 800}, is_mobile=True,
                               has_touch=True, device_scale_factor=2).new_page()
    page.goto(link)
    return page


def shows(page, events: int) -> None:
    page.wait_for_selector(f'body[data-events="{events}"]', state="attached", timeout=WAIT_MS)


def peeking(page) -> list[str]:
    """Hold the peek button: the lines listed under it (the page stays held)."""
    page.hover("#peek")
    page.mouse.down()
    page.wait_for_selector("#secret:not([hidden])", timeout=WAIT_MS)
    return page.locator("#private li").all_inner_texts()


def sideways(page) -> dict[str, int]:
    """The page's width against the phone's: a zoomed-out page is wider than the phone."""
    return page.evaluate("() => ({inner: innerWidth, scroll: Math.max("
                         "document.documentElement.scrollWidth, document.body.scrollWidth)})")


def moments(game: str, seed: int, seats: int) -> tuple[list[dict], list[int]]:
    """A random game and some counts of its events at which to look: the start, the first
    change of phase or two, the middle, the end."""
    header, events = random_game(game, seed, seats)
    session, phases, counts = TableSession(header), [], [0]
    for number, event in enumerate(events, start=1):
        session.apply(event)
        phase = session.result(None)["state"].get("phase")
        if phase not in phases:
            phases.append(phase)
            counts.append(number)
    counts += [len(events) // 2, len(events)]
    return events, sorted(set(counts))[:8]


GAMES = [("deathtrap", 4, 4), ("rumble", 1, 3), ("tricky", 2, 3), ("traps", 3, 2)]


@pytest.mark.parametrize(("game", "seed", "seats"), GAMES, ids=[g[0] for g in GAMES])
def test_the_seat_page_fits_a_phone_with_no_sideways_scroll(browser, tmp_path, game, seed,
                                                             seats):
    """At 360, 390 and 430 CSS pixels, at the start, at each new phase, mid-game and at the
    end, with the secrets held open: the page is no wider than the phone (a phone's browser
    zooms a wider page out, so ``innerWidth`` grows past the phone's width too)."""
    header, _ = random_game(game, seed, seats)
    events, counts = moments(game, seed, seats)
    with LiveTable(tmp_path, header) as table:
        link = table.links()[1]
        pages = {width: phone(browser, link, width) for width in WIDTHS}
        for count in counts:
            played(table, events[:count])
            for width, page in pages.items():
                shows(page, count)
                peeking(page)
                assert sideways(page) == {"inner": width, "scroll": width}, (count, width)
                if SHOTS and game == "deathtrap" and width == 390 and count == counts[3]:
                    screenshot(page)  # the exchange before round 2
                page.mouse.up()
        for page in pages.values():
            page.context.close()


def screenshot(page) -> None:
    """docs/images/web-seat-390.png: a seat's page on a 390-px phone, its secrets held open
    (for docs/web.md)."""
    folder = Path(SHOTS or ".")
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(folder / "web-seat-390.png"), full_page=True)


def field_names(lang: str) -> re.Pattern[str]:
    """A view's field name (``your_turn``, ``exchange``, or its word in ``lang``, as the
    peek listed them before) then a colon, at the start of a line."""
    words = {*PRIVATE_KEYS, *(translator(lang).pgettext("web", key) for key in PRIVATE_KEYS)}
    return re.compile(r"^(" + "|".join(map(re.escape, words)) + r"|\w+_\w+)\s*:")


@pytest.mark.parametrize(("lang", "hold", "turn"),
                         [("en", "You hold", "It is your turn"),
                          ("fr", "Vous avez", "C'est à vous")])
def test_the_peek_says_sentences_not_field_names(browser, tmp_path, lang, hold, turn):
    """Deathtrap's seat page at the deal, in the play and in the exchange before round 2:
    the cards it holds and whose turn it is as sentences, its exchange as the game words
    it, never a field's name (``exchange: -``, ``prompt: -``, ``your turn: no``)."""
    header, _ = random_game("deathtrap", 4, 4)
    events, counts = moments("deathtrap", 4, 4)
    with LiveTable(tmp_path, header) as table:
        for seat, link in enumerate(table.links()):
            assert request(link + "/language", {"lang": lang})[0] == 200, seat
        pages = [phone(browser, link, 390) for link in table.links()]
        seen: list[str] = []
        named = field_names(lang)
        for count in counts[:4]:
            played(table, events[:count])
            for page in pages:
                shows(page, count)
                lines = peeking(page)
                page.mouse.up()
                for line in lines:
                    assert not named.search(line) and not line.endswith(("-", ": ")), line
                    assert "{" not in line and "true" not in line, line
                seen += lines
        assert any(line.startswith(hold) for line in seen), seen
        assert any(line == turn for line in seen), seen
        exchange = "Exchange: " if lang == "en" else "Échange : "
        assert any(line.startswith(exchange) for line in seen), seen
        for page in pages:
            page.context.close()


def test_an_unnamed_seat_is_called_seat_n_in_the_pages_language(browser, tmp_path):
    """A new game calls a seat nobody named "Seat 4" (so its log says): its page and the
    other seats' pages say it in their own language, in the title, the scores and the
    game's words; the name field waits for a name; in English it stays "Seat 4"."""
    header = Header("deathtrap", seat_names(["Ann", "Bob", "Cy"], 4), 6)
    events = random_game("deathtrap", 6, 4)[1][:3]
    with LiveTable(tmp_path, header) as table:
        played(table, events)
        links = table.links()
        unnamed, other = phone(browser, links[3], 390), phone(browser, links[0], 390)
        for lang in LANGUAGES:
            said = translator(lang).pgettext("name", "Seat {n}").format(n=4)
            assert lang == "en" or said != "Seat 4", lang
            for link, page in ((links[3], unnamed), (links[0], other)):
                assert request(link + "/language", {"lang": lang})[0] == 200
                page.wait_for_selector(f"html[lang={lang}]", state="attached",
                                       timeout=WAIT_MS)
                wait_for(lambda page=page, said=said: said in page.inner_text("#scores"),
                         f"the scores to say {said}")
                text = page.inner_text("body")
                assert lang == "en" or "Seat 4" not in text, (lang, text)
            assert unnamed.inner_text("#title") == said
            assert unnamed.input_value("#name") == ""
            assert unnamed.get_attribute("#name", "placeholder") == said
            assert other.inner_text("#title") == "Ann"
        for page in (unnamed, other):
            page.context.close()


def offered(page) -> list[str]:
    """The events **Tell the table** offers, in its order (none: its form is hidden)."""
    if page.is_hidden("#send"):
        assert page.is_visible("#nothing")
        return []
    return [option.get_attribute("value") for option in page.locator("#type option").all()]


def test_tell_the_table_offers_what_the_rules_allow_now_the_likely_first(browser, tmp_path):
    """Deathtrap: the deal (the table's) before a round, the pig from each seat before the
    play, then the play first for the seat to play (and its pass when there is a set to
    beat), never a pig or a deal mid-round; a seat out of cards is offered nothing. The
    table-log line is folded under "Advanced" until opened."""
    header, _ = random_game("deathtrap", 4, 4)
    events, counts = moments("deathtrap", 4, 4)
    with LiveTable(tmp_path, header) as table:
        links = table.links()
        pages = [phone(browser, link, 390) for link in links]
        for page in pages:
            shows(page, 0)
            assert offered(page) == ["deal"]
            assert page.locator("#type option").inner_text() == "deal (for the table)"
        page = pages[0]
        assert page.is_hidden("#json")
        page.click("#advanced summary")
        assert page.is_visible("#json")
        played(table, events[:1])  # the deal: the pig opens the round
        for page in pages:
            shows(page, 1)
            assert offered(page) == ["pig"]
        for count in (counts[2] + 1, counts[2] + 9):  # the play: a set led, then more
            played(table, events[:count])
            state = table.daemon.stored_game.session.result(None)["state"]
            for seat, page in enumerate(pages):
                shows(page, count)
                kinds = offered(page)
                if state["counts"][seat] == 0:
                    assert kinds == [], (seat, kinds)
                elif seat == state["turn"]:
                    beat = state["to_beat"] is not None
                    assert kinds == (["play", "pass"] if beat else ["play"]), (seat, kinds)
                else:
                    assert kinds == ["play"], (seat, kinds)  # the Killing Machine
        for page in pages:
            page.context.close()


def test_tell_the_table_offers_a_rumble_seat_its_secrets_then_its_turn(browser, tmp_path):
    """Rumble: before the first action every seat may give its secret characters (and say
    who starts); the seat whose turn it is gets its move first; once play has begun the
    other seats have nothing to tell."""
    header, events = random_game("rumble", 1, 3)
    with LiveTable(tmp_path, header) as table:
        pages = [phone(browser, link, 390) for link in table.links()]
        turn = table.daemon.stored_game.session.result(None)["state"]["turn"]
        for seat, page in enumerate(pages):
            shows(page, 0)
            kinds = offered(page)
            assert kinds[0] == ("move" if seat == turn else "secrets"), (seat, kinds)
            assert {"secrets", "start"} <= set(kinds), kinds
        count = next(n for n, event in enumerate(events, start=1)
                     if event["type"] in ("move", "fight", "escape"))
        played(table, events[:count])
        turn = table.daemon.stored_game.session.result(None)["state"]["turn"]
        for seat, page in enumerate(pages):
            shows(page, count)
            kinds = offered(page)
            assert kinds[:1] == (["move"] if seat == turn else []), (seat, kinds)
            assert "secrets" not in kinds and "start" not in kinds, kinds
        for page in pages:
            page.context.close()
