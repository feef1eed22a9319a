"""Driving a daemon in the test's own thread as a table does: the same InputEvents the dial,
the buttons and the keyboard of ``--sim`` send, and the screens it draws in memory; or
running its own loop in a thread of its own (``Running``)."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from companion.daemon.daemon import Daemon
from companion.daemon.displays import MemoryScreen
from companion.daemon.items import Stop
from companion.daemon.parts import Part
from companion.daemon.sources import KeyPresses
from companion.hardware.events import InputEvent
from companion.table import Header, TableStore


def daemon_for(store: TableStore, header: Header | None = None, *, seats: int = 4,
               **options: Any) -> tuple[Daemon, dict[str, MemoryScreen]]:
    """A daemon with a table screen and a screen per seat, its parts started, playing a new
    session of ``header`` (without one: the unfinished session, or the new-game menu)."""
    count = len(header.seats) if header is not None else seats
    screens = [MemoryScreen("table")] + [MemoryScreen(f"seat:{n}") for n in range(count)]
    daemon = Daemon(store, screens=screens, **options)
    daemon.supervisor.start_all(daemon.clock())
    if header is not None:
        daemon.use_stored_game(store.new_session(header))
    else:
        daemon.resume_or_offer()
    daemon.display.refresh()
    return daemon, {screen.name: screen for screen in screens}


def give(daemon: Daemon, *groups: Any) -> None:
    """Hand the daemon items (or lists of them) one by one, drawing the screens after each."""
    for group in groups:
        for item in group if isinstance(group, list) else [group]:
            daemon.handle(item)
            daemon.display.refresh()


def type_keys(daemon: Daemon, keys: str, presses: KeyPresses | None = None) -> KeyPresses:
    """Type ``keys`` on the keyboard of ``--sim``; the KeyPresses, to go on typing."""
    presses = presses or KeyPresses()
    for key in keys:
        give(daemon, presses.events(key))
    return presses


def tap(control: str) -> list[InputEvent]:
    return [InputEvent("press", control), InputEvent("release", control)]


def hold(control: str) -> list[InputEvent]:
    return [InputEvent("press", control), InputEvent("hold", control, 1),
            InputEvent("release", control)]


def turn(detents: int) -> list[InputEvent]:
    return [InputEvent("dial", "encoder:0", 1 if detents > 0 else -1)] * abs(detents)


#: A bound on waiting, never a timing check.
PATIENCE = 60.0


class Running:
    """A daemon run in its own thread (its store opened there), with these parts (and the
    daemon's ``options``)."""

    def __init__(self, db: Path, parts: list[Part], **options: Any) -> None:
        self.db, self.parts, self.options = db, parts, options
        self.daemon: Daemon | None = None
        self.built = threading.Event()
        self.exit_code: int | None = None
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        with TableStore(self.db) as store:
            self.daemon = Daemon(store, parts=self.parts, **self.options)
            self.built.set()
            self.exit_code = self.daemon.run()

    def __enter__(self) -> Daemon:
        self.thread.start()
        assert self.built.wait(PATIENCE), "the daemon was not built"
        assert self.daemon is not None
        return self.daemon

    def __exit__(self, *exc: object) -> None:
        assert self.daemon is not None
        self.daemon.submit(Stop("test over"))
        self.thread.join(PATIENCE)
        assert not self.thread.is_alive(), "the daemon did not stop"
