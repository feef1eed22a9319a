"""Stopping the daemon (issue 14, item 9): SIGTERM's handler put on the loop's queue while
the loop's own ``get`` held that queue's lock, and ``systemctl stop`` hung until the kill
timeout. A stop signal now ends the loop whatever line it lands on, every time.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

from companion.bundles.rumble.rules.sim import random_game
from companion.table import TableStore

RUN = [sys.executable, "-m", "companion.cli", "run"]
#: A bound on waiting, never a timing check.
PATIENCE = 60.0
STOPS = 20

# SIGTERM at every line the running loop executes (the handler's own lines aside): the
# handler then runs with the main thread exactly there, holding whatever it holds.
EVERY_LINE = textwrap.dedent("""
    import faulthandler, os, signal, sys
    from pathlib import Path
    from companion.commands.run import stop_on_signals
    from companion.daemon.daemon import Daemon
    from companion.table import TableStore

    faulthandler.dump_traceback_later(90, exit=True)  # a deadlock shows its stacks
    daemon = Daemon(TableStore(Path(sys.argv[1])))
    stop_on_signals(daemon)
    handler = signal.getsignal(signal.SIGTERM).__code__
    for _ in range(3):
        daemon.submit(object())  # items the loop takes and ignores
    sent = 0

    def in_handler(frame):
        while frame is not None:
            if frame.f_code is handler:
                return True
            frame = frame.f_back
        return False

    def tracer(frame, event, arg):
        global sent
        if event == "line" and daemon.ready.is_set() and not in_handler(frame):
            sent += 1
            os.kill(os.getpid(), signal.SIGTERM)
        return tracer

    sys.settrace(tracer)
    code = daemon.run()
    sys.settrace(None)
    print(code, sent)
""")


def test_sigterm_at_any_line_of_the_loop_stops_it(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-c", EVERY_LINE, str(tmp_path / "t.db")],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    code, sent = map(int, done.stdout.split())
    assert code == 0
    assert sent > 100, "signals landed all through the loop, its queue's get included"


def stored_count(path: Path) -> int:
    return sum(line.startswith("companion: stored #") for line in path.read_text().splitlines())


def test_sigterm_stops_a_busy_daemon_cleanly_every_time(tmp_path: Path) -> None:
    header, events = random_game(3, 3)
    log = tmp_path / "game.jsonl"
    log.write_text("".join(json.dumps(obj) + "\n" for obj in [header, *events]))
    db = tmp_path / "t.db"
    command = [*RUN, "--sim", "--feed", str(log), "--db", str(db)]
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    rng = random.Random(9)
    for run in range(STOPS):
        out = tmp_path / f"run{run}.out"
        with open(out, "w") as handle:
            process = subprocess.Popen(command, stdout=handle, stderr=subprocess.STDOUT,
                                       env=env)
            # Stop it while it stores events as fast as it can: after 1 to 3 of them.
            wanted = rng.randint(1, 3)
            end = time.monotonic() + PATIENCE
            while stored_count(out) < wanted and process.poll() is None:
                assert time.monotonic() < end, f"run {run}: nothing stored"
                time.sleep(0.005)
            process.send_signal(signal.SIGTERM)
            try:
                code = process.wait(timeout=PATIENCE)
            finally:
                process.kill()
        text = out.read_text()
        assert code == 0, f"run {run}: exit {code}\n{text}"
        assert "Traceback" not in text
        assert "stopping: SIGTERM" in text or "the fed log is consumed" in text
    with TableStore(db) as store:
        (session,) = store.sessions()
        stored = store.load(session.id)[1]
    assert stored == events[:len(stored)] and len(stored) >= STOPS
