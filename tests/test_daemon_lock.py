"""One daemon per table store (issue 14, item 10): a second one on the same store showed a
stale table, then died with an IntegrityError traceback on its first write. It is now
refused at start, naming the pid that holds the store, exit 2; the lock goes with its
holder however it ends, SIGKILL included.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.table import TableStore

RUN = [sys.executable, "-m", "companion.cli", "run"]
#: A bound on waiting, never a timing check.
PATIENCE = 60.0


@pytest.fixture
def notify(tmp_path: Path) -> Iterator[tuple[Path, socket.socket]]:
    path = tmp_path / "notify.sock"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(path))
    sock.settimeout(PATIENCE)
    yield path, sock
    sock.close()


def start_ready(db: Path, notify: tuple[Path, socket.socket]) -> subprocess.Popen[str]:
    """`companion run --sim` on ``db``, returned once it has sent READY=1."""
    path, sock = notify
    process = subprocess.Popen([*RUN, "--sim", "--db", str(db)], stdin=subprocess.PIPE,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                               env={**os.environ, "NOTIFY_SOCKET": str(path)})
    while not sock.recv(4096).startswith(b"READY=1"):
        pass
    return process


def second(db: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*RUN, "--sim", "--db", str(db), *extra], stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=PATIENCE)


def test_a_second_daemon_on_the_same_store_names_the_holder_and_exits_2(tmp_path, notify):
    db = tmp_path / "table.db"
    header = {"game": "traps", "seats": ["Ann", "Bob"], "seed": 3, "options": {}}
    log = tmp_path / "game.jsonl"
    log.write_text(json.dumps(header) + "\n"
                   + json.dumps({"type": "expose", "seat": 0, "square": "T1", "clicks": 2})
                   + "\n")
    first = start_ready(db, notify)
    try:
        for extra in ((), ("--feed", str(log))):
            done = second(db, *extra)
            assert done.returncode == 2, done.stderr
            assert done.stderr == (
                f"companion: the table store {db} is in use by another companion daemon "
                f"(pid {first.pid}): stop it first, or give this one another --db\n")
        with TableStore(db) as store:
            assert store.sessions() == [], "the refused daemon stored nothing"
    finally:
        first.send_signal(signal.SIGTERM)
        first.wait(timeout=PATIENCE)
    assert first.returncode == 0


def test_the_store_is_free_again_once_its_daemon_is_gone_even_by_sigkill(tmp_path, notify):
    db = tmp_path / "table.db"
    first = start_ready(db, notify)
    first.kill()
    first.wait()
    after = start_ready(db, notify)  # READY: it got the store
    after.send_signal(signal.SIGTERM)
    assert after.wait(timeout=PATIENCE) == 0
    assert (tmp_path / "table.db.lock").read_text() == f"{after.pid}\n"
