"""Only the commands that see pictures or drive screens load OpenCV, numpy and luma: the
others (help, rules, replay, export, the store's readers) start as light as Python allows
(figures: benchmarks/cli.py)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

LOGS = Path(__file__).parent / "logs"
HEAVY = ("cv2", "numpy", "luma", "PIL", "matplotlib", "gpiozero")

#: Runs the command line in process, then names the heavy packages it loaded.
PROBE = """
import json, sys
from companion.cli import main
try:
    code = main(sys.argv[1:])
except SystemExit as exit:
    code = exit.code
heavy = sorted({name.split(".")[0] for name in sys.modules} & set(json.loads(HEAVY)))
print(json.dumps({"code": code, "heavy": heavy}), file=sys.stderr)
"""


def loaded(*argv: str) -> list[str]:
    done = subprocess.run([sys.executable, "-c", PROBE.replace("HEAVY", repr(json.dumps(HEAVY))),
                           *argv], capture_output=True, text=True, timeout=120)
    result = json.loads(done.stderr.strip().splitlines()[-1])
    assert result["code"] in (0, None), (argv, done.stderr)
    return result["heavy"]


@pytest.fixture(scope="module")
def store(tmp_path_factory) -> str:
    db = tmp_path_factory.mktemp("store") / "table.db"
    subprocess.run([sys.executable, "-m", "companion.cli", "import",
                    str(LOGS / "tricky" / "standard-4.jsonl"), "--db", str(db)],
                   check=True, capture_output=True, timeout=120)
    return str(db)


@pytest.mark.parametrize("argv", [
    ("--help",), ("run", "--help"), ("vision", "--help"), ("vision", "enroll", "--help"),
    ("demo", "--help"), ("doctor", "--help"), ("rules", "traps"), ("rules", "tricky", "--json"),
    ("replay", str(LOGS / "traps" / "scripted.jsonl")),
    ("replay", str(LOGS / "tricky" / "standard-4.jsonl"), "--json", "--referee"),
], ids=lambda argv: " ".join(a for a in argv if "/" not in a))
def test_a_light_command_loads_no_heavy_package(argv):
    assert loaded(*argv) == []


@pytest.mark.parametrize("command", [
    ("export",), ("export", "--csv"), ("export", "--bgstats"), ("sessions",), ("history",),
    ("league",), ("players",), ("check",),
])
def test_the_store_readers_load_no_heavy_package(store, command):
    assert loaded(*command, "--db", store) == []


def test_a_vision_command_does_load_opencv(tmp_path):
    # The probe sees what a command loads: the vision commands still get OpenCV when they run.
    assert "cv2" in loaded("vision", "markers", "--out", str(tmp_path / "sheet.png"))
