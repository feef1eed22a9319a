"""The simulator (``companion run --sim``) as its user meets it: in a real 80x24 terminal (a
pseudo-terminal of that size, read through the pyte terminal emulator), the table's screen
and the acting seat's are words, not shrunk pixels; the web pages' address stays on its
line while the log goes by; ``h`` and a seat's key shows that seat's screen held, from any
view. Every wait is for output seen on the terminal, never a fixed sleep.

``COMPANION_SCREENSHOTS=docs/images`` also writes the 80x24 terminal as text
(docs/images/sim-80x24.txt, shown in docs/web.md)."""

from __future__ import annotations

import contextlib
import fcntl
import os
import pty
import re
import select
import struct
import subprocess
import sys
import termios
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from web_table import random_game

from companion.bundles.rumble.rules.data import character_names
from companion.table import TableStore

pyte = pytest.importorskip("pyte")

WAIT = 60.0
SHOTS = os.environ.get("COMPANION_SCREENSHOTS")
#: What a screen drawn as pixels is made of on a terminal (half and quadrant blocks).
BLOCKS = re.compile("[\u2580-\u259f]")
WEB_LINE = re.compile(r"companion: web pages at http://127\.0\.0\.1:\d+")
#: The end of the keys' line, the last drawn of the board.
FOOTER_END = "| q quit"


class Terminal:
    """A program in a pseudo-terminal of ``columns`` x ``lines``, its screen as pyte reads
    it."""

    def __init__(self, args: list[str], columns: int = 80, lines: int = 24) -> None:
        master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", lines, columns, 0, 0))
        env = {key: value for key, value in os.environ.items()
               if key not in ("COLUMNS", "LINES")}
        env["TERM"] = "xterm"
        self.process = subprocess.Popen(args, stdin=slave, stdout=slave, stderr=slave,
                                        env=env, start_new_session=True)
        os.close(slave)
        self.master = master
        self.screen = pyte.Screen(columns, lines)
        self.stream = pyte.ByteStream(self.screen)

    @property
    def lines(self) -> list[str]:
        return [line.rstrip() for line in self.screen.display]

    @property
    def text(self) -> str:
        return "\n".join(self.lines)

    @property
    def whole(self) -> bool:
        """The board is drawn whole: it ends with the keys, drawn last."""
        return FOOTER_END in self.text

    def wait_for(self, seen: Callable[[Terminal], object], what: str) -> None:
        """Read the program's output until ``seen`` holds on a board drawn whole."""
        deadline = time.monotonic() + WAIT
        while not (self.whole and seen(self)):
            if time.monotonic() > deadline or self.process.poll() is not None:
                raise AssertionError(f"waited for {what}; the terminal shows:\n{self.text}")
            ready, _, _ = select.select([self.master], [], [], 0.2)
            if ready:
                with contextlib.suppress(OSError):  # OSError: the program has gone
                    self.stream.feed(os.read(self.master, 65536))

    def type(self, keys: str) -> None:
        os.write(self.master, keys.encode())

    def close(self) -> None:
        if self.process.poll() is None:
            self.type("q")
            try:
                self.process.wait(WAIT)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        os.close(self.master)


def stored(folder: Path, game: str, seed: int, seats: int, count: int) -> Path:
    """A store holding a random game of ``game`` after its first ``count`` events, which the
    simulator resumes."""
    db = folder / "table.db"
    header, events = random_game(game, seed, seats)
    with TableStore(db) as store:
        table = store.new_session(header)
        for event in events[:count]:
            table.append(event)
    return db


def simulator(db: Path) -> Terminal:
    return Terminal([sys.executable, "-m", "companion.cli", "run", "--sim", "--db", str(db)])


def rule(name: str) -> re.Pattern[str]:
    """The line over a screen's words on the board: its name between dashes."""
    return re.compile(r"-- " + re.escape(name) + r"[ ,(]")


def log_lines(terminal: Terminal) -> list[str]:
    return [line for line in terminal.lines if line.startswith("companion:")]


def tile(terminal: Terminal, column: int) -> list[str]:
    """The words of the screen in ``column`` (0: the table's, 1: the seat's beside it), from
    its rule down to the first line of the log."""
    found: list[str] = []
    for line in terminal.lines:
        if line.startswith("companion:"):
            break
        found.append(line[:39] if column == 0 else line[41:])
    return [line.strip() for line in found[1:] if line.strip()]


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
        if SHOTS:
            terminal.wait_for(lambda t: "seat links ready" in t.text, "the log of the start")
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


def test_h_and_a_seat_shows_that_seats_screen_held_from_any_view(tmp_path):
    """Rumble, Ann's turn: tab shows Bob's screen beside the table's; ``h1`` then shows Ann's
    held (her secret characters by name), ``h3`` Cy's, without tabbing to them first."""
    db = stored(tmp_path, "rumble", 1, 3, 4)
    with TableStore(db) as store:
        session = store.open_session(1)
        secrets = [session.session.result(seat)["state"]["secrets"] for seat in range(3)]
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
