"""What `companion demo` writes is what the README says it writes (issue 44: the demo wrote
.db stores the README did not mention). The demo runs as a user runs it, in a process of its
own; each kind of file it leaves in --out must be named where the README describes it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"
#: How the README names each kind of file the demo writes, for a game GAME.
NAMED = {".png": "PNG", ".gif": "GIF", ".jsonl": "`GAME.jsonl`", ".db": "`GAME.db`"}


def demo_row() -> str:
    (row,) = [line for line in README.read_text(encoding="utf-8").splitlines()
              if line.startswith("| `companion demo ")]
    return row


def test_every_kind_of_file_the_demo_writes_is_named_in_the_readme(tmp_path):
    out = tmp_path / "out"
    result = subprocess.run([sys.executable, "-m", "companion.cli", "demo", "traps", "--quick",
                             "--out", str(out)], capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    kinds = {path.suffix for path in out.iterdir()}
    assert ".db" in kinds  # the table store the demo plays into
    assert kinds <= set(NAMED), kinds - set(NAMED)
    row = demo_row()
    for kind in kinds:
        assert NAMED[kind] in row, f"the README's demo row does not name the {kind} files"
    quick_start = README.read_text(encoding="utf-8").split("## Contents")[0]
    assert "`tricky.db`" in quick_start and "history --db demo-out/tricky.db" in quick_start
