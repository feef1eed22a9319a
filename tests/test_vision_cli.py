"""``companion vision``: enroll, recognize (JSON shape, EXIF orientation), calibrate, markers,
art, and user errors as one line with exit 2."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest
from PIL import Image

from companion.cli import main
from companion.commands.game_art import game_items
from companion.vision.layout import CORNER_IDS
from companion.vision.markers import MarkerFinder
from companion.vision.synthetic import Conditions, Placement, SceneRenderer


@pytest.fixture(scope="module")
def library(tmp_path_factory) -> str:
    folder = tmp_path_factory.mktemp("art")
    assert main(["vision", "art", "tricky", "--out", str(folder / "faces")]) == 0
    out = str(folder / "tricky.npz")
    assert main(["vision", "enroll", str(folder / "faces"), "--out", out]) == 0
    return out


@pytest.fixture(scope="module")
def table_photo(tmp_path_factory):
    items = game_items("tricky")
    renderer = SceneRenderer(size=(1280, 720))
    placed = [Placement(items[2], (250, 200), 20), Placement(items[30], (560, 380), 110)]
    scene = renderer.render(placed, np.random.default_rng(3), Conditions("oak", noise=2),
                            renderer.camera(np.random.default_rng(3)))
    path = tmp_path_factory.mktemp("photos") / "table.png"
    cv2.imwrite(str(path), scene.image)
    return path, scene


def test_enroll_writes_a_library_of_every_image_and_no_bar_off_a_terminal(tmp_path, capsys):
    faces = tmp_path / "faces"
    main(["vision", "art", "rumble", "--out", str(faces)])
    capsys.readouterr()
    assert main(["vision", "enroll", str(faces), "--out", str(tmp_path / "r.npz")]) == 0
    out, err = capsys.readouterr()
    assert "enrolled 12 cards" in out and err == ""


def test_recognize_json_gives_ids_corners_and_confidence(library, table_photo, capsys):
    path, scene = table_photo
    capsys.readouterr()
    assert main(["vision", "recognize", "--library", library, str(path), "--json"]) == 0
    (result,) = json.loads(capsys.readouterr().out)
    assert result["image"] == str(path)
    assert sorted(f["id"] for f in result["found"]) == sorted(t.item_id for t in scene.truth)
    for found in result["found"]:
        assert set(found) == {"id", "corners", "confidence"}
        assert len(found["corners"]) == 4 and all(len(c) == 2 for c in found["corners"])
        assert 0 < found["confidence"] <= 1
        truth = next(t for t in scene.truth if t.item_id == found["id"])
        assert np.abs(np.array(found["corners"]) - truth.corners).max() < 6


def test_recognize_gives_corners_in_the_photo_as_shown_after_exif_orientation(
        library, table_photo, tmp_path, capsys):
    path, scene = table_photo
    shown = cv2.cvtColor(cv2.imread(str(path)), cv2.COLOR_BGR2RGB)
    # Stored turned a quarter anticlockwise, tagged "turn 90 clockwise to show" (6).
    stored = Image.fromarray(shown).transpose(Image.Transpose.ROTATE_90)
    exif = Image.Exif()
    exif[0x0112] = 6
    phone = tmp_path / "phone.jpg"
    stored.save(phone, quality=95, exif=exif)
    capsys.readouterr()
    assert main(["vision", "recognize", "--library", library, str(phone), "--json"]) == 0
    (result,) = json.loads(capsys.readouterr().out)
    assert sorted(f["id"] for f in result["found"]) == sorted(t.item_id for t in scene.truth)
    for found in result["found"]:
        truth = next(t for t in scene.truth if t.item_id == found["id"])
        assert np.abs(np.array(found["corners"]) - truth.corners).max() < 8


def test_calibrate_draws_markers_zones_and_cards(library, table_photo, tmp_path, capsys):
    path, _ = table_photo
    out = tmp_path / "calibration.png"
    assert main(["vision", "calibrate", "--image", str(path), "--library", library,
                 "--out", str(out)]) == 0
    assert "4 of 4 corner markers, 2 cards" in capsys.readouterr().out
    drawn = cv2.imread(str(out))
    assert drawn.shape == (720, 1280, 3)
    assert not np.array_equal(drawn, cv2.imread(str(path)))


def test_the_marker_sheet_prints_markers_that_read_back(tmp_path):
    out = tmp_path / "sheet.png"
    assert main(["vision", "markers", "--out", str(out), "--dpi", "150"]) == 0
    sheet = cv2.imread(str(out), cv2.IMREAD_GRAYSCALE)
    found = {s.marker_id for s in MarkerFinder().find(sheet)}
    assert set(CORNER_IDS) | set(range(10, 22)) | {30} <= found


@pytest.mark.parametrize("argv,message", [
    (["vision", "enroll", "/nonexistent", "--out", "x.npz"], "not a folder"),
    (["vision", "recognize", "--library", "/nonexistent.npz", "a.png"], "cannot read"),
    (["vision", "markers", "--out", "x.png", "--dpi", "5"], "--dpi"),
])
def test_user_errors_are_one_line_and_exit_2(argv, message, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and "Traceback" not in err


def test_an_unreadable_photo_is_named(library, tmp_path, capsys):
    bad = tmp_path / "bad.png"
    bad.write_text("not an image")
    assert main(["vision", "recognize", "--library", library, str(bad)]) == 2
    assert "bad.png" in capsys.readouterr().err


def test_a_missing_photo_is_one_line_naming_it(library, tmp_path, capfd):
    missing = tmp_path / "gone.jpg"
    assert main(["vision", "recognize", "--library", library, str(missing)]) == 2
    err = capfd.readouterr().err  # capfd: OpenCV would write its warning to fd 2 directly
    assert err == f"companion: {missing}: no such image file\n"


def test_calibrate_labels_leave_the_markers_readable_and_say_when_cards_are_not_sought(
        table_photo, tmp_path, capsys):
    path, _ = table_photo
    out = tmp_path / "check.png"
    assert main(["vision", "calibrate", "--image", str(path), "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "4 of 4 corner markers" in printed and "give --library" in printed
    # The labels and outlines sit beside the markers, not on them: inside each marker only
    # the table's outline (two thin lines through its centre) is drawn.
    before, after = cv2.imread(str(path)), cv2.imread(str(out))
    for marker in MarkerFinder().find(before):
        inside = np.zeros(before.shape[:2], np.uint8)
        cv2.fillConvexPoly(inside, marker.corners.astype(np.int32), 1)
        changed = (np.abs(after.astype(int) - before.astype(int)).max(axis=2) > 30) & (inside > 0)
        assert changed.sum() < 0.3 * inside.sum(), f"marker {marker.marker_id} drawn over"


@pytest.mark.parametrize(("camera", "says"), [
    ("picamera", "Picamera2"), ("front", "camera number"), ("9", "no frame")])
def test_calibrate_from_a_camera_that_is_not_there_is_one_line(camera, says, tmp_path, capsys):
    code = main(["vision", "calibrate", "--camera", camera, "--out", str(tmp_path / "c.png")])
    err = capsys.readouterr().err
    assert code == 2 and says in err and "Traceback" not in err


def test_calibrate_keeps_every_label_whole_inside_the_picture(tmp_path, monkeypatch, capsys):
    """The demo's camera picture (640x480, the corner markers near its edges): every label
    ("marker 0", "seat 4") is drawn whole, its band inside the picture, not "arker 0"."""
    from companion.daemon.stage import Stage
    from companion.vision import calibration

    picture = tmp_path / "table.png"
    cv2.imwrite(str(picture), Stage("deathtrap", 4, 1).picture([]))
    drawn: list[tuple[str, tuple[int, int, int, int]]] = []
    label = calibration.label

    def recorded(image, text, at, colour):
        box = label(image, text, at, colour)
        drawn.append((text, box))
        return box

    monkeypatch.setattr(calibration, "label", recorded)
    out = tmp_path / "check.png"
    assert main(["vision", "calibrate", "--image", str(picture), "--out", str(out)]) == 0
    height, width = cv2.imread(str(out)).shape[:2]
    texts = [text for text, _ in drawn]
    assert {"marker 0", "marker 1", "marker 2", "marker 3", "seat 4"} <= set(texts), texts
    for text, (left, top, right, bottom) in drawn:
        assert left > 0 and top > 0 and right < width - 1 and bottom < height - 1, text
