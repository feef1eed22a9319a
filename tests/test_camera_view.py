"""The camera's view on the table's controls page (issue 41): the latest settled picture with
every reading on it, sent when the table settles, to the controls page's socket alone (the
table's token); never to the public table, a seat's page or the public API. A live daemon,
the real camera part on rendered frames, the real web server."""

from __future__ import annotations

import asyncio
import json

import aiohttp
import cv2
import numpy as np
from camera_web import LiveCameraTable, tricky_before_first_play
from helpers import wait_for
from page_state import next_page_state
from web_table import get_json, request


def socket_url(url: str) -> str:
    return url.replace("http://", "ws://", 1)


async def messages_until(ws, done, limit: int = 200) -> list[dict]:
    """Messages of a socket until ``done(message)`` (each one read as it comes)."""
    seen = []
    for _ in range(limit):
        message = await next_page_state(ws)
        seen.append(message)
        if done(message):
            return seen
    raise AssertionError(f"not seen in {limit} messages")


def test_the_controls_page_gets_the_picture_and_readings_and_no_other_page_does(tmp_path):
    header, before, rest = tricky_before_first_play()
    first, second = rest[0], next(e for e in rest[1:] if e["type"] == "play")
    with LiveCameraTable(tmp_path, header, before) as table:
        control = table.table_link()
        links = [link["url"] for link in table.links()]
        look = table.show({first["seat"]: [first["card"]]})
        wait_for(lambda: len(table.stored_events()) == len(before) + 1, "the play to be stored")

        async def watch() -> tuple[dict, dict[str, list[dict]]]:
            async with aiohttp.ClientSession() as client:
                camera_ws = await client.ws_connect(socket_url(control) + "/ws?camera=1")
                others = {"public": await client.ws_connect(socket_url(table.url) + "/ws"),
                          "table page": await client.ws_connect(socket_url(control) + "/ws")}
                for n, link in enumerate(links):
                    others[f"seat {n}"] = await client.ws_connect(socket_url(link) + "/ws")
                got = await messages_until(camera_ws, lambda m: m.get("look") == look)
                # Each of the others: what it is sent on connecting, then the next play's
                # update (a new look and a new event), and never the camera's view.
                heard = {name: await messages_until(
                    ws, lambda m: m.get("events") == len(before) + 1)
                    for name, ws in others.items()}
                await asyncio.to_thread(table.show, {second["seat"]: [second["card"]]})
                newer = await messages_until(camera_ws, lambda m: m.get("look") == look + 1)
                for name, ws in others.items():
                    heard[name] += await messages_until(
                        ws, lambda m: m.get("events", 0) > len(before) + 1)
                for ws in [camera_ws, *others.values()]:
                    await ws.close()
                return got[-1], {**heard, "newer": newer}

        view, heard = asyncio.run(watch())
        assert view["kind"] == "camera" and (view["width"], view["height"]) == (640, 448)
        [card] = [r for r in view["readings"] if r["id"] == first["card"]]
        assert card["state"] == "sure" and card["said"] == "sure"
        assert card["nearest"][0]["id"] == first["card"]
        assert all(0 <= x <= 640 and 0 <= y <= 448 for x, y in card["outline"])
        assert any(entry["id"] == second["card"] for entry in view["deck"])
        for name, messages in heard.items():
            if name != "newer":
                assert all(m.get("kind") != "camera" for m in messages), name
                assert "readings" not in json.dumps(messages), name
        # The picture: with the table's token only, and only the latest few.
        status, jpeg = request(f"{control}/camera/{look}.jpg")
        assert status == 200
        image = cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR)
        assert image.shape[:2] == (448, 640)
        wrong = control.rsplit("/", 1)[0] + "/" + "x" * 32
        assert request(f"{wrong}/camera/{look}.jpg") == (403, request(f"{wrong}")[1])
        assert request(f"{control}/camera/999999.jpg")[0] == 404
        assert request(f"{control}/camera/x.jpg")[0] == 404
        for link in links:
            assert request(f"{link}/camera/{look}.jpg")[0] == 404  # no such route for a seat
        # The game's earlier camera events, each with the picture it keeps in the store.
        latest = heard["newer"][-1]
        seqs = [len(before) + 1, len(before) + 2]
        assert [e["seq"] for e in latest["earlier"]] == seqs[::-1]
        assert latest["earlier"][-1]["text"] == f"play by {header.seats[first['seat']]}"
        status, jpeg = request(f"{control}/camera/event/{seqs[0]}.jpg")
        assert status == 200 and jpeg[:2] == b"\xff\xd8"
        status, about = request(f"{control}/camera/event/{seqs[0]}.json")
        assert status == 200
        assert [r["id"] for r in json.loads(about)["readings"]] == [first["card"]]
        assert request(f"{control}/camera/event/1.jpg")[0] == 404  # the deal: no picture
        assert request(f"{wrong}/camera/event/{seqs[0]}.jpg")[0] == 403
        for link in links:
            assert request(f"{link}/camera/event/{seqs[0]}.jpg")[0] == 404
        # The public API and a seat's: the game's views, no picture, no reading.
        for api in [get_json(table.url + "/api/table"), *(get_json(link + "/api")
                                                          for link in links)]:
            assert not {"look", "readings", "picture"} & set(json.dumps(api).split('"'))


def test_a_correction_from_the_controls_page_is_stored_before_it_is_answered(tmp_path):
    """POST /t/TOKEN/camera/correct: a bad body is 400 naming its field and changes
    nothing; a good one is answered once its entries are stored; only the table's token."""
    header, before, rest = tricky_before_first_play()
    first = rest[0]
    other = next(c for c in ("yellow-0", "yellow-1", "blue-0") if c != first["card"])
    with LiveCameraTable(tmp_path, header, before, misread={first["card"]: other}) as table:
        control = table.table_link()
        look = table.show({first["seat"]: [first["card"]]})
        wait_for(lambda: len(table.stored_events()) == len(before) + 1, "the misread play")
        assert table.stored_events()[-1]["card"] == other
        url = f"{control}/camera/correct"
        for body, field in (({"look": look, "reading": 0}, "id"),
                            ({"look": "x", "reading": 0, "id": "red-1"}, "look"),
                            ({"look": look, "reading": -1, "id": "red-1"}, "reading"),
                            ({"look": look, "reading": 0, "id": "Red 1"}, "id"),
                            ({"look": look, "reading": 0, "id": "red-1", "seat": 2}, "seat"),
                            ({"look": look, "undo": True, "id": "red-1"}, "undo"),
                            ({"look": look, "reading": 5, "id": "red-1"}, "reading"),
                            ({"look": look, "reading": 0, "id": "purple-1"}, "id"),
                            ([1, 2], "body")):
            status, answer = request(url, body)
            assert status == 400, (body, answer)
            assert json.loads(answer)["error"].startswith(field + ":"), answer
        assert len(table.stored_events()) == len(before) + 1
        for link in table.links():  # a seat's link has no such route; a wrong token is 403
            assert request(link["url"] + "/camera/correct",
                           {"look": look, "reading": 0, "id": first["card"]})[0] in (403, 404,
                                                                                    405)
        wrong = control.rsplit("/", 1)[0] + "/" + "y" * 32
        assert request(f"{wrong}/camera/correct",
                       {"look": look, "reading": 0, "id": first["card"]})[0] == 403
        assert len(table.stored_events()) == len(before) + 1
        tap = {"look": look, "reading": 0, "id": first["card"], "request": "0123456789abcdef"}
        status, answer = request(url, tap)
        assert status == 200, answer
        stored = json.loads(answer)["stored"]
        # Answered once stored: the entries are in the store as the answer comes.
        entries = table.stored_events()
        assert stored == [len(entries) - 1, len(entries)]
        # Sent again (a double tap, a retry): answered alike, stored once.
        assert request(url, tap) == (status, answer) and table.stored_events() == entries
        bad = request(url, {**tap, "request": "x"})
        assert bad[0] == 400 and json.loads(bad[1])["error"].startswith("request:")
        assert [e["type"] for e in entries[-2:]] == ["undo", "play"]
        assert entries[-1]["card"] == first["card"]
        status, answer = request(url, {"look": look, "undo": True})
        assert status == 200 and table.stored_events()[-1]["card"] == other
        status, answer = request(url, {"look": look, "undo": True})
        assert status == 400 and json.loads(answer)["error"].startswith("undo:")


def test_a_table_with_no_camera_says_so_and_shows_no_view(tmp_path):
    from web_table import LiveTable

    from companion.table import Header

    with LiveTable(tmp_path, Header("tricky", ("Ann", "Bob", "Cy"), 2)) as table:
        from companion.commands.seats import table_link

        control = table_link(table.db)

        async def first_camera_message() -> dict:
            async with aiohttp.ClientSession() as client, client.ws_connect(
                    socket_url(control) + "/ws?camera=1") as ws:
                return (await messages_until(ws, lambda m: m.get("kind") == "camera"))[-1]

        view = asyncio.run(first_camera_message())
        assert view["watching"] is False and view["look"] is None
