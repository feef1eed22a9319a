"""A plain-shape deck of another printing on black cloth (``standins.set_on_cloth``): the deck
enrolled from crops of other photos, each with a cast of its own, the scenes' copy printed in
other inks. A thin print's colour weighs little in the whole faces' comparison, and how two
crops were cut can weigh more: the card's own ink, its paper set to grey, tells one print in
two colours apart. Each test reads one rendered photo with a rule and without it."""

from __future__ import annotations

import pytest
from rendered_reads import first_shortlist_only, read_at

from companion.vision import recognize, twins
from companion.vision.detection import Thresholds
from companion.vision.recognize import Recognizer
from companion.vision.standins import set_on_cloth


def _read_at(seed: int, photo: int, card: str) -> list[str]:
    """The cards read whose centre lies in ``card``'s box in the photo."""
    return read_at(set_on_cloth, seed, photo, card)


def _without_the_ink(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Recognizer, "_ink_struck", lambda self, image, scores: scores)


@pytest.mark.parametrize(("seed", "photo", "card", "twin"), [
    # One outline 0.92 as itself, 0.84 as its green twin; another 0.88 as the green twin.
    (6, 3, "purple-single-outline-diamond", "green-single-outline-diamond"),
    # Further down: 0.70 as itself, 0.86 as its purple twin (the two crops cut otherwise).
    (5, 4, "green-single-outline-diamond", "purple-single-outline-diamond"),
])
def test_a_thin_print_is_read_in_its_own_ink_not_its_twin_s(
        seed: int, photo: int, card: str, twin: str, monkeypatch: pytest.MonkeyPatch):
    assert _read_at(seed, photo, card) == [card]
    _without_the_ink(monkeypatch)
    first_shortlist_only(monkeypatch)  # since, it too keeps the twin out of one of them
    assert _read_at(seed, photo, card) == [twin]


def test_thick_stripes_leaning_a_little_to_their_striped_face_are_not_read_as_solid(
        monkeypatch: pytest.MonkeyPatch):
    # Ink spread: the stripes score 0.80, the solid shape 0.88; the print leans 0.06 to
    # the stripes. Checked against the stripes, the card is read as striped.
    assert _read_at(5, 6, "purple-triple-stripes-capsule") == ["purple-triple-stripes-capsule"]
    monkeypatch.setattr(recognize, "TWIN_DOUBT", Thresholds().twin_lean)
    # (and, as when the rule was made, the twin not compared the other way round too)
    monkeypatch.setattr(twins, "TURN_AS_ALIKE", float("-inf"))
    assert _read_at(5, 6, "purple-triple-stripes-capsule") == ["purple-triple-solid-capsule"]
