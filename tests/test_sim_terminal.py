"""The simulator (``companion run --sim``) as its user meets it: in a real 80x24 terminal (a
pseudo-terminal of that size, read through the pyte terminal emulator), the table's screen
and the acting seat's are words, not shrunk pixels; the web pages' address stays on its
line while the log goes by; ``h`` and a seat's key shows that seat's screen held, from any
view. Every wait is for output seen on the terminal, never a fixed sleep.

``COMPANION_SCREENSHOTS=docs/images`` also writes the 80x24 terminal as text
(docs/images/sim-80x24.txt, shown in docs/web.md)."""

from __future__ import annotations

import os
from pathlib import Path

from pty_terminal import BLOCKS, WEB_LINE, log_lines, rule, simulator, stored, tile

from companion.bundles.rumble.rules.data import character_names
from companion.table import TableStore

SHOTS = os.environ.get("COMPANION_SCREENSHOTS")


def test_the_table_and_the_acting_seat_as_words_and_the_address_that_stays(tmp_path):
    """Deathtrap resumed in the play, Cy to beat a set: the table's screen and Cy's (the seat
    the game waits for) side by side as words; the web pages' address on its line while a
    dozen refusals scroll the log past it."""
    db = stored(tmp_path, "deathtrap", 4, 4, 3)
    terminal = simulator(db)
    try:
        terminal.wait_for(lambda t: rule("table").search(t.text)
                          and rule("seat 3 (acting)").search(t.text), "the two screens")
        terminal.wait_for(lambda t: WEB_LINE.search(t.text), "the web pages' address")
        assert not BLOCKS.search(terminal.text), terminal.text
        table, seat = tile(terminal, 0), tile(terminal, 1)
        assert len(table) >= 3 and any("1/4" in line for line in table), terminal.text
        assert seat[0].startswith("Cy") and "your turn" in " ".join(seat).lower(), seat
        # The start's log written whole (its last line comes after the screens are drawn),
        # so that each refusal below is the log's last line when it comes.
        terminal.wait_for(lambda t: "seat links ready" in t.text, "the log of the start")
        if SHOTS:
            folder = Path(SHOTS)
            folder.mkdir(parents=True, exist_ok=True)
            (folder / "sim-80x24.txt").write_text(terminal.text.rstrip() + "\n",
                                                  encoding="utf-8")
        first = next(line for line in terminal.lines if "resumed session" in line)
        presses = 0
        while first in terminal.text:  # seats 1, 2 and 4 pass out of turn: each is refused
            key, presses = "124"[presses % 3], presses + 1
            assert presses <= 40, terminal.text
            terminal.type(key)
            said = f"companion: refused pass seat {key}"
            terminal.wait_for(lambda t, said=said: log_lines(t)[-1:] == [said],
                              f"refusal {presses}")
        assert presses > 10 and WEB_LINE.search(terminal.text), terminal.text
        assert all(len(line) <= 80 for line in terminal.lines)
    finally:
        terminal.close()


def test_q_leaves_the_board_and_the_cursor_on_a_line_of_its_own(tmp_path):
    """Cy passes, then ``q``: the log counts "1 event" (not "1 events"), and the shell's
    prompt comes on a new line, not after "q quit"."""
    terminal = simulator(stored(tmp_path, "deathtrap", 4, 4, 3))
    try:
        terminal.wait_for(lambda t: "seat links ready" in t.text, "the resumed game")
        terminal.type("3")
        terminal.wait_for(lambda t: "companion: stored #4: pass seat 3" in t.text, "the pass")
        terminal.type("q")
        assert terminal.ended() == 0
        assert "companion: stopped (1 event stored by this run)" in terminal.lines
        keys = max(row for row, line in enumerate(terminal.lines) if line.endswith("q quit"))
        cursor = terminal.screen.cursor
        assert (cursor.y, cursor.x) == (keys + 1, 0), terminal.text
    finally:
        terminal.close()


def test_h_and_a_seat_shows_that_seats_screen_held_from_any_view(tmp_path):
    """Rumble, Ann's turn: tab shows Bob's screen beside the table's; ``h1`` then shows Ann's
    held (her secret characters by name), ``h3`` Cy's, without tabbing to them first."""
    db = stored(tmp_path, "rumble", 1, 3, 4)
    with TableStore(db) as store:
        stored_game = store.open_session(1)
        secrets = [stored_game.session.result(seat)["state"]["secrets"] for seat in range(3)]
    names = character_names()
    terminal = simulator(db)
    try:
        terminal.wait_for(lambda t: rule("seat 1 (acting)").search(t.text), "Ann's screen")
        terminal.type("\t")
        terminal.wait_for(lambda t: rule("seat 2").search(t.text), "Bob's screen (tab)")
        for key, seat in (("1", 0), ("3", 2)):
            terminal.type("h" + key)
            words = [names[character] for character in secrets[seat]]
            terminal.wait_for(lambda t, words=words: all(
                word in "\n".join(tile(t, 1)) for word in words),
                f"seat {seat + 1}'s secret characters, held")
            assert rule(f"seat {seat + 1}").search(terminal.text), terminal.text
            assert not BLOCKS.search(terminal.text), terminal.text
    finally:
        terminal.close()
