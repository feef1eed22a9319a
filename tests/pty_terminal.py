"""The simulator (``companion run --sim``) in a real terminal of a given size: a pseudo-terminal
read through the pyte terminal emulator, the program's screen as a person would see it. Every
wait is for output seen on the terminal, never a fixed sleep."""

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

import pyte
from web_table import random_game

from companion.table import TableStore

WAIT = 60.0
#: What a screen drawn as pixels is made of on a terminal (half and quadrant blocks).
BLOCKS = re.compile("[\u2580-\u259f]")
WEB_LINE = re.compile(r"companion: web pages at http://127\.0\.0\.1:\d+")
#: The end of the keys' line, the last drawn of the board.
FOOTER_END = "| q quit"


class Terminal:
    """A program in a pseudo-terminal of ``columns`` x ``lines``, its screen as pyte reads
    it."""

    def __init__(self, args: list[str], columns: int = 80, lines: int = 24,
                 path: str | None = None) -> None:
        master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", lines, columns, 0, 0))
        env = {key: value for key, value in os.environ.items()
               if key not in ("COLUMNS", "LINES")}
        env["TERM"] = "xterm"
        if path is not None:  # e.g. a stand-in espeak-ng first
            env["PATH"] = path
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
        """The board is drawn whole: it ends with the keys, drawn last (wrapped anywhere)."""
        return FOOTER_END in " ".join(self.lines)

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

    def ended(self) -> int:
        """Wait for the program to end and read all it wrote; its exit code."""
        code = self.process.wait(WAIT)
        while True:
            ready, _, _ = select.select([self.master], [], [], 0.2)
            try:
                data = os.read(self.master, 65536) if ready else b""
            except OSError:  # the terminal's other end is closed: all is read
                break
            if not data:
                break
            self.stream.feed(data)
        return code

    def close(self) -> None:
        """Quit the program (``q``), reading what it writes meanwhile: a program whose
        terminal is not read blocks once the terminal's buffer is full (a large board drawn
        again), and would never read the key."""
        if self.process.poll() is None:
            self.type("q")
            deadline = time.monotonic() + WAIT
            while self.process.poll() is None and time.monotonic() < deadline:
                ready, _, _ = select.select([self.master], [], [], 0.2)
                if ready:
                    try:
                        os.read(self.master, 65536)
                    except OSError:  # the program has gone
                        break
            if self.process.poll() is None:
                self.process.kill()
            self.process.wait()
        os.close(self.master)


def stored(folder: Path, game: str, seed: int, seats: int, count: int) -> Path:
    """A store holding a random game of ``game`` after its first ``count`` events, which the
    simulator resumes."""
    db = folder / "table.db"
    header, events = random_game(game, seed, seats)
    with TableStore(db) as store:
        stored_game = store.new_session(header)
        for event in events[:count]:
            stored_game.append(event)
    return db


def simulator(db: Path, columns: int = 80, lines: int = 24, *more: str,
              path: str | None = None) -> Terminal:
    """``companion run --sim --db DB`` (and ``more`` arguments) in a terminal of that size
    (``path``: the PATH it runs with)."""
    return Terminal([sys.executable, "-m", "companion.cli", "run", "--sim", "--db", str(db),
                     *more], columns, lines, path)


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
