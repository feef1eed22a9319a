"""The --sim board in an 80x24 terminal: one whole screen at a time, shrunk to fit, with the
key that shows the next (tab) named on it, instead of half a screen and no hint."""

import io

from PIL import ImageDraw

from companion.daemon.displays import TerminalBoard
from companion.daemon.sources import KEY_HELP, Keyboard
from companion.screens.canvas import blank


def screen(text):
    image = blank()
    ImageDraw.Draw(image).text((4, 4), text, fill=1)
    return image


def test_an_80x24_terminal_shows_one_whole_screen_at_a_time_and_tab_cycles():
    board = TerminalBoard(io.StringIO(), footer=KEY_HELP)
    for name in ("table", "seat:0", "seat:1", "seat:2"):
        board.update(name, screen(name))
    for line in ("companion: ready", "companion: stored #1: pass seat 2"):
        board.note(line)
    text = board.text(80, 24)
    lines = text.splitlines()
    assert len(lines) <= 23 and all(len(line) <= 80 for line in lines)
    assert "table (1/4), tab: next" in lines[0]
    assert len([line for line in lines if line and line[0] in " \u2580\u2584\u2588"]) >= 16
    assert "tab next screen" in text and "q quit" in text
    board.cycle()
    assert "seat 1 (2/4)" in board.text(80, 24).splitlines()[0]
    for _ in range(3):
        board.cycle()
    assert "table (1/4)" in board.text(80, 24)


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
