"""Each event the camera makes keeps the picture it was made from, in the store (issue 41):
a small JPEG of the play area from above, cropped to the table outline, with the readings;
one encode per settled scene and none while the table is still; ``companion export`` writes
the table log alone, ``--pictures DIR`` the pictures too. Real OpenCV, real SQLite."""

from __future__ import annotations

import json
import subprocess
import sys

import cv2
import numpy as np
from camera_table import CameraTable

from companion.table import TableStore
from companion.table.pictures import picture, pictures
from companion.vision import evidence


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "companion.cli", *args], capture_output=True,
                          text=True, timeout=120)


def decoded(jpeg: bytes) -> np.ndarray:
    image = cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR)
    assert image is not None
    return image


def test_each_camera_event_keeps_its_picture_with_the_card_read_on_it(tmp_path):
    with CameraTable(tmp_path) as table:
        plays = []
        for _ in range(3):
            plays.append(table.play_until_a_card())
            table.play(plays[-1])
        stored_game = table.stored_game
        entries = stored_game.session.events
        camera_seqs = [n for n, entry in enumerate(entries, 1) if entry.get("type") == "play"]
        kept = pictures(table.store.db, stored_game.id)
        assert [p.seq for p in kept] == camera_seqs  # one per camera event, none for the rest
        for stored, play in zip(kept, plays, strict=True):
            image = decoded(stored.jpeg)
            assert image.shape[:2] == (stored.about["height"], stored.about["width"]) == (448, 640)
            assert len(stored.jpeg) <= evidence.MOST_BYTES
            [reading] = [r for r in stored.about["readings"] if r["id"] == play["card"]]
            assert reading["state"] == "sure" and reading["nearest"][0] == play["card"]
            # The outline lies on the card: the picture is lighter there than the table.
            scale = stored.about["px_per_mm"]
            outline = (np.array(reading["outline"]) * scale).astype(np.int32)
            mask = np.zeros(image.shape[:2], np.uint8)
            cv2.fillConvexPoly(mask, outline, 255)
            inside, outside = cv2.mean(image, mask)[:3], cv2.mean(image, 255 - mask)[:3]
            assert max(abs(a - b) for a, b in zip(inside, outside, strict=True)) > 20
    # Durable: the store opened again holds them.
    with TableStore(tmp_path / "table.db", read_only=True) as store:
        assert [p.seq for p in pictures(store.db, 1)] == camera_seqs
        assert picture(store.db, 1, camera_seqs[0]).jpeg == kept[0].jpeg
        assert picture(store.db, 1, 1) is None  # the deal came in by hand


def test_one_jpeg_per_settled_scene_and_none_while_the_table_is_still(tmp_path, monkeypatch):
    encodes = []
    encode = evidence.encode
    monkeypatch.setattr(evidence, "encode", lambda image: encodes.append(1) or encode(image))
    with CameraTable(tmp_path) as table:
        play = table.play_until_a_card()
        table.put_down(play["seat"], [play["card"]])
        settled = len(encodes)
        assert settled == 2  # the table swept clear, then the card: two scenes, two pictures
        still = table.stage.play(play["seat"], [play["card"]])
        for _ in range(10):
            table.hands.show(still, lambda: True)  # the same table, frame after frame
        assert len(encodes) == settled
        assert table.daemon.stored == table.next + 1


def test_export_is_the_table_log_alone_and_pictures_only_when_asked(tmp_path):
    with CameraTable(tmp_path) as table:
        play = table.play_until_a_card()
        table.play(play)
        seq = len(table.stored_game.session.events)
    db = str(tmp_path / "table.db")
    plain = run("export", "--db", db)
    assert plain.returncode == 0
    lines = [json.loads(line) for line in plain.stdout.splitlines()]
    assert list(lines[0]) == ["game", "seats", "seed", "options"] and len(lines) == seq + 1
    assert not any("jpeg" in line or "picture" in line for line in plain.stdout.splitlines())
    folder = tmp_path / "pictures"
    with_pictures = run("export", "--db", db, "--pictures", str(folder))
    assert with_pictures.returncode == 0, with_pictures.stderr
    assert with_pictures.stdout == plain.stdout  # the log is the same, byte for byte
    assert "wrote 1 camera pictures" in with_pictures.stderr
    assert sorted(p.name for p in folder.iterdir()) == [f"{seq:05d}.jpg", f"{seq:05d}.json"]
    about = json.loads((folder / f"{seq:05d}.json").read_text())
    assert about["seq"] == seq and any(r["id"] == play["card"] for r in about["readings"])
    decoded((folder / f"{seq:05d}.jpg").read_bytes())


def test_export_pictures_refusals_are_clear_and_write_nothing(tmp_path):
    with CameraTable(tmp_path) as table:
        table.play(table.play_until_a_card())
    db = str(tmp_path / "table.db")
    a_file = tmp_path / "log.jsonl"
    a_file.write_text("")
    for args, said in (
            (["--pictures", str(a_file)], "not a folder"),
            (["--bgstats", "--pictures", str(tmp_path / "p")], "table log only"),
            (["--csv", "--pictures", str(tmp_path / "p")], "table log only")):
        result = run("export", "--db", db, *args)
        assert result.returncode == 2 and said in result.stderr, result.stderr
        assert "Traceback" not in result.stderr and result.stdout == ""
    assert not (tmp_path / "p").exists()
