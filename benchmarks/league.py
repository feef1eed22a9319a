"""`companion league` over a store of 10,000 finished games, beside a bare SQLite scan.

Run: python benchmarks/league.py [--games N]

The store is made of 40 real games (the four simulators, stored through the store so that
their results are real) copied in SQLite until it holds N games, each copy seated by 12
players in turn. Measured: the whole command as a user runs it (a new Python process,
imports included), the same in this process, and the baseline: reading every stored result
and decoding its JSON with nothing else.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from league_store import build  # noqa: E402

from companion.cli import main  # noqa: E402

PEOPLE = 12


def grow(path: Path, games: int) -> None:
    """Copy the stored games (sessions, events, results, seats) until there are ``games``."""
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("BEGIN")
    db.execute("DELETE FROM seats")
    db.execute("DELETE FROM players")
    db.executemany("INSERT INTO players (id, name) VALUES (?, ?)",
                   [(n + 1, f"Player {n + 1}") for n in range(PEOPLE)])
    template = [row[0] for row in db.execute("SELECT id FROM sessions ORDER BY id")]
    seats = dict(db.execute("SELECT id, json_array_length(header, '$.seats') FROM sessions"))
    for copy in range(games):
        source = template[copy % len(template)]
        if copy >= len(template):
            new = db.execute("INSERT INTO sessions (header, created, finished) SELECT header, "
                             "created, finished FROM sessions WHERE id = ?",
                             (source,)).lastrowid
            db.execute("INSERT INTO events (session_id, seq, body) SELECT ?, seq, body FROM "
                       "events WHERE session_id = ?", (new, source))
            db.execute("INSERT INTO results (session_id, version, last_seq, body) SELECT ?, "
                       "version, last_seq, body FROM results WHERE session_id = ?",
                       (new, source))
        else:
            new = source
        db.executemany("INSERT INTO seats (session_id, seat, player_id) VALUES (?, ?, ?)",
                       [(new, seat, (copy + seat) % PEOPLE + 1) for seat in range(seats[source])])
    db.execute("COMMIT")
    db.close()


def bare_scan(path: Path) -> float:
    start = time.perf_counter()
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    for (body,) in db.execute("SELECT body FROM results"):
        json.loads(body)
    db.close()
    return time.perf_counter() - start


def in_process(path: Path) -> float:
    start = time.perf_counter()
    with contextlib.redirect_stdout(io.StringIO()):
        assert main(["league", "--db", str(path), "--json"]) == 0
    return time.perf_counter() - start


def as_a_user(path: Path) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "companion.cli", "league", "--db", str(path)],
                   check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def run(games: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "table.db"
        made = time.perf_counter()
        build(path, games=40)
        grow(path, games)
        made = time.perf_counter() - made
        size = path.stat().st_size >> 20
        rows = sqlite3.connect(path).execute("SELECT COUNT(*) FROM events").fetchone()[0]
        print(f"store: {games:,} finished games, {rows:,} events, {size} MB "
              f"(made in {made:.1f} s)")
        bare = min(bare_scan(path) for _ in range(3))
        inside = min(in_process(path) for _ in range(3))
        whole = min(as_a_user(path) for _ in range(3))
        print(f"companion league (new process, imports included): {whole:6.2f} s")
        print(f"companion league (in process):                    {inside:6.2f} s")
        print(f"bare SQLite scan of every result + JSON decode:   {bare:6.2f} s")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    run(parser.parse_args().games)
