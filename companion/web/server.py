"""The table's web server (aiohttp): the table page, the seat pages, the simulator page.

Routes (``/``, ``/api/table`` and a seat link's ``/api`` are a fixed interface: docs/web.md):

- ``/``, ``/ws``, ``/api/table``: the public table, for anyone on the LAN, never a seat's link.
- ``/t/TOKEN``, ``/t/TOKEN/table``, ``/t/TOKEN/ws``, ``POST /t/TOKEN/input``: the table's
  controls page and the table page opened with the table's token: these two (and the
  ``--sim`` page) are the only ones that get the seats' links and join codes.
- ``/t/TOKEN/ws?camera=1``, ``/t/TOKEN/camera/LOOK.jpg``, ``POST /t/TOKEN/camera/correct``:
  the camera's view (its latest settled picture and readings) and a reading put right, for
  the controls page alone (``camera_view.py``, ``camera_routes.py``).
- ``/t/TOKEN/ws?pictures=1``, ``/t/TOKEN/camera/event/SEQ.jpg`` and ``.json``: the picture
  (and its readings) of any camera event of the game, for the controls page and the table
  page opened with the table's token; never on ``/``, the public API or a seat's page.
- ``POST /t/TOKEN/camera/answer``, ``POST /s/TOKEN/answer``: the camera's unsure sighting
  answered on the controls page or on the acting seat's own page (``asked.py``).
- ``POST /t/TOKEN/camera/enrol``: the deck of the game on the table enrolled with the camera
  (``enrol_view.py``, ``daemon/enrolling.py``), from the controls page alone.
- ``/t/TOKEN/camera/sample/NUMBER.jpg``, ``POST /t/TOKEN/camera/samples``: a sample's crop
  (what a correction taught the camera) and a sample dropped, for the controls page alone.
- ``/s/TOKEN``, ``/s/TOKEN/ws``, ``/s/TOKEN/api``, ``POST /s/TOKEN/act``: one seat's page,
  its live view and its actions; the token in the path is checked on every request.
- ``/J/CODE``: a seat's short join link (the QR code on its own screen): on to ``/s/TOKEN``.
- ``/sim``, ``/sim/ws``, ``POST /sim/input``: every screen and control, with ``--sim`` only,
  and only for a browser on the daemon's own machine.

Every request is checked first (``guard``, companion/web/guard.py): its ``Host`` must be one of
the daemon's names (DNS rebinding), its ``Origin`` (if a browser sent one) the site served, a
POST's body ``application/json``; every answer carries ``SECURITY_HEADERS``.

Logs name the route and the seat, never a token or a view. A wrong token is answered 403 with
no content, ever more slowly and a few at a time from an address that keeps trying
(``Throttle``).
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections import Counter
from collections.abc import Callable
from importlib import resources
from ipaddress import ip_address
from typing import Any

from aiohttp import WSCloseCode, WSMsgType, web

from companion.daemon.items import JoinLinks, Redraw
from companion.hardware.events import InputEvent
from companion.i18n import LANGUAGES, pgettext
from companion.web.camera_routes import CameraRoutes
from companion.web.camera_view import SampleCrops, Shots
from companion.web.delta import Update, full_message
from companion.web.guard import HostNames, same_origin
from companion.web.seat_pages import SeatPages, json_body
from companion.web.tokens import Throttle, TokenBook
from companion.web.words import page_words

log = logging.getLogger("companion.web")

STATIC = resources.files("companion.web") / "static"
#: Close code for a seat page whose link was re-issued or whose game ended (4000-4999: ours).
REVOKED = 4403
#: Messages waiting for one slow page: past that, its queue is emptied and it gets the whole
#: channels once more, so that the daemon never waits for it and nothing grows without bound.
BACKLOG = 64
#: Largest request body accepted (an event is a few hundred bytes).
MAX_BODY = 16 * 1024
SECURITY_HEADERS = {
    "Cache-Control": "no-store",
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; "
                               "style-src 'self' 'unsafe-inline'; object-src 'none'; "
                               "base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
}
#: Methods that change nothing (the rest must come from the site itself, as JSON).
SAFE_METHODS = ("GET", "HEAD", "OPTIONS")
#: The largest turn of the dial (or hold flag) one input may carry.
MAX_VALUE = 64
SIM_KINDS = ("dial", "press", "release", "hold")
#: What the table's controls page may work: the dial, its switch, the menu button.
TABLE_CONTROLS = ("encoder:0", "encoder-switch:0", "menu")


def is_local(request: web.Request) -> bool:
    """Whether the browser runs on the daemon's own machine (the socket's peer, no header)."""
    try:
        return ip_address(request.remote or "").is_loopback
    except ValueError:
        return False


def qr_svg(url: str) -> str:
    """The QR code of ``url`` as inline SVG (the QR encoder loaded only when a code is drawn)."""
    import segno

    return segno.make(url, error="m").svg_inline(scale=4, dark="#000", light="#fff")


class Client:
    """One open page: the channels it listens to, and its own queue of messages, sent in
    order. The queue is bounded (``BACKLOG``): a page that cannot keep up starts again from
    the whole channels (``WebServer.send``), it is never waited for."""

    def __init__(self, ws: web.WebSocketResponse, channel: str, token: str | None,
                 links: bool = False, also: tuple[str, ...] = ()) -> None:
        self.ws, self.channel, self.token, self.links = ws, channel, token, links
        self.also = also  # more channels it listens to (the controls page: the camera's)
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.restarts = 0  # times it fell behind and was sent the whole channels again

    @property
    def channels(self) -> tuple[str, ...]:
        return (self.channel, *self.also)

    def push(self, text: str | None) -> None:
        self.queue.put_nowait(text)

    def room(self, count: int) -> bool:
        """Whether ``count`` more messages fit in its queue."""
        return self.queue.qsize() + count <= BACKLOG

    def clear(self) -> None:
        while not self.queue.empty():
            self.queue.get_nowait()

    async def pump(self) -> None:
        while True:
            text = await self.queue.get()
            if text is None:
                await self.ws.close(code=WSCloseCode.GOING_AWAY)
                return
            await self.ws.send_str(text)


class WebServer(SeatPages, CameraRoutes):
    """The pages of one table. ``deliver`` (in the server's loop) takes the channels the
    daemon's snapshot built; ``submit`` puts seat actions on the daemon's queue."""

    def __init__(self, tokens: TokenBook, submit: Callable[[Any], None], *, sim: bool = False,
                 url: str = "", throttle: Throttle | None = None,
                 languages: dict[tuple[int, int], str] | None = None,
                 hosts: HostNames | None = None, shots: Shots | None = None,
                 sample_crops: SampleCrops | None = None) -> None:
        self.tokens = tokens
        self.shots = shots or Shots()  # the camera's latest pictures (the controls page's)
        self.sample_crops = sample_crops or SampleCrops()  # the crops of its samples (same)
        self.submit = submit
        self.sim = sim
        self.url = url
        self.hosts = hosts or HostNames(url=url)
        #: Requests refused before any route looked at them, by why: "host", "origin", "type".
        self.refused: Counter[str] = Counter()
        self.throttle = throttle or Throttle()
        self.languages = languages if languages is not None else {}
        self.latest: dict[str, Update] = {}  # channel -> its latest version
        self.texts: dict[str, tuple[int, str]] = {}  # channel -> (version, its whole JSON)
        self.actions: dict[str, set[str]] = {"own": set(), "table": set()}
        self.clients: set[Client] = set()
        self.screens: dict[tuple[str, int], bytes] = {}  # (seat channel, version) -> screen
        self.app = web.Application(client_max_size=MAX_BODY,
                                   middlewares=[self.security_headers, self.guard])
        self.app.add_routes([
            web.get("/", self.table_page),
            web.get("/ws", self.table_socket),
            web.get("/api/table", self.table_api),
            web.get("/static/{name}", self.static),
            web.get("/i18n/{lang}.json", self.words),
            web.get("/s/{token}", self.seat_page),
            web.get("/s/{token}/", self.seat_page),
            web.get("/s/{token}/ws", self.seat_socket),
            web.get("/s/{token}/api", self.seat_api),
            web.get("/s/{token}/screen.png", self.seat_screen),
            web.post("/s/{token}/act", self.seat_act),
            web.post("/s/{token}/name", self.seat_name),
            web.post("/s/{token}/language", self.seat_language),
            web.get("/J/{code}", self.join),
            web.get("/t/{token}", self.control_page),
            web.get("/t/{token}/", self.control_page),
            web.get("/t/{token}/table", self.table_page_with_links),
            web.get("/t/{token}/ws", self.control_socket),
            web.post("/t/{token}/input", self.control_input),
            web.get("/t/{token}/camera/{look}.jpg", self.camera_picture),
            web.get("/t/{token}/camera/event/{seq}.{kind:jpg|json}", self.camera_event),
            web.post("/t/{token}/camera/correct", self.camera_correct),
            web.post("/t/{token}/camera/answer", self.camera_answer),
            web.post("/t/{token}/camera/enrol", self.camera_enrol),
            web.get("/t/{token}/camera/sample/{number}.jpg", self.camera_sample),
            web.post("/t/{token}/camera/samples", self.camera_samples),
            web.post("/s/{token}/answer", self.seat_answer),
            web.get("/sim", self.sim_page),
            web.get("/sim/ws", self.sim_socket),
            web.post("/sim/input", self.sim_input),
        ])

    @web.middleware
    async def security_headers(self, request: web.Request, handler: Any) -> web.StreamResponse:
        try:
            response = await handler(request)
        except web.HTTPException as refusal:  # a 403, 404, 415 ... raised: an answer too
            refusal.headers.update(SECURITY_HEADERS)
            raise
        if not response.prepared:
            response.headers.update(SECURITY_HEADERS)
        return response

    @web.middleware
    async def guard(self, request: web.Request, handler: Any) -> web.StreamResponse:
        """Only this daemon's names, only its own pages' origin, only JSON to act."""
        host = request.headers.get("Host")
        if not self.hosts.allows(host):
            self.refused["host"] += 1
            raise web.HTTPMisdirectedRequest(text="This is not a name of this table's "
                                                  "server: open it by its address.\n")
        origin = request.headers.get("Origin")
        if origin is not None and not same_origin(origin, host, request.scheme):
            self.refused["origin"] += 1
            raise web.HTTPForbidden(text="Another site's page may not use this table.\n")
        if request.method not in SAFE_METHODS and request.content_type != "application/json":
            self.refused["type"] += 1
            raise web.HTTPUnsupportedMediaType(
                text=json.dumps({"error": "send application/json"}),
                content_type="application/json")
        return await handler(request)

    # --- updates from the daemon ---------------------------------------------------------


    def serving_at(self, url: str, hosts: HostNames) -> None:
        """Where the pages are served, once the port is bound (the links are made with it),
        and the host names the server answers to there."""
        self.url, self.hosts = url, hosts
    def deliver(self, updates: list[Update]) -> None:
        """The channels that changed (built and compared in the daemon's thread): each page
        gets what changed in the ones it listens to, in order."""
        for update in updates:
            if update.channel == "table":
                self.follow_session(update)
        changed = {update.channel: update for update in updates}
        self.latest.update(changed)
        for client in list(self.clients):
            mine = [changed[name] for name in client.channels if name in changed]
            if mine:
                self.send(client, mine)

    def send(self, client: Client, updates: list[Update]) -> None:
        """``updates`` to one page: what changed, or, for a page too far behind (its queue
        full), the whole of its channels once more instead of all that waits for it."""
        if not client.room(len(updates)):
            client.clear()
            client.restarts += 1
            log.info("a %s page fell behind: sent the whole page again",
                     client.channel.split(":")[0])
            if client.links and (links := self.links()) is not None:
                client.push(links)
            for name in client.channels:
                if name in self.latest:
                    client.push(self.whole(name))
            return
        for update in updates:
            client.push(update.ops if update.ops is not None else self.whole(update.channel))

    def whole(self, channel: str) -> str:
        """The channel's latest version, whole, as JSON (serialised once per version)."""
        update = self.latest[channel]
        kept = self.texts.get(channel)
        if kept is None or kept[0] != update.version:
            kept = self.texts[channel] = (update.version, full_message(
                str(update.value.get("kind", "")), update.version, update.value))
        return kept[1]

    def value(self, channel: str) -> Any:
        """The channel's latest content (None: none yet)."""
        update = self.latest.get(channel)
        return update.value if update is not None else None

    def follow_session(self, update: Update) -> None:
        table = update.value
        session = table.get("session")
        if session == self.tokens.session:
            return
        seats = len(table["api"]["seats"]) if session is not None else 0
        self.tokens.serve(session, seats)
        self.languages.clear()
        if session is not None:
            self.languages.update({(session, seat): lang
                                   for seat, lang in self.tokens.languages().items()})
            self.submit(Redraw())  # the seats' pages in their languages
        for channel in [c for c in self.latest if c.startswith("seat:")]:
            del self.latest[channel]
        self.revoke(lambda client: client.channel.startswith("seat:"))
        self.latest["table"] = update
        self.push_links()
        self.send_joins()
        log.info("seat links ready for session %s", session)

    def push_links(self) -> None:
        """The new links and join codes to the pages of the table that show them."""
        links = self.links()
        for client in self.clients:
            if client.links and links is not None:
                client.push(links)

    def check_tokens(self) -> None:
        """Close the pages of seats whose link was re-issued meanwhile."""
        changed = self.tokens.refresh()
        if changed:
            log.info("seat link re-issued: seat %s", ", ".join(str(s + 1) for s in changed))
            self.revoke(lambda client: client.token is not None and (
                self.tokens.seat_of(client.token) is None if client.channel != "table"
                else not self.tokens.is_table(client.token)))
            self.push_links()
            self.send_joins()

    def revoke(self, which: Callable[[Client], bool]) -> None:
        for client in [c for c in self.clients if which(c)]:
            self.clients.discard(client)
            asyncio.ensure_future(client.ws.close(code=REVOKED, message=b"link revoked"))

    # --- pages and sockets ---------------------------------------------------------------

    async def static(self, request: web.Request) -> web.StreamResponse:
        name = request.match_info["name"]
        if "/" in name or name.startswith(".") or name.endswith(".html"):
            raise web.HTTPNotFound()
        resource = STATIC / name
        if not resource.is_file():
            raise web.HTTPNotFound()
        kind = {"js": "text/javascript", "css": "text/css", "svg": "image/svg+xml"}.get(
            name.rsplit(".", 1)[-1], "application/octet-stream")
        return web.Response(body=resource.read_bytes(), content_type=kind)

    async def words(self, request: web.Request) -> web.Response:
        """The pages' own words in one language (``companion.web.words``)."""
        lang = request.match_info["lang"]
        if lang not in LANGUAGES:
            raise web.HTTPNotFound()
        return web.Response(text=page_words(lang), content_type="application/json")

    def page(self, name: str) -> web.Response:
        return web.Response(text=(STATIC / name).read_text(encoding="utf-8"),
                            content_type="text/html")

    async def table_page(self, request: web.Request) -> web.Response:
        return self.page("table.html")

    async def table_api(self, request: web.Request) -> web.Response:
        table = self.value("table") or {}
        if "api" not in table:
            return web.json_response({"error": "no game is being played"}, status=404)
        return web.json_response(table["api"])

    async def table_socket(self, request: web.Request) -> web.WebSocketResponse:
        """The public table, live: never a seat's link, whoever asks (``control_socket``)."""
        return await self.socket(request, "table", None)

    def join_url(self, seat: int) -> str | None:
        """The seat's short join link, all QR alphanumeric characters (upper case)."""
        code = self.tokens.joins.get(seat)
        return f"{self.url.upper()}/J/{code}" if code and self.url else None

    def send_joins(self) -> None:
        """The seats' join links to the daemon, which shows each on its seat's own screen
        when the table asks (docs/web.md)."""
        session = self.tokens.session
        urls = {seat: url for seat in self.tokens.tokens
                if (url := self.join_url(seat)) is not None}
        self.submit(JoinLinks(session, urls))

    def links(self) -> str | None:
        """The seats' links and join codes, for the table's own pages only."""
        table = self.value("table")
        if not table or not self.url:
            return None
        # Each seat's one name as the table's pages say it (an unnamed seat's in its language).
        seats = table.get("names") or table.get("api", {}).get("seats", [])
        links = [{"seat": seat, "name": name, "url": f"{self.url}/s/{token}",
                  "qr": qr_svg(self.join_url(seat) or f"{self.url}/s/{token}")}
                 for seat, name in enumerate(seats)
                 if (token := self.tokens.tokens.get(seat)) is not None]
        table = f"{self.url}/t/{self.tokens.table}"
        return json.dumps({"kind": "links", "links": links, "table": table})

    async def table_controls(self, request: web.Request) -> str:
        """The table's controls token of the path, or 403 (throttled as a seat's is)."""
        token = request.match_info["token"]
        refusal = pgettext(
            "web", "This table link is not valid: companion seats prints the table's link.")
        await self.credential(request, lambda: token if self.tokens.is_table(token) else None,
                              refusal)
        return token

    async def control_page(self, request: web.Request) -> web.Response:
        await self.table_controls(request)
        log.info("table controls page opened")
        text = (STATIC / "sim.html").read_text(encoding="utf-8")
        return web.Response(text=text.replace('data-mode="sim"', 'data-mode="control"'),
                            content_type="text/html")

    async def table_page_with_links(self, request: web.Request) -> web.Response:
        """The table page opened with the table's token (a TV on the Pi's HDMI): it shows the
        seats' join codes, its socket being the controls' own (``/t/TOKEN/ws``)."""
        await self.table_controls(request)
        log.info("table page with the join codes opened")
        return self.page("table.html")

    async def control_socket(self, request: web.Request) -> web.WebSocketResponse:
        """The table's live state and the seats' links; with ``?camera=1`` (the controls
        page) the camera's view too, with ``?pictures=1`` (the table page) the game's camera
        events, whose pictures it shows on tap (``camera_view.py``)."""
        token = await self.table_controls(request)
        also = ("camera",) if request.query.get("camera") == "1" else ()
        if request.query.get("pictures") == "1":  # the table page: its camera events listed
            also += ("pictured",)
        return await self.socket(request, "table", token, self.links(), links=True, also=also)

    async def control_input(self, request: web.Request) -> web.Response:
        """The table's own dial, its switch and the menu button (never a seat's button)."""
        await self.table_controls(request)
        return await self.take_input(request, TABLE_CONTROLS)

    def local_only(self, request: web.Request) -> None:
        if not self.sim or not is_local(request):
            raise web.HTTPNotFound()

    async def sim_page(self, request: web.Request) -> web.Response:
        self.local_only(request)
        return self.page("sim.html")

    async def sim_socket(self, request: web.Request) -> web.WebSocketResponse:
        self.local_only(request)
        return await self.socket(request, "sim", None, self.links(), links=True)

    async def sim_input(self, request: web.Request) -> web.Response:
        self.local_only(request)
        return await self.take_input(request, None)

    async def take_input(self, request: web.Request, controls: tuple[str, ...] | None
                         ) -> web.Response:
        """An InputEvent from a page's control, as the wire from that control would give it
        (``controls``: the ones this page may press; None: any)."""
        body = await json_body(request)
        try:
            kind, control, value = body["kind"], body["control"], int(body.get("value", 0))
        except (ValueError, KeyError, TypeError, AttributeError, OverflowError):
            return web.json_response({"error": "send {kind, control, value}"}, status=400)
        if abs(value) > MAX_VALUE:
            return web.json_response({"error": f"value: -{MAX_VALUE} to {MAX_VALUE}"},
                                     status=400)
        if kind not in SIM_KINDS or not isinstance(control, str) or len(control) > 40:
            return web.json_response({"error": f"kind: one of {', '.join(SIM_KINDS)}"},
                                     status=400)
        if controls is not None and control not in controls:
            return web.json_response({"error": f"control: one of {', '.join(controls)}"},
                                     status=403)
        self.submit(InputEvent(kind, control, value, source="sim"))
        return web.json_response({"sent": kind})

    async def socket(self, request: web.Request, channel: str, token: str | None,
                     first: str | None = None, links: bool = False,
                     also: tuple[str, ...] = ()) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(heartbeat=30, compress=False)
        await ws.prepare(request)
        client = Client(ws, channel, token, links, also)
        self.clients.add(client)
        if first is not None:
            client.push(first)
        for name in client.channels:  # the whole channels first, then what changes
            if name in self.latest:
                client.push(self.whole(name))
        pump = asyncio.ensure_future(client.pump())
        try:
            async for message in ws:  # pages send nothing; this waits for the close
                if message.type == WSMsgType.ERROR:
                    break
        finally:
            pump.cancel()
            self.clients.discard(client)
        return ws

    async def close_all(self) -> None:
        for client in list(self.clients):
            await client.ws.close(code=WSCloseCode.GOING_AWAY)
        self.clients.clear()
