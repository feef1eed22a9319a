"""After an undo nothing shows the undone event as standing, nor what the state before it
said: the seats' refusals go at the next redraw, the table's "undone: ..." notice goes by
itself after a while (and so is not on a page loaded later), and "What happened" marks the
event taken back, on the page as it updates and on a fresh load.

Driven as a user does: ``companion run --sim`` in an 80x24 pseudo-terminal (its keys, its
screens' words) and the pages it serves in Chromium. Every wait is for something observed."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from helpers import wait_for
from pty_terminal import WEB_LINE, log_lines, simulator, stored

WAIT_MS = 60_000
UNDONE = "undone: pass by Cy"


def seat_link(db: Path, seat: int) -> str:
    out = subprocess.run([sys.executable, "-m", "companion.cli", "seats", "--db", str(db),
                          "--json"], capture_output=True, text=True, timeout=120, check=True)
    return next(link["url"] for link in json.loads(out.stdout) if link["seat"] == seat)


def feed(page) -> list[tuple[str, bool]]:
    """"What happened", newest first: each entry's words and whether it is marked undone."""
    return [(item.inner_text().strip(), "undone" in (item.get_attribute("class") or ""))
            for item in page.locator("#feed li").all()]


def test_an_undo_leaves_no_stale_words_on_the_screens_or_the_pages(browser, tmp_path):
    """Deathtrap, Cy to beat a set: Cy passes, Ann passes out of turn (refused: her screen
    says why), then the menu button's long press undoes Cy's pass."""
    db = stored(tmp_path, "deathtrap", 4, 4, 3)
    terminal = simulator(db)
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        terminal.wait_for(lambda t: "seat links ready" in t.text, "the resumed game")
        url = WEB_LINE.search(terminal.text).group(0).split(" at ")[1]
        table = context.new_page()
        table.goto(url + "/")
        ann = context.new_page()
        ann.goto(seat_link(db, 0))
        terminal.type("3")
        terminal.wait_for(lambda t: log_lines(t)[-1:] == ["companion: stored #4: pass seat 3"],
                          "Cy's pass stored")
        wait_for(lambda: feed(table)[:1] == [("pass by Cy", False)], "the feed: Cy's pass")
        terminal.type("1")
        terminal.wait_for(lambda t: "Not allowed" in t.text, "Ann's refusal on her screen")
        wait_for(lambda: ann.inner_text("#error").strip(), "Ann's refusal on her page")
        terminal.type("u")
        terminal.wait_for(lambda t: UNDONE in t.text, "the undo's notice")
        assert "Not allowed" not in terminal.text, terminal.text  # redrawn without it
        wait_for(lambda: feed(table)[:2] == [("undo", False), ("pass by Cy (undone)", True)],
                 "the feed marking Cy's pass undone")
        wait_for(lambda: not ann.inner_text("#error").strip(), "Ann's page without it")
        fresh = context.new_page()
        fresh.goto(url + "/")
        wait_for(lambda: feed(fresh)[:2] == [("undo", False), ("pass by Cy (undone)", True)],
                 "a fresh load marking it too")
        # The notice tells of a moment: it goes by itself, on the screen and the pages.
        terminal.wait_for(lambda t: UNDONE not in t.text, "the notice gone by itself")
        wait_for(lambda: not table.inner_text("#notice").strip(), "the page's banner gone")
        later = context.new_page()
        later.goto(url + "/")
        wait_for(lambda: feed(later)[:1] == [("undo", False)], "a page loaded later")
        assert not later.inner_text("#notice").strip()
        assert ("pass by Cy", False) not in feed(later)
    finally:
        context.close()
        terminal.close()
