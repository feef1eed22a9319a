"""Giving the heap's freed pages back to the system while the table plays.

glibc's allocator gives back the top of its heap once it is free, but a block freed below one
still in use stays resident, ready for the next request that fits it. Over a long evening most
of the blocks the loop frees are a little smaller than the next ones it asks for: the game's
views, and the pages' channels built from them, grow by a few items with every event. The holes
add up (about 8 MB over a 6,000-event game with every part on; ``benchmarks/memory.py``) though
the memory in use stays flat. ``malloc_trim(0)`` gives every whole free page back, in every
arena (the camera's and the web server's threads allocate in the second), and costs about 1 ms.

``HeapTrim.after_work`` calls it when the loop has worked since the last trim, nothing waits
on its queue, and ``EVERY`` seconds have passed: a handful of times a minute while people play,
never at a still table. Where the C library has no ``malloc_trim`` (not glibc) it does nothing.
"""

from __future__ import annotations

import ctypes
from collections.abc import Callable

#: The least time between two trims (s).
EVERY = 2.0


def malloc_trim() -> Callable[[], object] | None:
    """glibc's ``malloc_trim(0)``, or None where the process's C library has none."""
    try:
        trim = ctypes.CDLL(None).malloc_trim
    except (AttributeError, OSError, TypeError):  # no such symbol; no process library to open
        return None
    trim.argtypes = [ctypes.c_size_t]
    trim.restype = ctypes.c_int
    return lambda: trim(0)


class HeapTrim:
    """Trims the heap now and then after the loop's work (see the module docstring).

    >>> calls = []
    >>> heap = HeapTrim(lambda: calls.append("trim"), every=2.0)
    >>> heap.after_work(10.0, idle=True), heap.after_work(11.0, idle=True)
    (True, False)
    >>> heap.worked(); heap.after_work(11.5, idle=True)  # too soon after the last
    False
    >>> heap.after_work(12.0, idle=False)  # something waits on the queue
    False
    >>> heap.after_work(12.1, idle=True), len(calls)
    (True, 2)
    """

    def __init__(self, trim: Callable[[], object] | None, every: float = EVERY) -> None:
        self.trim = trim
        self.every = every
        self.last = float("-inf")
        self.dirty = True

    def worked(self) -> None:
        """The loop handled something: blocks were allocated and freed since the last trim."""
        self.dirty = True

    def after_work(self, now: float, idle: bool) -> bool:
        """Trim if the loop worked since the last trim, ``idle`` (nothing waits on its queue)
        and ``every`` seconds have passed since; whether it trimmed."""
        if self.trim is None or not self.dirty or not idle or now - self.last < self.every:
            return False
        self.trim()
        self.last, self.dirty = now, False
        return True
