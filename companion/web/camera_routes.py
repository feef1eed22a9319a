"""The camera's routes of the table's controls page (``/t/TOKEN/camera/...``), for the web
server: a look's picture, a reading put right, a sample it taught seen and dropped
(docs/camera.md).

Every request carries the table's token (``table_controls``: 403, slowed down, without it).
A correction is checked here for its form (400 naming the field), then carried out by the
daemon (``companion.daemon.corrections``): the answer comes once it is stored, so the page
never shows a correction the store does not hold; a correction the game refuses changes
nothing (409, in words).
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Callable
from typing import Any

from aiohttp import web

from companion.counts import counted
from companion.daemon.corrections import Correct, CorrectionRefused
from companion.daemon.enrolling import ACTIONS, Enrol
from companion.daemon.library import DropSample
from companion.daemon.questions import Answer, AnswerRefused
from companion.table.pictures import picture
from companion.web.camera_view import SampleCrops, Shots
from companion.web.seat_pages import json_body
from companion.web.tokens import TokenBook

log = logging.getLogger("companion.web")

#: How long a correction may wait for the daemon to store it, in seconds.
CORRECT_WAIT = 60.0
#: What a card's id looks like (the games' ids: ``green-4``, ``rat-man``).
CARD_ID = re.compile(r"[a-z0-9][a-z0-9-]{0,47}")
FIELDS = ("look", "reading", "id", "undo", "request")
#: A page's id for one correction (a repeat of it is answered as the first, not stored again).
REQUEST_ID = re.compile(r"[A-Za-z0-9_-]{8,64}")


class BadRequest(Exception):
    """A request's field is wrong: its name and why."""


def number(body: dict[str, Any], key: str) -> int:
    value = body.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < 2**31:
        raise BadRequest(f"{key}: a whole number from 0, got {value!r}"[:120])
    return value


def correction(body: Any) -> Correct:
    """The ``Correct`` a page's body asks for, or BadRequest naming the field."""
    if not isinstance(body, dict):
        raise BadRequest('body: send {"look": N, "reading": N, "id": ID or null} '
                         'or {"look": N, "undo": true}')
    unknown = sorted(set(body) - set(FIELDS))
    if unknown:
        raise BadRequest(f"{unknown[0][:40]}: unknown field (fields: {', '.join(FIELDS)})")
    look = number(body, "look")
    request = body.get("request")
    if request is not None and (not isinstance(request, str)
                                or not REQUEST_ID.fullmatch(request)):
        raise BadRequest(f"request: 8 to 64 letters, digits, - or _, got {request!r}"[:120])
    if "undo" in body:
        if body["undo"] is not True or {"reading", "id"} & set(body):
            raise BadRequest("undo: true, alone with look, takes the look's correction back")
        return Correct(look, undo=True, request=request)
    reading = number(body, "reading")
    if "id" not in body:
        raise BadRequest("id: the card it is, or null for not a card")
    item_id = body["id"]
    if item_id is not None and (not isinstance(item_id, str) or not CARD_ID.fullmatch(item_id)):
        raise BadRequest(f"id: a card's id such as green-4, or null, got {item_id!r}"[:120])
    return Correct(look, reading, item_id, request=request)


def enrol_request(body: Any) -> Enrol:
    """The ``Enrol`` a page's body asks for, or BadRequest naming the field."""
    if not isinstance(body, dict):
        raise BadRequest('body: send {"action": "start" | "stop"} or {"action": "name", '
                         '"crop": N, "card": ID} or {"action": "drop", "crop": N}')
    unknown = sorted(set(body) - {"action", "crop", "card"})
    if unknown:
        raise BadRequest(f"{unknown[0][:40]}: unknown field (fields: action, crop, card)")
    action = body.get("action")
    if action not in ACTIONS:
        raise BadRequest(f"action: one of {', '.join(ACTIONS)}, got {action!r}"[:120])
    wanted = {"start": set(), "stop": set(), "drop": {"crop"}, "name": {"crop", "card"}}[action]
    extra = sorted(set(body) - wanted - {"action"})
    if extra:
        raise BadRequest(f"{extra[0]}: not taken by {action}")
    crop = number(body, "crop") if "crop" in wanted else None
    card = body.get("card") if "card" in wanted else None
    if "card" in wanted and (not isinstance(card, str) or not CARD_ID.fullmatch(card)):
        raise BadRequest(f"card: a card's id such as rat-man, got {card!r}"[:120])
    return Enrol(action, crop, card)


def sample_drop(body: Any) -> DropSample:
    """The ``DropSample`` a page's body asks for (``{"drop": N}``), or BadRequest naming the
    field."""
    if not isinstance(body, dict):
        raise BadRequest('body: send {"drop": N}, N the number of a sample listed')
    unknown = sorted(set(body) - {"drop"})
    if unknown:
        raise BadRequest(f"{unknown[0][:40]}: unknown field (fields: drop)")
    return DropSample(number(body, "drop"))


def answer_of(body: Any, seat: int | None) -> Answer:
    """The ``Answer`` a page's body gives, or BadRequest naming the field."""
    if not isinstance(body, dict):
        raise BadRequest('body: send {"question": N, "choice": "yes", "no" or a card\'s id}')
    unknown = sorted(set(body) - {"question", "choice"})
    if unknown:
        raise BadRequest(f"{unknown[0][:40]}: unknown field (fields: question, choice)")
    choice = body.get("choice")
    if not isinstance(choice, str) or not CARD_ID.fullmatch(choice):
        raise BadRequest(f"choice: yes, no or a card's id, got {choice!r}"[:120])
    return Answer(number(body, "question"), choice, seat)


class CameraRoutes:
    """The camera's routes of ``WebServer`` (which gives the attributes below)."""

    shots: Shots
    sample_crops: SampleCrops
    tokens: TokenBook
    submit: Callable[[Any], None]
    table_controls: Callable[..., Any]
    seat_of: Callable[..., Any]

    async def camera_picture(self, request: web.Request) -> web.Response:
        """A look's picture, for the controls page only (the table's token)."""
        await self.table_controls(request)
        look = request.match_info["look"]
        # ASCII digits only: str.isdigit takes "²" (which int() refuses) and "１" (which it
        # reads as 1).
        jpeg = self.shots.get(int(look)) if look.isascii() and look.isdigit() \
            and len(look) < 12 else None
        if jpeg is None:
            raise web.HTTPNotFound(text="no such picture (the camera has taken newer ones)")
        return web.Response(body=jpeg, content_type="image/jpeg")

    async def camera_sample(self, request: web.Request) -> web.Response:
        """A sample's crop (a card's face on the table), for the controls page only."""
        await self.table_controls(request)
        number = request.match_info["number"]
        jpeg = self.sample_crops.get(int(number)) if number.isascii() and number.isdigit() \
            and len(number) < 12 else None
        if jpeg is None:
            raise web.HTTPNotFound(text="no such sample (dropped, or never taught)")
        return web.Response(body=jpeg, content_type="image/jpeg")

    async def camera_event(self, request: web.Request) -> web.Response:
        """The picture an earlier camera event keeps in the store (``.jpg``), or its readings
        (``.json``): the game being played only, with the table's token."""
        await self.table_controls(request)
        seq, kind = request.match_info["seq"], request.match_info["kind"]
        if not (seq.isascii() and seq.isdigit() and len(seq) < 10 and int(seq) > 0):
            return web.json_response(
                {"error": f"seq: an event's number, a whole number from 1, got {seq[:20]!r}",
                 "field": "seq"}, status=400)
        session = self.tokens.session
        if session is None:
            return web.json_response({"error": "no game is being played"}, status=404)
        stored = picture(self.tokens.db, session, int(seq))
        if stored is None:
            return web.json_response(
                {"error": f"no picture of event {int(seq)}: the camera did not make it "
                          "(typed in by hand, or no such event in this game)"}, status=404)
        if kind == "json":
            return web.json_response({"seq": stored.seq, **stored.about})
        return web.Response(body=stored.jpeg, content_type="image/jpeg")

    async def camera_correct(self, request: web.Request) -> web.Response:
        """A reading put right (``{"look", "reading", "id"}``, ``id`` null: not a card), or
        the look's latest correction taken back (``{"look", "undo": true}``); ``request``
        (optional): the page's id for it, so that a repeat stores nothing again."""
        await self.table_controls(request)
        try:
            item = correction(await json_body(request))
        except BadRequest as error:
            return _bad(error)
        if not await self._handed_over(item):
            return _no_answer()
        error = item.error
        if isinstance(error, CorrectionRefused) and error.field and not error.conflict:
            return web.json_response({"error": str(error), "field": error.field}, status=400)
        if error is not None:
            return web.json_response({"error": str(error)}, status=409)
        log.info("a camera reading corrected from the controls page (%s stored)",
                 counted(len(item.seqs), "entry", "entries"))
        return web.json_response({"stored": item.seqs})

    async def _handed_over(self, item: Any) -> bool:
        """Queue ``item`` for the daemon's loop and wait (off the event loop) until it is
        carried out: False if the table did not answer in ``CORRECT_WAIT``."""
        self.submit(item)
        return await asyncio.get_running_loop().run_in_executor(None, item.done.wait,
                                                                CORRECT_WAIT)

    async def camera_enrol(self, request: web.Request) -> web.Response:
        """The deck of the game on the table enrolled with the camera: started, a face named
        or dropped, stopped; answered once carried out (the deck written, when complete)."""
        await self.table_controls(request)
        try:
            item = enrol_request(await json_body(request))
        except BadRequest as error:
            return _bad(error)
        if not await self._handed_over(item):
            return _no_answer()
        error = item.error
        field = getattr(error, "field", "")
        if error is not None and field and field != "action":
            return web.json_response({"error": str(error), "field": field}, status=400)
        if error is not None:
            return web.json_response({"error": str(error)}, status=409)
        return web.json_response({"done": item.action})

    async def camera_samples(self, request: web.Request) -> web.Response:
        """``{"drop": N}``: the sample listed as N dropped (no longer used from the camera's
        next frame on, gone from its file); answered once the page's list no longer has
        it. A sample not listed (dropped already) is 409, naming the field."""
        await self.table_controls(request)
        try:
            item = sample_drop(await json_body(request))
        except BadRequest as error:
            return _bad(error)
        if not await self._handed_over(item):
            return _no_answer()
        error = item.error
        if error is not None:
            field = getattr(error, "field", "")
            return web.json_response({"error": str(error), **({"field": field} if field else {})},
                                     status=409)
        return web.json_response({"dropped": item.number})

    async def camera_answer(self, request: web.Request) -> web.Response:
        """The camera's question answered on the controls page."""
        await self.table_controls(request)
        return await self.answer(request, None)

    async def seat_answer(self, request: web.Request) -> web.Response:
        """The camera's question answered on the acting seat's page (its own only)."""
        return await self.answer(request, await self.seat_of(request))

    async def answer(self, request: web.Request, seat: int | None) -> web.Response:
        """``{"question": N, "choice": ...}``: the first answer wins, the rest are told the
        question is answered already (409); answered once what it decides is stored."""
        try:
            item = answer_of(await json_body(request), seat)
        except BadRequest as error:
            return _bad(error)
        if not await self._handed_over(item):
            return _no_answer()
        error = item.error
        if isinstance(error, AnswerRefused) and error.other_seat:
            return web.json_response({"error": str(error)}, status=403)
        if isinstance(error, AnswerRefused) and error.field and not error.conflict:
            return web.json_response({"error": str(error), "field": error.field}, status=400)
        if error is not None:
            return web.json_response({"error": str(error)}, status=409)
        log.info("the camera's question answered from %s",
                 "the controls page" if seat is None else f"seat {seat + 1}'s page")
        return web.json_response({"answered": item.choice, "stored": item.stored})


def _bad(error: BadRequest) -> web.Response:
    """400, naming the field the message begins with."""
    return web.json_response({"error": str(error), "field": str(error).split(":", 1)[0]},
                             status=400)


def _no_answer() -> web.Response:
    """503: the daemon did not carry the request out in time."""
    return web.json_response({"error": "the table did not answer: try again"}, status=503)
