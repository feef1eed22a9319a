"""A command run under the system-call filter of a systemd unit, without systemd.

``python tests/unit_filter.py UNIT COMMAND...`` reads the unit's ``SystemCallFilter=``,
``SystemCallErrorNumber=`` and ``RestrictAddressFamilies=`` lines, expands the ``@groups``
with ``systemd-analyze syscall-filter`` (the lists of the systemd that would run the unit),
loads the same seccomp filters as systemd would (with pyseccomp) and execs COMMAND under
them. As in systemd: the first ``SystemCallFilter=`` line is an allow list (``@default``
always in it), each later line adds to it or, with ``~``, takes away; any other call fails
with ``SystemCallErrorNumber`` if the unit sets it, else kills the process (SIGSYS); only
the native architecture's calls are allowed (``SystemCallArchitectures=native``).

It exits 77 (nothing run) when the filter cannot be had here: no systemd-analyze, no
pyseccomp or libseccomp, or a kernel or container that refuses seccomp.
"""

from __future__ import annotations

import contextlib
import errno
import os
import socket
import subprocess
import sys
from pathlib import Path

UNAVAILABLE = 77


def unit_lines(unit: str, key: str) -> list[str]:
    return [line.split("=", 1)[1].strip() for line in unit.splitlines()
            if line.startswith(key + "=")]


def syscall_groups() -> dict[str, list[str]]:
    """Each ``@group`` of systemd-analyze with its members (names and ``@groups``)."""
    listing = subprocess.run(["systemd-analyze", "syscall-filter", "--no-pager"],
                             capture_output=True, text=True, check=True).stdout
    groups: dict[str, list[str]] = {}
    current: list[str] = []
    for line in listing.splitlines():
        if line.startswith("@"):
            current = groups.setdefault(line.strip(), [])
        elif line.startswith("    ") and not line.strip().startswith("#"):
            current.append(line.strip())
    return groups


def expand(names: list[str], groups: dict[str, list[str]]) -> set[str]:
    found: set[str] = set()
    for name in names:
        found |= expand(groups[name], groups) if name.startswith("@") else {name}
    return found


def allowed_calls(unit: str, groups: dict[str, list[str]]) -> set[str]:
    allowed: set[str] = set()
    for number, value in enumerate(unit_lines(unit, "SystemCallFilter")):
        deny = value.startswith("~")
        names = value.lstrip("~").split()
        if number == 0:
            assert not deny, "the unit's first SystemCallFilter= must be an allow list"
            allowed = expand(["@default"], groups)
        allowed = allowed - expand(names, groups) if deny else allowed | expand(names, groups)
    return allowed


def load_filters(unit: str) -> None:
    import pyseccomp as seccomp

    error_number = unit_lines(unit, "SystemCallErrorNumber")
    refuse = (seccomp.ERRNO(getattr(errno, error_number[-1])) if error_number
              else seccomp.KILL_PROCESS)
    calls = seccomp.SyscallFilter(refuse)
    for name in sorted(allowed_calls(unit, syscall_groups())):
        # A call of another architecture has nothing to allow here.
        with contextlib.suppress(ValueError, RuntimeError, OSError):
            calls.add_rule(seccomp.ALLOW, name)
    families = seccomp.SyscallFilter(seccomp.ALLOW)
    for value in unit_lines(unit, "RestrictAddressFamilies"):
        kept = sorted(int(getattr(socket, name)) for name in value.split())
        refused = seccomp.ERRNO(errno.EAFNOSUPPORT)
        # Every family below, between and above the kept ones (one comparison per rule).
        families.add_rule(refused, "socket", seccomp.Arg(0, seccomp.LT, kept[0]))
        families.add_rule(refused, "socket", seccomp.Arg(0, seccomp.GT, kept[-1]))
        for family in range(kept[0], kept[-1]):
            if family not in kept:
                families.add_rule(refused, "socket", seccomp.Arg(0, seccomp.EQ, family))
    families.load()
    calls.load()  # last: it may refuse seccomp() itself


def main(argv: list[str]) -> int:
    unit, command = Path(argv[0]).read_text(), argv[1:]
    try:
        load_filters(unit)
    except (ImportError, FileNotFoundError, OSError, RuntimeError,
            subprocess.CalledProcessError) as error:
        print(f"unit_filter: no seccomp filter here: {error}", file=sys.stderr)
        return UNAVAILABLE
    os.execvp(command[0], command)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
