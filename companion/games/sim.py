"""What the random-game simulators (``companion/bundles/<game>/rules/sim.py``) share."""

from __future__ import annotations

NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal")


def seat_names(count: int) -> list[str]:
    """Short, distinct names for ``count`` seats (``P0``, ``P1``, ... past eight)."""
    return list(NAMES[:count]) if count <= len(NAMES) else [f"P{n}" for n in range(count)]
