"""A clean stop with the camera on (issue 53): ``companion run --sim`` with its camera on a
folder of rendered frames and its pages on, stopped with ``q`` or the end of its input while
the camera thread is at work (loading the card library, reading frames), 20 times in a row:
each an exit 0, with no ``terminate called`` (OpenCV's C++ torn down under a thread still
in it: before the fix, exit 134 in some stops)."""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import cv2
import pytest

from companion.daemon.camera import library_for
from companion.daemon.stage import Stage
from companion.games import registry

STOPS = 20
SEED = 3
PATIENCE = 120.0


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture(scope="module")
def camera_table(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A config with the camera on rendered frames (the bare table, then a card laid) and a
    store holding a Tricky round before its first card."""
    folder = tmp_path_factory.mktemp("camera")
    header, events = registry.get("tricky").random_game(SEED, 4)
    first = next(n for n, e in enumerate(events) if e["type"] == "play")
    log = folder / "round.jsonl"
    log.write_text("".join(json.dumps(line) + "\n" for line in [header, *events[:first]]))
    db = folder / "table.db"
    subprocess.run([sys.executable, "-m", "companion.cli", "import", str(log), "--db", str(db)],
                   check=True, capture_output=True, timeout=PATIENCE)
    stage = Stage("tricky", 4, SEED)
    frames = folder / "frames"
    frames.mkdir()
    play = events[first]
    shots = [stage.clear() for _ in range(10)] + [stage.play(play["seat"], [play["card"]])
                                                  for _ in range(30)]
    for n, image in enumerate(shots):
        cv2.imwrite(str(frames / f"{n:03d}.png"), image)
    library_for(("tricky",)).save(folder / "cards.npz")
    config = folder / "companion.toml"
    config.write_text(f'[camera]\nenabled = true\nsource = "files"\nfiles = "{frames}"\n'
                      f'fps = 8.0\n\n[vision]\nlibrary = "{folder / "cards.npz"}"\n'
                      'settle_seconds = 0.3\n')
    return config, db


def test_twenty_stops_in_a_row_with_the_camera_on_exit_0(camera_table, tmp_path):
    config, stored = camera_table
    for stop in range(STOPS):
        db = tmp_path / f"stop-{stop}.db"  # the round before its first card, each time
        shutil.copyfile(stored, db)
        out = tmp_path / f"stop-{stop}.out"
        with out.open("w") as written:
            daemon = subprocess.Popen(
                [sys.executable, "-m", "companion.cli", "run", "--sim", "--config",
                 str(config), "--db", str(db), "--web", f"127.0.0.1:{free_port()}"],
                stdin=subprocess.PIPE, stdout=written, stderr=subprocess.STDOUT)
            assert daemon.stdin is not None
            deadline = time.monotonic() + PATIENCE
            # Stopped once ready (the camera loading its library), or once it has read a
            # scene (reading frames), by turns.
            wanted = "companion: ready:" if stop % 2 else "stored #"
            while wanted not in out.read_text():
                assert daemon.poll() is None, out.read_text()[-3000:]
                assert time.monotonic() < deadline, out.read_text()[-3000:]
                time.sleep(0.02)
            if stop % 4 < 2:
                daemon.stdin.write(b"q")
                daemon.stdin.flush()
            else:
                daemon.stdin.close()  # the end of its input
            code = daemon.wait(PATIENCE)
        said = out.read_text()
        assert code == 0 and "terminate called" not in said, (stop, code, said[-3000:])
