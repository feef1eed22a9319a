"""Cards as they lie in play: partly covered cards read layer by layer from the corners of
their cluster (``layers.py``), on real webcam photos of fans and overlapping pairs (the dev
set in ../shared/vision-dev, read from there and skipped where it is absent), and on drawn
tables where a card shows too little of itself to be read."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest
from vision_dev import DEV

from companion.vision.deck import card, draw_standard_face
from companion.vision.enrol import enrol_images
from companion.vision.layers import outline_corners
from companion.vision.library import CardLibrary, crop
from companion.vision.recognize import Recognizer
from companion.vision.sources import read_image

WEBCAM = DEV / "blackjack-webcam"
needs_webcam_set = pytest.mark.skipif(not (WEBCAM / "truth.json").is_file(),
                                      reason=f"no real photos at {WEBCAM}")


@pytest.fixture(scope="module")
def webcam() -> tuple[CardLibrary, list, dict]:
    scans = sorted((WEBCAM / "enroll").glob("*.jpg"))
    result = enrol_images([(p.stem, lambda p=p: read_image(p)) for p in scans])
    result.library.prepare()
    return result.library, result.skipped, json.loads((WEBCAM / "truth.json").read_text())


def matched(found, cards) -> tuple[int, int, int]:
    """(read, covered read, invented): a reading counts for the truth card of its id whose
    box holds its centre."""
    free = list(range(len(cards)))
    invented = 0
    for d in found:
        x, y = d.centre.tolist()
        hit = [i for i in free if cards[i]["id"] == d.item_id
               and cards[i]["box"][0] <= x <= cards[i]["box"][2]
               and cards[i]["box"][1] <= y <= cards[i]["box"][3]]
        if hit:
            free.remove(hit[0])
        else:
            invented += 1
    read = [i for i in range(len(cards)) if i not in free]
    return len(read), sum(cards[i]["covered"] for i in read), invented


@needs_webcam_set
def test_every_scan_cut_to_the_card_is_enrolled_whole(webcam):
    """52 scans, no margin, whites clipped; the ace of diamonds is a white card with one pip."""
    library, skipped, _ = webcam
    assert skipped == []
    assert len(library) == 52
    ace = library.faces[library.ids.index("AD")]
    # The whole card: white to its very edge, not the pip cut out.
    assert ace.shape[0] == 448 and ace[4:12, 4:-4].mean() > 200


def read_scene(webcam, name: str):
    """(read, covered read, invented, the readings) of one photo of the webcam set."""
    library, _, truth = webcam
    found = Recognizer(library).recognize(read_image(WEBCAM / "scenes" / name))
    return (*matched(found, truth[name]["cards"]), found)


@needs_webcam_set
def test_a_diagonal_fan_is_read_from_the_parts_that_show(webcam):
    """Seven cards fanned, each lower one 56-77 % in view: most are read, none invented."""
    read, covered, invented, found = read_scene(webcam, "scene6.jpg")
    assert invented == 0
    assert read >= 5 and covered >= 4
    assert len({d.item_id for d in found}) == len(found)  # each card reported once


@needs_webcam_set
def test_overlapping_pairs_are_read_top_and_bottom(webcam):
    read, covered, invented, _ = read_scene(webcam, "scene5.jpg")
    assert invented == 0
    assert read >= 6 and covered >= 2


@needs_webcam_set
def test_the_whole_webcam_set_is_read_with_most_covered_cards_and_none_invented(webcam):
    """Eight 640x480 webcam frames: fans, overlapping pairs, separate cards. A covered card is
    read from the part that shows when that part tells it from its look-alikes (the 6, 7 and
    8 of a suit by their index and a pip), else left out."""
    read = covered = invented = 0
    for name in sorted(webcam[2]):
        one = read_scene(webcam, name)
        read, covered, invented = read + one[0], covered + one[1], invented + one[2]
    assert invented == 0
    assert read >= 40 and covered >= 12, f"{read}/45 read, {covered}/16 covered"


def test_a_tight_crop_of_a_mostly_white_card_is_enrolled_whole():
    face = np.full((700, 500, 3), 246, np.uint8)
    cv2.fillConvexPoly(face, np.int32([[250, 300], [290, 350], [250, 400], [210, 350]]),
                       (40, 40, 210))
    cv2.putText(face, "A", (20, 70), cv2.FONT_HERSHEY_SIMPLEX, 1.6, (40, 40, 210), 3)
    enrolled = crop("ace", face)
    assert enrolled.shape[:2] == (448, 320)
    # The pip stays where it was printed, small, in the middle of a white card.
    assert enrolled[224, 160, 2] > 150 and enrolled[224, 160, 0] < 120
    assert enrolled[40:80, 200:300].mean() > 230


def test_a_tight_crop_of_a_card_printed_with_one_big_plain_shape_is_the_card_not_the_shape():
    face = np.full((700, 500, 3), 240, np.uint8)
    cv2.fillConvexPoly(face, np.int32([[250, 110], [430, 350], [250, 590], [70, 350]]),
                       (170, 90, 30))
    enrolled = crop("diamond", face)
    assert enrolled.shape[:2] == (448, 320)
    # The light rim of the card is kept all round; a crop of the shape would be all blue.
    for patch in (enrolled[:10], enrolled[-10:], enrolled[:, :10], enrolled[:, -10:]):
        assert patch.mean() > 200


def standard_library(ids: list[str]) -> CardLibrary:
    library = CardLibrary()
    for item_id in ids:
        library.add_face(item_id, crop(item_id, draw_standard_face(card(item_id))))
    library.prepare()
    return library


def lay(table: np.ndarray, face: np.ndarray, corners: np.ndarray) -> None:
    h, w = face.shape[:2]
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    warp = cv2.getPerspectiveTransform(src, corners.astype(np.float32))
    size = (table.shape[1], table.shape[0])
    card_img = cv2.warpPerspective(face, warp, size, flags=cv2.INTER_AREA)
    mask = cv2.warpPerspective(np.full((h, w), 255, np.uint8), warp, size)
    table[mask > 0] = card_img[mask > 0]


IDS = ["2hearts", "3hearts", "7clubs", "8clubs", "Kspades", "5diamonds"]


def test_a_card_covered_below_its_readable_part_is_left_out_not_guessed():
    """A card covered but for a sliver along one side (no corner index, no pip: a person
    could not tell which it is) is not read; the card over it is."""
    library = standard_library(IDS)
    table = np.full((600, 800, 3), (40, 70, 35), np.uint8)
    under = np.float32([[300, 150], [440, 150], [440, 346], [300, 346]])
    lay(table, draw_standard_face(card("3hearts")), under)
    # Over it, shifted 16 px: a white strip of its border is all that shows.
    lay(table, draw_standard_face(card("Kspades")), under + np.float32([16, 0]))
    found = Recognizer(library).recognize(table)
    assert [d.item_id for d in found] == ["Kspades"]


def overlapping_pair() -> np.ndarray:
    """A table with the 7 of clubs, and the 2 of hearts lying over half of it."""
    table = np.full((600, 800, 3), (40, 70, 35), np.uint8)
    under = np.float32([[260, 140], [400, 140], [400, 336], [260, 336]])
    lay(table, draw_standard_face(card("7clubs")), under)
    lay(table, draw_standard_face(card("2hearts")), under + np.float32([70, 90]))
    return table


def test_a_covered_card_whose_corner_shows_is_read_once():
    """Two cards overlapping by half: the top one whole, the one under it from its corner
    and the half in view; each once."""
    library, table = standard_library(IDS), overlapping_pair()
    found = Recognizer(library).recognize(table)
    assert sorted(d.item_id for d in found) == ["2hearts", "7clubs"]


def test_the_corners_of_a_cluster_are_where_its_cards_corners_are():
    """An L-shaped cluster of two cards: the convex corners are the cards' own, the notch
    where one card's side meets the other's is none."""
    mask = np.zeros((400, 400), np.uint8)
    cv2.rectangle(mask, (100, 100), (200, 240), 255, -1)
    cv2.rectangle(mask, (150, 180), (250, 320), 255, -1)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    points = sorted(tuple(np.round(c.point).astype(int).tolist())
                    for c in outline_corners(contours[0]))
    assert points == [(100, 100), (100, 240), (200, 100), (250, 180), (250, 320), (150, 320)]\
        or len(points) == 6 and (200, 180) not in points and (150, 240) not in points


def test_a_rounded_corner_cut_off_by_the_outlines_polygon_is_still_a_corner():
    """A card seen large: its rounded corner spans more than the polygon's tolerance, which
    cuts it off with a short chamfer (two vertices of about 135 degrees). The corner is
    where the sides either side of the chamfer meet, and both are whole sides."""
    mask = np.zeros((800, 600), np.uint8)
    outline = np.int32([[100, 100], [460, 100], [460, 630], [430, 660], [100, 660]])
    cv2.fillPoly(mask, [outline], 255)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    corners = outline_corners(contours[0])
    cut = [c for c in corners if np.linalg.norm(c.point - np.float32([460, 660])) < 4]
    assert len(cut) == 1, [c.point.round().tolist() for c in corners]
    assert sorted(round(s) for s in cut[0].straight) == pytest.approx([330, 530], abs=12)
    assert cut[0].whole == (True, True)
    assert len(corners) == 4  # the chamfer's own ends are no corners


def test_the_work_beyond_the_cards_read_whole_is_bounded_per_frame():
    """Clutter cannot blow a frame's time up: with no work allowed beyond the cards read
    whole, the covered card is left out (never guessed) and no more is compared."""
    from dataclasses import replace

    from companion.vision.detection import Thresholds

    library, table = standard_library(IDS), overlapping_pair()
    bounded = Recognizer(library, thresholds=replace(Thresholds(), most_compared=0))
    before = library.index.compared
    found = bounded.recognize(table)
    spent = library.index.compared - before
    assert [d.item_id for d in found] in ([], ["2hearts"])
    before = library.index.compared
    assert sorted(d.item_id for d in Recognizer(library).recognize(table)) == [
        "2hearts", "7clubs"]
    assert library.index.compared - before > spent


def test_a_light_patch_too_small_to_show_much_of_a_card_is_not_searched():
    """A card lying alone, read whole, and a light patch a tenth of its size (a card's
    corner, a cup's rim): no card shows 40 % of itself there, so no card is laid there. The
    patch's own outline is compared, once per cue that finds it (light, colour, edges), and
    nothing more (cards laid at its corners took four comparisons more)."""
    library = standard_library(IDS)
    alone = np.full((600, 800, 3), (40, 70, 35), np.uint8)
    lay(alone, draw_standard_face(card("7clubs")),
        np.float32([[260, 140], [400, 140], [400, 336], [260, 336]]))
    with_patch = alone.copy()
    cv2.fillPoly(with_patch, [np.int32([[600, 450], [650, 440], [660, 480], [610, 500]])],
                 (230, 232, 235))

    def compared(table: np.ndarray) -> tuple[list[str], int]:
        before = library.index.compared
        found = Recognizer(library).recognize(table)
        return [d.item_id for d in found], library.index.compared - before

    read, spent = compared(alone)
    assert read == ["7clubs"]
    read_too, spent_too = compared(with_patch)
    assert read_too == read and spent_too - spent <= 3, (spent, spent_too)
