"""Recording at the table: an event checked and stored by the session, or refused with the
reason on the acting seat's own screen; a fed log's events; the words the table and the
journal may use for an event. What follows is told as moments (``lifecycle.py``: ``EventStored``,
``EventRefused``, ``GameFinished``), never by calling the screens or the voice by name.

Logs name event types and seats only: never a view, never a field of an event, since a
private screen's content (a dial reading, a hand, a secret character) must not reach the
journal.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from companion.daemon.camera import SceneReader
from companion.daemon.items import FedEvent
from companion.daemon.lifecycle import EventRefused, EventStored, GameFinished, Lifecycle
from companion.daemon.logline import QUOTED, quoted
from companion.daemon.ui import TableUI
from companion.daemon.vocabulary import Vocabulary
from companion.errors import CompanionError, LogError, RuleViolation
from companion.games.base import Game
from companion.i18n import LANGUAGES, _, using
from companion.i18n.names import event_word, field_word
from companion.table import StoredSession
from companion.table.faults import StorageFull, StoreError

log = logging.getLogger("companion.daemon")


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def storage_notice(error: CompanionError, what: str) -> str:
    """The table screen's few words for a write the store refused."""
    if isinstance(error, StorageFull):
        return _("storage full: {what}").format(what=what)
    if isinstance(error, StoreError):
        return _("store error: {what}").format(what=what)
    return f"{what}: {error}"


def event_in_words(event: Mapping[str, Any], seats: Sequence[str] = ()) -> str:
    """An event's type and who made it: all that may be said of any event (its other fields
    may be a seat's secret, e.g. a face-down card). With ``seats`` (the table screen) the
    seat by name, else (the journal) by number, counted from 1 as the keys and screens
    count (the log counts from 0).

    >>> event_in_words({"type": "open_cards", "seat": 1}, ["Ann", "Bob"])
    'open cards by Bob'
    >>> event_in_words({"type": "open_cards", "seat": 1})
    'open_cards seat 2'
    >>> event_in_words({"type": "x\\ncompanion: stored #21", "seat": 0})
    'x\\\\x0acompanion: stored #21 seat 1'
    """
    seat = event.get("seat")
    if not seats:  # the journal: the type as sent, escaped and cut (it may be anyone's text)
        return quoted(event.get("type")) + (f" seat {seat + 1}" if isinstance(seat, int)
                                            else "")
    kind = event_word(str(event.get("type"))[:QUOTED])
    if isinstance(seat, int) and 0 <= seat < len(seats):
        return _("{event} by {player}").format(event=kind, player=seats[seat])
    return kind


def in_each_language(refusal: Callable[[], CompanionError | None]) -> dict[str, str]:
    """What ``refusal`` (an event checked again against the state that refused it) says in
    each language the companion speaks: a seat's page shows its refusal in its own."""
    said = {}
    for lang in LANGUAGES:
        with using(lang):
            error = refusal()
        if error is not None:
            said[lang] = str(error)
    return said


def sighting_in_words(event: Mapping[str, Any], game: Game) -> str:
    """What the camera saw, for its confirm step: cards and pieces by their names, the seat by
    its name (all of it lies open on the table)."""
    words, named = [event_word(str(event.get("type")))], Vocabulary(game)
    for key, value in event.items():
        if key in ("type", "t", "seat") or value is False:
            continue
        if value is True:  # a flag: the thing the field names went along
            words.append(_("with the {what}").format(what=field_word(key)))
            continue
        values = value if isinstance(value, list) else [value]
        named_values = ", ".join(named.display(key, item) for item in values)
        words.append(_("to {room}").format(room=named_values) if key == "to" else named_values)
    seat = event.get("seat")
    if isinstance(seat, int) and 0 <= seat < len(game.seats):
        words.append(_("by {player}").format(player=game.seats[seat]))
    return " ".join(words)


@dataclass
class CurrentGame:
    """The session being played and its controls (shared by the daemon's parts)."""

    stored_game: StoredSession | None = None
    ui: TableUI = field(default_factory=lambda: TableUI("", 0))
    reader: SceneReader | None = None


class Recorder:
    """Checks and stores events; a refusal is published (``EventRefused``), never raised. Each
    accepted event is published (``EventStored``) with the game before its step, which the voice
    compares with the game after it."""

    def __init__(self, playing: CurrentGame, moments: Lifecycle, clock: Any) -> None:
        self.playing = playing
        self.moments = moments  # where the screens and the voice hear what happened
        self.clock = clock
        self.stored = 0  # events stored by this run

    def append(self, event: dict[str, Any]) -> int | None:
        stored_game = self.playing.stored_game
        if stored_game is None:
            return None
        withdrawn = stored_game.session.in_force[-1:] if event.get("type") == "undo" else []
        before = stored_game.game  # a state is never changed in place: the game before, kept
        try:
            seq = stored_game.append(event)
        except CompanionError as error:
            self.refused(event, error)
            return None
        # The whole table sees what the long press took back (``withdrawn``).
        self.accepted(event, seq, before, withdrawn[0] if withdrawn else None)
        return seq

    def append_all(self, events: list[dict[str, Any]]) -> list[int]:
        """Store ``events`` as one step (a correction: undos and what replaces them), all or
        none; a refusal of the session or the store is said as ``append`` says it, then
        raised."""
        stored_game = self.playing.stored_game
        if stored_game is None:
            raise CompanionError("no game is being played")
        before = stored_game.game
        try:
            seqs = stored_game.append_all(events)
        except CompanionError as error:
            self.refused(next((e for e in events if e.get("type") != "undo"), events[0]), error)
            raise
        for number, (event, seq) in enumerate(zip(events, seqs, strict=True), start=1):
            # The step is said once, with its last event: from the game before the step.
            self.accepted(event, seq, before if number == len(events) else None)
        return seqs

    def accepted(self, event: Mapping[str, Any], seq: int, before: Game | None = None,
                 withdrawn: Mapping[str, Any] | None = None) -> None:
        """Log ``event`` stored and publish it (``EventStored``; ``GameFinished`` if it ended the
        game): the screens show the game again, the voice says what changed."""
        stored_game = self.playing.stored_game
        assert stored_game is not None
        self.stored += 1
        log.info("stored #%d: %s", seq, event_in_words(event))
        game = stored_game.game
        if game.finished:
            log.info("game over: totals %s", game.totals())
        self.moments.publish(EventStored(stored_game, event, seq, before, withdrawn))
        if game.finished:
            self.moments.publish(GameFinished(stored_game))

    def refusal_of(self, event: Mapping[str, Any]) -> CompanionError | None:
        """The error the session gives ``event`` now, in the language current; nothing is
        stored."""
        stored_game = self.playing.stored_game
        try:
            if stored_game is not None:
                stored_game.session.check(dict(event))
        except CompanionError as error:
            return error
        return None

    def refused(self, event: Mapping[str, Any], error: CompanionError,
                again: Callable[[], CompanionError | None] | None = None) -> None:
        """Tell why ``event`` was refused; ``again`` gives the same refusal in the language
        current (by default: the event checked again by the session, unchanged since)."""
        # Even the rule that refused a seat's action can tell that seat's secret (no trap under
        # the dial it read: disarm-no-trap; a character another seat holds), so the rule and
        # the message go to the acting seat's own screen only. A seatless event's rule is told.
        if isinstance(error, StoreError):  # the rules allow it; the disk has no room for it
            log.warning("not stored: %s (%s)", event_in_words(event), error)
            self.moments.publish(EventRefused(event, error, at=self.clock()))
            return
        rule = error.rule if isinstance(error, RuleViolation) else "malformed event"
        seat, stored_game = event.get("seat"), self.playing.stored_game
        if isinstance(seat, int) and stored_game and 0 <= seat < len(stored_game.header.seats):
            log.info("refused %s", event_in_words(event))
            said = in_each_language(again or (lambda: self.refusal_of(event)))
            self.moments.publish(EventRefused(event, error, seat, said, self.clock()))
        else:
            log.info("refused %s (%s)", event_in_words(event), rule)
            # No seat's secret in it: the whole table reads why, on the table screen.
            self.moments.publish(EventRefused(event, error, at=self.clock()))

    def fed(self, fed: FedEvent) -> CompanionError | None:
        """Store one event of a fed log; the error that must stop the daemon, if any (the
        caller sets ``fed.done`` once it has acted on it)."""
        try:
            if self.playing.stored_game is None:
                raise LogError(fed.line, "no session to feed into")
            before = self.playing.stored_game.game
            fed.seq = self.playing.stored_game.append(fed.event)
            self.accepted(fed.event, fed.seq, before)
        except StorageFull as error:  # kept running: the feed gives the event again
            log.warning("line %d not stored: %s", fed.line, error)
            self.moments.publish(EventRefused(fed.event, error, at=self.clock()))
            fed.error = error
        except CompanionError as error:
            fed.error = LogError(fed.line, str(error))
            return fed.error
        return None
