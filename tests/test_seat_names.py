"""A seat has one name everywhere: the name its players gave it, or, for a seat nobody named
(a new game of four seats where the config names three players: its log says "Seat 4"), that
generic name in the table's language, the same on the OLEDs, the menus, the voice, the table
page, the simulator page, the join codes' captions and the seat's own page.

Driven as a user does, in German and in French: ``companion run --sim --config`` in an 80x24
pseudo-terminal (its screens' words, its keys), with a stand-in espeak-ng first on the PATH
(what the voice says), and the pages it serves in Chromium. Every wait is for something
observed."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import wait_for
from pty_terminal import WEB_LINE, Terminal, rule, simulator, tile
from web_table import random_game

from companion.table import Header, TableStore

WAIT_MS = 60_000
#: The fourth seat's one name, by the table's language.
SAID = {"de": "Spieler 4", "fr": "Joueur 4"}


def unnamed_fourth(folder: Path) -> Path:
    """Deathtrap resumed with Cy (seat 3) to beat a set; the fourth seat nobody named."""
    header, events = random_game("deathtrap", 4, 4)
    header = Header(header.game, ("Ann", "Bob", "Cy", "Seat 4"), header.seed, header.options)
    db = folder / "table.db"
    with TableStore(db) as store:
        stored_game = store.new_session(header)
        for event in events[:3]:
            stored_game.append(event)
    return db


def stand_in_espeak(folder: Path) -> tuple[str, Path]:
    """A PATH whose espeak-ng writes what it is asked to say to a file, a line each."""
    said = folder / "said.txt"
    script = folder / "espeak-ng"
    script.write_text(f"#!/bin/sh\nfor word; do last=\"$word\"; done\necho \"$last\" >> '{said}'\n")
    script.chmod(0o755)
    return f"{folder}{os.pathsep}{os.environ['PATH']}", said


def controls_link(db: Path) -> str:
    """The table's controls link, as `companion seats` prints it."""
    out = subprocess.run([sys.executable, "-m", "companion.cli", "seats", "--db", str(db),
                          "--no-qr"], capture_output=True, text=True, timeout=120, check=True)
    return re.search(r"^table controls\s+(\S+)", out.stdout, re.M).group(1)


def seat_link(db: Path, seat: int) -> str:
    out = subprocess.run([sys.executable, "-m", "companion.cli", "seats", "--db", str(db),
                          "--json"], capture_output=True, text=True, timeout=120, check=True)
    return next(link["url"] for link in json.loads(out.stdout) if link["seat"] == seat)


@pytest.mark.parametrize("lang", sorted(SAID))
def test_an_unnamed_seat_has_one_name_everywhere(browser, tmp_path, lang):
    said = SAID[lang]
    db = unnamed_fourth(tmp_path)
    path, spoken = stand_in_espeak(tmp_path)
    config = tmp_path / "companion.toml"
    config.write_text(f'[table]\nlanguage = "{lang}"\nseats = ["Ann", "Bob", "Cy"]\n\n'
                      '[voice]\nenabled = true\n')
    terminal = simulator(db, 80, 24, "--config", str(config), path=path)
    try:
        terminal.wait_for(lambda t: "seat links ready" in t.text
                          and rule("seat 3 (acting)").search(t.text), "the resumed game")
        terminal.type("3")  # Cy passes: the fourth seat's turn
        terminal.wait_for(lambda t: rule("seat 4 (acting)").search(t.text), "seat 4 acting")
        terminal.wait_for(lambda t: tile(t, 1)[:1] and tile(t, 1)[0].startswith(said),
                          "its own screen, headed by its name")
        assert said in " ".join(tile(terminal, 0)), terminal.text  # the table's: to beat
        wait_for(lambda: spoken.exists() and said in spoken.read_text(), f"the voice: {said}")
        terminal.type("  ")  # manual entry: the event the game waits for, then its seat
        terminal.wait_for(lambda t: f"> {said}" in tile(t, 0), "the seat menu, at its seat")
        assert "Seat 4" not in terminal.text and "Seat 4" not in spoken.read_text()
        pages(browser, terminal, db, said)
    finally:
        terminal.close()


def pages(browser, terminal: Terminal, db: Path, said: str) -> None:
    """The simulator page, the table page, the table page with the join codes and the
    fourth seat's own page: each calls the seat by its one name, never "Seat 4"."""
    url = WEB_LINE.search(terminal.text).group(0).split(" at ")[1]
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        sim = context.new_page()
        sim.goto(url + "/sim")
        sim.wait_for_selector("#screen-seat\\:3 h2", timeout=WAIT_MS)
        wait_for(lambda: sim.inner_text("#screen-seat\\:3 h2") == said, "the sim's label")
        assert said in sim.inner_text("#screen-seat\\:3 button")
        table = context.new_page()
        table.goto(url + "/")
        wait_for(lambda: said in table.inner_text("#scores"), "the scores")
        codes = context.new_page()
        codes.goto(controls_link(db) + "/table")
        codes.wait_for_selector("#links .link", timeout=WAIT_MS)
        captions = codes.locator("#links .link").all_inner_texts()
        assert [caption.strip() for caption in captions] == ["Ann", "Bob", "Cy", said]
        own = context.new_page()
        own.goto(seat_link(db, 3))
        wait_for(lambda: own.inner_text("#title") == said, "its own page's title")
        for page in (sim, table, codes, own):
            assert "Seat 4" not in page.inner_text("body"), page.url
    finally:
        context.close()
