"""Command-line start-up: wall time and peak resident memory of the light commands, beside
the bare interpreter and an interpreter that only imports OpenCV, measured in the same run.

Run: python benchmarks/cli.py [--runs N]

Each command runs N times as a new process (the first run is not counted: it warms the
disk cache); the median wall time and the largest peak RSS are printed. The light commands
(``--help``, ``replay``, ``export``, ``rules``, ``sessions``) never import OpenCV, numpy or
luma (tests/test_cli_imports.py), so they should sit near ``python -c pass``, far below
``import cv2``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LOG = ROOT / "tests" / "logs" / "tricky" / "standard-4.jsonl"


def measure(argv: list[str], runs: int) -> tuple[float, float, float]:
    """(median wall seconds, median CPU seconds, peak RSS in MB) over ``runs`` new processes
    running ``argv``. CPU time (user + system) barely moves when other work shares the
    machine; wall time does."""
    times, cpus, peaks = [], [], []
    for index in range(runs + 1):
        start = time.perf_counter()
        process = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(process.pid, 0)
        elapsed = time.perf_counter() - start
        process.returncode = os.waitstatus_to_exitcode(status)
        if process.returncode != 0:
            raise SystemExit(f"{' '.join(argv)}: exit {process.returncode}")
        if index:  # the first run warms the disk cache
            times.append(elapsed)
            cpus.append(usage.ru_utime + usage.ru_stime)
            peaks.append(usage.ru_maxrss / 1024)  # KiB on Linux
    return statistics.median(times), statistics.median(cpus), max(peaks)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    python = sys.executable
    companion = [python, "-m", "companion.cli"]
    with tempfile.TemporaryDirectory() as folder:
        db = str(Path(folder) / "table.db")
        subprocess.run([*companion, "import", str(LOG), "--db", db], check=True,
                       stdout=subprocess.DEVNULL)
        rows = [
            ("baseline: python -c pass", [python, "-c", "pass"]),
            ("baseline: python -c 'import cv2'", [python, "-c", "import cv2"]),
            ("companion --help", [*companion, "--help"]),
            ("companion rules tricky", [*companion, "rules", "tricky"]),
            ("companion replay LOG", [*companion, "replay", str(LOG)]),
            ("companion export --db DB", [*companion, "export", "--db", db]),
            ("companion sessions --db DB", [*companion, "sessions", "--db", db]),
        ]
        print(f"command: {' '.join([Path(python).name, *sys.argv])}  "
              f"({args.runs} runs each: median wall and CPU time, largest peak RSS)")
        print(f"log: {LOG.relative_to(ROOT)} ({len(LOG.read_text().splitlines())} lines); "
              f"{os.cpu_count()} cores")
        print(f"{'':36} {'wall s':>8} {'CPU s':>8} {'peak MB':>8}")
        for name, argv in rows:
            seconds, cpu, peak = measure(argv, args.runs)
            print(f"{name:36} {seconds:8.3f} {cpu:8.3f} {peak:8.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
