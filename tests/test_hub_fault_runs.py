"""The hub part of the fault run (benchmarks/faults.py) over many seeds, CI-sized: the
companion's Hub against FakeHub on a pty, line noise both ways, replugs with events in flight,
and frames with a good CRC and any content (forged acknowledgements above all) sent to the
hub. Every seed must deliver each event exactly once, in order (issue 40, item 3).

The benchmark waits for observed progress only (its bound is there to end a jammed run, not
to time anything); docs/reliability.md gives a default-sized run and its limits.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

FAULTS = Path(__file__).resolve().parent.parent / "benchmarks" / "faults.py"


def load_faults():
    spec = importlib.util.spec_from_file_location("faults_benchmark", FAULTS)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


faults = load_faults()


@pytest.mark.parametrize("seed", range(1, 31))
def test_a_small_fault_run_loses_nothing(seed: int, capsys) -> None:
    code = faults.main(["--kills", "0", "--stalls", "0", "--noise", "30000", "--replugs", "3",
                        "--events", "150", "--forged", "40", "--seed", str(seed)])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "lost 0, repeated 0, invented 0, in order: yes" in out
    assert "40 forged frames to the hub" in out
