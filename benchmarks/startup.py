"""Start-up of the command line: the CPU time of `companion --help` beside a bare
`python -c pass`, measured in the same run (issue 43: lazy commands).

Run: python benchmarks/startup.py [--runs N]
Goal: `companion --help` costs at most 3x `python -c pass` in CPU time.

Each command runs N times as a new process, one after the other in turn (a slow moment
slows both alike); the median CPU time (user + system, from wait4) is printed. The first
round is not counted: it warms the disk cache and writes the project's bytecode cache
(the children run without PYTHONDONTWRITEBYTECODE, as an installed package has its bytecode).
`companion --help` is the venv's `companion` script, as a user runs it. The parser is built
without importing what the commands run (tests/test_cli_lazy.py); the light commands'
start-up beside `import cv2`: benchmarks/cli.py.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

GOAL = 3.0
#: Modules that building the parser must not load (tests/test_cli_lazy.py checks more).
HEAVY = ("cv2", "numpy", "matplotlib", "aiohttp", "segno", "ssl")
COUNT = ("import json, sys; from companion.cli import build_parser; build_parser(); "
         "print(json.dumps([len(sys.modules), sorted(set(sys.modules) & set(sys.argv[1:]))]))")


def companion_command() -> list[str]:
    """The venv's console script beside this Python, else ``python -m companion.cli``."""
    script = Path(sys.executable).parent / "companion"
    return [str(script)] if script.exists() else [sys.executable, "-m", "companion.cli"]


def cpu_seconds(argv: list[str], env: dict[str, str]) -> float:
    process = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               env=env)
    _, status, usage = os.wait4(process.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{' '.join(argv)}: exit {os.waitstatus_to_exitcode(status)}")
    return usage.ru_utime + usage.ru_stime


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=21, help="runs of each command (default 21)")
    args = parser.parse_args()
    env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    rows = {"baseline: python -c pass": [sys.executable, "-c", "pass"],
            "companion --help": [*companion_command(), "--help"]}
    times: dict[str, list[float]] = {name: [] for name in rows}
    for round_ in range(args.runs + 1):
        for name, argv in rows.items():
            seconds = cpu_seconds(argv, env)
            if round_:
                times[name].append(seconds)
    baseline, helped = (statistics.median(times[name]) for name in rows)
    count = subprocess.run([sys.executable, "-c", COUNT, *HEAVY], capture_output=True,
                           text=True, env=env, check=True)
    modules, heavy = json.loads(count.stdout)
    bare = subprocess.run([sys.executable, "-c", "import sys; print(len(sys.modules))"],
                          capture_output=True, text=True, env=env, check=True)
    print(f"command: {' '.join([Path(sys.executable).name, *sys.argv])}  ({args.runs} runs "
          f"each, in turn: median CPU time, user + system); {os.cpu_count()} cores")
    print(f"{'baseline: python -c pass':34} CPU {baseline * 1000:7.1f} ms")
    print(f"{'companion --help':34} CPU {helped * 1000:7.1f} ms   {helped / baseline:.1f}x the "
          f"baseline (goal: at most {GOAL:.0f}x)")
    print(f"modules loaded by building the parser: {modules} (python -c pass: "
          f"{bare.stdout.strip()}); of {', '.join(HEAVY)}: {', '.join(heavy) or 'none'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
