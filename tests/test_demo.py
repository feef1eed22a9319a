"""`companion demo`: whole games through the pipeline, a score table, PNG screens and a GIF."""

import json
import subprocess
import sys

from PIL import Image

from companion.daemon.demo import play_demo
from companion.games import registry
from companion.table import Header, TableSession

DEMO = [sys.executable, "-m", "companion.cli", "demo"]


def test_the_traps_demo_prints_its_scores_and_writes_the_screens(tmp_path):
    done = subprocess.run([*DEMO, "traps", "--out", str(tmp_path)], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("traps: ") and "winners: " in done.stdout
    assert "dial" in done.stdout.split("events in by:")[1]
    for name in ("traps-table.png", "traps-seat1.png", "traps-seat3.png"):  # seats from 1
        assert Image.open(tmp_path / name).size == (512, 256)  # the screen, 4 px a pixel
    gif = Image.open(tmp_path / "traps.gif")
    assert gif.n_frames > 5
    replay = subprocess.run([sys.executable, "-m", "companion.cli", "replay", "--json",
                             str(tmp_path / "traps.jsonl")], capture_output=True, text=True)
    totals = json.loads(replay.stdout)["totals"]
    printed = [int(line.split()[1]) for line in done.stdout.splitlines()[2:5]]
    assert printed == totals


def test_an_unknown_game_is_refused_in_one_line(tmp_path):
    done = subprocess.run([*DEMO, "chess", "--out", str(tmp_path)], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 2 and "invalid choice: 'chess'" in done.stderr
    assert "Traceback" not in done.stderr


def test_the_demo_plays_a_whole_game_by_default_and_says_how_far_it_has_got(tmp_path):
    done = subprocess.run([*DEMO, "traps", "--out", str(tmp_path)], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    progress = [line for line in done.stderr.splitlines() if line.startswith("traps: ")]
    assert len(progress) == 4 and progress[-1].endswith("moves (100%)")
    played = int(done.stdout.split(" moves")[0].split("(")[-1])
    assert progress[-1] == f"traps: {played}/{played} moves (100%)"
    # A whole game is every round the rules play, not one (a short one with --quick: its
    # run with the camera in tests/test_demo_counts.py).
    deathtrap = registry.get("deathtrap")
    assert deathtrap.demo is not None
    for quick, rounds in ((False, 4), (True, 1)):
        seats, options = deathtrap.demo.settings(quick)
        header, events = deathtrap.random_game(1, seats, **options)
        session = TableSession(Header.from_json(header))
        for event in events:
            session.apply(event)
        assert len(session.result()["rounds"]) == rounds


def test_the_rumble_demo_ends_on_its_result_not_on_a_refusal(tmp_path):
    """A change the camera could not read was put right by hand, and the game went on to its
    end: the table screen shows the game, not the stale refusal (it used to end on "Not
    allowed - camera: more than one thing changed")."""
    result = play_demo("rumble", tmp_path, seed=1)
    assert result.routes.get("corrected", 0) > 0  # the camera was put right on the way
    assert result.ended_on_refusal is None
