"""A seat's own routes (``/s/TOKEN...``) and its join link (``/J/CODE``), for the web server.

Every request names its seat by the token (or join code) in its path, checked in constant time
against every seat's; a wrong one is answered 403 with no content, ever more slowly from an
address that keeps trying. A seat's page acts only as its own seat.
"""

from __future__ import annotations

import asyncio
import io
import json
import logging
from collections.abc import Callable
from typing import Any

from aiohttp import web

from companion.daemon.items import Named, Redraw, Seen
from companion.errors import CompanionError
from companion.hardware.events import InputEvent
from companion.i18n import LANGUAGES, current, pgettext, using
from companion.table.players import check_seat_name, name_taken
from companion.web.snapshot import seat_screen
from companion.web.tokens import Throttle, TokenBook

log = logging.getLogger("companion.web")

#: How long a seat's new name may wait for the daemon to store it, in seconds.
NAME_WAIT = 60.0


async def field_of(request: web.Request, key: str) -> Any:
    """``key`` of the request's JSON object (None: no such key, or not a JSON object)."""
    try:
        body = await request.json()
    except ValueError:
        return None
    return body.get(key) if isinstance(body, dict) else None


class SeatPages:
    """The seat routes of ``WebServer`` (which gives the attributes and helpers below)."""

    tokens: TokenBook
    throttle: Throttle
    submit: Callable[[Any], None]
    latest: dict[str, str]
    languages: dict[tuple[int, int], str]
    screens: dict[str, bytes]
    page: Callable[[str], web.Response]
    socket: Callable[..., Any]

    def seat_actions(self, seat: int) -> dict[str, bool]:
        text = self.latest.get(f"seat:{seat}")
        if text is None:
            return {}
        return {action["type"]: action["own"] for action in json.loads(text)["actions"]}

    async def seat_of(self, request: web.Request) -> int:
        """The seat of the token in the path, or 403 (slowly, for an address that keeps
        trying wrong ones)."""
        seat = self.tokens.seat_of(request.match_info["token"])
        if seat is None:
            await asyncio.sleep(self.throttle.delay(request.remote or ""))
            raise web.HTTPForbidden(text=pgettext(
                "web", "This seat link is not valid: ask the table for your seat's code."))
        return seat

    async def seat_page(self, request: web.Request) -> web.Response:
        seat = await self.seat_of(request)
        log.info("seat %d page opened", seat + 1)
        return self.page("seat.html")

    async def seat_api(self, request: web.Request) -> web.Response:
        seat = await self.seat_of(request)
        text = self.latest.get(f"seat:{seat}")
        if text is None:
            return web.json_response({"error": "no game is being played"}, status=404)
        return web.json_response(json.loads(text)["api"])

    async def seat_screen(self, request: web.Request) -> web.Response:
        """The seat's screen as its OLED shows it while peeking, drawn from its own view."""
        seat = await self.seat_of(request)
        text = self.latest.get(f"seat:{seat}")
        if text is None:
            raise web.HTTPNotFound()
        png = self.screens.get(text)
        if png is None:
            out = io.BytesIO()
            seat_screen(json.loads(text)).convert("L").save(out, format="PNG")
            png = out.getvalue()
            if len(self.screens) >= 64:
                self.screens.clear()
            self.screens[text] = png
        return web.Response(body=png, content_type="image/png")

    async def seat_socket(self, request: web.Request) -> web.WebSocketResponse:
        seat = await self.seat_of(request)
        return await self.socket(request, f"seat:{seat}", request.match_info["token"])

    async def seat_act(self, request: web.Request) -> web.Response:
        seat = await self.seat_of(request)
        try:
            body = await request.json()
        except ValueError:
            return web.json_response({"error": "the body must be JSON"}, status=400)
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
        self.submit(Seen(event, 1.0))  # sure: the seat itself says so
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
        named = Named(seat, name)
        self.submit(named)
        stored = await asyncio.get_running_loop().run_in_executor(None, named.done.wait,
                                                                  NAME_WAIT)
        if not stored:
            with using(self.language_of(seat)):
                why = pgettext("web", "the table did not answer: try again")
            return web.json_response({"error": why}, status=503)
        if named.error is not None:
            return web.json_response({"error": str(named.error)}, status=409)
        log.info("seat %d gave its name", seat + 1)
        return web.json_response({"name": named.name})

    def language_of(self, seat: int) -> str:
        """The language of the seat's page (its channel's: its choice, else the table's)."""
        text = self.latest.get(f"seat:{seat}")
        return json.loads(text).get("lang", current()) if text else current()

    def seat_names(self) -> list[str]:
        text = self.latest.get("table")
        return json.loads(text).get("api", {}).get("seats", []) if text else []

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
        self.tokens.choose_language(seat, lang)
        self.languages[(session, seat)] = lang
        self.submit(Redraw())
        log.info("seat %d reads its page in %s", seat + 1, lang)
        return web.json_response({"lang": lang})

    async def join(self, request: web.Request) -> web.Response:
        """A seat's short join link (its QR code on its own screen): on to the seat's page."""
        seat = self.tokens.seat_of_join(request.match_info["code"])
        token = self.tokens.tokens.get(seat) if seat is not None else None
        if token is None:
            await asyncio.sleep(self.throttle.delay(request.remote or ""))
            raise web.HTTPForbidden(text=pgettext(
                "web", "This join code is not valid: ask the table for your seat's code."))
        log.info("seat %d joined by its code", seat + 1)
        raise web.HTTPSeeOther(f"/s/{token}")
