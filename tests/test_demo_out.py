"""`companion demo --out` somewhere files cannot go: one clear line and exit 2, before a game
is played."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
import sandbox
from helpers import one_clear_line, run


@pytest.mark.parametrize("kind", ["file", "missing parent", "read-only"])
def test_demo_out_that_cannot_take_files_is_one_line(tmp_path, capsys, kind):
    out = tmp_path / "out"
    if kind == "file":
        out.write_text("a file, not a folder")
    elif kind == "missing parent":
        out = Path("/proc/nope/out")
    else:
        if os.geteuid() == 0:
            pytest.skip("root may write a read-only folder (the mount test covers it)")
        out.mkdir(mode=0o500)
    code, _, err = run(capsys, "demo", "traps", "--out", str(out))
    assert code == 2 and f"--out {out}" in err
    one_clear_line(err)


def test_demo_out_on_a_read_only_mount_is_one_line(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    done = sandbox.run(f"mount --bind {out} {out} && mount -o remount,bind,ro {out} && "
                       f"{sys.executable} -m companion.cli demo traps --out {out}; echo $?")
    assert done.stdout.strip() == "2"
    assert done.stderr.startswith(f"companion: --out {out}") and "Traceback" not in done.stderr
