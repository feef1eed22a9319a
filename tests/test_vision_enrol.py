"""Enrolment a person can trust: every card found on any surface, also touching the photo's
edge or scanned alone; a photo with no card, or a card cut by the edge, named and skipped;
the rest never lost; a contact sheet written; the library written atomically; huge images
and crafted library files refused in one line."""

from __future__ import annotations

import numpy as np
import pytest

from companion.cli import main
from companion.vision.deck import card, draw_standard_face, standard_deck
from companion.vision.enrol import enrol_images
from companion.vision.library import CardLibrary, LibraryError
from companion.vision.photo import empty_photo, enrolment_photo, scan_photo

CARDS = ["7clubs", "8clubs", "Adiamonds", "Ahearts", "Qspades"]


def write(path, image) -> None:
    import cv2

    assert cv2.imwrite(str(path), image)


def corner_error(face: np.ndarray, item_id: str) -> float:
    """How far the enrolled face is from the clean face, as a correlation shortfall."""
    import cv2

    from companion.vision.faces import CARD_GRID, pattern, unit

    clean = cv2.resize(draw_standard_face(card(item_id)), CARD_GRID, interpolation=cv2.INTER_AREA)
    got = cv2.resize(face, CARD_GRID, interpolation=cv2.INTER_AREA)
    a, b = unit(pattern(clean)), unit(pattern(got))
    return 1.0 - max(float(a @ b), float(a @ unit(pattern(got[::-1, ::-1].copy()))))


@pytest.mark.parametrize("kind", ["dark", "light"])
def test_a_vignetted_photo_on_any_surface_gives_the_whole_card(kind):
    rng = np.random.default_rng(11)
    surface = "cloth" if kind == "dark" else "wood"
    for item_id in CARDS:
        photo = enrolment_photo(draw_standard_face(card(item_id)), rng, size=(600, 800),
                                surface_kind=surface, cut=False)
        library = CardLibrary()
        library.enroll(item_id, photo.image)
        assert corner_error(library.faces[0], item_id) < 0.12, item_id


def test_a_card_filling_the_photo_to_its_edge_and_a_scan_are_enrolled():
    rng = np.random.default_rng(5)
    face = draw_standard_face(card("Kclubs"))
    filling = enrolment_photo(face, rng, size=(600, 800), fill=0.9, cut=False)
    scan = scan_photo(face, rng, width=400)
    for photo in (filling, scan):
        library = CardLibrary()
        library.enroll("Kclubs", photo.image)
        assert corner_error(library.faces[0], "Kclubs") < 0.12


def test_one_bad_photo_never_stops_the_rest_and_each_is_named(tmp_path, capsys):
    rng = np.random.default_rng(2)
    folder = tmp_path / "photos"
    folder.mkdir()
    for item_id in CARDS:
        write(folder / f"{item_id}.jpg",
              enrolment_photo(draw_standard_face(card(item_id)), rng, size=(600, 800),
                              cut=False).image)
    write(folder / "2spades.png", scan_photo(draw_standard_face(card("2spades")), rng).image)
    write(folder / "nothing.jpg", empty_photo(rng, size=(600, 800)).image)
    (folder / "broken.jpg").write_bytes(b"not an image")
    out = tmp_path / "deck.npz"
    assert main(["vision", "enroll", str(folder), "--out", str(out)]) == 0
    printed, errors = capsys.readouterr()
    assert "enrolled 6 cards" in printed and "skipped 2" in printed
    assert "nothing: no card found" in errors and "broken.jpg: not a readable image" in errors
    assert sorted(CardLibrary.load(out).ids) == sorted([*CARDS, "2spades"])
    assert (tmp_path / "deck.sheet.png").stat().st_size > 0


def test_a_card_cut_by_the_photo_edge_is_skipped_not_enrolled_as_part_of_a_card():
    rng = np.random.default_rng(8)
    faces = {item.item_id: draw_standard_face(item) for item in standard_deck()[:8]}
    photos = [(item_id, enrolment_photo(face, rng, size=(600, 800), cut=False).image)
              for item_id, face in faces.items()]
    cut = enrolment_photo(faces["5spades"], rng, size=(600, 800), fill=0.6, cut=True)
    photos[4] = ("5spades", cut.image)
    result = enrol_images([(i, lambda image=image: image) for i, image in photos])
    kept = set(result.library.ids)
    # Either the cut still left the whole card in view, or it is named and skipped.
    if "5spades" in kept:
        assert corner_error(result.library.faces[result.library.ids.index("5spades")],
                            "5spades") < 0.12
    else:
        assert any("cut by the photo's edge" in reason for _, reason in result.skipped)
    assert kept >= set(faces) - {"5spades"}


def test_no_card_at_all_is_exit_2_and_nothing_written(tmp_path, capsys):
    folder = tmp_path / "empty"
    folder.mkdir()
    write(folder / "table.jpg", empty_photo(np.random.default_rng(1), size=(400, 300)).image)
    assert main(["vision", "enroll", str(folder), "--out", str(tmp_path / "x.npz")]) == 2
    assert "no card could be enrolled" in capsys.readouterr().err
    assert not (tmp_path / "x.npz").exists()


def test_the_library_is_written_atomically_and_bad_targets_are_one_line(tmp_path):
    library = CardLibrary()
    library.add_face("orc", draw_standard_face(card("Aspades")))
    target = tmp_path / "lib.npz"
    library.save(target)
    before = target.read_bytes()
    with pytest.raises(LibraryError, match="is a folder"):
        library.save(tmp_path)
    with pytest.raises(LibraryError, match="no such folder"):
        library.save(tmp_path / "missing" / "lib.npz")
    assert target.read_bytes() == before
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


@pytest.mark.parametrize("crafted", ["list-header", "int-ids", "empty-file", "flat-face",
                                     "float-face"])
def test_crafted_library_files_are_one_clear_error(tmp_path, crafted):
    import json

    path = tmp_path / "lib.npz"
    header = {"format": "companion-card-library", "version": 1, "ids": ["a"]}
    face = np.zeros((448, 320, 3), np.uint8)
    if crafted == "list-header":
        header = ["a"]
    elif crafted == "int-ids":
        header["ids"] = 7
    elif crafted == "flat-face":
        face = np.zeros(10, np.uint8)
    elif crafted == "float-face":
        face = np.zeros((448, 320, 3), np.float64)
    if crafted == "empty-file":
        path.write_bytes(b"")
    else:
        with open(path, "wb") as out:
            np.savez(out, header=np.array(json.dumps(header)), face_0=face)
    with pytest.raises(LibraryError, match="lib.npz"):
        CardLibrary.load(path)


def test_an_image_too_large_to_decode_is_refused_from_its_header(tmp_path, capsys):
    import struct
    import zlib

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))

    huge = tmp_path / "huge.png"
    huge.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 100000,
                                                                      100000, 8, 2, 0, 0, 0))
                     + chunk(b"IDAT", zlib.compress(b"\0" * 16)) + chunk(b"IEND", b""))
    library = CardLibrary()
    library.add_face("orc", draw_standard_face(card("Aspades")))
    lib = tmp_path / "lib.npz"
    library.save(lib)
    assert main(["vision", "recognize", "--library", str(lib), str(huge)]) == 2
    assert "too large an image" in capsys.readouterr().err
    # Enrolment names it and goes on with the rest (here: nothing else, so exit 2).
    folder = tmp_path / "photos"
    folder.mkdir()
    huge.rename(folder / "orc.png")
    assert main(["vision", "enroll", str(folder), "--out", str(tmp_path / "x.npz")]) == 2
    assert "orc.png: too large an image" in capsys.readouterr().err


def test_a_large_photo_is_read_at_working_size_with_corners_in_its_own_pixels(tmp_path,
                                                                             capsys):
    import json

    import cv2

    rng = np.random.default_rng(4)
    face = draw_standard_face(card("Qspades"))
    library = CardLibrary()
    library.add_face("Qspades", cv2.resize(face, (320, 448), interpolation=cv2.INTER_AREA))
    for item in standard_deck()[:6]:
        library.add_face(item.item_id, cv2.resize(draw_standard_face(item), (320, 448)))
    lib = tmp_path / "lib.npz"
    library.save(lib)
    photo = enrolment_photo(face, rng, size=(4500, 6000), fill=0.3, cut=False)
    path = tmp_path / "big.jpg"
    write(path, photo.image)
    assert main(["vision", "recognize", "--library", str(lib), str(path), "--json"]) == 0
    (result,) = json.loads(capsys.readouterr().out)
    (found,) = [f for f in result["found"] if f["id"] == "Qspades"]
    corners = np.float32(found["corners"])
    error = min(float(np.abs(np.roll(corners, k, axis=0) - photo.corners).max())
                for k in range(4))
    assert error < 0.02 * 6000


def test_a_full_disk_or_a_read_only_folder_leaves_the_library_there_whole(tmp_path):
    """Real faults (a 256 KiB tmpfs filled to the last byte, a read-only bind mount) in a
    user and mount namespace; skipped where there is none."""
    import sys

    import sandbox

    photos = tmp_path / "photos"
    photos.mkdir()
    rng = np.random.default_rng(3)
    for item_id in CARDS[:3]:
        write(photos / f"{item_id}.jpg", enrolment_photo(draw_standard_face(card(item_id)),
                                                         rng, size=(600, 800), cut=False).image)
    full, locked = tmp_path / "full", tmp_path / "locked"
    full.mkdir()
    locked.mkdir()
    companion = f"{sys.executable} -m companion.cli"
    script = (
        f"mount -t tmpfs -o size=256k tmpfs {full} && "
        f"{sys.executable} -c \""
        f"from companion.vision.library import CardLibrary; import numpy as np; "
        f"l = CardLibrary(); l.add_face('old', np.full((60, 40, 3), 9, np.uint8)); "
        f"l.save('{full}/lib.npz'); l.save('{locked}/lib.npz')\" && "
        f"head -c 100000000 /dev/zero > {full}/filler 2>/dev/null; "
        f"{companion} vision enroll {photos} --out {full}/lib.npz; echo \"full=$?\"; "
        f"{sys.executable} -c \"from companion.vision.library import CardLibrary; "
        f"print('kept', CardLibrary.load('{full}/lib.npz').ids)\"; "
        f"ls -a {full}; "
        f"mount --bind -o ro {locked} {locked} && "
        f"{companion} vision enroll {photos} --out {locked}/lib.npz; echo \"locked=$?\"; "
        f"{sys.executable} -c \"from companion.vision.library import CardLibrary; "
        f"print('kept', CardLibrary.load('{locked}/lib.npz').ids)\""
    )
    done = sandbox.run(script)
    out = done.stdout + done.stderr
    assert "full=2" in out and "locked=2" in out, out
    assert out.count("kept ['old']") == 2, out
    assert "cannot write the library" in out and "Traceback" not in out, out
    assert ".tmp" not in out, out


def _set_like_crop(shape: str, count: int, rng: np.random.Generator) -> np.ndarray:
    """A tight crop of a white card printed with plain shapes, as a phone photo cropped to
    the card gives it: a warm cast, the rim a little darker than the middle (vignetting)."""
    import cv2

    h, w = 300, 450
    ys, xs = np.mgrid[0:h, 0:w]
    shade = 1 - 0.12 * (((xs - w / 2) / w) ** 2 + ((ys - h / 2) / h) ** 2) * 4
    card_image = (np.float32([214, 222, 232])[None, None] * shade[..., None]).astype(np.uint8)
    colour = [(40, 150, 40), (140, 40, 120), (40, 60, 220)][int(rng.integers(3))]
    for k in range(count):
        cx = int(w / 2 + (k - (count - 1) / 2) * 120)
        if shape == "diamond":
            cv2.fillConvexPoly(card_image, np.int32([[cx, 70], [cx + 45, 150], [cx, 230],
                                                     [cx - 45, 150]]), colour)
        else:
            cv2.rectangle(card_image, (cx - 40, 75), (cx + 40, 225), colour, cv2.FILLED)
    return cv2.GaussianBlur(card_image, (3, 3), 0)


def test_tight_crops_of_a_deck_printed_with_plain_shapes_are_enrolled_as_whole_cards():
    """SET-like crops: the image is the card; a printed rhombus or bar is never the card,
    and a rim a little darker than the middle still reads as the card's own."""
    rng = np.random.default_rng(3)
    crops = {f"{shape}-{count}": _set_like_crop(shape, count, rng)
             for shape in ("diamond", "bar") for count in (1, 2, 3)}
    result = enrol_images([(i, lambda image=image: image) for i, image in crops.items()])
    assert result.skipped == []
    for face in result.library.faces:
        assert face.shape[:2] == (448, 299)  # the whole 450x300 crop, upright
        for rim in (face[:6], face[-6:], face[:, :6], face[:, -6:]):
            assert rim.mean() > 150  # the card's light rim, not a shape's colour


def test_a_deck_photographed_on_light_wood_is_enrolled_card_by_card_not_as_whole_photos():
    rng = np.random.default_rng(12)
    photos = [(item_id, enrolment_photo(draw_standard_face(card(item_id)), rng, size=(600, 800),
                                        surface_kind="wood", cut=False).image)
              for item_id in CARDS]
    result = enrol_images([(i, lambda image=image: image) for i, image in photos])
    assert result.skipped == []
    for item_id, face in zip(result.library.ids, result.library.faces, strict=True):
        assert corner_error(face, item_id) < 0.12, item_id


def test_a_bare_light_table_among_tight_crops_is_named_and_skipped_not_enrolled():
    """A light rim and a grain do not make a photo of a bare wooden table a card: it is not
    shaped like the deck's cards."""
    from companion.vision.conditions import Conditions
    from companion.vision.synthetic import SceneRenderer

    rng = np.random.default_rng(4)
    crops = {f"diamond-{count}": _set_like_crop("diamond", count, rng) for count in (1, 2, 3)}
    crops["table"] = SceneRenderer(size=(400, 300)).render([], rng, Conditions("wood")).image
    result = enrol_images([(i, lambda image=image: image) for i, image in crops.items()])
    assert sorted(result.library.ids) == ["diamond-1", "diamond-2", "diamond-3"]
    assert [item for item, _ in result.skipped] == ["table"]


def test_a_card_whose_white_rim_barely_stands_out_from_light_wood_is_enrolled_rim_and_all():
    """A colour-and-number card (UNO's kind) on light wood: its white rim stands out from the
    wood far less than the coloured field printed inside it does, yet the card is the rim and
    all, never the field (enrolled as its field, a blue 0 on the table read as the blue 8)."""
    import cv2

    from companion.vision.art import draw_face
    from companion.vision.deck import NUMBER_MM, number_deck

    rng = np.random.default_rng(1)
    for surface in ("oak", "wood"):
        for item in number_deck()[::2]:
            photo = enrolment_photo(draw_face(item), rng, size=(600, 800), surface_kind=surface,
                                    cut=False, fill=float(rng.uniform(0.3, 0.6)))
            library = CardLibrary()
            library.enroll(item.item_id, photo.image)
            face = library.faces[0]
            h, w = face.shape[:2]
            assert abs(h / w / (NUMBER_MM[1] / NUMBER_MM[0]) - 1) < 0.08, (surface, item.item_id)
            # Along the middle of each side, the rim: white paper, not the field's colour.
            saturation = cv2.cvtColor(face, cv2.COLOR_BGR2HSV)[..., 1]
            for band in (saturation[3:7, w // 4:-w // 4], saturation[-7:-3, w // 4:-w // 4],
                         saturation[h // 4:-h // 4, 3:7], saturation[h // 4:-h // 4, -7:-3]):
                assert float(np.median(band)) < 80, (surface, item.item_id)
