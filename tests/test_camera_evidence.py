"""The picture of any camera event of the game, on tap on the table page opened with the
table's token (issue 41, "Evidence kept"): a dispute ("that was the 7, not the 1") is settled
by looking. Never on the public table ``/``, its API or a seat's page; never to another origin.

1. The route, without a browser: ``/t/TOKEN/camera/event/SEQ.jpg`` (and ``.json``) answers a
   stored picture; an event the camera did not make is 404 in words; a number that is not
   one is 400 naming ``seq``; a wrong token is 403, another origin 403.
2. In Chromium, a live table with its camera on rendered frames: a few cards played through
   the camera; the table page's "What happened" shows a picture control on each of them and
   on nothing else (a deal typed in), even on the earliest, no longer among the feed's latest
   events; a tap shows its picture with its reading drawn. The public page and a seat's page
   show no such control.

``COMPANION_SCREENSHOTS=docs/images`` also writes docs/images/table-evidence.png (the table
page showing an earlier event's picture) for docs/camera.md."""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path

from aiohttp.test_utils import TestClient, TestServer
from camera_web import LiveCameraTable, tricky_before_first_play
from helpers import wait_for
from web_table import request

from companion.table import TableStore
from companion.table.pictures import keep
from companion.web import snapshot
from companion.web.server import WebServer
from companion.web.tokens import TokenBook

WAIT_MS = 60_000
SHOTS = os.environ.get("COMPANION_SCREENSHOTS")
ABOUT = {"width": 640, "height": 448, "px_per_mm": 1.0,
         "readings": [{"id": "red-7", "state": "sure", "outline": [[1, 1], [9, 1], [9, 9]]}]}


def test_the_event_picture_route_answers_a_stored_picture_and_refuses_in_words(tmp_path):
    header, before, _ = tricky_before_first_play()
    db = str(tmp_path / "table.db")
    with TableStore(db) as store:
        stored_game = store.new_session(header, before)
        keep(store, stored_game.id, 3, b"\xff\xd8jpeg", ABOUT)
    tokens = TokenBook(db)
    tokens.serve(stored_game.id, 4)
    server = WebServer(tokens, lambda item: None)

    async def answers() -> dict[str, tuple[int, str]]:
        got = {}
        async with TestClient(TestServer(server.app)) as client:
            base = f"/t/{tokens.table}/camera/event"
            for name, path, headers in (
                    ("jpg", f"{base}/3.jpg", {}), ("json", f"{base}/3.json", {}),
                    ("no picture", f"{base}/1.json", {}), ("beyond", f"{base}/999.jpg", {}),
                    ("letters", f"{base}/x.jpg", {}), ("zero", f"{base}/0.json", {}),
                    ("negative", f"{base}/-2.json", {}), ("long", f"{base}/{'9' * 12}.jpg", {}),
                    ("wrong token", f"/t/{'x' * 32}/camera/event/3.jpg", {}),
                    ("seat", f"/s/{tokens.tokens[0]}/camera/event/3.jpg", {}),
                    ("public", "/camera/event/3.jpg", {}),
                    ("origin", f"{base}/3.jpg", {"Origin": "http://evil.example"})):
                response = await client.get(path, headers=headers)
                got[name] = (response.status, (await response.read()).decode("latin-1"))
        return got

    try:
        got = asyncio.run(answers())
    finally:
        tokens.close()
    assert got["jpg"] == (200, "\xff\xd8jpeg")
    status, text = got["json"]
    assert status == 200 and json.loads(text) == {"seq": 3, **ABOUT}
    for name in ("no picture", "beyond"):
        status, text = got[name]
        assert status == 404, name
        assert json.loads(text)["error"].startswith("no picture of event "), text
        assert "the camera did not make it" in text
    for name in ("letters", "zero", "negative", "long"):
        status, text = got[name]
        assert status == 400, (name, text)
        answer = json.loads(text)
        assert answer["field"] == "seq" and answer["error"].startswith("seq: an event's number")
    assert got["wrong token"][0] == 403 and "jpeg" not in got["wrong token"][1]
    assert got["seat"][0] == 404 and got["public"][0] == 404  # no such route there
    assert got["origin"][0] == 403 and "jpeg" not in got["origin"][1]


def test_the_table_page_shows_any_camera_event_s_picture_on_tap(browser, tmp_path,
                                                                    monkeypatch):
    # The feed lists the latest 2 events only: the first card played falls out of it and is
    # still offered, under it ("Earlier, made by the camera").
    monkeypatch.setattr(snapshot, "FEED_LENGTH", 2)
    header, before, rest = tricky_before_first_play()
    plays = rest[:3]
    assert [e["type"] for e in plays] == ["play"] * 3 and len({e["seat"] for e in plays}) == 3
    with LiveCameraTable(tmp_path, header, before) as table:
        control = table.table_link()
        links = [link["url"] for link in table.links()]
        for n, play in enumerate(plays, 1):
            table.show({play["seat"]: [play["card"]]})
            wait_for(lambda n=n: len(table.stored_events()) == len(before) + n, "the play stored")
        seqs = [len(before) + n for n in range(1, 4)]
        stored = table.stored_events()
        assert [stored[seq - 1]["card"] for seq in seqs] == [p["card"] for p in plays]
        page = browser.new_context(viewport={"width": 1280, "height": 1100},
                                   has_touch=True).new_page()
        page.goto(control + "/table")
        page.wait_for_selector(f'body[data-events="{seqs[-1]}"]', state="attached",
                               timeout=WAIT_MS)
        # The feed's two latest (camera events both) have a picture each; the first play is
        # listed under the feed; the deal before them, typed in, has none anywhere.
        page.locator(f"#feed .picture-button[data-seq='{seqs[-1]}']").wait_for(timeout=WAIT_MS)
        assert page.locator("#feed .picture-button").count() == 2
        earliest = page.locator(f"#older .picture-button[data-seq='{seqs[0]}']")
        earliest.wait_for(timeout=WAIT_MS)
        assert page.locator("#older li").count() == 1
        assert page.locator(".picture-button[data-seq='1']").count() == 0
        # A tap: that event's picture as it was stored, with its reading drawn (read only).
        earliest.tap()
        page.wait_for_selector(f"body[data-evidence='{seqs[0]}']", state="attached")
        card = plays[0]["card"]
        page.locator(f"#evidence-readings .reading[data-id='{card}']").wait_for()
        assert page.locator("#evidence-readings .reading[role='button']").count() == 0
        wait_for(lambda: page.evaluate(
            "document.getElementById('evidence-picture').naturalWidth") == 640,
            "the picture to load")
        assert page.locator("#evidence-title").inner_text().startswith(f"#{seqs[0]}: play by")
        if SHOTS:
            box = page.locator("#evidence").bounding_box()
            page.screenshot(path=str(Path(SHOTS) / "table-evidence.png"),
                            clip={"x": 0, "y": max(0, box["y"] - 260), "width": 1280,
                                  "height": box["height"] + 280})
        page.locator("#evidence-close").tap()
        page.wait_for_selector("body:not([data-evidence])", state="attached")
        # The public table and a seat's page: the same events, no picture control.
        public = browser.new_context().new_page()
        public.goto(table.url + "/")
        public.wait_for_selector(f'body[data-events="{seqs[-1]}"]', state="attached",
                                 timeout=WAIT_MS)
        public.wait_for_selector("#feed li", state="attached")
        phone = browser.new_context(viewport={"width": 400, "height": 860},
                                    is_mobile=True, has_touch=True).new_page()
        phone.goto(links[plays[0]["seat"]])
        phone.wait_for_selector("body[data-events]", state="attached", timeout=WAIT_MS)
        for other in (public, phone):
            assert other.locator(".picture-button, #evidence:not([hidden])").count() == 0
            assert "/camera/event/" not in other.content()
        # Its picture is refused without the table's token.
        wrong = control.rsplit("/", 1)[0] + "/" + "x" * 32
        assert request(f"{control}/camera/event/{seqs[0]}.jpg")[0] == 200
        assert request(f"{wrong}/camera/event/{seqs[0]}.jpg")[0] == 403
        assert request(f"{links[0]}/camera/event/{seqs[0]}.jpg")[0] == 404
        assert request(f"{table.url}/camera/event/{seqs[0]}.jpg")[0] == 404
