"""`python benchmarks/versions.py`: the same photos read by several checkouts in turn. Run on
this checkout twice over a drawn deck and table (the real sets need not be here); no timing
is asserted, only that every checkout reads and the readings are compared."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np

from companion.commands.game_art import game_items
from companion.vision.art import draw_face

ROOT = Path(__file__).resolve().parent.parent


def test_two_checkouts_read_the_same_photo_and_are_compared(tmp_path):
    enroll, scenes = tmp_path / "enroll", tmp_path / "scenes"
    enroll.mkdir()
    scenes.mkdir()
    items = game_items("tricky")[:4]
    for item in items:
        cv2.imwrite(str(enroll / f"{item.item_id}.png"), draw_face(item))
    table = np.full((960, 1280, 3), (40, 70, 110), np.uint8)
    table[300:552, 500:680] = cv2.resize(draw_face(items[2]), (180, 252))
    cv2.imwrite(str(scenes / "table.png"), table)
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "versions.py"), "--enroll", str(enroll),
         "--scenes", str(scenes), "--photos", "table.png", "--rounds", "1", str(ROOT),
         str(ROOT)], capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("median of least") == 2
    assert "the same cards read by every checkout" in done.stdout
