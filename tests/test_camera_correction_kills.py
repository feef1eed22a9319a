"""Corrections survive SIGKILL at any point (issue 53): an unsure reading corrected, taken
back, answered and corrected again in a process of its own (``correction_driver.py``), killed
at a line of the product's code chosen at random in each step, twice per step (each run
enrols the deck and reads the table anew: about ten seconds). Each time the store holds exactly
what was accepted up to a step, never part of one: never a card withdrawn with nothing in its
place, never the play of the unsure reading nobody confirmed; and it opens and replays."""

from __future__ import annotations

import itertools
import json
import random
import signal
import subprocess
import sys
from pathlib import Path

from companion.table import TableStore

DRIVER = Path(__file__).parent / "correction_driver.py"
KILLS_PER_STEP = 2
LOOK_ALIKE = "yellow-0"


def drive(folder: Path, kill_at: int) -> subprocess.CompletedProcess[str]:
    folder.mkdir()
    return subprocess.run([sys.executable, str(DRIVER), str(folder), str(kill_at)],
                          capture_output=True, text=True, timeout=600)


def without_time(events: list[dict]) -> list[dict]:
    return [{k: v for k, v in e.items() if k != "t"} for e in events]


def test_kill_9_anywhere_in_corrections_leaves_the_store_at_a_step(tmp_path):
    whole = drive(tmp_path / "whole", 0)
    assert whole.returncode == 0, whole.stderr[-3000:]
    said = [json.loads(line) for line in whole.stdout.splitlines()]
    steps = {line["events"] for line in said[:-1]}  # events accepted after each step
    ends = [line["lines"] for line in said[:-1]]  # lines run by the end of each step
    lines, accepted = said[-1]["lines"], said[-1]["events"]
    assert not [e for e in accepted if e.get("card") == LOOK_ALIKE]  # never stored unasked
    assert len(steps) >= 6 and lines > 1000 and len(ends) > 8
    chosen = random.Random(53)
    kills = [chosen.randint(first + 1, last) for first, last in itertools.pairwise(ends)
             for _ in range(KILLS_PER_STEP)]
    for run, kill_at in enumerate(kills):
        done = drive(tmp_path / f"kill-{run}", kill_at)
        assert done.returncode in (-signal.SIGKILL, 0), (kill_at, done.stderr[-3000:])
        with TableStore(tmp_path / f"kill-{run}" / "table.db", read_only=True) as store:
            stored = without_time(store.load(1)[1])
            store.open_session(1)  # it replays: a restarted daemon resumes it
        assert stored == accepted[:len(stored)], (kill_at, stored[-3:])
        assert len(stored) in steps, (kill_at, len(stored), sorted(steps))
