"""The --sim board in an 80x24 terminal: the table's screen and a seat's side by side as
their words (not pictures shrunk past reading), tab picking the seat, the lines kept under
them; a large terminal keeps the pictures. (tests/test_sim_terminal.py runs the simulator
itself in a real 80x24 terminal.)"""

import io

from PIL import ImageDraw

from companion.daemon.displays import TerminalBoard, screen_text
from companion.daemon.pages import with_notice
from companion.daemon.sources import KEY_HELP, Keyboard
from companion.screens.canvas import blank, fit_text, paragraph


def screen(text, more=""):
    """A screen with ``text`` at the top (and ``more`` under it), drawn as the screens draw."""
    image = blank()
    pen = ImageDraw.Draw(image)
    fit_text(pen, (0, 0, 64, 14), text)
    fit_text(pen, (64, 0, 128, 14), "9 pts")
    if more:
        paragraph(pen, (0, 16, 128, 64), more, largest=10)
    return image


def test_a_screens_words_are_noted_whole_a_row_to_a_line_the_notice_last():
    image = with_notice(screen("Ann", "a long line that the screen cuts into pages " * 4),
                        "refused: see Bob")
    lines = screen_text(image)
    assert lines[0] == "Ann  9 pts"
    assert lines[1] == " ".join(["a long line that the screen cuts into pages"] * 4)
    assert lines[-1] == "! refused: see Bob"
    assert screen_text(screen("Cy")) == ["Cy  9 pts"]  # the copy with the notice is its own


def test_an_80x24_terminal_shows_two_screens_as_words_and_tab_picks_the_seat():
    board = TerminalBoard(io.StringIO(), footer=KEY_HELP)
    for name in ("table", "seat:0", "seat:1", "seat:2"):
        board.update(name, screen(name.replace("seat:", "player "), f"words of {name}"))
    board.keep("companion: web pages at http://127.0.0.1:8080")
    for n in range(30):
        board.note(f"companion: stored #{n}: pass seat 2")
    lines = board.text(80, 24).splitlines()
    assert len(lines) <= 23 and all(len(line) <= 80 for line in lines)
    assert " table " in lines[0] and " seat 1, tab: next " in lines[0]
    assert "words of table" in lines[2] and "words of seat:0" in lines[2]
    assert not any(ch in "\u2580\u2584\u2588" for line in lines for ch in line)
    assert "companion: web pages at http://127.0.0.1:8080" in lines
    assert "companion: stored #29: pass seat 2" in lines  # the latest, the oldest gone
    assert "companion: stored #0: pass seat 2" not in lines
    assert "tab next seat's screen" in "\n".join(lines)
    board.cycle()
    assert " seat 2, tab: next " in board.text(80, 24).splitlines()[0]
    for _ in range(2):
        board.cycle()
    assert " seat 1, tab: next " in board.text(80, 24).splitlines()[0]
    board.attend("seat:2")  # h then 3
    assert " seat 3, tab: next " in board.text(80, 24).splitlines()[0]


def test_a_large_terminal_keeps_the_whole_grid():
    board = TerminalBoard(io.StringIO(), footer="keys: q quit")
    for name in ("table", "seat:0"):
        board.update(name, screen(name))
    text = board.text(270, 60)
    assert " table " in text and " seat 1 " in text and "tab: next" not in text


def test_the_tab_key_goes_to_the_board_not_to_the_table():
    cycled, submitted = [], []
    keyboard = Keyboard(io.StringIO("\t\t1q"), board_keys={"\t": lambda: cycled.append(1)})
    keyboard.read_keys(submitted.append)
    assert len(cycled) == 2
    assert [getattr(item, "control", None) for item in submitted][:2] == ["seat:0", "seat:0"]


def test_at_any_size_from_80x24_the_acting_seat_is_shown_and_nothing_overflows():
    """Eight seats, seat 6 acting: every terminal from 80x24 to 300x100 shows the table's and
    seat 6's screens (pictures or words), within the terminal's width and height; the seat
    held is shown too, beside the acting one where pictures fit."""
    board = TerminalBoard(io.StringIO(), footer=KEY_HELP)
    for name in ("table", *(f"seat:{n}" for n in range(8))):
        board.update(name, screen(name.replace("seat:", "player "), f"words of {name}"))
    board.acting = "seat:5"
    for width in range(80, 301, 11):
        for height in range(24, 101, 7):
            lines = board.text(width, height).splitlines()
            assert len(lines) <= height - 1 and all(len(line) <= width for line in lines)
            text = "\n".join(lines)
            assert " table " in lines[0] and " seat 6 (acting)" in text, (width, height)
    board.attend("seat:1")
    text = board.text(270, 70)
    assert " seat 2 " in text and " seat 6 (acting) " in text
    # Room for four: the table's, the held, the acting and the first other; the rest named.
    assert "not shown: seat 3, seat 4, seat 5, seat 7, seat 8 " in text
