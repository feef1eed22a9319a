"""Holding a fed daemon mid-game, from outside, by the store's own write lock.

``companion run --sim --feed`` stores a log as fast as the disk allows; a test that must do
things while the game is still being played holds the store's write lock (another writer, as
``companion players rename`` is) so that the daemon's next event waits for it (SQLite's busy
wait, up to 30 s), and lets the game go on one stored event at a time (``step``), as slowly as
the test goes, or to its end (``release``).
"""

from __future__ import annotations

import sqlite3
import time

PATIENCE = 60.0


class StoreBrake:
    def __init__(self, db: str) -> None:
        self.writer = sqlite3.connect(db, isolation_level=None, timeout=PATIENCE)
        self.reader = sqlite3.connect(db, isolation_level=None, timeout=PATIENCE)
        self.held = False

    def events(self) -> int:
        """Events stored so far, in every session."""
        return int(self.reader.execute("SELECT COUNT(*) FROM events").fetchone()[0])

    def hold(self) -> None:
        """The daemon's next write waits from now on."""
        if not self.held:
            self.writer.execute("BEGIN IMMEDIATE")
            self.held = True

    def step(self) -> int:
        """Let the daemon store at least one more event, then hold it again; the events now."""
        before = self.events()
        self.release()
        deadline = time.monotonic() + PATIENCE
        while (now := self.events()) == before:
            if time.monotonic() > deadline:
                raise AssertionError(f"no event stored in {PATIENCE}s after the brake let go")
            time.sleep(0.002)
        self.hold()
        return now

    def release(self) -> None:
        if self.held:
            self.writer.execute("ROLLBACK")
            self.held = False

    def close(self) -> None:
        self.release()
        self.writer.close()
        self.reader.close()
