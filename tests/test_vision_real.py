"""Real photos of a real deck (../shared/vision-dev, test data we may use but not publish: it
is read from there, never copied into the repository). Skipped cleanly where it is absent,
as in a fresh clone without it."""

from __future__ import annotations

import json
from collections import Counter

import cv2
import numpy as np
import pytest
from vision_dev import DEV

from companion.cli import main
from companion.vision.enrol import enrol_images
from companion.vision.library import CardLibrary
from companion.vision.recognize import Recognizer
from companion.vision.sources import read_image

DECK = DEV / "standard-deck"

pytestmark = pytest.mark.skipif(not (DECK / "truth.json").is_file(),
                                reason=f"no real photos at {DECK}")


@pytest.fixture(scope="module")
def enrolled() -> tuple[CardLibrary, list]:
    photos = sorted((DECK / "enroll").glob("*.jpg"))
    result = enrol_images([(p.stem, lambda p=p: read_image(p)) for p in photos])
    return result.library, result.skipped


def test_every_one_of_the_52_enrolment_photos_gives_a_card(enrolled):
    library, skipped = enrolled
    assert skipped == []
    assert len(library) == 52
    # Each crop is a whole card: shaped like one (the deck's cards are 1.53 : 1 as measured).
    aspects = [library.aspect(n) for n in range(len(library))]
    assert max(aspects) / min(aspects) < 1.05


def test_the_table_photos_read_at_least_33_of_34_cards_and_invent_none(enrolled):
    library, _ = enrolled
    truth = json.loads((DECK / "truth.json").read_text())
    recognizer = Recognizer(library)
    right = invented = total = 0
    for name, ids in truth.items():
        photo = read_image(DECK / "scenes" / name)
        scale = 1280 / photo.shape[1]
        frame = cv2.resize(photo, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        got = Counter(d.item_id for d in recognizer.recognize(frame, []))
        want = Counter(ids)
        right += sum((want & got).values())
        invented += sum((got - want).values())
        total += len(ids)
    assert invented == 0
    assert right >= 33, f"{right}/{total}"


def test_a_photo_read_at_full_size_gives_its_card_whose_rounded_corner_the_outline_cut(
        enrolled):
    """Cards on a laptop, the 4 of hearts nearest the camera, its upper half on the pale
    touchpad: only its lower part makes a cluster, and it is read from that part's corner,
    which at full size (worked at 2048 px) the cluster's outline cuts off with a short
    chamfer."""
    library, _ = enrolled
    truth = json.loads((DECK / "truth.json").read_text())
    photo = read_image(DECK / "scenes" / "Cards_7.jpg")
    got = Counter(d.item_id for d in Recognizer(library).recognize(photo, []))
    assert got == Counter(truth["Cards_7.jpg"])


def test_a_folder_of_awkward_real_photos_is_enrolled_and_the_empty_one_named(tmp_path,
                                                                             capsys):
    """From real photos: one vignetted, one cropped so the card touches the edge, one cut
    to the card alone like a scan, one of the bare cloth."""
    folder = tmp_path / "awkward"
    folder.mkdir()
    from companion.vision.library import find_card

    seven = read_image(DECK / "enroll" / "7clubs.jpg")
    h, w = seven.shape[:2]
    ys, xs = np.mgrid[0:h, 0:w]
    dark = 1 - 0.6 * (((xs - w / 2) / w) ** 2 + ((ys - h / 2) / h) ** 2) * 4
    cv2.imwrite(str(folder / "7clubs.jpg"), (seven * np.clip(dark, 0.2, 1)[..., None])
                .astype(np.uint8))
    eight = read_image(DECK / "enroll" / "8clubs.jpg")
    x0, y0, x1, y1 = _box(find_card(eight))
    cv2.imwrite(str(folder / "8clubs.jpg"), eight[y0 - 40:y1 + 40, x0:x1 + 40])  # left edge
    ace = read_image(DECK / "enroll" / "Adiamonds.jpg")
    x0, y0, x1, y1 = _box(find_card(ace))
    cv2.imwrite(str(folder / "Adiamonds.png"), ace[y0 + 6:y1 - 6, x0 + 6:x1 - 6])  # a scan
    cv2.imwrite(str(folder / "cloth.jpg"), seven[:300, :300])
    out = tmp_path / "lib.npz"
    assert main(["vision", "enroll", str(folder), "--out", str(out)]) == 0
    printed, errors = capsys.readouterr()
    assert "enrolled 3 cards" in printed and "cloth: no card found" in errors
    library = CardLibrary.load(out)
    assert sorted(library.ids) == ["7clubs", "8clubs", "Adiamonds"]
    assert (tmp_path / "lib.sheet.png").is_file()
    # Each is still read as itself in a real table photo.
    truth = json.loads((DECK / "truth.json").read_text())
    photo = read_image(DECK / "scenes" / "Cards_7.jpg")
    found = {d.item_id for d in Recognizer(library).recognize(photo, [])}
    assert found <= set(truth["Cards_7.jpg"])


def _box(quad: np.ndarray) -> tuple[int, int, int, int]:
    x0, y0 = np.floor(quad.min(axis=0)).astype(int)
    x1, y1 = np.ceil(quad.max(axis=0)).astype(int)
    return int(x0), int(y0), int(x1), int(y1)
