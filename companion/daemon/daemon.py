"""The daemon's loop: one queue in, the table session in the middle, the screens out.

Every source (GPIO inputs, the serial hub, the keyboard of ``--sim``, the camera, a fed log)
only puts items on ``Daemon.queue``; the loop alone turns them into table-log events, has
``StoredSession.append`` check and store them, and draws the views on the screens:
input -> session -> engine -> views -> screens. Its parts: ``routing`` (the controls and the
camera's sightings), ``asking`` (the open dialogue), ``record`` (store or refuse),
``sessions`` (resume, new game), ``presenter`` (views and notices -> screen images); they
are built and joined by ``wiring.wire``, and what happens (an event stored or refused, a game
started, resumed or finished, the language changed, READY, STOPPING) is published as a moment
on ``Daemon.lifecycle`` for the parts that subscribed to it (``lifecycle.py``).

What it shows is its public face, ``Daemon.display`` (``table_display.py``: every screen's
image, the open menu, the sightings waiting, the notice, the dial, a seat's refusal, the join
links), read by the web pages, the demo and the tests; what acts on the table goes on the
queue.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from companion.counts import counted
from companion.daemon.camera import SceneSettled, TableGeometry
from companion.daemon.corrections import Correct
from companion.daemon.dispatch import Dispatch, Handling
from companion.daemon.enrolling import Enrol
from companion.daemon.items import (
    CameraProposal,
    FedEvent,
    FeedFinished,
    JoinLinks,
    PartFailed,
    PartFinished,
    Redraw,
    SeatNaming,
    Stop,
)
from companion.daemon.library import DropSample, SampleRefused, TableLibrary
from companion.daemon.lifecycle import Moment, TableNotice
from companion.daemon.notify import Notifier
from companion.daemon.parts import Part
from companion.daemon.questions import Answer
from companion.daemon.routing import MENU, SWITCH
from companion.daemon.sessions import NewGames
from companion.daemon.table_display import DisplayWatcher
from companion.daemon.wiring import wire
from companion.errors import CompanionError
from companion.games import registry
from companion.hardware.events import InputEvent
from companion.i18n import _, pgettext
from companion.i18n.choice import LanguageChoice
from companion.table import Header, StoredSession, TableStore
from companion.voice.speaker import Speaker

__all__ = ["MENU", "SWITCH", "TICK", "Daemon"]
log = logging.getLogger("companion.daemon")
#: How long the loop sleeps at most when nothing happens (watchdog, retries).
TICK = 0.25


class Daemon:
    """The table companion's main loop. See the module docstring.

    ``screens`` and ``parts`` are started (and retried when they fail) by a Supervisor;
    ``run`` returns the exit code. A fed log's illegal event raises LogError from ``run``.
    Each part's ``listens`` is registered in ``lifecycle``, which ``run`` tells READY once the
    parts are started and the screens drawn, and STOPPING once the loop ends; the
    collaborators ``wiring.wire`` builds subscribe to it the moments of the table.
    ``watchers``: given every screen's image after each redraw (``TableDisplay.watchers``: the web
    pages, the --sim board). ``language``: where the table's language is kept (the config's,
    or the one chosen at the table); ``voice``: spoken announcements of the public views
    (None: silent); ``library``: the camera's card library, where a deck enrolled at the
    table is written (None: no enrolment at the table); the camera part must be given the
    same one, which it reads the deck from.
    """

    def __init__(self, store: TableStore, *, screens: Sequence[Any] = (),
                 parts: Iterable[Part] = (), watchers: Iterable[DisplayWatcher] = (),
                 default_game: str = "",
                 default_seats: Sequence[str] = ("Ann", "Bob", "Cy"),
                 options: Mapping[str, Mapping[str, Any]] | None = None,
                 confirm_below: float = 0.8, retry_seconds: float = 5.0,
                 peek_timeout_s: float = 5.0, watching: bool = False,
                 geometry: TableGeometry | None = None,
                 notifier: Notifier | None = None,
                 language: LanguageChoice | None = None, voice: Speaker | None = None,
                 library: TableLibrary | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        # SimpleQueue.put is reentrant: the stop signal's handler may put while get runs.
        self.queue: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self.clock = clock
        self.watching = watching  # a camera is part of this table: read its scenes
        settings = NewGames(default_game or registry.default_game(), list(default_seats),
                            dict(options or {}), peek_timeout_s, watching,
                            geometry or TableGeometry())
        self.voice = voice  # closed at STOPPING (``Announcer``)
        self.library = library  # what corrections taught it, listed on the controls page
        wired = wire(store, settings, self.submit, screens=screens, parts=list(parts),
                     retry_seconds=retry_seconds, confirm_below=confirm_below,
                     watchers=watchers, language=language, notifier=notifier, voice=voice,
                     library=library, clock=clock)
        self.supervisor, self.lifecycle = wired.supervisor, wired.moments
        self.language, self.notifier, self.heap = wired.language, wired.notifier, wired.heap
        self._playing, self._asking, self._presenter = wired.playing, wired.asking, \
            wired.presenter
        self.screens = self._presenter.screens  # by name: what each one shows
        self._recorder, self._sessions, self._router = wired.recorder, wired.sessions, \
            wired.router
        self._corrector, self._questions, self._enrolling = wired.corrector, wired.questions, \
            wired.enrolling
        self.display = wired.display  # what it shows
        self.stopping = False
        self.exit_code = 0
        self.error: CompanionError | None = None
        self.scenes_read = 0  # settled camera scenes read by this run
        self.ready = threading.Event()  # set once the parts are started and the screens drawn
        self.dispatch = Dispatch(self._handlings())

    def submit(self, item: Any) -> None:
        """Thread-safe, and safe in a signal handler: any source may call it at any time."""
        self.queue.put(item)

    @property
    def stored_game(self) -> StoredSession | None:  # None while a new game is being chosen
        return self._playing.stored_game

    @property
    def stored(self) -> int:  # events stored by this run
        return self._recorder.stored

    # --- sessions and the loop -----------------------------------------------------------

    def resume_or_offer(self) -> None:  # the unfinished session, or the new-game menu
        self._sessions.resume_or_offer()

    def start_game(self, header: Header) -> None:  # as the new-game menu does
        self._sessions.start_game(header)

    def use_stored_game(self, stored_game: StoredSession) -> None:  # play it from now on
        self._sessions.play(stored_game)

    def set_language(self, lang: str) -> None:  # as the language menu does: every screen
        self._sessions.set_language(lang)

    def run(self) -> int:
        self.supervisor.start_all(self.clock())
        if self.stored_game is None and not self._asking.open:
            self.resume_or_offer()
        self.display.refresh()
        self.notifier.ready(self._sessions.status())
        self.ready.set()
        self.lifecycle.send(Moment.READY)
        log.info("ready: %s", self._sessions.status())
        try:
            while not self.stopping:
                try:
                    item = self.queue.get(timeout=TICK)
                except queue.Empty:
                    item = None
                if item is not None:
                    self.handle(item)
                    self.heap.worked()
                now = self.clock()
                changed = self.supervisor.tick(now) | self._presenter.tick(now) \
                    or item is not None  # a notice shown for a while only
                ui = self._playing.ui
                if changed or ui.peeks or ui.errors:
                    ui.tick(now)  # peeks and refusals shown for a while only
                    self.display.refresh()
                self.notifier.watchdog()
                self.heap.after_work(self.clock(), idle=self.queue.empty())
        finally:
            self.notifier.stopping()
            self.lifecycle.send(Moment.STOPPING)
            self.supervisor.stop_all()
            log.info("stopped (%s stored by this run)", counted(self.stored, "event"))
        if self.error is not None:
            raise self.error
        return self.exit_code

    def handle(self, item: Any) -> None:
        """Act on one item of the queue (an input, a sighting, a scene, a fed event...)."""
        self.dispatch.handle(item)

    def _handlings(self) -> dict[type, Handling]:
        """How each kind of item on the queue is acted on (``dispatch.py``)."""
        return {
            InputEvent: Handling(self._router.on_input),
            CameraProposal: Handling(self._router.on_proposal),
            SceneSettled: Handling(self._read_scene),
            # the deck enrolled with the camera, from the controls page
            Enrol: Handling(self._enrolling.handle, answered=True),
            FedEvent: Handling(self._store_fed, answered=True),
            # a reading put right on the controls page
            Correct: Handling(self._corrector.handle, answered=True),
            # a sample a correction taught dropped on the controls page
            DropSample: Handling(self._drop_sample, answered=True),
            # the camera's question answered
            Answer: Handling(lambda answer: self._corrector.answer(answer, self._questions),
                             answered=True),
            SeatNaming: Handling(self._sessions.name_seat, answered=True),
            # shown on the seats' screens when the table asks
            JoinLinks: Handling(self._presenter.keep_joins),
            Redraw: Handling(lambda _redraw: None),  # the loop redraws after any item
            FeedFinished: Handling(self._feed_finished),
            PartFailed: Handling(lambda failed: self.supervisor.failed(
                failed.name, failed.reason, self.clock(), crashed=failed.crashed)),
            PartFinished: Handling(self._part_finished),
            Stop: Handling(self._stop),
        }

    def _read_scene(self, scene: SceneSettled) -> None:
        try:
            if not self._enrolling.settled(scene):  # while enrolling, no scene is a play
                self._router.on_scene(scene)
        finally:
            self.scenes_read += 1  # counted once it has been acted on

    def _drop_sample(self, item: DropSample) -> None:
        """A sample dropped on the controls page: off the page's list now, no longer used
        from the camera's next frame on (``TableLibrary.drop``)."""
        try:
            if self.library is None:
                raise SampleRefused(pgettext("web", "the camera keeps no samples on this "
                                                    "table"))
            self.library.drop(item.number)
            log.info("a sample the table taught dropped from the controls page")
        except SampleRefused as error:
            log.info("a sample not dropped: %s", error)
            item.error = error

    def _store_fed(self, fed: FedEvent) -> None:
        self.error = self._recorder.fed(fed) or self.error
        self.stopping = self.stopping or self.error is not None

    def _feed_finished(self, _finished: FeedFinished) -> None:
        log.info("the fed log is consumed")
        self.stopping = True

    def _part_finished(self, finished: PartFinished) -> None:
        """A part done for good (a folder of frames played once): the log and the table
        screen say so once (``TableNotice``); the controls page keeps saying it
        (``TableDisplay.finished``)."""
        if self.supervisor.finished(finished.name, finished.reason):
            self.lifecycle.publish(TableNotice(_("{part}: no more frames").format(
                part=finished.name)))

    def _stop(self, stop: Stop) -> None:
        log.info("stopping: %s", stop.reason or "asked to")
        self.stopping = True
