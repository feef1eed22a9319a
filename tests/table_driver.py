"""Driving a daemon in the test's own thread as a table does: the same InputEvents the dial,
the buttons and the keyboard of ``--sim`` send, and the screens it draws in memory."""

from __future__ import annotations

from typing import Any

from companion.daemon.displays import MemoryScreen
from companion.daemon.sources import KeyPresses
from companion.daemon.table import Daemon
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
        daemon.use_table(store.new_session(header))
    else:
        daemon.resume_or_offer()
    daemon.shown.refresh()
    return daemon, {screen.name: screen for screen in screens}


def give(daemon: Daemon, *groups: Any) -> None:
    """Hand the daemon items (or lists of them) one by one, drawing the screens after each."""
    for group in groups:
        for item in group if isinstance(group, list) else [group]:
            daemon.handle(item)
            daemon.shown.refresh()


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
