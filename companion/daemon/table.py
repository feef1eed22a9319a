"""The daemon's loop: one queue in, the table session in the middle, the screens out.

Every source (GPIO inputs, the serial hub, the keyboard of ``--sim``, the camera, a fed log)
only puts items on ``Daemon.queue``; the loop alone turns them into table-log events, has
``StoredSession.append`` check and store them, and draws the views on the screens:
input -> session -> engine -> views -> screens.

Logs name event types and seats only: never a view, never a field of an event, since a
private screen's content (a dial reading, a hand, a secret character) must not reach the
journal.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from PIL import Image

from companion.daemon.camera import SceneReader, SceneSeen, TableGeometry
from companion.daemon.dialogues import (
    LANGUAGE,
    NEW_GAME,
    Refused,
    confirm,
    manual_entry,
    new_game,
)
from companion.daemon.items import Fed, FeedFinished, PartFailed, Seen, Stop
from companion.daemon.menus import Dialogue
from companion.daemon.notify import Notifier
from companion.daemon.pages import Page, draw, with_notice
from companion.daemon.parts import Part, Supervisor, describe
from companion.daemon.vocabulary import display
from companion.errors import CompanionError, LogError, RuleViolation
from companion.games.base import Game
from companion.hardware.events import InputEvent
from companion.i18n import DEFAULT, _, current, use
from companion.i18n.choice import LanguageChoice, choose_language
from companion.i18n.names import event_word, field_word
from companion.screens.canvas import blank
from companion.screens.screen_set import compose
from companion.screens.ui import TABLE, TableUI
from companion.table import Header, StoredSession, TableStore
from companion.table.faults import StorageFull, StoreDamaged, StoreError
from companion.voice.announce import announcements
from companion.voice.speaker import Speaker

log = logging.getLogger("companion.daemon")

#: The table's own controls (the pin map's names): the dial's switch, the menu button.
#: Any dial's push switch does (the Pi's is encoder-switch:0, the hub's are numbered from 1).
SWITCH, MENU = "encoder-switch:0", "menu"
#: How long the loop sleeps at most when nothing happens (watchdog, retries).
TICK = 0.25


def is_switch(control: str) -> bool:
    return control.startswith("encoder-switch:")


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def storage_notice(error: CompanionError, what: str) -> str:
    """The table screen's few words for a write the store refused."""
    if isinstance(error, StorageFull):
        return _("storage full: {what}").format(what=what)
    if isinstance(error, StoreError):
        return _("store error: {what}").format(what=what)
    return f"{what}: {error}"


def describe_event(event: Mapping[str, Any]) -> str:
    """An event in words that are safe to log and show publicly: its type and seat only."""
    seat = event.get("seat")
    # Seats counted from 1, as the keys and the screens count them (the log counts from 0).
    return str(event.get("type")) + (f" seat {seat + 1}" if isinstance(seat, int) else "")


def sighting_in_words(event: Mapping[str, Any], game: Game) -> str:
    """What the camera saw, for its confirm step: cards and pieces by their names, the seat by
    its name (all of it lies open on the table)."""
    words = [event_word(str(event.get("type")))]
    for key, value in event.items():
        if key in ("type", "t", "seat") or value is False:
            continue
        if value is True:  # Rumble's chest carried along
            words.append(_("with the {what}").format(what=field_word(key)))
            continue
        values = value if isinstance(value, list) else [value]
        named = ", ".join(display(game, key, item) for item in values)
        words.append(_("to {room}").format(room=named) if key == "to" else named)
    seat = event.get("seat")
    if isinstance(seat, int) and 0 <= seat < len(game.seats):
        words.append(_("by {player}").format(player=game.seats[seat]))
    return " ".join(words)


def event_in_words(event: Mapping[str, Any], seats: Sequence[str]) -> str:
    """An event's type and who made it, by name: all the table screen may say of any event
    (its other fields may be a seat's secret, e.g. a face-down card)."""
    seat = event.get("seat")
    kind = event_word(str(event.get("type")))
    if isinstance(seat, int) and 0 <= seat < len(seats):
        return _("{event} by {player}").format(event=kind, player=seats[seat])
    return kind


class Daemon:
    """The table companion's main loop. See the module docstring.

    ``screens`` and ``parts`` are started (and retried when they fail) by a Supervisor;
    ``run`` returns the exit code. A fed log's illegal event raises LogError from ``run``.
    """

    def __init__(self, store: TableStore, *, screens: Sequence[Any] = (),
                 parts: Iterable[Part] = (), default_game: str = "traps",
                 default_seats: Sequence[str] = ("Ann", "Bob", "Cy"),
                 options: Mapping[str, Mapping[str, Any]] | None = None,
                 confirm_below: float = 0.8, retry_seconds: float = 5.0,
                 peek_timeout_s: float = 5.0, watching: bool = False,
                 geometry: TableGeometry | None = None,
                 notifier: Notifier | None = None,
                 language: LanguageChoice | None = None, voice: Speaker | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.store = store
        # SimpleQueue.put is reentrant: the stop signal's handler may put while get runs.
        self.queue: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self.screens = {screen.name: screen for screen in screens}
        self.supervisor = Supervisor([*screens, *parts], retry_seconds, self.submit)
        self.default_game, self.default_seats = default_game, list(default_seats)
        self.options = dict(options or {})
        self.confirm_below = confirm_below
        self.peek_timeout_s = peek_timeout_s
        self.watching = watching  # a camera is part of this table: read its scenes
        self.geometry = geometry or TableGeometry()
        self.reader: SceneReader | None = None
        self.notifier = notifier or Notifier(clock)
        self.clock = clock
        self.table: StoredSession | None = None
        self.dialogue: Dialogue | None = None
        self.purpose = ""  # what the open dialogue decides: "new game", "entry", "confirm"
        self.unsure: list[Seen] = []  # events seen without enough confidence, to confirm
        self.ui = TableUI("none", 0)  # peeks, refusals, the trap dial: set per session
        self.menu_held = False  # the menu button's hold was acted on; its release is not a tap
        self.table_notice = ""
        self.notice_passes = False  # the notice goes at the next action (a refusal, an undo)
        self.stopping = False
        self.exit_code = 0
        self.error: CompanionError | None = None
        self.stored = 0  # events stored by this run
        self.scenes_read = 0  # settled camera scenes read by this run
        self.ready = threading.Event()  # set once the parts are started and the screens drawn
        self.language = language or LanguageChoice(None, DEFAULT)
        self.voice = voice  # spoken announcements, from the public views only
        use(self.language.load())

    # --- the outside world puts items here ---------------------------------------------

    def submit(self, item: Any) -> None:
        """Thread-safe, and safe in a signal handler: any source may call it at any time."""
        self.queue.put(item)

    # --- sessions ----------------------------------------------------------------------

    def resume_or_offer(self) -> None:
        """Resume the unfinished session, or open the new-game menu on the table screen."""
        latest = self.store.latest(unfinished=True)
        if latest is None:
            self.offer_new_game()
            return
        try:
            table = self.store.open_session(latest)
        except (StoreDamaged, LogError) as error:  # e.g. a header an older version stored
            log.warning("session %d cannot be resumed: %s", latest, error)
            self.offer_new_game()  # the table plays on; `companion check` tells the rest
            self.table_notice = _("session {n} unreadable").format(n=latest)
            return
        self.use_table(table)
        log.info("resumed session %d (%s, %d seats, %d events)", latest, table.header.game,
                 len(table.header.seats), len(table.session.entries))

    def offer_new_game(self) -> None:
        try:
            known = self.store.player_names()
        except CompanionError as error:  # a damaged store: the names of the config still do
            log.warning("players not read: %s", error)
            known = []
        self.open_dialogue("new game", new_game(self.default_game, self.default_seats,
                                                self.options, known))

    def use_table(self, table: StoredSession) -> None:
        """Play ``table`` from now on (a resumed, new or fed session)."""
        self.table = table
        game = table.game
        self.reader = SceneReader(game, self.geometry) if self.watching else None
        self.ui = TableUI(game.name, len(game.seats), squares=game.options.get("squares", ()),
                          peek_timeout_s=self.peek_timeout_s)
        self.table_notice = ""

    def start_game(self, header: Header) -> None:
        try:
            table = self.store.new_session(header)
        except CompanionError as error:  # a full disk: the menu again, to try once there is room
            log.warning("new game not started: %s", error)
            self.offer_new_game()
            self.table_notice = storage_notice(error, _("no new game"))
            self.notice_passes = False
            return
        self.use_table(table)
        log.info("new session %d: %s, %d seats", table.id, header.game, len(header.seats))

    # --- the loop ----------------------------------------------------------------------

    def run(self) -> int:
        self.supervisor.start_all(self.clock())
        if self.table is None and self.dialogue is None:
            self.resume_or_offer()
        self.refresh()
        self.notifier.ready(self.status())
        self.ready.set()
        log.info("ready: %s", self.status())
        try:
            while not self.stopping:
                try:
                    item = self.queue.get(timeout=TICK)
                except queue.Empty:
                    item = None
                if item is not None:
                    self.handle(item)
                changed = self.supervisor.tick(self.clock()) or item is not None
                if changed or self.ui.peeks or self.ui.errors:
                    self.ui.tick(self.clock())  # peeks and refusals shown for a while only
                    self.refresh()
                self.notifier.watchdog()
        finally:
            self.notifier.stopping()
            self.supervisor.stop_all()
            if self.voice is not None:
                self.voice.close()
            log.info("stopped (%d events stored by this run)", self.stored)
        if self.error is not None:
            raise self.error
        return self.exit_code

    def status(self) -> str:
        if self.table is None:
            return "waiting for a new game"
        header = self.table.header
        return f"session {self.table.id}: {header.game}, {len(header.seats)} seats"

    def handle(self, item: Any) -> None:
        if isinstance(item, InputEvent):
            self.on_input(item)
        elif isinstance(item, Seen):
            self.on_seen(item)
        elif isinstance(item, SceneSeen):
            self.on_scene(item)
        elif isinstance(item, Fed):
            self.on_fed(item)
        elif isinstance(item, FeedFinished):
            log.info("the fed log is consumed")
            self.stopping = True
        elif isinstance(item, PartFailed):
            self.supervisor.failed(item.name, item.reason, self.clock())
        elif isinstance(item, Stop):
            log.info("stopping: %s", item.reason or "asked to")
            self.stopping = True

    # --- table events --------------------------------------------------------------------

    def append(self, event: dict[str, Any]) -> int | None:
        """Check and store one event; a refusal is shown on the screens, never raised."""
        if self.table is None:
            return None
        withdrawn = self.table.session.in_force[-1:] if event.get("type") == "undo" else []
        before = self.table.game.view(None) if self.voice is not None else None
        try:
            seq = self.table.append(event)
        except CompanionError as error:
            self.refused(event, error)
            return None
        self.accepted(event, seq)
        if before is not None:
            self.announce(before)
        if withdrawn:  # the whole table sees what the long press took back
            self.notice(_("undone: {event}").format(
                event=event_in_words(withdrawn[0], self.table.header.seats)))
        return seq

    def announce(self, before: Mapping[str, Any]) -> None:
        """Say what changed in the public view (never a seat's view: nothing secret)."""
        assert self.table is not None and self.voice is not None
        words = announcements(self.table.header.game, dict(before), self.table.game.view(None),
                              self.table.header.seats)
        if words:
            self.voice.say(". ".join(words), current())

    def notice(self, text: str) -> None:
        """A table-screen notice that goes at the next action at the table."""
        self.table_notice, self.notice_passes = text, True

    def accepted(self, event: Mapping[str, Any], seq: int) -> None:
        assert self.table is not None
        self.stored += 1
        self.table_notice, self.notice_passes = "", False
        log.info("stored #%d: %s", seq, describe_event(event))
        game = self.table.game
        if game.finished:
            log.info("game over: totals %s", game.totals())

    def refused(self, event: Mapping[str, Any], error: CompanionError) -> None:
        # Even the rule that refused a seat's action can tell that seat's secret (no trap under
        # the dial it read: disarm-no-trap; a character another seat holds), so the rule and
        # the message go to the acting seat's own screen only. A seatless event's rule is told.
        if isinstance(error, StoreError):  # the rules allow it; the disk has no room for it
            log.warning("not stored: %s (%s)", describe_event(event), error)
            self.table_notice, self.notice_passes = storage_notice(error, _("not recorded")), False
            return
        rule = error.rule if isinstance(error, RuleViolation) else "malformed event"
        seat = event.get("seat")
        if isinstance(seat, int) and self.table and 0 <= seat < len(self.table.header.seats):
            log.info("refused %s", describe_event(event))
            self.notice(_("refused: see {player}").format(  # its own screen
                player=self.table.header.seats[seat]))
            self.ui.refused(seat, str(error), self.clock())
        else:
            log.info("refused %s (%s)", describe_event(event), rule)
            # No seat's secret in it: the whole table reads why, on the table screen.
            self.ui.refused(TABLE, error.message if isinstance(error, RuleViolation)
                            else str(error), self.clock())

    def on_fed(self, fed: Fed) -> None:
        try:
            if self.table is None:
                raise LogError(fed.line, "no session to feed into")
            fed.seq = self.table.append(fed.event)
            self.accepted(fed.event, fed.seq)
        except StorageFull as error:  # kept running: the feed gives the event again
            log.warning("line %d not stored: %s", fed.line, error)
            self.table_notice, self.notice_passes = storage_notice(error, _("not recorded")), False
            fed.error = error
        except CompanionError as error:
            fed.error = LogError(fed.line, str(error))
            self.error = fed.error
            self.stopping = True
        finally:
            fed.done.set()

    def on_seen(self, seen: Seen) -> None:
        if self.table is None:
            return
        if seen.confidence >= self.confirm_below:
            self.append({**seen.event, "t": now_iso()})
            return
        log.info("unsure (%.2f) of %s: asking the table", seen.confidence,
                 describe_event(seen.event))
        self.unsure.append(seen)
        self.next_confirmation()

    def on_scene(self, seen: SceneSeen) -> None:
        try:
            self.read_scene(seen)
        finally:
            self.scenes_read += 1  # counted once it has been acted on

    def read_scene(self, seen: SceneSeen) -> None:
        if self.table is None or self.reader is None:
            return
        try:
            proposals = self.reader.read(seen.scene, self.table.game, seen.confidence)
        except CompanionError as error:  # the camera saw a change it cannot read
            log.info("camera: %s", error)
            # What the camera saw lies open on the table: the whole table reads it.
            self.ui.refused(TABLE, _("camera: {error}").format(error=error), self.clock())
            return
        for proposal in proposals:
            self.on_seen(proposal)

    def next_confirmation(self) -> None:
        if self.dialogue is None and self.unsure:
            seen = self.unsure[0]
            words = sighting_in_words(seen.event, self.table.game) if self.table else ""
            self.open_dialogue("confirm", confirm(words or seen.description))

    # --- controls ------------------------------------------------------------------------

    def open_dialogue(self, purpose: str, steps: Any) -> None:
        self.dialogue, self.purpose = Dialogue(steps), purpose

    def close_dialogue(self, decided: Any, completed: bool) -> None:
        purpose = self.purpose
        self.dialogue, self.purpose = None, ""
        if completed and decided is LANGUAGE:
            self.open_dialogue("language", choose_language())
        elif purpose == "language":
            if completed:
                self.set_language(decided)
            if self.table is None:
                self.offer_new_game()
        elif purpose == "new game":
            if completed:
                self.start_game(decided)
            elif self.table is None:
                self.offer_new_game()  # there is nothing else to show without a game
        elif purpose == "entry" and completed and decided is NEW_GAME:
            log.info("a new game asked for: session %s left unfinished",
                     self.table.id if self.table else None)
            self.offer_new_game()
        elif purpose == "entry" and completed and isinstance(decided, Refused):
            self.refused(decided.event, decided.error)
        elif purpose == "entry" and completed:
            self.append({**decided, "t": now_iso()})
        elif purpose == "confirm":
            seen = self.unsure.pop(0)
            if completed and decided:
                self.append({**seen.event, "t": now_iso()})
            else:
                log.info("discarded a sighting: %s", describe_event(seen.event))
        self.next_confirmation()

    def set_language(self, lang: str) -> None:
        """Every screen in ``lang`` from the next redraw; kept for the next start. The game
        is read again from the store, so the words it keeps (the latest event's) are too."""
        use(lang)
        self.language.save(lang)
        log.info("language: %s", lang)
        if self.table is not None:
            self.use_table(self.store.open_session(self.table.id))

    def on_input(self, event: InputEvent) -> None:
        """The table's own controls first (menus, undo, new game), then the game's UI."""
        if self.notice_passes and event.kind in ("press", "dial"):
            self.table_notice, self.notice_passes = "", False  # read: the table acts again
        if event.control == MENU:
            self.on_menu(event.kind)
        elif self.dialogue is not None:
            if event.kind == "dial":
                self.dialogue.turn(event.value)
            elif event.kind == "press" and is_switch(event.control):
                self.choose()
        elif self.table is None or self.table.game.finished:
            if event.kind == "press" and is_switch(event.control):
                self.offer_new_game()
        elif is_switch(event.control) and (event.kind == "hold" or (
                event.kind == "press" and self.table.header.game != "traps")):
            # The trap dial has its own flow (a tap), so a long press enters by hand in every
            # game; in the other games a tap does too.
            self.ui.dial = None
            self.open_dialogue("entry", manual_entry(self.table.game))
        else:
            flow = self.ui.dial
            decided = self.ui.handle(event, self.clock())
            if decided is not None and self.append({**decided, "t": now_iso()}) is None:
                # Refused: the trap dial stays as it was, to be put right and tapped again.
                self.ui.dial = flow
            self.refuse_dial_early()

    def refuse_dial_early(self) -> None:
        """A disarm the square's public status rules out is refused before the dice."""
        flow = self.ui.dial
        if flow is None or flow.step != "dice" or self.table is None:
            return
        refusal = self.table.game.refuse_early({"type": "disarm", "square": flow.square})
        if refusal is not None:
            flow.step = "action"  # back to the action: another square or another action
            log.info("refused disarm early (%s)", refusal.rule)
            self.ui.refused(TABLE, refusal.message, self.clock())

    def on_menu(self, kind: str) -> None:
        """Menu button: a tap chooses in a menu (else flips play/scores), a long press undoes
        the latest event (or leaves a menu)."""
        if kind == "press":
            self.menu_held = False
        elif kind == "hold" and not self.menu_held:
            self.menu_held = True
            if self.dialogue is not None:
                self.close_dialogue(None, completed=False)
            elif self.ui.dial is not None:
                self.ui.dial = None  # the trap dial is left like a menu, nothing undone
            elif self.table is not None and self.table.session.in_force:
                log.info("undo of the latest event (long press)")
                self.append({"type": "undo", "t": now_iso()})
        elif kind == "release" and not self.menu_held:
            if self.dialogue is not None:
                self.choose()
            elif self.table is None or self.table.game.finished:
                self.offer_new_game()
            else:
                self.ui.handle(InputEvent("press", MENU), self.clock())

    def choose(self) -> None:
        if self.dialogue is None:
            return
        completed, decided = self.dialogue.choose()
        if completed:
            self.close_dialogue(decided, completed=True)

    # --- screens -------------------------------------------------------------------------

    def images(self) -> dict[str, Image.Image]:
        """What every screen should show now: game screens from views only, menus, notices."""
        failures = self.supervisor.failures()
        failure = "; ".join(f"{name}: {reason}" for name, reason in failures.items())
        images: dict[str, Image.Image] = {}
        if self.table is not None:
            images = compose(self.table.game, self.ui)
        owner = self.dialogue.menu.seat if self.dialogue is not None else None
        if self.dialogue is not None and owner is not None and self.table is not None:
            # A seat's secret is entered on its own screen; the table only says who is at it.
            images[f"seat:{owner}"] = draw(Page(*self.dialogue.title_and_lines()))
            images["table"] = draw(Page(_("Enter by hand"), (
                _("{player}: on your").format(player=self.table.header.seats[owner]),
                _("own screen, with the dial"))))
        elif self.dialogue is not None:
            images["table"] = draw(Page(*self.dialogue.title_and_lines()))
        elif self.table is None:
            images["table"] = draw(Page(_("Dungeon Table"), (_("starting..."),)))
        images["table"] = with_notice(images["table"], failure or self.table_notice)
        if "table" in failures:
            # The table screen is out: the seats' screens carry the news instead.
            for name in images:
                images[name] = with_notice(images[name], failure)
        return images

    def refresh(self) -> None:
        """Show every changed image; a screen that does not answer is reported and retried."""
        failures = self.supervisor.failures()
        images = self.images()
        for name, screen in self.screens.items():
            if name in failures:
                continue
            image = images.get(name) or blank()
            data = image.tobytes()
            if data == screen.shown:
                continue
            try:
                screen.show(image)
            except Exception as error:  # noqa: BLE001 - any screen error: retry later
                self.supervisor.failed(name, describe(error), self.clock())
                self.refresh()  # the other screens now carry the notice
                return
            screen.shown = data
