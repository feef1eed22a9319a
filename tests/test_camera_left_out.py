"""A card-shaped thing nobody can name is outlined as left out on the camera's view (issue 52):
a blank card face, laid alone or beside a card played, is drawn on the controls page's
picture as an outline left out (never guessed as a card, never an event), the card beside
it read and stored as usual. The real daemon loop, camera part and vision pipeline on
rendered frames, the web part's camera channel as it is handed to the server."""

from __future__ import annotations

import numpy as np
from camera_web import LiveCameraTable, placements, tricky_before_first_play
from helpers import wait_for

from companion.vision.art import ArtItem
from companion.vision.synthetic import Placement

#: A card with nothing printed on it: white, its edge a little darker.
BLANK = ArtItem("blank", "", "", (235, 235, 235), "card")


def blank_face() -> np.ndarray:
    face = np.full((448, 320, 3), 235, np.uint8)
    face[:6], face[-6:], face[:, :6], face[:, -6:] = 200, 200, 200, 200
    return face


def readings(table: LiveCameraTable) -> list[tuple[str | None, str]]:
    camera = table.web.sent.get("camera") or {}
    return [(reading["id"], reading["state"]) for reading in camera.get("readings") or []]


def test_a_blank_card_is_outlined_as_left_out_alone_and_beside_a_card_read(tmp_path):
    header, before, rest = tricky_before_first_play()
    play = rest[0]
    with LiveCameraTable(tmp_path, header, before) as table:
        table.stage.renderer.use_face(BLANK.item_id, blank_face())
        blank = Placement(BLANK, (400.0, 280.0), 15.0)
        looks = table.looks()
        with table.frames.lock:
            table.frames.placed = [blank]
        wait_for(lambda: table.looks() > looks, "the camera to settle on the blank card")
        wait_for(lambda: readings(table) == [(None, "left out")], "the blank card outlined")
        [outline] = [r["outline"] for r in table.web.sent["camera"]["readings"]]
        xs, ys = [x for x, _ in outline], [y for _, y in outline]
        # Card-sized on the 640-pixel picture of an 800 mm table (a card: 63 x 88 mm).
        assert 40 < max(xs) - min(xs) < 110 and 40 < max(ys) - min(ys) < 110
        assert table.stored_events() == before  # never an event
        with table.frames.lock:
            table.frames.placed = [blank, *placements(table.stage, {play["seat"]: [play["card"]]})]
        wait_for(lambda: len(table.stored_events()) == len(before) + 1, "the play stored")
        assert {k: v for k, v in table.stored_events()[-1].items() if k != "t"} == play
        wait_for(lambda: sorted(readings(table), key=str) == sorted(
            [(play["card"], "sure"), (None, "left out")], key=str),
            "the card read and the blank card left out")
