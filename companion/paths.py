"""Where the companion keeps its files by default."""

from __future__ import annotations

import os
from pathlib import Path


def state_dir() -> Path:
    """The daemon's state directory: systemd's $STATE_DIRECTORY, else the user's XDG state dir."""
    if os.environ.get("STATE_DIRECTORY"):
        # systemd may list several, separated by colons; the first is ours.
        return Path(os.environ["STATE_DIRECTORY"].split(":")[0])
    system = Path("/var/lib/companion")
    if system.is_dir() and os.access(system, os.W_OK):
        return system
    xdg = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(xdg) / "companion"


def default_db() -> Path:
    """The SQLite table store used when ``--db`` is not given."""
    return state_dir() / "table.db"
