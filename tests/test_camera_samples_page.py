"""What the camera learnt, on the table's controls page (issue 52): each correction's crop is
listed as a sample of the card named, its crop served to the controls page alone, and a bad
one is dropped with ``POST /t/TOKEN/camera/samples {"drop": N}``; a bad request is a 4xx
naming its field. A live daemon, the real camera part on rendered frames, the table's library
in a temporary folder, the real web server."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import aiohttp
import cv2
import numpy as np
import pytest
from camera_web import LiveCameraTable, tricky_before_first_play
from helpers import wait_for
from page_state import next_page_state
from web_table import request

from companion.daemon.camera import library_for
from companion.daemon.library import SampleRefused, TableLibrary
from companion.vision.library import NOT_A_CARD, load_samples
from companion.web.camera_view import sample_name

#: The face of the card laid is enrolled as this card too: the camera leaves it out.
TWIN = "red-0"


def samples(table: LiveCameraTable) -> dict[str, Any] | None:
    """The samples as the controls page is sent them (the camera channel's)."""
    return (table.web.sent.get("camera") or {}).get("samples")


def in_use(table: LiveCameraTable) -> list[str]:
    """The cards of the samples the camera reads with now."""
    assert table.camera is not None and table.camera.watcher is not None
    return [card for card, _ in table.camera.watcher.recognizer.library.samples]


def taught(table: LiveCameraTable, seat: int, card: str) -> dict[str, Any]:
    """``card`` laid at ``seat``, left out, put right on the controls page: its sample as
    the page lists it, once listed."""
    look = table.show({seat: [card]})
    view = wait_for(lambda: (table.web.sent.get("camera") or {}).get("look") == look
                    and table.web.sent["camera"], "the look on the page")
    left_out = next(r["n"] for r in view["readings"] if r["state"] == "left out")
    status, answer = request(table.table_link() + "/camera/correct",
                             {"look": look, "reading": left_out, "id": card})
    assert status == 200, answer
    listed = wait_for(lambda: (samples(table) or {}).get("listed"), "the sample listed")
    return listed[0]


def test_a_sample_is_listed_with_its_crop_and_dropped_and_bad_drops_are_refused(tmp_path):
    header, before, rest = tricky_before_first_play()
    play = rest[0]
    card = play["card"]
    with LiveCameraTable(tmp_path, header, before, learns=True, twins={card: TWIN}) as table:
        control = table.table_link()
        assert samples(table) == {"version": 0, "listed": []}
        sample = taught(table, play["seat"], card)
        name = next(c["name"] for c in table.web.sent["camera"]["deck"] if c["id"] == card)
        assert sample == {"n": sample["n"], "id": card, "name": name,
                          "picture": f"camera/sample/{sample['n']}.jpg"}
        assert in_use(table) == [card] and (tmp_path / "cards.samples.npz").exists()
        # Its crop: a small JPEG, to the controls page alone.
        status, jpeg = request(f"{control}/{sample['picture']}")
        assert status == 200 and jpeg[:2] == b"\xff\xd8"
        crop = cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR)
        assert crop.shape[1] == 96
        wrong = control.rsplit("/", 1)[0] + "/" + "x" * 32
        assert request(f"{wrong}/{sample['picture']}")[0] == 403
        assert request(f"{table.url}/{sample['picture']}")[0] == 404
        for link in table.links():  # no such route for a seat
            assert request(f"{link['url']}/{sample['picture']}")[0] == 404
            assert request(f"{link['url']}/camera/samples", {"drop": sample["n"]})[0] in (
                403, 404, 405)
        assert request(f"{control}/camera/sample/x.jpg")[0] == 404
        assert request(f"{control}/camera/sample/{sample['n'] + 1}.jpg")[0] == 404
        assert request(f"{wrong}/camera/samples", {"drop": sample["n"]})[0] == 403
        # Bad drops: 400 naming the field, or 409 for a sample not listed; nothing dropped.
        url = f"{control}/camera/samples"
        for body, field in (({"drop": "x"}, "drop"), ({"drop": -1}, "drop"),
                            ({"drop": 1.5}, "drop"), ({"drop": True}, "drop"),
                            ({"drop": 2**31}, "drop"), ({}, "drop"),
                            ({"drop": sample["n"], "card": card}, "card"), ([1], "body")):
            status, answer = request(url, body)
            assert status == 400, (body, answer)
            assert json.loads(answer)["error"].startswith(field + ":"), answer
            assert json.loads(answer)["field"] == field
        status, answer = request(url, {"drop": sample["n"] + 7})
        assert status == 409 and json.loads(answer) == {
            "error": f"drop: no sample {sample['n'] + 7}: dropped already, or never taught",
            "field": "drop"}
        assert samples(table)["listed"] == [sample] and in_use(table) == [card]
        # Dropped: off the page's list, then no longer used and gone from its file.
        assert request(url, {"drop": sample["n"]}) == (200, json.dumps(
            {"dropped": sample["n"]}).encode())
        wait_for(lambda: samples(table)["listed"] == [], "the list without it")
        wait_for(lambda: in_use(table) == [], "the camera to drop it")
        wait_for(lambda: not (tmp_path / "cards.samples.npz").exists(), "its file gone")
        status, answer = request(url, {"drop": sample["n"]})  # a second tap: gone already
        assert status == 409 and json.loads(answer)["field"] == "drop"
        assert request(f"{control}/{sample['picture']}")[0] == 404


def test_no_page_but_the_controls_page_hears_of_the_samples(tmp_path):
    """The public table, the table page and the seats' pages are never sent the samples
    (a sample's crop is a card's face on the table): the controls page's socket alone."""
    header, before, rest = tricky_before_first_play()
    play = rest[0]
    card = play["card"]
    with LiveCameraTable(tmp_path, header, before, learns=True, twins={card: TWIN}) as table:
        control = table.table_link()
        sample = taught(table, play["seat"], card)
        pages = {"public": table.url + "/ws", "table page": control + "/ws",
                 **{f"seat {link['seat']}": link["url"] + "/ws" for link in table.links()}}

        async def first_messages() -> dict[str, dict]:
            async with aiohttp.ClientSession() as client:
                heard = {}
                for name, url in {**pages, "controls": control + "/ws?camera=1"}.items():
                    ws = await client.ws_connect(url.replace("http://", "ws://", 1))
                    heard[name] = [await next_page_state(ws)]
                    if name == "controls":  # its page's state, then the camera's
                        while all(m.get("kind") != "camera" for m in heard[name]):
                            heard[name].append(await next_page_state(ws))
                    await ws.close()
                return heard

        heard = asyncio.run(first_messages())
        assert any((m.get("samples") or {}).get("listed") == [sample]
                   for m in heard.pop("controls"))
        for name, messages in heard.items():
            text = json.dumps(messages)
            assert messages and '"samples"' not in text and "camera/sample/" not in text, name


def test_a_table_whose_camera_keeps_no_samples_lists_none_and_drops_none(tmp_path):
    header, before, _rest = tricky_before_first_play()
    with LiveCameraTable(tmp_path, header, before) as table:
        wait_for(lambda: "camera" in table.web.sent, "the camera channel")
        assert samples(table) is None
        status, answer = request(table.table_link() + "/camera/samples", {"drop": 0})
        assert status == 409
        assert json.loads(answer) == {"error": "the camera keeps no samples on this table"}


class Watcher:
    """What ``TableLibrary.learn`` needs of the camera's watcher: its library, a re-read."""

    def __init__(self, library: Any) -> None:
        self.recognizer = type("Recognizer", (), {"library": library})()
        self.read_afresh = lambda: None


def test_a_sample_keeps_its_number_and_leaves_the_list_at_once_when_dropped(tmp_path):
    """The list the page is sent: each sample numbered once (a number never given twice),
    a drop off the list at once, off the library and its file at the camera's next frame."""
    library_for(("tricky",)).save(tmp_path / "cards.npz")
    table = TableLibrary(tmp_path / "cards.npz", True, ("tricky",), tmp_path)
    watcher = Watcher(table.load())
    faces = [np.full((88, 63, 3), shade, np.uint8) for shade in (40, 120, 200)]
    table.teach("green-4", faces[0])
    table.teach(NOT_A_CARD, faces[1])
    assert table.samples_listed() == (0, []) and table.learn(watcher)
    version, listed = table.samples_listed()
    assert [(s.number, s.card) for s in listed] == [(0, "green-4"), (1, NOT_A_CARD)]
    assert all(s.jpeg[:2] == b"\xff\xd8" for s in listed)
    assert not table.learn(watcher)  # nothing new: the same list
    table.drop(0)
    assert [s.number for s in table.samples_listed()[1]] == [1]  # off the list at once
    assert [c for c, _ in watcher.recognizer.library.samples] == ["green-4", NOT_A_CARD]
    with pytest.raises(SampleRefused, match="^drop: no sample 0: dropped already"):
        table.drop(0)
    table.learn(watcher)
    assert [c for c, _ in watcher.recognizer.library.samples] == [NOT_A_CARD]
    on_file = library_for(("tricky",))
    load_samples(on_file, table.samples)
    assert [c for c, _ in on_file.samples] == [NOT_A_CARD]
    table.teach("red-1", faces[2])
    table.learn(watcher)
    version_now, listed = table.samples_listed()
    assert [(s.number, s.card) for s in listed] == [(1, NOT_A_CARD), (2, "red-1")]
    assert version_now > version
    assert sample_name(NOT_A_CARD, None) == "not a card" and sample_name("red-1", None) == "red-1"
