"""Real file-system faults without root: a private mount namespace (``unshare -rm``) in which
a small tmpfs can be filled, or a folder bind-mounted read-only. Tests skip where the kernel
or the container allows no user namespaces."""

from __future__ import annotations

import functools
import shutil
import subprocess

import pytest


@functools.cache
def available() -> bool:
    """Whether ``unshare -rm`` can mount here (a tmpfs is the test)."""
    if shutil.which("unshare") is None or shutil.which("mount") is None:
        return False
    probe = subprocess.run(
        ["unshare", "-rm", "sh", "-c", "mount -t tmpfs -o size=64k tmpfs /mnt || "
                                       "mount -t tmpfs -o size=64k tmpfs /tmp"],
        capture_output=True, timeout=30)
    return probe.returncode == 0


def run(script: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """Run a shell ``script`` in its own user and mount namespace (skip if there is none)."""
    if not available():
        pytest.skip("no user and mount namespaces here (unshare -rm)")
    return subprocess.run(["unshare", "-rm", "sh", "-c", script], capture_output=True,
                          text=True, timeout=timeout)
