"""A seat's own routes (``/s/TOKEN...``) and its join link (``/J/CODE``), for the web server.

Every request names its seat by the token (or join code) in its path, checked in constant time
against every seat's; a wrong one is answered 403 with no content, ever more slowly (and a few
at a time) from an address that keeps trying. A seat's page acts only as its own seat.
"""

from __future__ import annotations

import asyncio
import io
import json
import logging
import sqlite3
from collections.abc import Callable
from typing import Any, TypeVar

from aiohttp import web

from companion.daemon.items import CameraProposal, Redraw, SeatNaming
from companion.errors import CompanionError
from companion.hardware.events import InputEvent
from companion.i18n import LANGUAGES, _, current, pgettext, using
from companion.table.faults import StorageFull, StoreError
from companion.table.players import check_seat_name, name_taken
from companion.web.delta import Update
from companion.web.guard import BadBody, flat_json
from companion.web.snapshot import seat_screen
from companion.web.tokens import Throttle, TokenBook

log = logging.getLogger("companion.web")

#: How long a seat's new name may wait for the daemon to store it, in seconds.
NAME_WAIT = 60.0
#: How long a request's body (at most 16 KB) may take to arrive, in seconds.
BODY_SECONDS = 10.0
T = TypeVar("T")


def refused(status: int, why: str) -> web.HTTPException:
    """An answer of ``status`` with ``{"error": why}`` (what the pages' ``post`` shows)."""
    kinds = {400: web.HTTPBadRequest, 408: web.HTTPRequestTimeout, 503: web.HTTPServiceUnavailable,
             507: web.HTTPInsufficientStorage}
    return kinds[status](text=json.dumps({"error": why}), content_type="application/json")


async def json_body(request: web.Request) -> Any:
    """The request's JSON document, or 400 saying why not (not JSON, nested too deep, a key
    given twice); a body past the server's size is 413."""
    try:
        async with asyncio.timeout(BODY_SECONDS):  # a body sent a byte at a time holds a file
            body = await request.read()
    except TimeoutError:
        raise refused(408, f"the body did not come whole within {BODY_SECONDS:g} s") from None
    try:
        return flat_json(body)
    except BadBody as error:
        raise refused(400, str(error)) from None


async def field_of(request: web.Request, key: str) -> Any:
    """``key`` of the request's JSON object (None: no such key, or not a JSON object)."""
    body = await json_body(request)
    return body.get(key) if isinstance(body, dict) else None


class SeatPages:
    """The seat routes of ``WebServer`` (which gives the attributes and helpers below)."""

    tokens: TokenBook
    throttle: Throttle
    submit: Callable[[Any], None]
    latest: dict[str, Update]
    languages: dict[tuple[int, int], str]
    screens: dict[tuple[str, int], bytes]
    value: Callable[[str], Any]
    page: Callable[[str], web.Response]
    socket: Callable[..., Any]

    async def credential(self, request: web.Request, found: Callable[[], T | None],
                         refusal: str) -> T:
        """What ``found`` finds for the link in the path, or 403 with ``refusal``: slowly for
        an address that keeps trying wrong links, and at once, without looking at the link,
        while too many of its wrong ones are being answered (``Throttle``)."""
        address = request.remote or ""
        checked = not self.throttle.busy(address)
        value = found() if checked else None
        if value is None:
            await self.throttle.refuse(address, checked)
            raise web.HTTPForbidden(text=refusal)
        return value

    def seat_actions(self, seat: int) -> dict[str, bool]:
        channel = self.value(f"seat:{seat}")
        if channel is None:
            return {}
        return {action["type"]: action["own"] for action in channel["actions"]}

    async def seat_of(self, request: web.Request) -> int:
        """The seat of the token in the path, or 403 (slowly, for an address that keeps
        trying wrong ones)."""
        return await self.credential(
            request, lambda: self.tokens.seat_of(request.match_info["token"]), pgettext(
                "web", "This seat link is not valid: ask the table for your seat's code."))

    async def seat_page(self, request: web.Request) -> web.Response:
        seat = await self.seat_of(request)
        log.info("seat %d page opened", seat + 1)
        return self.page("seat.html")

    async def seat_api(self, request: web.Request) -> web.Response:
        seat = await self.seat_of(request)
        channel = self.value(f"seat:{seat}")
        if channel is None:
            return web.json_response({"error": "no game is being played"}, status=404)
        return web.json_response(channel["api"])

    async def seat_screen(self, request: web.Request) -> web.Response:
        """The seat's screen as its OLED shows it while peeking, drawn from its own view."""
        seat = await self.seat_of(request)
        update = self.latest.get(f"seat:{seat}")
        if update is None:
            raise web.HTTPNotFound()
        key = (update.channel, update.version)
        png = self.screens.get(key)
        if png is None:
            out = io.BytesIO()
            seat_screen(update.value).convert("L").save(out, format="PNG")
            png = out.getvalue()
            if len(self.screens) >= 64:
                self.screens.clear()
            self.screens[key] = png
        return web.Response(body=png, content_type="image/png")

    async def seat_socket(self, request: web.Request) -> web.WebSocketResponse:
        seat = await self.seat_of(request)
        return await self.socket(request, f"seat:{seat}", request.match_info["token"])

    async def seat_act(self, request: web.Request) -> web.Response:
        seat = await self.seat_of(request)
        body = await json_body(request)
        kind = body.get("kind") if isinstance(body, dict) else None
        if kind == "tap":  # the seat's own button, pressed and released
            self.submit(InputEvent("press", f"seat:{seat}", source="web"))
            self.submit(InputEvent("release", f"seat:{seat}", source="web"))
            return web.json_response({"sent": "tap"})
        event = body.get("event") if kind == "event" else None
        if not isinstance(event, dict) or not isinstance(event.get("type"), str):
            return web.json_response({"error": "send {\"kind\": \"tap\"} or {\"kind\": "
                                      "\"event\", \"event\": {\"type\": ...}}"}, status=400)
        if event["type"] == "undo":
            with using(self.language_of(seat)):
                why = pgettext("web", "an undo is the table's: hold the menu button")
            return web.json_response({"error": why}, status=403)
        own = self.seat_actions(seat).get(event["type"])
        if own:
            if event.get("seat", seat) != seat:
                with using(self.language_of(seat)):
                    why = pgettext("web", "a seat's page acts only as its own seat")
                return web.json_response({"error": why}, status=403)
            event["seat"] = seat
        elif own is not None and "seat" in event:
            return web.json_response({"error": f"a {event['type']} event has no seat"},
                                     status=400)
        self.submit(CameraProposal(event, 1.0))  # sure: the seat itself says so
        known = event["type"] if own is not None else "unknown"  # never a user's text raw
        log.info("seat %d sent a %s event", seat + 1, known)
        return web.json_response({"sent": event["type"]})

    async def seat_name(self, request: web.Request) -> web.Response:
        """The seat's own name: checked here, stored by the daemon (durably, before this
        answers), then on every screen and page."""
        seat = await self.seat_of(request)
        name = await field_of(request, "name")
        if not isinstance(name, str):
            return web.json_response({"error": "send {\"name\": \"...\"}"}, status=400)
        try:
            with using(self.language_of(seat)):
                name = check_seat_name(name)
                name_taken(self.seat_names(), seat, name)
        except CompanionError as error:
            return web.json_response({"error": str(error)}, status=400)
        named = SeatNaming(seat, name)
        self.submit(named)
        stored = await asyncio.get_running_loop().run_in_executor(None, named.done.wait,
                                                                  NAME_WAIT)
        if not stored:
            with using(self.language_of(seat)):
                why = pgettext("web", "the table did not answer: try again")
            return web.json_response({"error": why}, status=503)
        if isinstance(named.error, StoreError):  # the disk, not the name: no path to a phone
            log.warning("seat %d's name not kept: %s", seat + 1, named.error)
            full = isinstance(named.error, StorageFull)
            with using(self.language_of(seat)):
                why = (_("storage full: {what}") if full else _("store error: {what}")).format(
                    what=_("not recorded"))
            raise refused(507 if full else 503, why)
        if named.error is not None:
            return web.json_response({"error": str(named.error)}, status=409)
        log.info("seat %d gave its name", seat + 1)
        return web.json_response({"name": named.name})

    def language_of(self, seat: int) -> str:
        """The language of the seat's page (its channel's: its choice, else the table's)."""
        channel = self.value(f"seat:{seat}")
        return channel.get("lang", current()) if channel else current()

    def seat_names(self) -> list[str]:
        table = self.value("table")
        return table.get("api", {}).get("seats", []) if table else []

    async def seat_language(self, request: web.Request) -> web.Response:
        """The seat's page in another language, kept for that seat (its next visits too)."""
        seat = await self.seat_of(request)
        lang = await field_of(request, "lang")
        if lang not in LANGUAGES:
            return web.json_response({"error": f"lang: one of {', '.join(LANGUAGES)}"},
                                     status=400)
        session = self.tokens.session
        if session is None:
            return web.json_response({"error": "no game is being played"}, status=404)
        try:
            self.tokens.choose_language(seat, lang)
        except sqlite3.Error as error:  # a full disk, a store busy past its timeout
            full = getattr(error, "sqlite_errorcode", None) == sqlite3.SQLITE_FULL
            log.warning("seat %d's language not kept: %s", seat + 1, error)
            with using(self.language_of(seat)):
                why = (_("storage full: {what}").format(what=_("not recorded")) if full
                       else pgettext("web", "the table did not answer: try again"))
            raise refused(507 if full else 503, why) from None
        self.languages[(session, seat)] = lang
        self.submit(Redraw())
        log.info("seat %d reads its page in %s", seat + 1, lang)
        return web.json_response({"lang": lang})

    async def join(self, request: web.Request) -> web.Response:
        """A seat's short join link (its QR code on its own screen): on to the seat's page."""

        def joined() -> tuple[int, str] | None:
            seat = self.tokens.seat_of_join(request.match_info["code"])
            token = self.tokens.tokens.get(seat) if seat is not None else None
            return (seat, token) if seat is not None and token is not None else None

        seat, token = await self.credential(request, joined, pgettext(
            "web", "This join code is not valid: ask the table for your seat's code."))
        log.info("seat %d joined by its code", seat + 1)
        raise web.HTTPSeeOther(f"/s/{token}")
