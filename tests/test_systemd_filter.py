"""The daemon under the system-call filter of systemd/companion.service (issue 14, item 2).

``SystemCallFilter=~@resources`` forbids ``mbind``, which numpy's OpenBLAS calls at import:
without ``SystemCallErrorNumber=`` the kernel killed the daemon at start (SIGSYS, exit 159)
and systemd looped. The unit's filter is applied here as systemd would apply it
(tests/unit_filter.py: pyseccomp, with systemd-analyze's own lists of the @groups) to the
daemon's real imports and to a fed game; skipped where no seccomp filter can be had
(``systemd-run --user`` needs a user session bus, which test machines seldom have).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from companion.bundles.traps.rules.sim import random_game
from companion.table import TableStore

UNIT = Path(__file__).resolve().parent.parent / "systemd" / "companion.service"
UNDER_FILTER = [sys.executable, str(Path(__file__).resolve().parent / "unit_filter.py")]
UNAVAILABLE = 77

IMPORTS = """
import os, socket
import numpy, cv2, PIL.Image, luma.oled.device, gpiozero, serial, sqlite3, sdnotify
product = numpy.ones((400, 400)) @ numpy.ones((400, 400))  # OpenBLAS's threads at work
image = cv2.cvtColor(numpy.zeros((64, 64, 3), numpy.uint8), cv2.COLOR_BGR2GRAY)
print("computed", int(product[0, 0]), image.shape)
try:
    os.nice(1)  # setpriority, in @resources
except PermissionError:
    print("setpriority refused")
socket.socket(socket.AF_INET).close()  # the web pages serve the LAN
try:
    socket.socket(socket.AF_NETLINK, socket.SOCK_RAW)
except OSError:
    print("AF_NETLINK refused")
"""


def under_unit(unit: Path, *command: str) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([*UNDER_FILTER, str(unit), *command], capture_output=True, text=True,
                          timeout=120)
    if done.returncode == UNAVAILABLE:
        pytest.skip(done.stderr.strip())
    return done


def test_the_daemons_imports_run_under_the_units_filter_and_the_filter_holds() -> None:
    done = under_unit(UNIT, sys.executable, "-c", IMPORTS)
    assert done.returncode == 0, f"exit {done.returncode}: {done.stderr}"
    assert done.stdout.splitlines() == ["computed 400 (64, 64)", "setpriority refused",
                                        "AF_NETLINK refused"]


def test_a_fed_game_runs_under_the_units_filter(tmp_path: Path) -> None:
    header, events = random_game(4, 3)
    log = tmp_path / "game.jsonl"
    log.write_text("".join(json.dumps(obj) + "\n" for obj in [header, *events]))
    db = tmp_path / "table.db"
    done = under_unit(UNIT, sys.executable, "-m", "companion.cli", "run", "--sim", "--feed",
                      str(log), "--db", str(db))
    assert done.returncode == 0, f"exit {done.returncode}: {done.stderr}"
    assert "the fed log is consumed" in done.stdout
    with TableStore(db) as store:
        assert store.load(store.latest())[1] == events


def test_without_an_error_number_the_filter_kills_numpy_at_import(tmp_path: Path) -> None:
    """The failure of the issue, kept visible: the reason the unit sets the error number."""
    unit = tmp_path / "companion.service"
    unit.write_text("".join(line for line in UNIT.read_text().splitlines(keepends=True)
                            if not line.startswith("SystemCallErrorNumber=")))
    done = under_unit(unit, sys.executable, "-c", "import numpy")
    assert done.returncode == -31, "SIGSYS"
