"""Pictures no card can be in (issue 40, item 4): a side of 1 or 2 pixels, a truncated PNG.
Recognition says it found nothing, calibration refuses in one line, a damaged file is one
line of ours with no line of libpng's before it."""

from __future__ import annotations

import shutil

import cv2
import numpy as np
import pytest

from companion.cli import main


@pytest.fixture(scope="module")
def library(tmp_path_factory) -> str:
    folder = tmp_path_factory.mktemp("art")
    assert main(["vision", "art", "tricky", "--out", str(folder / "all")]) == 0
    faces = folder / "faces"
    faces.mkdir()
    for path in sorted((folder / "all").iterdir())[:3]:
        shutil.copy(path, faces / path.name)
    out = str(folder / "three.npz")
    assert main(["vision", "enroll", str(faces), "--out", out]) == 0
    return out


@pytest.mark.parametrize("width,height", [(1, 1), (2, 2), (1, 80), (300, 2), (15, 40)])
def test_a_picture_too_small_for_any_card_recognises_nothing(library, tmp_path, capfd,
                                                              width, height):
    path = tmp_path / f"tiny-{width}x{height}.png"
    cv2.imwrite(str(path), np.full((height, width, 3), 128, np.uint8))
    assert main(["vision", "recognize", "--library", library, str(path), "--json"]) == 0
    out, err = capfd.readouterr()
    assert out.strip() == f'[{{"image": "{path}", "found": []}}]' and err == ""


def test_calibration_refuses_a_picture_too_small_in_one_line(library, tmp_path, capfd):
    path = tmp_path / "dot.png"
    cv2.imwrite(str(path), np.full((2, 2, 3), 128, np.uint8))
    out = tmp_path / "check.png"
    assert main(["vision", "calibrate", "--image", str(path), "--library", library,
                 "--out", str(out)]) == 2
    err = capfd.readouterr().err
    assert err == (f"companion: {path}: 2 x 2 pixels is too small a picture of the table "
                   "(at least 16 a side)\n")
    assert not out.exists()


@pytest.mark.parametrize("cut", [0.5, 0.99])
def test_a_truncated_png_is_one_line_of_ours_and_nothing_from_libpng(library, tmp_path,
                                                                     capfd, cut):
    whole = tmp_path / "whole.png"
    noise = np.random.default_rng(4).integers(0, 255, (200, 150, 3), dtype=np.uint8)
    cv2.imwrite(str(whole), noise)
    data = whole.read_bytes()
    path = tmp_path / "cut.png"
    path.write_bytes(data[:int(len(data) * cut)])
    assert main(["vision", "recognize", "--library", library, str(path)]) == 2
    assert capfd.readouterr().err == f"companion: {path}: not a readable image\n"
