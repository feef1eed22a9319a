"""Corrections and take-backs of an unsure reading, in a process of its own, SIGKILLed at a
chosen line (tests/test_camera_correction_kills.py).

    python correction_driver.py FOLDER KILL_AT

A Tricky table before the rendered camera (``camera_table.py``: the real daemon loop, store,
vision and rules) reads seed 3's first card, green-4, as yellow-0, unsure, and asks. Then, as
the controls page and a phone would: the reading corrected (and the same request again), the
correction taken back (the question asked again), corrected again, taken back, the question
answered with the card it is, taken back, corrected. The Python lines of ``companion/`` run
during those steps are counted; at line KILL_AT (0: never) the process SIGKILLs itself,
wherever it is: between two writes, inside a transaction, in the middle of a step.

Prints one JSON object a line: ``{"events": N, "lines": L}`` once the table is asked and after
each step (what was accepted so far, and the lines run so far), then
``{"lines": L, "events": [...]}`` at the end.
"""

from __future__ import annotations

import json
import os
import signal
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

from camera_table import CameraTable  # noqa: E402

from companion.daemon.corrections import Correct  # noqa: E402
from companion.daemon.questions import Answer  # noqa: E402

CARD, LOOK_ALIKE = "green-4", "yellow-0"
PRODUCT = str(Path(__file__).resolve().parent.parent / "companion")


class Killer:
    """Counts the lines of the product's code run; SIGKILLs this process at ``at``."""

    def __init__(self, at: int) -> None:
        self.at, self.lines = at, 0

    def trace(self, frame: Any, event: str, arg: Any) -> Any:
        if not frame.f_code.co_filename.startswith(PRODUCT):
            return None
        if event == "line":
            self.lines += 1
            if self.lines == self.at:
                os.kill(os.getpid(), signal.SIGKILL)
        return self.trace


def said(**fields: Any) -> None:
    print(json.dumps(fields), flush=True)


def main(folder: Path, kill_at: int) -> None:
    table = CameraTable(folder, near={CARD: LOOK_ALIKE})
    play = table.play_until_a_card()
    table.put_down(play["seat"], [CARD])
    daemon = table.daemon
    look = daemon.display.camera.number
    [reading] = daemon.display.asked.readings
    events = table.stored_game.session.events
    said(events=len(events), lines=0)

    def asked() -> Answer:
        return Answer(daemon.display.asked.number, CARD, play["seat"])

    steps = [lambda: Correct(look, reading, CARD, request="tap-0001"),
             lambda: Correct(look, reading, CARD, request="tap-0001"),  # sent twice
             lambda: Correct(look, undo=True, request="tap-0002"),
             lambda: Correct(look, reading, CARD, request="tap-0003"),
             lambda: Correct(look, undo=True, request="tap-0004"),
             asked,  # a phone answers the question asked again
             lambda: Correct(look, undo=True, request="tap-0005"),
             lambda: Correct(look, reading, CARD, request="tap-0006")]
    killer = Killer(kill_at)
    for step in steps:
        sys.settrace(killer.trace)
        item = step()
        daemon.handle(item)
        daemon.display.refresh()
        sys.settrace(None)
        assert item.error is None, item.error
        said(events=len(events), lines=killer.lines)
    said(lines=killer.lines,
         events=[{k: v for k, v in e.items() if k != "t"} for e in events])
    table.__exit__(None, None, None)


if __name__ == "__main__":
    main(Path(sys.argv[1]), int(sys.argv[2]))
