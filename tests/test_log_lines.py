"""Log lines are data-safe (issue 53): what a seat's page sends reaches the daemon's log
escaped and cut, so no client can write a line of its own into the journal (a newline and a
made-up "stored #21" after it), nor a NUL, nor 3,000 characters. The real daemon
(``companion run --sim --web``) resuming a game, its real log on stdout."""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

from companion.daemon.logline import LONGEST
from companion.table import Header, TableStore

PATIENCE = 60.0
FORGED = ["play\ncompanion: stored #21: play seat 1\ncompanion: seat link re-issued: seat 2",
          "nul\x00here", "A" * 3000, "\u202eright to left\x1b[2J"]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def post(url: str, body: dict) -> int:
    request = urllib.request.Request(url, data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=PATIENCE) as answer:
            return answer.status
    except urllib.error.HTTPError as error:
        return error.code


def test_what_a_page_sends_is_escaped_and_cut_in_the_log(tmp_path: Path):
    db = tmp_path / "table.db"
    with TableStore(db) as store:
        store.new_session(Header("tricky", ("Ann", "Bob", "Cy"), 4))
    out = tmp_path / "daemon.out"
    with out.open("w") as written:
        daemon = subprocess.Popen(
            [sys.executable, "-m", "companion.cli", "run", "--sim", "--db", str(db), "--web",
             f"127.0.0.1:{free_port()}"], stdin=subprocess.PIPE, stdout=written,
            stderr=subprocess.STDOUT)
        try:
            deadline = time.monotonic() + PATIENCE
            while True:
                seats = subprocess.run([sys.executable, "-m", "companion.cli", "seats", "--db",
                                        str(db), "--json"], capture_output=True, text=True)
                if seats.returncode == 0:
                    break
                assert time.monotonic() < deadline and daemon.poll() is None, seats.stderr
                time.sleep(0.2)
            link = json.loads(seats.stdout)[0]["url"]
            for kind in FORGED:
                assert post(link + "/act", {"kind": "event", "event": {"type": kind}}) == 200
            while out.read_text().count("companion: refused") < len(FORGED):
                assert time.monotonic() < deadline, out.read_text()[-2000:]
                time.sleep(0.05)
        finally:
            daemon.send_signal(signal.SIGTERM)
            assert daemon.wait(PATIENCE) == 0
    text = out.read_text()
    lines = text.splitlines()
    assert not [line for line in lines if line.startswith(("companion: stored #21",
                                                           "companion: seat link re-issued"))]
    assert "\x00" not in text and "\x1b" not in text and "\u202e" not in text
    assert max(len(line) for line in lines) <= LONGEST + 20
    refused = [line for line in lines if line.startswith("companion: refused")]
    assert any("play\\x0acompanion: stored #21" in line for line in refused), refused
    assert any(line.startswith("companion: refused " + "A" * 40 + "...") for line in refused)
