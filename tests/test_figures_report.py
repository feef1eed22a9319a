"""The figures page (issue 43): `python benchmarks/report.py` runs the budget benchmarks and
writes each figure beside its baseline, its goal and its command, read from what the
benchmark printed; a figure it cannot read is said, never left blank, and fails the run.
Run here on the quickest benchmarks in their quick mode; no timing is asserted."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
REPORT = ROOT / "benchmarks" / "report.py"


def report_module():
    spec = importlib.util.spec_from_file_location("figures_report", REPORT)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_the_report_writes_each_figure_with_its_baseline_and_command(tmp_path):
    out = tmp_path / "figures.md"
    done = subprocess.run([sys.executable, str(REPORT), "--quick", "--only",
                           "startup,table_log", "--out", str(out)],
                          capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    text = out.read_text()
    assert "not in its output" not in text and "failed" not in text
    rows = [line for line in text.splitlines() if line.startswith("| [")]
    assert [row.split(" | ")[1] for row in rows] == [
        "`companion --help`, CPU time", "durable appends (fsync per event)", "replay"]
    help_row = rows[0].split(" | ")
    assert "x)" in help_row[2] and "`python -c pass`" in help_row[3]
    assert "at most 3x" in help_row[4]
    assert "Command: `python benchmarks/startup.py --runs 5`" in text
    assert "python benchmarks/report.py --quick --only startup,table_log" in text
    assert "This run took" in text  # how long it took, said on the page
    # What was not run is named with its command: the real photos, the other benchmarks.
    assert "`python benchmarks/vision.py --real --separate " in text
    assert "`python benchmarks/daemon.py`" in text


def test_a_figure_missing_from_the_output_is_said_and_fails_the_run():
    report = report_module()
    run = report.Run(report.BY_NAME["daemon"], quick=False, code=0,
                     output="start-up to READY 0.50 s (baseline python -c pass: 0.04 s; "
                            "target < 2 s)\n")
    report.read_figures(run)
    ready = run.rows[0]
    assert ready[1:] == ("0.50 s", "`python -c pass` 0.04 s", "< 2 s")
    assert "resident memory with the camera" in run.missing
    assert all(row[1] == "not in its output" for row in run.rows[1:])


def test_every_benchmark_named_exists():
    report = report_module()
    assert report.BENCHMARKS
    for benchmark in report.BENCHMARKS:
        assert (ROOT / benchmark.args(False)[0]).is_file(), benchmark.name
