"""The camera learns its table: a correction's crop kept as a sample of the card it names
(or of "not a card") is compared like the card's own face from the next reading on; a
dropped sample is no longer used; the samples are kept in their own small file beside the
library, written atomically, and a damaged one is one clear error."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.commands.game_art import game_items
from companion.vision.art import draw_face
from companion.vision.library import (
    NOT_A_CARD,
    CardLibrary,
    LibraryError,
    load_samples,
    sample_of,
    samples_path,
    save_samples,
)
from companion.vision.placing import Placement
from companion.vision.recognize import Recognizer
from companion.vision.synthetic import SceneRenderer

ITEMS = {item.item_id: item for item in game_items("tricky")}
CARD = "green-4"


def another_copy(face: np.ndarray) -> np.ndarray:
    """The same card from another print run: its colours off and a publisher's stamp over
    part of it, as the enrolled copy never showed it."""
    copy = cv2.cvtColor(face, cv2.COLOR_BGR2HSV)
    copy[..., 0] = (copy[..., 0].astype(int) + 40) % 180
    copy = cv2.cvtColor(copy, cv2.COLOR_HSV2BGR)
    h, w = copy.shape[:2]
    cv2.rectangle(copy, (w // 8, h // 3), (w * 7 // 8, h * 2 // 3), (30, 30, 30), cv2.FILLED)
    cv2.putText(copy, "2ND EDITION", (w // 6, h // 2), cv2.FONT_HERSHEY_SIMPLEX,
                w / 300, (240, 240, 240), 2)
    return copy


@pytest.fixture(scope="module")
def library() -> CardLibrary:
    library = CardLibrary()
    for item in ITEMS.values():
        library.enroll(item.item_id, draw_face(item))
    return library


def table(centre: tuple[float, float], angle: float, seed: int):
    """A frame of the table with this card's other copy lying at ``centre`` (mm)."""
    renderer = SceneRenderer(size=(1280, 720))
    renderer.use_face(CARD, another_copy(draw_face(ITEMS[CARD])))
    return renderer.render([Placement(ITEMS[CARD], centre, angle)], np.random.default_rng(seed))


def read(library: CardLibrary, scene) -> list[str]:
    return [d.item_id for d in Recognizer(library, piles=False).recognize(scene.image)]


def test_a_card_corrected_once_is_read_right_the_next_time_and_no_more_once_dropped(library):
    first, later = table((300, 280), 10, 1), table((520, 300), -25, 2)
    assert CARD not in read(library, first)  # the other copy is not this library's green-4
    library.add_sample(CARD, sample_of(first.image, first.truth[0].corners))
    assert read(library, later) == [CARD]  # elsewhere on the table, turned: read
    library.drop_sample(0)
    assert CARD not in read(library, later)


def test_a_thing_corrected_to_not_a_card_is_no_longer_read_as_one(library):
    scene = table((400, 280), 0, 3)
    misread = Recognizer(library, piles=False).recognize(scene.image)
    if not misread:  # read as nothing already: teach it on its outline all the same
        outline = scene.truth[0].corners
    else:
        outline = misread[0].corners
    library.add_sample(NOT_A_CARD, sample_of(scene.image, outline))
    try:
        assert read(library, table((380, 300), 15, 4)) == []
        # The cards themselves still read.
        clean = SceneRenderer(size=(1280, 720)).render(
            [Placement(ITEMS["red-3"], (300, 280), 5)], np.random.default_rng(5))
        assert read(library, clean) == ["red-3"]
    finally:
        library.drop_sample(len(library.samples) - 1)


def test_samples_are_kept_in_their_own_file_beside_the_library(library, tmp_path):
    scene = table((300, 280), 10, 1)
    library.add_sample(CARD, sample_of(scene.image, scene.truth[0].corners))
    try:
        path = samples_path(tmp_path / "cards.npz")
        assert path.name == "cards.samples.npz"
        save_samples(library, path)
        again = CardLibrary()
        for item in ITEMS.values():
            again.add_face(item.item_id, library.faces[library.ids.index(item.item_id)])
        load_samples(again, path)
        assert [i for i, _ in again.samples] == [CARD]
        assert np.array_equal(again.samples[0][1], library.samples[0][1])
        assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]
    finally:
        library.drop_sample(0)
    save_samples(library, path)  # none left: the file goes
    assert not path.exists()


def test_a_damaged_samples_file_is_one_clear_error_naming_it(tmp_path):
    path = tmp_path / "cards.samples.npz"
    path.write_bytes(b"not a zip")
    with pytest.raises(LibraryError, match="cards.samples.npz"):
        load_samples(CardLibrary(), path)


def test_a_sample_of_a_card_not_enrolled_is_refused(library):
    with pytest.raises(LibraryError, match="not an enrolled card"):
        library.add_sample("snake-girl", np.zeros((448, 320, 3), np.uint8))
