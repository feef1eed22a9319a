"""**Tell the table** on a seat's page speaks the game's words as the manual entry at the table
does: a room or a character is picked from the game's own (by their names), a list of them is
typed with those names suggested and read whatever their case; and the line under the form
says what became of the event sent (taken, or not taken with the reason at the top), never
"sent" once the table has answered.

In a real browser (Debian's Chromium as a phone); skipped where there is none, failed under
CI. Every wait is for something observed."""

from __future__ import annotations

from helpers import wait_for
from web_table import LiveTable, random_game

from companion.daemon.items import CameraProposal
from companion.errors import CompanionError
from companion.table import Header

WAIT_MS = 60_000


def phone(browser, link: str):
    page = browser.new_context(viewport={"width": 390, "height": 800}, is_mobile=True,
                               has_touch=True).new_page()
    page.goto(link)
    return page


def options(page, field: str) -> list[str]:
    """The words a field of the form offers (a select's options)."""
    return page.locator(f'#fields select[name="{field}"] option').all_inner_texts()


def test_a_rumble_move_is_told_with_the_games_rooms_and_characters(browser, tmp_path):
    """Cy's turn (the knight to A2 is legal): the form offers the rooms and characters by
    name; a move the rules refuse says so under the form as at the top; the legal one is
    taken."""
    header, events = random_game("rumble", 1, 3)
    assert events[3] == {"type": "move", "seat": 2, "character": "knight", "to": "A2",
                         "chest": False}
    with LiveTable(tmp_path, header) as table:
        for event in events[:3]:
            table.daemon.submit(CameraProposal(event, 1.0))
        wait_for(lambda: table.stored() == 3, "three events stored")
        cy = phone(browser, table.links()[2])
        cy.wait_for_selector('body[data-events="3"]', state="attached", timeout=WAIT_MS)
        cy.select_option("#type", "move")
        rooms = options(cy, "to")
        assert "A2" in rooms and "a2" not in rooms, rooms
        assert "Knight" in options(cy, "character")
        session = table.daemon.stored_game.session
        far = next(room for room in rooms if move_refused(session, room))
        cy.select_option('#fields select[name="character"]', label="Knight")
        cy.select_option('#fields select[name="to"]', label=far)
        cy.click("#send button[type=submit]")
        wait_for(lambda: cy.inner_text("#error").strip(), "the refusal at the top")
        wait_for(lambda: cy.inner_text("#sent").startswith("not taken: move"),
                 "the line under the form saying it was not taken")
        assert table.stored() == 3
        cy.select_option('#fields select[name="to"]', label="A2")
        cy.click("#send button[type=submit]")
        wait_for(lambda: cy.inner_text("#sent") == "taken: move", "the move taken")
        assert table.daemon.stored_game.session.events[-1]["to"] == "A2"
        cy.context.close()


def move_refused(session, room: str) -> bool:
    """Whether the session refuses the knight's move to ``room`` (seat 2, without the chest)."""
    try:
        session.check({"type": "move", "seat": 2, "character": "knight", "to": room,
                       "chest": False})
    except CompanionError:
        return True
    return False


def test_secret_characters_are_read_by_name_whatever_the_case(browser, tmp_path):
    """Before the first action Ann gives her two secret characters, typed as people type
    them ("twin thief, KNIGHT"): they are the Twin Thief and the Knight."""
    header = Header("rumble", ("Ann", "Bob", "Cy"), 1, {"deal_secrets": False})
    with LiveTable(tmp_path, header) as table:
        ann = phone(browser, table.links()[0])
        ann.wait_for_selector("#type option", state="attached", timeout=WAIT_MS)
        ann.select_option("#type", "secrets")
        field = ann.locator('#fields input[name="characters"]')
        suggested = ann.locator(f'#{field.get_attribute("list")} option').evaluate_all(
            "options => options.map(o => o.value)")
        assert "Twin Thief" in suggested and "Knight" in suggested, suggested
        field.fill("twin thief, KNIGHT")
        ann.click("#send button[type=submit]")
        wait_for(lambda: ann.inner_text("#sent") == "taken: secrets", "the secrets taken")
        event = table.daemon.stored_game.session.events[-1]
        assert event["characters"] == ["twin-thief", "knight"], event
        ann.context.close()
