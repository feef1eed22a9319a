"""The loop gives the heap's freed pages back to the system after its work (daemon/heap.py)."""

from __future__ import annotations

import doctest
import os
import subprocess
import sys
import threading

import pytest
from table_driver import PATIENCE, Running

from companion.daemon import heap
from companion.daemon.heap import HeapTrim, malloc_trim
from companion.daemon.items import Redraw


def test_docstring_examples():
    failed, tried = doctest.testmod(heap, verbose=False)
    assert tried > 0 and failed == 0


#: Run in a fresh interpreter, whose heap holds nothing else: 100 KB blocks (below glibc's
#: mmap threshold, so on the heap), each followed by a small block that stays; freeing the
#: large ones leaves holes the heap's top cannot give back. Prints the resident KB freed.
HOLES = """
from pathlib import Path
from companion.daemon.heap import malloc_trim

def resident_kb():
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])

large, kept = [], []
for _ in range(200):
    large.append(bytearray(100_000))
    kept.append(bytearray(1_000))
del large
before = resident_kb()
malloc_trim()()
print(before - resident_kb(), len(kept))
"""


@pytest.mark.skipif(malloc_trim() is None, reason="the C library has no malloc_trim (not glibc)")
def test_a_trim_gives_back_the_pages_of_blocks_freed_below_live_ones():
    done = subprocess.run([sys.executable, "-c", HOLES], capture_output=True, text=True,
                          check=True, env={**os.environ, "MALLOC_MMAP_THRESHOLD_": "131072"})
    freed_kb, kept = map(int, done.stdout.split())
    assert freed_kb > 10_000 and kept == 200  # of the 20 MB freed, the small blocks kept


def test_the_loop_trims_after_its_work(tmp_path):
    trimmed = threading.Event()
    with Running(tmp_path / "table.db", []) as daemon:
        assert daemon.ready.wait(PATIENCE)
        daemon.heap = HeapTrim(trimmed.set, every=0.0)
        daemon.heap.dirty = False  # trimmed already: only the loop's work makes it trim again
        daemon.submit(Redraw())
        assert trimmed.wait(PATIENCE), "no trim after the loop's work"
