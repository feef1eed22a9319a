"""`companion run` as a process: systemd's READY and WATCHDOG, a clean SIGTERM, a fed log."""

import json
import os
import signal
import socket
import subprocess
import sys

import pytest

from companion.table import TableStore

RUN = [sys.executable, "-m", "companion.cli", "run"]


def write_log(path, header, *events):
    path.write_text("".join(json.dumps(obj) + "\n" for obj in [header, *events]))
    return path


@pytest.fixture
def notify_socket(tmp_path):
    path = tmp_path / "notify.sock"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(path))
    sock.settimeout(10)
    yield path, sock
    sock.close()


def test_ready_watchdog_and_a_clean_stop_on_sigterm(tmp_path, notify_socket):
    path, sock = notify_socket
    env = {**os.environ, "NOTIFY_SOCKET": str(path), "WATCHDOG_USEC": "400000",
           "PYTHONUNBUFFERED": "1"}
    process = subprocess.Popen([*RUN, "--sim", "--db", str(tmp_path / "t.db")], env=env,
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    try:
        messages = []
        while not any(m.startswith("WATCHDOG=1") for m in messages):
            messages.append(sock.recv(4096).decode())
        assert messages[0].startswith("READY=1\nSTATUS=waiting for a new game")
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=20)  # stdin stays open: only the signal can stop it
        out, err = process.stdout.read(), process.stderr.read()
    finally:
        process.kill()
    assert process.returncode == 0, err
    assert "stopping: SIGTERM" in out and "Traceback" not in err
    while "STOPPING=1" not in messages[-1]:
        messages.append(sock.recv(4096).decode())


def test_a_fed_log_is_stored_once_even_when_fed_again(tmp_path):
    header = {"game": "traps", "seats": ["Ann", "Bob"], "seed": 3, "options": {}}
    log = write_log(tmp_path / "game.jsonl", header,
                    {"type": "expose", "seat": 0, "square": "T1", "clicks": 2},
                    {"type": "undo"},
                    {"type": "expose", "seat": 1, "square": "T2", "clicks": 1})
    db = tmp_path / "t.db"
    for _ in range(2):
        done = subprocess.run([*RUN, "--sim", "--feed", str(log), "--db", str(db)],
                              capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
    with TableStore(db) as store:
        (info,) = store.sessions()
        assert [e["type"] for e in store.load(info.id)[1]] == ["expose", "undo", "expose"]


def test_an_illegal_event_in_a_fed_log_exits_2_naming_its_line(tmp_path):
    header = {"game": "traps", "seats": ["Ann", "Bob"], "seed": 3, "options": {}}
    log = write_log(tmp_path / "game.jsonl", header,
                    {"type": "expose", "seat": 0, "square": "T1", "clicks": 2},
                    {"type": "expose", "seat": 5, "square": "T1", "clicks": 2})
    done = subprocess.run([*RUN, "--sim", "--feed", str(log), "--db", str(tmp_path / "t.db")],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr.startswith("companion: line 3: ") and "seat" in done.stderr
    assert "Traceback" not in done.stderr
    with TableStore(tmp_path / "t.db") as store:
        assert len(store.load(store.latest())[1]) == 1


def test_feed_without_sim_is_refused(tmp_path):
    done = subprocess.run([*RUN, "--feed", "x.jsonl", "--db", str(tmp_path / "t.db")],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "--feed needs --sim" in done.stderr
