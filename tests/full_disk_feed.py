"""Run inside a mount namespace (tests/sandbox.py) with a small tmpfs at MOUNT: fill it up
(but for LEAVE bytes, 0 by default), feed LOG into a store on it, free the space, and print
what happened as one JSON object.

    python full_disk_feed.py MOUNT LOG CONFIG [LEAVE]
"""

from __future__ import annotations

import errno
import json
import os
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

from helpers import wait_for

COMPANION = [sys.executable, "-m", "companion.cli"]


def fill(path: Path) -> None:
    """Write ``path`` until the file system has not one byte left."""
    with open(path, "wb", buffering=0) as handle:
        for size in (1 << 16, 1 << 12, 1):
            try:
                while True:
                    handle.write(b"\0" * size)
            except OSError as error:
                if error.errno != errno.ENOSPC:
                    raise


def main() -> None:
    mount, log, config = (Path(arg) for arg in sys.argv[1:4])
    leave = int(sys.argv[4]) if len(sys.argv) > 4 else 0
    db = mount / "table.db"
    header_only = mount.parent / "header.jsonl"
    header_only.write_text(log.read_text().splitlines()[0] + "\n")
    subprocess.run([*COMPANION, "import", str(header_only), "--db", str(db)], check=True,
                   capture_output=True)
    # Held open so that the store's -wal and -shm files stay: on a full disk SQLite could not
    # make them, and the daemon would stop at its start instead of at its first write.
    holder = sqlite3.connect(db)
    holder.execute("SELECT COUNT(*) FROM sessions").fetchall()
    filler = mount / "filler"
    fill(filler)
    if leave:  # a tmpfs gives back at once what a truncation cuts off
        os.truncate(filler, max(0, filler.stat().st_size - leave))
    feed = subprocess.Popen([*COMPANION, "run", "--sim", "--feed", str(log), "--db", str(db),
                             "--config", str(config)], stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lines: list[str] = []
    assert feed.stdout is not None
    reader = threading.Thread(target=lambda: lines.extend(feed.stdout), daemon=True)
    reader.start()
    try:
        full_seen = wait_for(lambda: any("storage full" in line for line in lines),
                             "the daemon saying 'storage full'")
    except AssertionError:  # said in the report, with all the daemon printed
        full_seen = False
    time.sleep(1.5)  # several retries while still full
    alive_while_full = feed.poll() is None
    filler.unlink()
    try:
        code = feed.wait(timeout=60)
    except subprocess.TimeoutExpired:
        feed.kill()
        code = None
    reader.join(timeout=5)
    wal = Path(str(db) + "-wal")
    wal_bytes = wal.stat().st_size if wal.exists() else 0
    holder.close()
    exported = subprocess.run([*COMPANION, "export", "--db", str(db)], capture_output=True,
                              text=True)
    print(json.dumps({"full_seen": full_seen, "alive_while_full": alive_while_full,
                      "wal_bytes": wal_bytes,
                      "code": code, "exported": exported.stdout.splitlines(),
                      "output": lines}))


if __name__ == "__main__":
    main()
