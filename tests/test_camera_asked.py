"""The camera's unsure readings asked on the phones (issue 41): where the table screen asks
to confirm a sighting, the acting seat's page and the controls page show the crop of the
reading and the choices; whichever answers first wins, the others close. The real daemon
loop, store, vision pipeline and rules (in the test's thread), then the real web server."""

from __future__ import annotations

import asyncio
import json

import aiohttp
import cv2
import numpy as np
from camera_table import CameraTable
from camera_web import LiveCameraTable, tricky_before_first_play
from test_camera_view import messages_until, socket_url
from web_table import request

from companion.daemon.questions import Answer
from companion.daemon.routing import SWITCH
from companion.table.pictures import pictures

CARD, LOOK_ALIKE = "green-4", "yellow-0"  # the first card played face up in seed 3's game


def answer(table: CameraTable, **fields) -> Answer:
    item = Answer(**fields)
    table.daemon.handle(item)
    table.daemon.display.refresh()
    assert item.done.is_set()
    return item


def asked_table(tmp_path) -> tuple[CameraTable, dict]:
    table = CameraTable(tmp_path, near={CARD: LOOK_ALIKE})
    play = table.play_until_a_card()
    assert play["card"] == CARD
    table.put_down(play["seat"], [CARD])
    return table, play


def test_the_question_has_the_crop_the_seat_and_the_faces_it_looked_like(tmp_path):
    table, play = asked_table(tmp_path)
    with table:
        shown = table.daemon.display
        assert shown.asks == "confirm" and shown.sightings == [{**play, "card": LOOK_ALIKE}]
        question = shown.asked
        assert question.seat == play["seat"] and question.look == shown.camera.number
        assert CARD in question.alternatives and LOOK_ALIKE not in question.alternatives
        crop = cv2.imdecode(np.frombuffer(question.crop, np.uint8), cv2.IMREAD_COLOR)
        assert 20 < crop.shape[0] < 200 and 20 < crop.shape[1] < 200  # the card, not the table
        assert shown.camera.states[question.readings[0]] == "asked"


def test_a_phone_answers_with_the_card_it_really_is(tmp_path):
    table, play = asked_table(tmp_path)
    with table:
        count = len(table.stored_game.session.events)
        number = table.daemon.display.asked.number
        done = answer(table, number=number, choice=CARD, seat=play["seat"])
        assert done.error is None and done.stored == 1  # the corrected play, nothing to undo
        entries = table.stored_game.session.events
        assert len(entries) == count + 1 and entries[-1]["card"] == CARD
        assert table.daemon.display.asks == "" and table.daemon.display.asked is None  # all closed
        kept = pictures(table.store.db, table.stored_game.id)[-1]
        assert kept.seq == count + 1 and [r["state"] for r in kept.about["readings"]] == [
            "corrected"]


def test_yes_and_no_from_the_controls_page(tmp_path):
    table, play = asked_table(tmp_path)
    with table:
        count = len(table.stored_game.session.events)
        no = answer(table, number=table.daemon.display.asked.number, choice="no")
        assert no.error is None and no.stored == 0 and table.daemon.display.asked is None
        assert len(table.stored_game.session.events) == count
    table, play = asked_table(tmp_path / "again")
    with table:
        yes = answer(table, number=table.daemon.display.asked.number, choice="yes")
        assert yes.error is None and yes.stored == 1
        assert table.stored_game.session.events[-1]["card"] == LOOK_ALIKE  # as read


def test_the_first_answer_wins_and_a_wrong_one_changes_nothing(tmp_path):
    table, play = asked_table(tmp_path)
    with table:
        number = table.daemon.display.asked.number
        count = len(table.stored_game.session.events)
        other_seat = (play["seat"] + 1) % 4
        refused = answer(table, number=number, choice=CARD, seat=other_seat)
        assert refused.error is not None and refused.error.other_seat
        bad = answer(table, number=number, choice="purple-3", seat=play["seat"])
        assert str(bad.error).startswith("choice:")
        assert table.daemon.display.asked.number == number  # still asked, nothing stored
        assert len(table.stored_game.session.events) == count
        # The table screen's yes, first: the phone's answer comes too late.
        table.hands.tap(SWITCH, lambda: True)
        assert table.daemon.display.asked is None
        assert table.stored_game.session.events[-1]["card"] == LOOK_ALIKE
        late = answer(table, number=number, choice=CARD, seat=play["seat"])
        assert late.error is not None and late.error.conflict
        assert len(table.stored_game.session.events) == count + 1


def test_only_the_acting_seat_s_page_gets_the_question_and_its_answer_closes_the_rest(tmp_path):
    header, before, rest = tricky_before_first_play()
    play = rest[0]
    assert play["card"] == CARD
    with LiveCameraTable(tmp_path, header, before, near={CARD: LOOK_ALIKE}) as table:
        control = table.table_link()
        links = [link["url"] for link in table.links()]
        seat = play["seat"]

        async def watch() -> dict[str, list[dict]]:
            async with aiohttp.ClientSession() as client:
                sockets = {"controls": await client.ws_connect(
                    socket_url(control) + "/ws?camera=1"),
                    "public": await client.ws_connect(socket_url(table.url) + "/ws")}
                for n, link in enumerate(links):
                    sockets[f"seat {n}"] = await client.ws_connect(socket_url(link) + "/ws")
                await asyncio.to_thread(table.show, {seat: [CARD]})
                heard = {"controls": await messages_until(
                    sockets["controls"], lambda m: m.get("asked") is not None),
                    f"seat {seat}": await messages_until(
                        sockets[f"seat {seat}"], lambda m: m.get("asked") is not None)}
                question = heard["controls"][-1]["asked"]
                assert heard[f"seat {seat}"][-1]["asked"]["question"] == question["question"]
                body = {"question": question["question"], "choice": CARD}
                other = links[(seat + 1) % 4]
                status, said = await asyncio.to_thread(request, other + "/answer", body)
                assert status == 403, said
                status, said = await asyncio.to_thread(request, links[seat] + "/answer", body)
                assert status == 200, said
                status, said = await asyncio.to_thread(request, control + "/camera/answer",
                                                       {**body, "choice": "yes"})
                assert status == 409 and "answered already" in json.loads(said)["error"]
                # Every page hears the play; none but the two ever heard the question.
                stored = len(before) + 1
                for name, ws in sockets.items():
                    heard[name] = heard.get(name, []) + await messages_until(
                        ws, lambda m: m.get("events") == stored and not m.get("asked"))
                    await ws.close()
                return heard

        heard = asyncio.run(watch())
        assert table.stored_events()[-1]["card"] == CARD
        for name, messages in heard.items():
            asked = [m for m in messages if m.get("asked")]
            if name in ("controls", f"seat {seat}"):
                assert asked and asked[-1]["asked"]["crop"].startswith("data:image/jpeg;base64,")
                assert {c["value"] for c in asked[-1]["asked"]["choices"]} >= {"yes", "no", CARD}
            else:
                assert not asked and "data:image/jpeg" not in json.dumps(messages), name
