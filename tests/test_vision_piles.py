"""Piles of identical cards (a Deathtrap play of several cards of one kind): every copy is
its own detection, and a copy is never invented."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from companion.commands.game_art import demo_library, game_items
from companion.vision.recognize import Recognizer
from companion.vision.synthetic import Conditions, SceneRenderer


@pytest.fixture(scope="module")
def library():
    lib = demo_library("deathtrap")
    lib.prepare()
    return lib


def plays(style: str, count: int, seed: int):
    """Rendered plays: 2-5 copies of one card laid ``style`` beside 3 other cards."""
    items = game_items("deathtrap")
    renderer = SceneRenderer(size=(1280, 720))
    rng = np.random.default_rng(seed)
    for _ in range(count):
        item = items[int(rng.integers(0, len(items)))]
        placed = renderer.scatter(rng, [i for i in items if i.item_id != item.item_id], 3, 0, 0)
        copies = int(rng.integers(2, 6))
        placed += renderer.pile(rng, item, (400.0, 280.0), copies, style)
        yield renderer.render(placed, rng, Conditions("felt", noise=2), renderer.camera(rng), ()), \
            item.item_id, copies


@pytest.fixture(scope="module")
def counted(library):
    """Per style, (copies laid, copies of that card read, a card of another kind read) for
    ten rendered plays."""
    recognizer = Recognizer(library)
    out = {}
    for style in ("offset", "fan", "loose"):
        out[style] = []
        for scene, item_id, copies in plays(style, 10, seed=3):
            found = recognizer.recognize(scene.image)
            other = Counter(d.item_id for d in found) - Counter(t.item_id for t in scene.truth)
            out[style].append((copies, sum(d.item_id == item_id for d in found), bool(other)))
    return out


@pytest.mark.parametrize("style", ["offset", "fan", "loose"])
def test_the_copies_of_a_pile_are_counted_and_none_invented(counted, style):
    for copies, read, other in counted[style]:
        assert read <= copies  # a copy is never invented
        assert not other  # nor a card of another kind
    exact = sum(read == copies for copies, read, _ in counted[style])
    # The thinnest strip of a fan's last card is the one most often missed.
    assert exact >= 7, f"{exact} of 10 {style} piles counted exactly"


def test_most_piles_are_counted_exactly(counted):
    exact = sum(read == copies for plays in counted.values() for copies, read, _ in plays)
    assert exact >= 25, f"{exact} of 30 piles counted exactly"


def test_without_the_pile_search_only_the_top_card_is_read(library):
    scene, item_id, copies = next(plays("offset", 1, seed=5))
    assert copies > 1
    alone = Recognizer(library, piles=False).recognize(scene.image)
    searched = Recognizer(library).recognize(scene.image)
    assert sum(d.item_id == item_id for d in alone) == 1
    assert sum(d.item_id == item_id for d in searched) > 1


def test_a_pile_put_down_in_a_seat_s_zone_is_that_seat_s_play_of_every_copy(library):
    from companion.bundles.deathtrap.camera import deathtrap_events
    from companion.vision.layout import TableLayout
    from companion.vision.synthetic import Placement
    from companion.vision.watch import TableWatcher

    renderer = SceneRenderer(TableLayout(seats=4), size=(1280, 720))
    troll = next(i for i in game_items("deathtrap") if i.item_id == "troll")
    rng = np.random.default_rng(11)
    camera = renderer.camera(rng)
    before = renderer.render([Placement(troll, (400.0, 280.0), 10.0)], rng,
                             Conditions("felt", noise=2), camera)
    # Seat 1 sits at the middle of the left edge: three trolls laid in a row before it.
    pile = renderer.pile(rng, troll, (130.0, 280.0), 3, "offset")
    after = renderer.render([Placement(troll, (400.0, 280.0), 10.0), *pile], rng,
                            Conditions("felt", noise=2), camera)
    watcher = TableWatcher(library, renderer.layout)
    seen = [watcher.see(frame.image).scene for frame in (before, after)]
    assert deathtrap_events(*seen) == [{"type": "play", "seat": 1,
                                        "cards": ["troll", "troll", "troll"]}]


def test_copies_are_looked_for_under_the_cards_of_the_games_played_in_piles(library):
    from companion.daemon.camera import pile_cards
    from companion.games.registry import pile_games

    assert pile_games() == ("deathtrap",)
    ids = pile_cards()
    assert {i.item_id for i in game_items("deathtrap")} == ids
    assert not ids & {i.item_id for i in game_items("tricky")}
    scene, item_id, copies = next(plays("offset", 1, seed=5))
    under_these = Recognizer(library, piles=ids).recognize(scene.image)
    under_others = Recognizer(library, piles=frozenset({"not-this-card"})).recognize(scene.image)
    assert sum(d.item_id == item_id for d in under_these) == copies
    assert sum(d.item_id == item_id for d in under_others) == 1


def test_a_face_enrolled_after_the_first_pile_is_compared_too(library):
    from companion.vision.agreement import Agreement

    faces = list(library.faces[:3])
    agreement = Agreement(faces)
    scene, _, _ = next(plays("offset", 1, seed=5))
    place = np.float32([[100, 100], [160, 100], [160, 190], [100, 190]])
    assert len(agreement(scene.image, place, [])) == 3
    faces.append(library.faces[3])
    assert len(agreement(scene.image, place, [])) == 4



def test_a_top_card_read_a_few_pixels_off_is_lined_up_before_its_copies_are_looked_for(
        library):
    from dataclasses import replace

    from companion.vision.detection import Thresholds, touches
    from companion.vision.piles import PileReader

    recognizer = Recognizer(library)
    reader = PileReader(library, Thresholds())
    exact = shifted = 0
    for seed in (5, 6):
        for style in ("offset", "fan", "loose"):
            scene, item_id, _ = next(plays(style, 1, seed=seed))
            found = recognizer.recognize(scene.image)
            truth = max((t for t in scene.truth if t.item_id == item_id),
                        key=lambda t: t.visible)
            top = min((d for d in found if d.item_id == item_id),
                      key=lambda d: np.abs(d.corners - truth.corners).max())
            blob = next(b for b in recognizer.finder.find(scene.image).blobs
                        if touches(top.corners, b))
            others = [d for d in found if d.item_id != item_id]
            exact += 2 * len(reader.copies(scene.image, blob, top, [top, *others]))
            # The same top card, its outline 6-7 px off, as a guess inside the blob can be.
            for move in ((6, -5), (-5, 7)):
                off = replace(top, corners=top.corners + np.float32(move))
                shifted += len(reader.copies(scene.image, blob, off, [off, *others]))
    # Not lined up first, about 70 % of the copies were found from such a top.
    assert shifted >= 0.85 * exact, f"{shifted} of {exact}"


def test_the_search_offers_the_copy_left_under_a_tight_row_not_the_copies_found(library):
    """Five small copies in a tight row (13 px apart), the top and three found: places at the
    found copies still match the strips beside them, yet the search offers the last copy
    (it offered none when those places took every slot)."""
    import cv2

    from companion.vision.piles import copies_under

    face = library.faces[library.ids.index("zombie")]
    w, h = 60, 84
    box = np.float32([[0, 0], [face.shape[1], 0], [face.shape[1], face.shape[0]],
                      [0, face.shape[0]]])
    image = np.full((260, 360, 3), 40, np.uint8)
    quads = [np.float32([[x, 70], [x + w, 70], [x + w, 70 + h], [x, 70 + h]])
             for x in range(100, 165, 13)]
    for quad in quads:  # the first laid lowest
        card = cv2.warpPerspective(face, cv2.getPerspectiveTransform(box, quad), (360, 260))
        cv2.fillConvexPoly(image, quad.astype(np.int32), (0, 0, 0))
        image = np.maximum(image, card)
    image = cv2.GaussianBlur(image, (3, 3), 0.8)
    region = np.float32([[99, 69], [213, 69], [213, 155], [99, 155]])
    top, found = quads[-1], (quads[3], quads[2], quads[1])
    for most in (1, 3):
        places = copies_under(image, region, top, face, most, found, found[-1])
        assert places, most
        off = [float(np.abs(places[0][0] - quad).max()) for quad in quads]
        assert off[0] < 8 and off[0] == min(off), off


def test_a_pile_outline_has_its_narrow_gaps_closed_and_what_they_enclosed_filled():
    """A card the colour of the table stands out by its border only: the blob is a frame open
    by a narrow gap, and the card's inside is outside it. Closed, the inside is in."""
    import cv2

    from companion.vision.detection import share_inside
    from companion.vision.piles import closed

    mask = np.zeros((200, 200), np.uint8)
    cv2.rectangle(mask, (40, 40), (140, 170), 255, 4)  # the card's border
    cv2.rectangle(mask, (120, 38), (126, 46), 0, -1)  # broken where its dark band meets it
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    frame = max(contours, key=cv2.contourArea).reshape(-1, 2).astype(np.float32)
    card = np.float32([[40, 40], [140, 40], [140, 170], [40, 170]])
    assert share_inside(card, frame) < 0.5
    assert share_inside(card, closed(frame, 12)) > 0.95
    # No wider than it was: the closing only fills what the outline nearly enclosed.
    x, y, w, h = cv2.boundingRect(closed(frame, 12))
    assert (x, y, w, h) == cv2.boundingRect(frame)


def test_a_copy_lying_close_to_the_top_card_is_still_offered(library):
    """A loose heap: a copy shifted a sixth of a card from the top card (closer than a fifth,
    further than one card read can be off) is a place of its own."""
    import cv2

    from companion.vision.piles import copies_under

    face = library.faces[library.ids.index("orc")]
    w, h = 60, 84
    box = np.float32([[0, 0], [face.shape[1], 0], [face.shape[1], face.shape[0]],
                      [0, face.shape[0]]])
    image = np.full((260, 360, 3), 40, np.uint8)
    under = np.float32([[100, 70], [100 + w, 70], [100 + w, 70 + h], [100, 70 + h]])
    top = under + np.float32([7, 7])  # 9.9 px: a sixth of the card's short side
    for quad in (under, top):
        card = cv2.warpPerspective(face, cv2.getPerspectiveTransform(box, quad), (360, 260))
        cv2.fillConvexPoly(image, quad.astype(np.int32), (0, 0, 0))
        image = np.maximum(image, card)
    image = cv2.GaussianBlur(image, (3, 3), 0.8)
    region = np.float32([[99, 69], [168, 69], [168, 162], [99, 162]])
    places = copies_under(image, region, top, face, 3)
    assert places
    assert float(np.abs(places[0][0] - under).max()) < 4


def test_a_top_card_read_short_of_a_band_is_lined_up_from_its_full_length():
    """An outline that lost a strip at one end (the dark title band taken for the table) is
    lengthened to the face's proportions at either end, its width kept."""
    from companion.vision.piles import _lengthened
    from companion.vision.quads import quad_sides

    card = np.float32([[100, 100], [160, 100], [160, 184], [100, 184]])  # 60 x 84: 1.4
    short = card.copy()
    short[[0, 1], 1] += 12  # the band at the top read as table
    near, far = _lengthened(short, 1.4)
    assert np.abs(near - card).max() < 0.5
    assert np.abs(quad_sides(far)[1] - 84) < 0.5 and np.abs(far[0] - short[0]).max() < 0.5
    assert _lengthened(card, 1.4) == []  # the face's proportions already
    narrow = card.copy()
    narrow[[1, 2], 0] -= 10  # a band down the right side lost
    assert any(np.abs(q - card).max() < 0.5 for q in _lengthened(narrow, 1.4))


def row_over(library, first: tuple[str, np.ndarray] | None, laid_last: bool = False,
             row: tuple[tuple[float, float], ...] = ((120, 60), (133, 80), (146, 100))):
    """Dwarf copies in a row (``row``: their top left corners, the last the top card) and
    another card, ``first``, laid before them (or after, ``laid_last``), if any: the image
    and the blob round them all."""
    import cv2

    from companion.vision.quads import Blob

    copies = [("dwarf", at(x, y)) for x, y in row]
    image = np.full((260, 360, 3), 40, np.uint8)
    cards = copies if first is None else [*copies, first] if laid_last else [first, *copies]
    for item_id, quad in cards:
        face = library.faces[library.ids.index(item_id)]
        box = np.float32([[0, 0], [face.shape[1], 0], [face.shape[1], face.shape[0]],
                          [0, face.shape[0]]])
        card = cv2.warpPerspective(face, cv2.getPerspectiveTransform(box, quad), (360, 260))
        cv2.fillConvexPoly(image, quad.astype(np.int32), (0, 0, 0))
        image = np.maximum(image, card)
    image = cv2.GaussianBlur(image, (3, 3), 0.8)
    mask = np.zeros(image.shape[:2], np.uint8)
    for _, quad in cards:
        cv2.fillConvexPoly(mask, quad.astype(np.int32), 255)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    contour = max(contours, key=cv2.contourArea).reshape(-1, 2).astype(np.float32)
    blob = Blob(None, [], cv2.boundingRect(contour), cv2.boxPoints(cv2.minAreaRect(contour)),
                contour)
    return image, blob, copies


def at(x: float, y: float) -> np.ndarray:
    """A 60 x 84 card's corners with its top left at (x, y)."""
    return np.float32([[x, y], [x + 60, y], [x + 60, y + 84], [x, y + 84]])


@pytest.mark.parametrize("laid_last", [False, True])
def test_a_card_read_whole_hides_the_copies_only_if_it_lies_over_them(library, laid_last):
    """A card read whole beside a row of copies is taken to lie over them until a copy found
    shows over it: then the lowest copy, whose strip lies wholly on that card, is found too
    (it was hidden by it before). Laid over the row, it still hides what it covers."""
    from companion.vision.detection import Detection, Thresholds
    from companion.vision.piles import PileReader

    other = ("troll", at(100, 60))
    image, blob, copies = row_over(library, other, laid_last)
    top = Detection("dwarf", copies[-1][1], 1.0, "template")
    beside = Detection("troll", other[1], 1.0, "template")
    found = PileReader(library, Thresholds()).copies(image, blob, top, [top, beside])
    # Laid last, the card leaves a sliver of the lowest copy in view: too little to read.
    assert len(found) == (1 if laid_last else 2)
    for copy in found:
        assert min(float(np.abs(copy.corners - quad).max()) for _, quad in copies[:2]) < 4


@pytest.mark.parametrize("row", [((120, 60), (133, 80), (146, 100)),
                                 ((136, 60), (148, 60), (160, 60), (172, 60))])
def test_the_lowest_copy_read_whole_hides_none_of_the_copies_lying_on_it(library, row):
    """The first card of a row shows enough of itself to be read whole: it is a copy too,
    lying under the others, and the copies whose strips lie on it are counted (only one was,
    while it was taken to lie over them). In the second row the copies next over it show only
    where they lie on it, and the copy found first overlaps it only where another copy lies
    between: once no other place is left, it is taken to lie under the pile."""
    from companion.vision.detection import Detection, Thresholds
    from companion.vision.piles import PileReader

    lowest = ("dwarf", at(100, 60))
    image, blob, copies = row_over(library, lowest, row=row)
    top = Detection("dwarf", copies[-1][1], 1.0, "template")
    read = Detection("dwarf", lowest[1], 1.0, "template")
    found = PileReader(library, Thresholds()).copies(image, blob, top, [top, read])
    assert len(found) == len(copies) - 1
    for copy, (_, quad) in zip(sorted(found, key=lambda c: c.corners[0, 0]), copies[:-1],
                               strict=True):
        assert float(np.abs(copy.corners - quad).max()) < 5


def test_a_pile_s_outline_takes_in_the_whole_of_the_cards_read_in_it(library):
    """A card the colour of the table: the blob took in only part of the top card (its art),
    and the copies lying under the rest of it were refused as half outside the pile. The
    cards read are in the pile, whole."""
    import cv2

    from companion.vision.detection import Detection, Thresholds
    from companion.vision.piles import PileReader
    from companion.vision.quads import Blob

    image, blob, copies = row_over(library, None)
    mask = np.zeros(image.shape[:2], np.uint8)
    cv2.fillPoly(mask, [blob.contour.round().astype(np.int32)], 255)
    cv2.rectangle(mask, (160, 110), (210, 190), 0, -1)  # the top card's plain part lost
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    contour = max(contours, key=cv2.contourArea).reshape(-1, 2).astype(np.float32)
    blob = Blob(None, [], cv2.boundingRect(contour), cv2.boxPoints(cv2.minAreaRect(contour)),
                contour)
    top = Detection("dwarf", copies[-1][1], 1.0, "template")
    found = PileReader(library, Thresholds()).copies(image, blob, top, [top])
    assert len(found) == 2
    for copy, (_, quad) in zip(sorted(found, key=lambda c: c.corners[0, 0]), copies[:2],
                               strict=True):
        assert float(np.abs(copy.corners - quad).max()) < 5


def test_a_strip_a_third_in_view_close_to_a_look_alike_is_told_apart(library, monkeypatch):
    """Two Chaindog copies a third in view each, a few pixels off, agree 0.73-0.75 with the
    Chaindog and 0.71 with the Red Lotus: told apart where the two differ, as strips agreeing
    0.8 are, they are counted (they were not while telling apart began at 0.8). (Posed
    turned on the table, they are found closer and agree more: the rule is checked with the
    copies posed as before.)"""
    from dataclasses import replace

    from companion.vision import piles
    from companion.vision.detection import Thresholds
    from companion.vision.synthetic import pile_plays

    # The benchmark's play 6 of seed 10.
    *_, (scene, item_id, copies) = pile_plays(game_items("deathtrap"), 7, seed=10)
    assert (item_id, copies) == ("chaindog", 4)
    found = Recognizer(library).recognize(scene.image)
    assert sum(d.item_id == item_id for d in found) == copies
    assert not Counter(d.item_id for d in found) - Counter(t.item_id for t in scene.truth)
    # (Judged again as lying over the copy under it, such a strip can show more of itself.)
    monkeypatch.setattr(piles.PileReader, "_over_copy", lambda *args: None)
    posed_in_the_picture(monkeypatch)
    strict = Recognizer(library, thresholds=replace(Thresholds(), copy_told_score=0.8))
    assert sum(d.item_id == item_id for d in strict.recognize(scene.image)) < copies


def test_a_top_card_read_off_is_not_found_again_as_its_own_copy(library):
    """The top card of a loose pile of two Ninjas read about 15 % small: lined up from there
    it stalled at 0.68, and the card itself, a few pixels off, was then found as a copy under
    it (three Ninjas). A place that close to a loosely fitting top which, lined up as a
    whole card, fits its print clearly better, is the top itself: two Ninjas, the copy where
    it lies."""
    from companion.vision.synthetic import pile_plays

    # The benchmark's play 80 of seed 8.
    *_, (scene, item_id, copies) = pile_plays(game_items("deathtrap"), 81, seed=8)
    assert (item_id, copies) == ("ninja", 2)
    found = Recognizer(library).recognize(scene.image)
    assert not Counter(d.item_id for d in found) - Counter(t.item_id for t in scene.truth)
    ninjas = [d.corners for d in found if d.item_id == item_id]
    assert len(ninjas) == copies
    # The copy is read where it lies (the top is reported as it was first read).
    under = next(t.corners for t in scene.truth if t.item_id == item_id)
    assert min(float(np.abs(quad - under).max()) for quad in ninjas) < 5


def test_a_pile_whose_copy_shows_beside_bare_table_is_still_searched(library):
    """Two Manticores beside a Ninja, in one blob: what the cards read leave of it is the
    under copy's strip joined to a patch of table in the blob. Judged together as bare table
    (little print), the pile was never searched and one Manticore was counted. A blob that
    a pile's top card lies in is searched whenever enough of it is left (the search itself
    decides what is a copy): two Manticores."""
    from companion.vision.synthetic import pile_plays

    # The benchmark's play 59 of seed 5.
    *_, (scene, item_id, copies) = pile_plays(game_items("deathtrap"), 60, seed=5)
    assert (item_id, copies) == ("manticore", 2)
    found = Recognizer(library).recognize(scene.image)
    assert not Counter(d.item_id for d in found) - Counter(t.item_id for t in scene.truth)
    assert sum(d.item_id == item_id for d in found) == copies


def test_a_pile_whose_copy_shows_mostly_over_a_card_beside_it_is_searched(library):
    """Two Warriors laid across the corner of a Zombie: the lower Warrior shows a fifth of
    itself, much of it over the Zombie, which is read whole (its outline takes in what lies
    on it). The cards read left 0.13 of a card's short side squared of the blob uncovered,
    less than a card could hide in (0.15), so no pile was looked for and one Warrior was
    counted. A copy can show as little as a tenth of itself: a blob is searched for a pile
    when 0.1 of a card's short side squared is left (``PILE_LEFT``), and the cluster is
    read layer by layer from its corners first (``layers.py``). Two, none invented."""
    # Play 6 of seed 74.
    scene, read = read_play(library, 74, 6, ("warrior", 2))
    assert len(read) == 2


def test_a_card_turned_on_a_table_seen_at_a_slant_is_posed_through_the_same_perspective():
    """A card seen at a slant is its own box seen through a perspective; so is a copy of it
    turned on the table. Turned in the picture instead, the copy's outline is 2-3 px off at
    the corners at 36°, enough that its high-passed print no longer matches."""
    import cv2

    from companion.vision.agreement import turn_on_table, turned, turned_on_table

    aspect = 1.4
    box = np.float32([[0, 0], [1, 0], [1, aspect], [0, aspect]])
    slant = cv2.getPerspectiveTransform(
        box, np.float32([[600, 300], [660, 306], [668, 394], [596, 388]]))

    def seen(quad: np.ndarray) -> np.ndarray:
        return cv2.perspectiveTransform(quad.reshape(-1, 1, 2), slant).reshape(4, 2)

    def centred(quad: np.ndarray) -> np.ndarray:
        return quad - quad.mean(axis=0)

    card, middle = seen(box), box.mean(axis=0)
    for degrees in (-40.0, -12.0, 0.0, 9.0, 36.0):
        a = np.radians(degrees)
        turn = np.float32([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
        copy = seen(((box - middle) @ turn.T + middle).astype(np.float32))
        posed = turned_on_table(card, degrees, aspect)
        assert np.abs(centred(posed) - centred(copy)).max() < 0.5
        assert abs(turn_on_table(copy, card, aspect) - degrees) < 0.5
    assert np.abs(centred(turned(card, 36.0)) - centred(copy)).max() > 2.0


def test_copies_turned_across_a_pile_seen_at_a_slant_are_found(library, monkeypatch):
    """Three Chaindogs, the two under the top turned 35° from it on a table seen at a slant,
    each a third in view: posed as the top card turned in the picture, a copy's outline was
    3 px off its print at the corners, the best place found 4 px off, and its strip agreed
    0.47 (as well as with two other faces). Posed turned on the table, through the top
    card's perspective: three, none invented."""
    # Play 3 of seed 63.
    scene, read = read_play(library, 63, 3, ("chaindog", 3))
    assert len(read) == 3
    posed_in_the_picture(monkeypatch)
    assert read_now(library, scene, "chaindog") < 3


def posed_in_the_picture(monkeypatch) -> None:
    """The pile search poses its copies as the top card turned in the picture, as it did
    before they were turned on the table."""
    from companion.vision import agreement, piles

    def turn_in_the_picture(place: np.ndarray, quad: np.ndarray, aspect: float) -> float:
        a, b = place[1] - place[0], quad[1] - quad[0]
        return float(np.degrees(np.arctan2(a[1], a[0]) - np.arctan2(b[1], b[0]) + np.pi)
                     % 360 - 180)

    monkeypatch.setattr(piles, "turned_on_table",
                        lambda quad, degrees, aspect: agreement.turned(quad, degrees))
    monkeypatch.setattr(piles, "turn_on_table", turn_in_the_picture)


def as_rendered(monkeypatch) -> None:
    """The frame read as rendered, not levelled (``exposure.py``: a rendered light table's
    darkest hundredth lies above real photos'): the case was found on it as rendered, and
    levelled the search reads it another way."""
    from companion.vision import recognize

    monkeypatch.setattr(recognize, "levelled", lambda image: image)


def searched_as_before_tight_rows(monkeypatch) -> None:
    """The pile search as before the lowest copy of a tight row was looked for: a copy found
    is one place within a card read's reach, and a place is scored with 0.08 in view."""
    from companion.vision import piles

    monkeypatch.setattr(piles, "COPY_REACH", 0.15)
    monkeypatch.setattr(piles, "LEAST_IN_VIEW", 0.08)


def test_a_sliver_over_a_copy_is_held_however_the_search_matched_it(library, monkeypatch):
    """Five Exploding Pigs, the second a sliver (a tenth of it) just under the top card: the
    search matched it 0.54, under the 0.8 a place no round took needed, and its frame agreed
    with two other faces nearly as well as with the Pig (0.94 against 0.92). Where it and the
    copy under it overlap, its print fits, not the copy's: held, five, none invented. Without
    that test (``sliver_over``), four."""
    from dataclasses import replace

    from companion.vision.detection import Thresholds

    # Play 4 of seed 64.
    scene, read = read_play(library, 64, 4, ("exploding-pig", 5))
    assert len(read) == 5
    never = Recognizer(library, thresholds=replace(Thresholds(), sliver_over=2.0))
    assert sum(d.item_id == "exploding-pig" for d in never.recognize(scene.image)) < 5


def test_a_sliver_the_search_matched_loosely_must_fit_its_print_closely(library,
                                                                        monkeypatch):
    """Five Skeletons: a place 39 px from every copy, matched 0.46 by the search, showed a
    seventh of itself over a copy, where its print fitted 0.62 and the copy's 0.21. Held as a
    sliver, it was a sixth Skeleton. Matched less closely than ``held_search``, a sliver must
    fit its print closely (``sliver_fit``; true slivers fitted 0.89-0.97): five."""
    as_rendered(monkeypatch)
    from dataclasses import replace

    from companion.vision.detection import Thresholds

    # Play 2 of seed 30.
    scene, read = read_play(library, 30, 2, ("skeleton", 5))
    assert len(read) == 5
    # Checked on the search as when the rule was made: with tight rows looked for, this
    # play reads five without the rule too.
    searched_as_before_tight_rows(monkeypatch)
    loose = Recognizer(library, thresholds=replace(Thresholds(), sliver_fit=0.6))
    assert sum(d.item_id == "skeleton" for d in loose.recognize(scene.image)) > 5


def test_a_place_taken_on_the_face_index_alone_must_agree_in_its_strip(library, monkeypatch):
    """Five Killing Machines in a loose pile beside an Exploding Pig: every copy was found,
    then a place 33 px below one of them, half on the Pig, read as a sixth copy on the face
    index's word alone (0.55, 0.11 clear) while its strip agreed only 0.31 with the card. A
    place so taken must agree at least ``copy_index_agree`` in its strip: five."""
    from dataclasses import replace

    from companion.vision import piles
    from companion.vision.detection import Thresholds
    from companion.vision.synthetic import pile_plays

    # Play 24 of seed 19.
    *_, (scene, item_id, copies) = pile_plays(game_items("deathtrap"), 25, seed=19)
    assert (item_id, copies) == ("killing-machine", 5)
    found = Recognizer(library).recognize(scene.image)
    assert not Counter(d.item_id for d in found) - Counter(t.item_id for t in scene.truth)
    assert sum(d.item_id == item_id for d in found) == copies
    # The part-in-view rule (``VIEW_INSIDE``) now refuses that place as well: the strip's
    # agreement is checked with that rule off.
    monkeypatch.setattr(piles, "VIEW_INSIDE", 0.0)
    lax = Recognizer(library, thresholds=replace(Thresholds(), copy_index_agree=0.0))
    assert sum(d.item_id == item_id for d in lax.recognize(scene.image)) > copies


def test_a_strip_two_faces_fit_alike_between_copies_is_held_to_be_a_copy(library, monkeypatch):
    """Four Red Lotuses: the strip of the copy under the top agrees with the Red Lotus and
    the Chaindog alike (0.81 both, the same colour), so it was refused, and the two copies
    under it, whose parts in view took its strip in, could not be told either: one Red Lotus
    of four. A strip that matches the posed face closely and leans to no other face, with a
    copy clearly under it once it is taken to lie on top, is a copy too; read with no
    confidence, so the table is asked to confirm."""
    as_rendered(monkeypatch)
    from dataclasses import replace

    from companion.vision import recognize
    from companion.vision.detection import Thresholds

    # Play 33 of seed 19.
    # Not read as lying under the card beside it (``NEAR_BY``), which now reads it too.
    monkeypatch.setattr(recognize, "NEAR_BY", None)
    held_with_no_confidence(library, 19, 33, ("red-lotus", 4),
                            replace(Thresholds(), held_search=1.01))


def read_play(library, seed: int, play: int, pile: tuple[str, int]):
    """Play ``play`` of ``seed``, a pile of ``pile`` (its card, its copies), read with no
    card invented: (the scene, the pile's cards read)."""
    from companion.vision.synthetic import pile_plays

    *_, (scene, item_id, copies) = pile_plays(game_items("deathtrap"), play + 1, seed=seed)
    assert (item_id, copies) == pile
    found = Recognizer(library).recognize(scene.image)
    assert not Counter(d.item_id for d in found) - Counter(t.item_id for t in scene.truth)
    return scene, [d for d in found if d.item_id == item_id]


def read_now(library, scene, item_id: str) -> int:
    """How many of ``item_id`` a recognizer made now reads in ``scene``."""
    return sum(d.item_id == item_id for d in Recognizer(library).recognize(scene.image))


def held_with_no_confidence(library, seed: int, play: int, pile: tuple[str, int],
                            never) -> None:
    """Play ``play`` of ``seed``, a pile of ``pile`` (its card, its copies), is counted
    exactly with a copy held with no confidence, none invented; with the ``never``
    thresholds, fewer copies are counted."""
    scene, read = read_play(library, seed, play, pile)
    assert len(read) == pile[1]
    assert min(d.confidence for d in read) == 0.0
    lax = Recognizer(library, thresholds=never).recognize(scene.image)
    assert sum(d.item_id == pile[0] for d in lax) < pile[1]


def test_a_place_clear_of_the_pile_is_not_taken_on_the_face_index_alone(library):
    """Two Ninjas laid over a Pit Fiend, beside an Exploding Pig, all in one blob: copies
    were looked for under the Pig too, and a strip of the Pit Fiend, nowhere near the Pig,
    read as an Exploding Pig on the face index's word (0.65, 0.14 clear). A copy lies under
    the top card or a copy found: a place clear of them all may be another card of the kind,
    but only if its strip says so."""
    from companion.vision.synthetic import pile_plays

    # Play 93 of seed 23.
    *_, (scene, item_id, copies) = pile_plays(game_items("deathtrap"), 94, seed=23)
    assert (item_id, copies) == ("ninja", 2)
    found = Recognizer(library).recognize(scene.image)
    assert not Counter(d.item_id for d in found) - Counter(t.item_id for t in scene.truth)
    assert sum(d.item_id == item_id for d in found) == copies


def test_a_pile_top_touching_a_card_beside_it_is_read(library):
    """Three Manticores whose top card touches a Skeleton: the blob's outline runs along the
    Skeleton there, so every guess at the top card was 5-8 px off, where its print agrees
    with nothing (0.08; 0.95 at its true outline), and the whole pile was lost. Guesses left
    unread are lined up with the face they look most like blurred, and read again: the top
    card, and the copies under it."""
    from companion.vision.synthetic import pile_plays

    # Play 14 of seed 9.
    *_, (scene, item_id, copies) = pile_plays(game_items("deathtrap"), 15, seed=9)
    assert (item_id, copies) == ("manticore", 3)
    found = Recognizer(library).recognize(scene.image)
    assert not Counter(d.item_id for d in found) - Counter(t.item_id for t in scene.truth)
    assert sum(d.item_id == item_id for d in found) == copies


def test_a_sliver_just_under_the_top_card_is_read_where_its_print_shows(library):
    """Five Chaindogs: the copy just under the top shows a strip an eighth of a card wide,
    which agrees with the Chaindog less than with the Exploding Pig (0.49 and 0.54: a strip
    of the layout every card shares), so it was refused, and only four were counted. The
    search places it closely (0.83), and where it lies over the copy found under it, its
    print fits (0.65) and the copy's does not (0.14): it is a copy. (Read layer by layer,
    the copies over it are no pile tops of their own, and it is read with the rest.) Five,
    none invented."""
    # Play 34 of seed 12.
    scene, read = read_play(library, 12, 34, ("chaindog", 5))
    assert len(read) == 5


def test_a_heap_with_no_card_read_cleanly_is_split_again_at_the_size_of_the_cards_in_it(
        library):
    """Five Skeletons fanned over a Zombie, touching an Exploding Pig and a Warrior: one
    blob, and no outline in it read as a card, so the splitter sized its guesses by the
    blob, far too large; it found the Pig and the Warrior, but no guess came near the top
    Skeleton. The cards it reads size a second split: the top, then the copies under it."""
    # Play 59 of seed 20.
    _, read = read_play(library, 20, 59, ("skeleton", 5))
    assert len(read) == 5


def test_a_guess_far_off_a_pile_top_is_lined_up_from_a_blur_wide_enough(library, monkeypatch):
    """Two Orcs in a blob with no card read in it: every guess at the top card was 10 px or
    more off at a corner. Blurred by 6 % of a card's short side, no guess brought out the
    Orc's face, and the pile was lost; blurred by 10 %, one does, and lined up from there
    it reads the top, then the copy under it."""
    # Play 95 of seed 22.
    scene, read = read_play(library, 22, 95, ("orc", 2))
    assert len(read) == 2


def test_a_pile_is_searched_first_under_the_card_that_fits_its_print_best(library):
    """Five Rat-Men in a row: its lowest copy, half in view, was read whole as well as the
    top, and searched under first; the copies over it were found as copies under it, and it
    hid the one between them and it, which the search from the true top then matched against
    the prints of the cards found. The card that fits its print best, the top of the pile,
    is searched under first: five."""
    # Play 61 of seed 35.
    _, read = read_play(library, 35, 61, ("rat-man", 5))
    assert len(read) == 5


def test_the_lowest_sliver_agreeing_with_the_pile_s_card_as_well_as_any_face_is_held(
        library):
    """Five Priestesses: the lowest copy shows a sliver a sixth of a card wide, mostly
    frame, which agrees with the Priestess closely (0.92) and about as well with another face
    (0.90), so it was refused and four were counted. The search matched it closely (0.92):
    a sliver under the copies found, agreeing that closely with the pile's card and no
    better with any other, is a copy, read with no confidence, so the table is asked to
    confirm."""
    from dataclasses import replace

    from companion.vision.detection import Thresholds

    # Play 40 of seed 33.
    held_with_no_confidence(library, 33, 40, ("priestess", 5),
                            replace(Thresholds(), sliver_agree=1.01))


def test_the_lowest_of_a_tight_row_a_few_pixels_from_the_copy_over_it_is_found(library,
                                                                             monkeypatch):
    """Five Red Lotuses in a tight row: the lowest shows a sliver, a ninth of the card, and
    lies 7 px (0.12 of its short side) from the copy over it. It was passed over as that
    copy (a card read is one place within 0.15 of its short side), and the search, which
    leaves out a pixel round each covering card, saw under 0.08 of it. A copy found, lined up
    with its print, is one place within 0.1 (``COPY_REACH``), and the search offers places
    with 0.05 in view (``LEAST_IN_VIEW``): each is needed."""
    from companion.vision import piles

    # Play 9 of seed 85.
    scene, read = read_play(library, 85, 9, ("red-lotus", 5))
    assert len(read) == 5
    monkeypatch.setattr(piles, "COPY_REACH", 0.15)
    assert read_now(library, scene, "red-lotus") < 5
    monkeypatch.setattr(piles, "COPY_REACH", 0.1)
    monkeypatch.setattr(piles, "LEAST_IN_VIEW", 0.08)
    assert read_now(library, scene, "red-lotus") < 5


def test_a_copy_found_after_the_one_it_lies_over_is_judged_lying_over_it(library,
                                                                         monkeypatch):
    """Five Manticores dropped loosely: the copy just under the top shows a quarter of
    itself, less than the copy under it, which was found first; judged as lying under that
    copy, a third of its own print counted as covered, and what was left did not tell it:
    four. Its print shows where the two overlap, so it is judged again as lying over that
    copy, by its own comparison: five, each with its confidence. (Posed turned on the
    table, the copy is told under the copy found first too: the rule is checked with copies
    posed in the picture, as when it was made.)"""
    from companion.vision import piles

    # Play 70 of seed 40.
    scene, read = read_play(library, 40, 70, ("manticore", 5))
    assert len(read) == 5
    assert min(d.confidence for d in read) > 0.0
    monkeypatch.setattr(piles.PileReader, "_over_copy", lambda *args: None)
    posed_in_the_picture(monkeypatch)
    assert read_now(library, scene, "manticore") < 5


def test_a_sliver_held_as_the_lowest_copy_is_dropped_if_a_copy_is_found_under_it(
        library, monkeypatch):
    """Four Trolls: a strip of the copy under the top, slid along its length, was held as
    the lowest copy on its strip alone; the rounds after it found the copies it had hidden,
    and then one Troll too many. A sliver held as the lowest copy that a copy found afterwards
    lies under was not the lowest: it is dropped, and the four are counted."""
    as_rendered(monkeypatch)
    from companion.vision import piles

    # Play 6 of seed 31.
    scene, read = read_play(library, 31, 6, ("troll", 4))
    assert len(read) == 4
    # Searched with its margin, the pile no longer offers that strip first: the rule is
    # checked on the search without it, as when it was added.
    monkeypatch.setattr(piles, "SEARCH_MARGIN", 0.0)
    monkeypatch.setattr(piles, "_lowest_kept", lambda hits, lowest: hits)
    assert read_now(library, scene, "troll") > 4


def test_a_copy_a_few_pixels_out_from_under_the_top_card_is_offered(library, monkeypatch):
    """Five Orcs dropped loosely: the copy just under the top lies 5-8 px out from under it
    (a seventh of the card's short side), closer than a card read can be off; the top card,
    lined up with its print, is one place only within ``TOP_REACH``: five, none invented.
    Taken as the top card itself out to ``same_card``'s reach, it was never offered: four."""
    from companion.vision import piles

    # Play 61 of seed 10.
    scene, read = read_play(library, 10, 61, ("orc", 5))
    assert len(read) == 5
    monkeypatch.setattr(piles, "TOP_REACH", 0.15)
    assert read_now(library, scene, "orc") < 5


def test_a_copy_read_whole_a_little_off_is_not_found_again_as_a_copy_over_it(library,
                                                                             monkeypatch):
    """Five Bloodbeasts: the copy just under the top was read whole, 4° off; once the
    copies under it were found, a place 10 px from it, its own print, was found as a copy
    lying over it (six). A card of the pile's kind read whole is one place within a fifth
    of a card (``KIND_REACH``): five, none invented."""
    # Play 85 of seed 60.
    scene, read = read_play(library, 60, 85, ("bloodbeast", 5))
    assert len(read) == 5


def test_a_copy_turned_further_than_a_fan_is_found_once_the_pile_is_left_uncovered(
        library, monkeypatch):
    """Two Zombies dropped loosely, the lower turned 45° from the top: the search turns a
    copy up to 40° (a fan turns 8-15° a card), and found nothing; a card's worth of the pile
    was left uncovered, so the search turns further (``WIDE_TURNS``): two, none invented.
    Without the wider turns: one. (Two Manticores 46° apart, seed 16 play 42, on which the
    rule was found, are now read without it: the search's margin offers the copy. Posed
    turned on the table, this one is found without it too: the rule is checked with copies
    posed in the picture, as when it was made.)"""
    as_rendered(monkeypatch)
    from companion.vision import piles, recognize

    # Play 19 of seed 26.
    scene, read = read_play(library, 26, 19, ("zombie", 2))
    assert len(read) == 2
    monkeypatch.setattr(piles, "WIDE_TURNS", ())
    # Nor read as lying under the card beside it (``NEAR_BY``), which now reads it too.
    monkeypatch.setattr(recognize, "NEAR_BY", None)
    posed_in_the_picture(monkeypatch)
    assert read_now(library, scene, "zombie") < 2


def test_a_copy_spanning_the_pile_is_searched_for_past_its_outline(library, monkeypatch):
    """Two Bloodbeasts, the lower turned 43° from the top so that it spans the pile: its
    thin, blurred corners lie a few pixels past the pile's outline, and posed at its turn
    it did not fit in the pile's box (one). The search looks a tenth of a card round the
    box (``SEARCH_MARGIN``): two, none invented. (Posed turned on the table, the copy fits
    in the box: the rule is checked with copies posed in the picture, as when it was
    made.)"""
    # Play 51 of seed 15.
    scene, read = read_play(library, 15, 51, ("bloodbeast", 2))
    assert len(read) == 2


def test_a_place_whose_part_in_view_is_table_is_no_copy(library, monkeypatch):
    """Three Killing Machines: a place posed past the pile's end, in the search's margin,
    has its part in view (a tenth of it) on the table's grain outside the pile's outline,
    and agreed with the card on the face index's word (a fourth). Of a place's part in view
    most must lie inside the outline (``VIEW_INSIDE``): three, none invented. (Posed
    turned on the table, that place is not offered: the rule is checked with copies posed in
    the picture, as when it was made.)"""
    # Play 0 of seed 66.
    scene, read = read_play(library, 66, 0, ("killing-machine", 3))
    assert len(read) == 3


def test_a_place_turned_across_the_pile_half_off_its_outline_is_no_copy(library,
                                                                        monkeypatch):
    """Five Killing Machines fanned over a Snake Girl they half cover: a place turned across
    the pile, nearly half of its part in view off the pile's outline, was taken on the face
    index's word, a sixth (so also before the search had a margin). Five, none invented."""
    # Play 2 of seed 34.
    scene, read = read_play(library, 34, 2, ("killing-machine", 5))
    assert len(read) == 5
