"""After enrolling, the deck examines itself: its own faces rendered into trial scenes and
read back; cards it cannot read or tell apart are named (with the look-alike), marked on the
contact sheet and printed by ``vision enroll``; ``--no-check`` leaves the check out."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.cli import main
from companion.commands.game_art import game_items
from companion.vision.art import draw_face
from companion.vision.enrol import MARK, contact_sheet, enrol_images
from companion.vision.library import CardLibrary
from companion.vision.selfcheck import ROUNDS, examine, likeness

SMALL = (800, 600)


def demo_faces(count: int) -> dict[str, np.ndarray]:
    return {item.item_id: draw_face(item) for item in game_items("tricky")[:count]}


def library_of(faces: dict[str, np.ndarray]) -> CardLibrary:
    library = CardLibrary()
    for item_id, face in faces.items():
        library.add_face(item_id, face)
    return library


@pytest.fixture(scope="module")
def twin_check():
    """Seven demo faces, the first enrolled a second time under another id."""
    faces = demo_faces(7)
    first = next(iter(faces))
    faces["same-as-first"] = faces[first].copy()
    return first, examine(library_of(faces), size=SMALL)


def test_two_identical_faces_under_different_ids_are_reported_as_not_told_apart(twin_check):
    first, check = twin_check
    pairs = {frozenset(p[:2]): p[2] for p in check.not_told_apart()}
    assert pairs.get(frozenset((first, "same-as-first")), 0) > 0.97
    marks = check.marks()
    assert marks[first] == "~ same-as-first" and marks["same-as-first"] == f"~ {first}"
    assert any(line.startswith(f"  not told apart: {first} and same-as-first")
               or line.startswith(f"  not told apart: same-as-first and {first}")
               for line in check.lines())


def test_every_card_lies_in_one_trial_scene_a_round_and_distinct_faces_are_read(twin_check):
    first, check = twin_check
    assert all(t.apart + t.covered == ROUNDS for t in check.trials.values())
    others = [c for c in check.trials if c not in (first, "same-as-first")]
    # The other demo faces are plainly distinct: each is read lying apart, none taken for
    # another, and none is named as a look-alike.
    for card in others:
        trials = check.trials[card]
        assert trials.apart_read == trials.apart, card
        assert not trials.read_as, card
    named = {c for p in check.not_told_apart() for c in p[:2]}
    assert named == {first, "same-as-first"}
    assert check.lines()[0].startswith(f"self-check: 8 cards in {check.scenes} trial scenes")


def test_likeness_is_one_for_the_same_face_and_lower_for_another():
    faces = demo_faces(3)
    faces["again"] = next(iter(faces.values()))
    alike = likeness(library_of(faces))
    assert alike.shape == (4, 4) and np.allclose(np.diag(alike), 1.0, atol=1e-5)
    assert alike[0, 3] > 0.99 and alike[0, 1] < 0.9


def test_the_contact_sheet_frames_a_marked_card_in_red():
    library = library_of(demo_faces(3))
    plain = contact_sheet(library)
    marked = contact_sheet(library, marks={library.ids[1]: "not read"})
    assert marked.shape[0] > plain.shape[0]  # room for the mark under the id
    changed = np.any(marked[:plain.shape[0] - 20] != plain[:plain.shape[0] - 20], axis=2)
    assert changed[:, 140:280].any() and not changed[:, :140].any()
    assert not changed[:, 280:].any()
    assert np.all(marked[:, 140:280] == MARK, axis=2).sum() > 200  # a red frame


def test_enrol_images_checks_the_deck_only_when_asked():
    faces = demo_faces(4)
    photos = [(i, lambda face=face: face) for i, face in faces.items()]
    assert enrol_images(photos).check is None
    result = enrol_images(photos, check=True)
    assert result.check is not None and set(result.check.trials) == set(faces)


def test_vision_enroll_prints_the_self_check_and_marks_the_sheet(tmp_path, capsys):
    folder = tmp_path / "cards"
    folder.mkdir()
    faces = demo_faces(5)
    faces["twin"] = next(iter(faces.values()))
    for item_id, face in faces.items():
        assert cv2.imwrite(str(folder / f"{item_id}.png"), face)
    out = tmp_path / "deck.npz"
    assert main(["vision", "enroll", str(folder), "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "enrolled 6 cards" in printed and "self-check: 6 cards in" in printed
    assert "not told apart:" in printed and "twin" in printed
    sheet = cv2.imread(str(tmp_path / "deck.sheet.png"))
    assert np.all(sheet == MARK, axis=2).any()
    assert main(["vision", "enroll", str(folder), "--out", str(out), "--no-check"]) == 0
    printed = capsys.readouterr().out
    assert "enrolled 6 cards" in printed and "self-check" not in printed


def test_a_card_printed_alike_in_another_colour_is_not_read_from_its_grey_keypoints():
    """A colour-and-number deck's red 8 and green 8 share every grey keypoint: the feature
    matcher named the wrong colour three times in the deck's trial scenes (the part in view
    was checked against the named face alone). Now that face must be the one the part in
    view looks most like."""
    from companion.vision.standins import number_photos

    library = enrol_images(number_photos(np.random.default_rng(1), photos=1).enrol).library
    library.prepare()
    check = examine(library)
    misread = {card: dict(trial.read_as) for card, trial in check.trials.items()
               if trial.read_as}
    assert misread == {}
