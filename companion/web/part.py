"""The web server as one more part of the daemon: started and stopped (and retried when
its port is taken) by the daemon's Supervisor, fed by the daemon's redraws.

The server runs its own asyncio loop in a thread. ``watch`` is the daemon's hook: called in
the daemon's thread after each redraw, it builds the pages' channels from what the table shows
(``Daemon.display``, by ``Snapshot``), works out what changed in each since the last redraw
(``delta.changes``) and hands only that to the loop, which never makes the daemon wait. The
pages take at most a ninth of the loop's time: after a build that took ``t``, the channels
are not built again for ``8 t`` (at most ``MOST_OFTEN``), so a burst of events (a fed log, a
resumed game, undo after undo) reaches the pages in fewer, larger changes, the last one built
when the time is up (a ``Redraw`` asked of the daemon then); an event after a quiet moment
reaches them at once.
Seat actions come back the way a button or the camera's sightings come: as items on the
daemon's queue.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from typing import Any

from aiohttp import web
from PIL import Image

from companion.daemon.items import Redraw
from companion.daemon.parts import Part, Submit
from companion.daemon.table_display import TableDisplay
from companion.web.address import page_url
from companion.web.admission import ACCEPT_BACKLOG, IDLE_SECONDS, Admission, quiet_accept_errors
from companion.web.asked import Crops, add_question
from companion.web.camera_view import SampleCrops, Shots, camera_channel, pictured_channel
from companion.web.delta import Update, changes, ops_message
from companion.web.enrol_view import enrolment_view
from companion.web.guard import HostNames
from companion.web.malformed import request_logger
from companion.web.server import WebServer
from companion.web.snapshot import Snapshot
from companion.web.tokens import Throttle, TokenBook

log = logging.getLogger("companion.web")

#: How often the server looks for a seat link re-issued by ``companion seats --reissue``.
TOKEN_CHECK_SECONDS = 1.0
DEFAULT_PORT = 8080
#: After the pages' channels are built, how much longer the loop goes on without building
#: them (in a burst of events): building the pages' changes takes at most a ninth of its time.
REST_PER_BUILD = 8.0
#: The longest a change waits to reach the pages (seconds): less than a person notices.
MOST_OFTEN = 0.05


def channel_kind(value: Any) -> str:
    """The kind a page knows a channel by (``table``, ``seat``, ``camera``...)."""
    return str(value.get("kind", "")) if isinstance(value, dict) else ""


class WebPart(Part):
    """The table's web pages (``[web]`` in the config, or ``--web ADDR:PORT``)."""

    name = "web"

    def __init__(self, listen: str, port: int, db_path: str, sim: bool = False,
                 throttle: Throttle | None = None, any_port: bool = False) -> None:
        self.listen, self.port, self.db_path, self.sim = listen, port, db_path, sim
        self.any_port = any_port  # the port taken: serve on any free one
        self.throttle = throttle
        #: (session, seat) -> the language of that seat's page: the server writes, the
        #: daemon's thread reads (``Snapshot``).
        self.languages: dict[tuple[int, int], str] = {}
        self.snapshot = Snapshot(sim=sim, languages=self.languages)
        self.shots = Shots()  # the camera's latest pictures, for the controls page
        self.sample_crops = SampleCrops()  # the crops of the samples it uses, for that page
        self.crops = Crops()  # the crop of the camera's question, for the pages that ask it
        self.sent: dict[str, Any] = {}  # channel -> what was last handed to the server
        self.versions: dict[str, int] = {}  # channel -> its number of changes so far
        self.loop: asyncio.AbstractEventLoop | None = None
        self.server: WebServer | None = None
        self.thread: threading.Thread | None = None
        self.url = ""
        self.submit: Submit | None = None  # the daemon's queue, once started
        self.next_build = 0.0  # (monotonic) the channels are not built again before it
        self.build_asked = False  # a Redraw is on its way for the channels held back

    # --- the daemon's side ---------------------------------------------------------------

    def watch(self, display: TableDisplay, images: dict[str, Image.Image]) -> None:
        """The daemon's redraw hook (its thread): the changed channels to the server, or, in
        a burst of events, a redraw asked for when the pages' rest is up."""
        loop, server = self.loop, self.server
        now = time.monotonic()
        if now < self.next_build:
            self._build_later(self.next_build - now)
            return
        self.build_asked = False
        try:
            channels = self.snapshot.build(display, images)
            channels["camera"] = camera_channel(display)
            channels["camera"]["enrolment"] = enrolment_view(display)
            channels["pictured"] = pictured_channel(display, channels["camera"])
            add_question(channels, display, self.crops, self.languages)
            look = display.camera
            if look is not None:
                self.shots.keep(look.number, look.picture.jpeg)  # before the page hears of it
            listed = display.samples
            self.sample_crops.keep(listed[1] if listed is not None else [])
        except Exception:  # noqa: BLE001 - a page must never stop the table
            log.exception("the web pages could not be updated")
            return
        updates = [update for channel, value in channels.items()
                   if (update := self.update(channel, value)) is not None]
        built = time.monotonic()
        self.next_build = built + min(MOST_OFTEN, REST_PER_BUILD * (built - now))
        if updates and loop is not None and server is not None and not loop.is_closed():
            loop.call_soon_threadsafe(server.deliver, updates)

    def _build_later(self, delay: float) -> None:
        """Ask the daemon (once) for a redraw in ``delay`` seconds: the channels held back
        are built then, whether or not another event comes."""
        loop, submit = self.loop, self.submit
        if self.build_asked or loop is None or submit is None or loop.is_closed():
            return
        self.build_asked = True
        loop.call_soon_threadsafe(loop.call_later, delay, submit, Redraw())

    def update(self, channel: str, value: Any) -> Update | None:
        """What changed in ``channel`` since it was last handed over (None: nothing): only
        the operations, serialised here; the whole channel the first time."""
        before = self.sent.get(channel)
        ops = None if before is None else changes(before, value)
        if ops == []:
            return None
        version = self.versions[channel] = self.versions.get(channel, 0) + 1
        self.sent[channel] = value
        text = None if ops is None else ops_message(channel_kind(value), version, ops)
        return Update(channel, version, value, text)

    # --- the part's life -----------------------------------------------------------------

    def start(self, submit: Submit) -> None:
        self.submit, self.build_asked = submit, False
        started = threading.Event()
        failure: list[BaseException] = []
        self.thread = threading.Thread(target=self._serve, args=(submit, started, failure),
                                       name="web", daemon=True)
        self.thread.start()
        started.wait()
        if failure:
            self.thread.join()
            self.thread = None
            raise failure[0]

    def _serve(self, submit: Submit, started: threading.Event,
               failure: list[BaseException]) -> None:
        loop = asyncio.new_event_loop()
        quiet_accept_errors(loop)
        tokens = TokenBook(self.db_path)
        server = WebServer(tokens, submit, sim=self.sim, throttle=self.throttle,
                           languages=self.languages, shots=self.shots,
                           sample_crops=self.sample_crops)
        runner = web.AppRunner(server.app, access_log=None, handle_signals=False,
                               keepalive_timeout=IDLE_SECONDS, logger=request_logger())
        listening: asyncio.Server | None = None
        try:
            loop.run_until_complete(runner.setup())
            assert runner.server is not None
            door = Admission(runner.server)
            try:
                listening = loop.run_until_complete(self._listen(loop, door, self.port))
            except OSError:
                if not self.any_port:
                    raise
                listening = loop.run_until_complete(self._listen(loop, door, 0))
        except OSError as error:
            failure.append(OSError(f"cannot serve on {self.listen}:{self.port}: "
                                   f"{error.strerror or error}"))
            loop.run_until_complete(runner.cleanup())
            loop.close()
            tokens.close()
            started.set()
            return
        assert listening is not None
        port = listening.sockets[0].getsockname()[1] if listening.sockets else self.port
        self.url = page_url(self.listen, port)
        server.serving_at(self.url, HostNames(self.listen, self.url))
        tokens.set_url(self.url)
        self.server, self.loop = server, loop
        if self.sent:  # a restart: the pages get the state as it is
            server.deliver([Update(name, self.versions[name], value, None)
                            for name, value in list(self.sent.items())])
        checker = loop.create_task(self._check_tokens(server))
        # A line that stays under the --sim board: what a small terminal's user needs.
        log.info("web pages at %s%s", self.url, " (simulator: /sim)" if self.sim else "",
                 extra={"stays": True})
        started.set()
        try:
            loop.run_forever()
        finally:
            checker.cancel()
            listening.close()
            loop.run_until_complete(server.close_all())
            loop.run_until_complete(runner.cleanup())
            loop.close()
            tokens.close()

    async def _listen(self, loop: asyncio.AbstractEventLoop, door: Admission,
                      port: int) -> asyncio.Server:
        """The listening socket, its connections let in by ``door`` (``admission.py``)."""
        return await loop.create_server(door, self.listen or None, port,
                                        backlog=ACCEPT_BACKLOG, reuse_address=True)

    async def _check_tokens(self, server: WebServer) -> None:
        while True:
            await asyncio.sleep(TOKEN_CHECK_SECONDS)
            try:
                server.check_tokens()
            except Exception:  # noqa: BLE001 - a busy store: next time
                log.warning("seat links not checked: the store is busy")

    def stop(self) -> None:
        loop, thread = self.loop, self.thread
        self.loop = self.server = None
        self.thread = None
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(loop.stop)
        if thread is not None:
            thread.join(timeout=30)

