"""How the card library is kept (issue 17, memory on a Pi): the file's faces are read in place
and leave memory once the matching data are derived; the faces' keypoints travel in the file
as bytes and are exactly those found from the faces; an older file (compressed, without
keypoints) still reads the same; the feature matcher finds the same pairs whichever way the
keypoints came and however many forests were built before."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import numpy as np
import pytest

from companion.commands.game_art import game_items
from companion.daemon.camera import library_for
from companion.vision.art import draw_face
from companion.vision.features import ratio_test
from companion.vision.library import CardLibrary, LibraryError


@pytest.fixture(scope="module")
def enrolled() -> CardLibrary:
    library = CardLibrary()
    for item in game_items("tricky")[:12]:
        library.enroll(item.item_id, draw_face(item))
    return library


def older_file(path: Path, library: CardLibrary) -> None:
    """A library as written before keypoints were kept: compressed, faces only."""
    header = {"format": "companion-card-library", "version": 1, "ids": library.ids}
    np.savez_compressed(path, header=np.array(json.dumps(header)),
                        **{f"face_{n}": face for n, face in enumerate(library.faces)})


def resident_kb(path: Path) -> int:
    """Resident kilobytes of this process's mappings of ``path`` (/proc/self/smaps)."""
    total, inside = 0, False
    for line in Path("/proc/self/smaps").read_text().splitlines():
        if line[:1].isalnum() and "-" in line.split(" ", 1)[0]:
            inside = line.endswith(str(path))
        elif inside and line.startswith("Rss:"):
            total += int(line.split()[1])
    return total


def pairs(library: CardLibrary, query: CardLibrary) -> tuple[list[int], list[int]]:
    features = library.features
    descriptors = query.sift.descriptors.astype(np.float32)
    return ratio_test(features["index"], descriptors, features["owners"])


def test_a_saved_library_reads_back_its_faces_in_place_and_its_keypoints(
        tmp_path: Path, enrolled: CardLibrary) -> None:
    path = tmp_path / "cards.npz"
    enrolled.save(path)
    library = CardLibrary.load(path)
    assert library.ids == enrolled.ids and library.keypoints_read
    for face, original in zip(library.faces, enrolled.faces, strict=True):
        assert np.array_equal(face, original)
        assert not face.flags.writeable  # the file itself, read-only
    found = CardLibrary()
    for item_id, face in zip(enrolled.ids, enrolled.faces, strict=True):
        found.add_face(item_id, face)
    for name in ("points", "descriptors", "owners"):  # as found from the faces, exactly
        assert np.array_equal(getattr(library.sift, name), getattr(found.sift, name)), name
    assert library.sift.descriptors.dtype == np.uint8


@pytest.mark.skipif(not Path("/proc/self/smaps").exists(), reason="Linux /proc only")
def test_the_faces_leave_memory_as_the_index_reads_them_and_come_back_when_looked_at(
        tmp_path: Path, enrolled: CardLibrary) -> None:
    path = tmp_path / "cards.npz"
    enrolled.save(path)
    library = CardLibrary.load(path)
    assert resident_kb(path) < 100  # the members' headers are read from the file, not mapped
    library.index  # noqa: B018 - reads every face, one at a time, each let go once read
    faces_kb = sum(face.nbytes for face in library.faces) / 1024
    assert resident_kb(path) < faces_kb / 4  # at most the pages a face shares with the next
    for face, original in zip(library.faces, enrolled.faces, strict=True):
        assert np.array_equal(face, original)  # from the page cache
    assert resident_kb(path) > 1000
    library.prepare()
    assert resident_kb(path) < 100


def test_an_older_compressed_file_without_keypoints_reads_the_same(
        tmp_path: Path, enrolled: CardLibrary) -> None:
    path = tmp_path / "old.npz"
    older_file(path, enrolled)
    old = CardLibrary.load(path)
    assert not old.keypoints_read
    assert all(np.array_equal(a, b) for a, b in zip(old.faces, enrolled.faces, strict=True))
    enrolled.save(tmp_path / "new.npz")
    new = CardLibrary.load(tmp_path / "new.npz")
    assert pairs(old, enrolled) == pairs(new, enrolled)
    assert len(pairs(new, enrolled)[0]) > 100


def test_the_matcher_finds_the_same_pairs_however_many_forests_came_before(
        tmp_path: Path, enrolled: CardLibrary) -> None:
    enrolled.save(tmp_path / "cards.npz")
    first = pairs(CardLibrary.load(tmp_path / "cards.npz"), enrolled)
    for _ in range(2):  # other forests built in between draw from the same generator
        CardLibrary.load(tmp_path / "cards.npz").features  # noqa: B018
    assert pairs(CardLibrary.load(tmp_path / "cards.npz"), enrolled) == first


def test_stored_keypoints_that_are_not_whole_are_found_again(
        tmp_path: Path, enrolled: CardLibrary, caplog: pytest.LogCaptureFixture) -> None:
    path = tmp_path / "cards.npz"
    sift = enrolled.sift
    header = {"format": "companion-card-library", "version": 1, "ids": enrolled.ids,
              "features": "sift-400"}
    np.savez(path, header=np.array(json.dumps(header)),
             **{f"face_{n}": face for n, face in enumerate(enrolled.faces)},
             sift_points=sift.points, sift_descriptors=sift.descriptors,
             sift_owners=sift.owners + len(enrolled.ids))  # owners beyond the faces
    with caplog.at_level(logging.WARNING):
        library = CardLibrary.load(path)
    assert not library.keypoints_read and "found again" in caplog.text
    assert np.array_equal(library.sift.owners, sift.owners)


def test_a_member_shorter_than_its_header_says_is_one_clear_error(
        tmp_path: Path, enrolled: CardLibrary) -> None:
    import zipfile

    path = tmp_path / "cards.npz"
    enrolled.save(path)
    crafted = tmp_path / "crafted.npz"
    with zipfile.ZipFile(path) as source, zipfile.ZipFile(crafted, "w") as target:
        for member in source.infolist():
            data = source.read(member)
            target.writestr(member, data[:-1000] if member.filename == "face_0.npy" else data)
    with pytest.raises(LibraryError, match="crafted.npz"):
        CardLibrary.load(crafted)


def test_the_demo_library_kept_by_an_older_version_is_kept_again_with_its_keypoints(
        tmp_path: Path) -> None:
    library = library_for(("tricky",), "", tmp_path)
    (kept,) = tmp_path.glob("demo-cards-*.npz")
    older_file(kept, library)
    again = library_for(("tricky",), "", tmp_path)
    assert again.ids == library.ids
    assert CardLibrary.load(kept).keypoints_read


def test_a_kept_demo_library_that_cannot_be_written_again_is_still_used_as_read(
        tmp_path: Path, monkeypatch) -> None:
    library = library_for(("tricky",), "", tmp_path)
    (kept,) = tmp_path.glob("demo-cards-*.npz")
    older_file(kept, library)

    def read_only(self, path):  # a state folder gone read-only, or full
        raise OSError(30, "Read-only file system")

    enrolled = []
    monkeypatch.setattr(CardLibrary, "save", read_only)
    monkeypatch.setattr(CardLibrary, "enroll", lambda self, *a: enrolled.append(a))
    again = library_for(("tricky",), "", tmp_path)
    assert again.ids == library.ids and not enrolled  # read, not enrolled all over again
