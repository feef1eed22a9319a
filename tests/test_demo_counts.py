"""The demo counts as the other commands count: the events it says it stored are those
`companion sessions` lists and `companion import` of its log stores (an undo and a move
entered again for each camera misread put right included), the pictures it says it kept are
those `companion export --pictures` writes. Run as a user runs them, one command after
another. The game is a card game: its cards come in by the camera."""

from __future__ import annotations

import re
import subprocess
import sys


def companion(*args: str) -> str:
    """What the command prints (stdout, then stderr: `export --pictures` writes the log on
    stdout and says what it wrote on stderr)."""
    done = subprocess.run([sys.executable, "-m", "companion.cli", *args], capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return done.stdout + done.stderr


def test_the_demos_counts_are_those_of_sessions_import_and_export(tmp_path):
    out = tmp_path / "demo"
    printed = companion("demo", "deathtrap", "--quick", "--out", str(out))
    said = printed.splitlines()[0]
    assert said.startswith("deathtrap: "), said
    # --quick plays the short game: one round, to its end.
    assert printed.splitlines()[1].split()[-1] == "r1" and "(100%)" in printed
    found = re.fullmatch(r"deathtrap: (\d+) events stored in [\d.]+ s \((\d+) moves.*\); "
                         r"camera: (\d+) pictures kept of (\d+) taken", said)
    assert found, said
    stored, moves, kept, taken = map(int, found.groups())
    assert moves <= stored and kept <= taken
    # A card game's demo is read by the camera (56 of Deathtrap's 140 moves: the cards; the
    # rest are the game's choices, made by hand), every move by one way.
    routes = dict(way.rsplit(" ", 1) for way in
                  printed.split("events in by: ")[1].splitlines()[0].split(", "))
    assert int(routes["camera"]) > moves // 4 and sum(map(int, routes.values())) == moves
    assert (out / "deathtrap-camera.png").exists()
    listed = companion("sessions", "--db", str(out / "deathtrap.db"))
    assert re.search(rf"\b{stored} events\b", listed), listed
    imported = companion("import", str(out / "deathtrap.jsonl"), "--db",
                         str(tmp_path / "imported.db"))
    assert f"({stored} events)" in imported, imported
    written = companion("export", "--db", str(out / "deathtrap.db"), "--pictures",
                        str(tmp_path / "pictures"))
    assert f"wrote {kept} camera pictures" in written, written
    assert len(list((tmp_path / "pictures").iterdir())) >= kept
