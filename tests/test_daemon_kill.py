"""The kill test: `companion run --sim --feed` SIGKILLed at 50 random moments of a game.

Each run is killed once it has said it stored 1 to 4 events (observed progress, however
slow the machine; a few random milliseconds later, so that kills land mid-write too) and
restarted with the same arguments; every event acknowledged (logged as stored) before a kill
must still be stored afterwards, the store must always hold a prefix of the log, and in the
end it holds the whole log exactly once, with the same result as `companion replay`.
"""

import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

from companion.bundles.rumble.rules.sim import random_game
from companion.table import TableStore

KILLS = 50
EVENTS = 150
#: A bound on waiting for a run to store its events, never a timing check.
PATIENCE = 60.0


def companion(*args: str) -> list[str]:
    return [sys.executable, "-m", "companion.cli", *args]


def stored_entries(db: Path) -> list[dict]:
    if not db.exists():
        return []
    with TableStore(db) as store:
        sessions = store.sessions()
        assert len(sessions) <= 1, "a restart must not open a second session"
        return store.load(sessions[0].id)[1] if sessions else []


def stored_lines(output: str) -> list[str]:
    return [line for line in output.splitlines() if line.startswith("companion: stored #")]


def acknowledged(output: str) -> int:
    """The highest sequence number the daemon said it stored."""
    numbers = [int(line.split("#")[1].split(":")[0]) for line in stored_lines(output)]
    return max(numbers, default=0)


def test_sigkill_at_50_random_moments_loses_no_acknowledged_event(tmp_path):
    header, events = random_game(11, 3)
    events = events[:EVENTS]
    log = tmp_path / "game.jsonl"
    log.write_text("".join(json.dumps(obj) + "\n" for obj in [header, *events]))
    db = tmp_path / "table.db"
    command = companion("run", "--sim", "--feed", str(log), "--db", str(db))
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    moments = random.Random(5)
    stored: list[dict] = []
    kills = mid_game = 0
    while kills < KILLS:
        out = tmp_path / f"run{kills}.out"
        wanted = moments.randint(1, 4)
        with open(out, "w") as handle:
            process = subprocess.Popen(command, stdout=handle, stderr=subprocess.STDOUT, env=env)
            end = time.monotonic() + PATIENCE
            while len(stored_lines(out.read_text())) < wanted and process.poll() is None:
                assert time.monotonic() < end, f"run {kills}: nothing stored in {PATIENCE} s"
                time.sleep(0.002)
            time.sleep(moments.uniform(0, 0.01))  # a spread of moments, not the condition
            # Popen.kill: no error if the run already ended (the last events stored).
            process.kill()
            process.wait()
        acked = acknowledged(out.read_text())
        before, stored = len(stored), stored_entries(db)
        mid_game += before < len(stored) < len(events)
        assert len(stored) >= acked, f"run {kills}: #{acked} acknowledged, {len(stored)} stored"
        assert stored == events[:len(stored)], f"run {kills}: the store is not a prefix"
        kills += 1
        if len(stored) == len(events):
            # The game is all in: start over, so that every kill lands mid-game.
            stored = []
            db.unlink()
            for suffix in ("-wal", "-shm"):
                Path(str(db) + suffix).unlink(missing_ok=True)
    assert mid_game >= KILLS // 3, f"only {mid_game} kills landed while events were stored"
    done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == 0, done.stderr
    assert stored_entries(db) == events
    exported = tmp_path / "exported.jsonl"
    exported.write_text(subprocess.run(companion("export", "--db", str(db)), capture_output=True,
                                       text=True, check=True).stdout)
    assert [json.loads(line) for line in exported.read_text().splitlines()] == [header, *events]
    replays = [json.loads(subprocess.run(companion("replay", "--json", str(path)),
                                         capture_output=True, text=True).stdout)
               for path in (log, exported)]
    assert replays[0] == replays[1] and replays[0]["totals"]
