"""``companion run --sim`` in terminals of the sizes people have (80x24, the default of most
terminals and of ssh; 120x40; 200x60; 270x70): whatever fits, the acting seat's screen is in
view, and ``h`` and a seat's key brings any other seat's into view beside it, without one line
of the board wrapped or scrolled away (the table's rule stays the terminal's top line)."""

from __future__ import annotations

import pytest
from pty_terminal import BLOCKS, Terminal, rule, simulator, stored

SIZES = [(80, 24), (120, 40), (200, 60), (270, 70)]


def drawn_whole(terminal: Terminal) -> bool:
    """The board's first line is the table's rule: nothing wrapped or scrolled it off."""
    return bool(rule("table").search(terminal.lines[0]))


@pytest.mark.parametrize(("columns", "lines"), SIZES, ids=[f"{c}x{r}" for c, r in SIZES])
def test_the_acting_seat_is_in_view_at_every_size(tmp_path, columns, lines):
    """Deathtrap resumed with Cy (seat 3) to beat a set, four seats: seat 3's screen is shown,
    marked acting; ``h4`` shows Dee's beside the table's (where pictures fit, Cy's stays)."""
    db = stored(tmp_path, "deathtrap", 4, 4, 3)
    terminal = simulator(db, columns, lines)
    try:
        terminal.wait_for(lambda t: rule("seat 3 (acting)").search(t.text) and drawn_whole(t),
                          f"seat 3's screen, acting, at {columns}x{lines}")
        pictures = bool(BLOCKS.search(terminal.text))
        assert pictures == (columns >= 200), terminal.text  # words where pictures do not fit
        terminal.type("h4")
        terminal.wait_for(lambda t: rule("seat 4").search(t.text) and drawn_whole(t),
                          "seat 4's screen, held")
        if pictures:
            assert rule("seat 3 (acting)").search(terminal.text), terminal.text
    finally:
        terminal.close()
