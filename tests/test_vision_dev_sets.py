"""Every real dev set (../shared/vision-dev: other people's decks, cameras and tables; test
data we may use, not publish: read from there, never copied into the repository). Skipped
cleanly where a set is absent, as in a fresh clone without it."""

from __future__ import annotations

import cv2
import pytest
from vision_dev import DEV

from companion.vision.enrol import enrol_images
from companion.vision.sources import IMAGE_SUFFIXES, read_image

SETS = ["standard-deck", "blackjack-webcam", "anima-pairs", "set-crops", "bidly-fans"]


def _images(name: str) -> list:
    folder = DEV / name / "enroll"
    if not folder.is_dir():
        pytest.skip(f"no real set at {folder}")
    return sorted(p for p in folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)


@pytest.mark.parametrize("name", SETS)
def test_every_enrolment_image_of_every_set_gives_its_whole_card(name):
    """Photos on cloth or a table, scans, tight crops of white cards printed with plain
    shapes, small face images: each gives one card, shaped like the deck's others; an image
    that is the card alone gives the whole image, never a shape printed on it."""
    paths = _images(name)
    result = enrol_images([(p.stem, lambda p=p: read_image(p)) for p in paths])
    assert result.skipped == []
    library = result.library
    assert len(library) == len(paths)
    aspects = [library.aspect(n) for n in range(len(library))]
    assert max(aspects) / min(aspects) < 1.1, "every face is shaped like the deck's cards"
    first = cv2.imread(str(paths[0]))
    h, w = first.shape[:2]
    if name in ("blackjack-webcam", "set-crops", "bidly-fans"):  # the image is the card
        for n in range(len(library)):
            assert abs(library.aspect(n) / (max(h, w) / min(h, w)) - 1) < 0.02
