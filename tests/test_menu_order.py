"""A menu keeps one order, whatever was chosen before: the same turns of the dial land on the
same entry every time (a table learns them by heart). The language menu lists the languages
in one order with the cursor at the top (its title says which is the table's); the known
players are offered in alphabetical order, not the most recently seen first."""

from __future__ import annotations

from pty_terminal import Terminal, log_lines, simulator
from table_driver import daemon_for, give, tap, turn

from companion.table import Header


def language_menu(terminal: Terminal) -> list[str]:
    """The language menu's lines on the table screen (its words, the 80x24 board's left)."""
    lines = [line[:39].strip() for line in terminal.lines]
    start = next(i for i, line in enumerate(lines) if line.startswith(("Language", "Sprache")))
    return lines[start:start + 5]


def test_the_same_turns_pick_the_same_language_every_time(tmp_path):
    """A new table (no game yet): one turn back from the top of the new-game menu is
    "(language)"; two detents and a press pick Deutsch, then again from the German menu."""
    terminal = simulator(tmp_path / "table.db")
    try:
        terminal.wait_for(lambda t: "(language)" in t.text or "New game" in t.text,
                          "the new-game menu")
        for picked, title in enumerate(("Language: English", "Sprache: Deutsch"), start=1):
            terminal.type(", ")
            terminal.wait_for(lambda t, title=title: title in t.text, f"the menu: {title}")
            shown = language_menu(terminal)
            assert shown[1:] == ["> English", "Français", "Deutsch", "Italiano"], shown
            terminal.type(".. ")
            terminal.wait_for(lambda t, n=picked: sum(line == "companion: language: de"
                                                      for line in log_lines(t)) == n,
                              f"German picked ({picked})")
    finally:
        terminal.close()


def test_known_players_are_offered_in_alphabetical_order(store):
    """Yan and Zoe played last night, Abe and Dee a year ago: seat 1's menu lists them
    alphabetically (the same turns find the same player, whoever played last)."""
    one_x = {"squares": ["T1"], "dials": {"T1": ["start", "x"]}}  # one trigger ends it
    for seats, when in ((("Abe", "Dee"), "2025-01-01T20:00:00Z"),
                        (("Zoe", "Yan"), "2026-01-01T20:00:00Z")):
        store.new_session(Header("traps", seats, 1, one_x), [
            {"type": "trigger", "seat": 0, "square": "T1", "clicks": 1, "t": when}])
    assert store.player_names()[:2] == ["Yan", "Zoe"]  # the store: the most recent first
    daemon, _ = daemon_for(store, default_game="traps", default_seats=["Ann", "Bob"])
    for _step in range(2):  # the game (traps, first), then the seats (2, first)
        give(daemon, tap("encoder-switch:0"))
    assert daemon.display.menu.title == "Who plays?"
    give(daemon, turn(1), tap("encoder-switch:0"))  # seat 1
    assert daemon.display.menu.title == "Seat 1: who?"
    labels = [label for label, _ in daemon.display.menu.choices]
    assert labels == ["(type a name)", "Abe", "Dee", "Yan", "Zoe"]
    assert daemon.display.menu.cursor == 0
