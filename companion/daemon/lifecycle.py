"""The daemon's moments and who is told of each: a small typed publish/subscribe.

A part says what it reacts to, the way Klipper's parts call
``printer.register_event_handler("klippy:ready", ...)`` and the printer's ``send_event`` calls
them: the handlers of a moment are called in the order they were registered, and one that
raises is logged while the others are still called (a part's mistake neither keeps the
others from being told nor stops the daemon). Nobody sets an attribute on another object to
be told, and nobody is called by name.

Two kinds of moments:

- the daemon's own, ``Moment.READY`` and ``Moment.STOPPING``, sent once each by ``Daemon.run``
  (``register``/``send``: handlers take no argument; a part gives them in ``Part.listens``);
- what happens at the table, each a small frozen class carrying what a listener needs
  (``subscribe``/``publish``: a handler takes the moment): ``EventStored``, ``EventRefused``,
  ``SceneUnread``, ``GameStarted``, ``GameResumed``, ``GameFinished``, ``LanguageChanged``,
  ``TableNotice``.

>>> moments = Lifecycle()
>>> leave_ready = moments.register(Moment.READY, lambda: print("library loading"))
>>> moments.send(Moment.READY)
library loading
>>> moments.send(Moment.STOPPING)  # nobody listens: nothing happens
>>> leave = moments.subscribe(LanguageChanged, lambda moment: print("now in", moment.lang))
>>> moments.publish(LanguageChanged("fr"))
now in fr
>>> leave()  # unsubscribed: told no more
>>> moments.publish(LanguageChanged("de"))
"""

from __future__ import annotations

import enum
import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:  # types only: the moments carry them, this module needs none of them
    from companion.errors import CompanionError
    from companion.games.base import Game
    from companion.table import StoredSession

log = logging.getLogger("companion.daemon")

#: What a part runs when READY or STOPPING comes: in the daemon's thread, quickly.
Handler = Callable[[], None]
M = TypeVar("M")


class Moment(enum.Enum):
    """What the daemon announces to its parts about itself."""

    #: The parts are started, the screens drawn, READY sent to systemd.
    READY = "ready"
    #: The loop has ended; the parts are stopped next.
    STOPPING = "stopping"


@dataclass(frozen=True)
class EventStored:
    """An event checked and stored (``Recorder``): ``stored_game`` plays on from the game
    after it.
    ``before``: the game before the step that stored it (the voice compares its public view
    with the one after), None for an event of a step whose last event carries it (a
    correction: undos and what replaces them, said once). ``withdrawn``: the event an undo
    took back, for the table screen's notice (a single undo only)."""

    stored_game: StoredSession
    event: Mapping[str, Any]
    seq: int
    before: Game | None = None
    withdrawn: Mapping[str, Any] | None = None

    def public_before(self) -> dict[str, Any] | None:
        """The public view before the step (never a seat's: nothing secret), if carried."""
        return None if self.before is None else self.before.view(None)


@dataclass(frozen=True)
class EventRefused:
    """An event the session or the store refused (``Recorder.refused``). ``seat``: the acting
    seat, whose own screen shows why (the rule may tell its secret), or None: the table screen
    shows it; ``said``: the refusal in each language (a seat's page reads its own); ``at``:
    the daemon's clock when it was refused."""

    event: Mapping[str, Any]
    error: CompanionError
    seat: int | None = None
    said: Mapping[str, str] = field(default_factory=dict)
    at: float = 0.0


@dataclass(frozen=True)
class SceneUnread:
    """A settled scene of the camera that the game's mapper cannot read without guessing
    (``Router.on_scene``): what the camera saw lies open on the table, so the whole table
    reads why. ``error``: the mapper's; ``at``: the daemon's clock when it was read."""

    error: CompanionError
    at: float = 0.0


@dataclass(frozen=True)
class GameStarted:
    """A new session played from now on (the new-game menu, a fed log,
    ``Daemon.use_stored_game``)."""

    stored_game: StoredSession


@dataclass(frozen=True)
class GameResumed:
    """A stored session played on: the unfinished one at the start, or one read again from
    the store (in the language just chosen)."""

    stored_game: StoredSession


@dataclass(frozen=True)
class GameFinished:
    """An event stored ended the game (its totals are final unless an undo takes it back)."""

    stored_game: StoredSession


@dataclass(frozen=True)
class LanguageChanged:
    """The table's language chosen (already current and kept for the next start)."""

    lang: str


@dataclass(frozen=True)
class TableNotice:
    """Words for the whole table, on the table screen's notice bar: a session that cannot be
    resumed, a new game the store refused, a part done for good. ``text`` is in the table's
    language, made where it is published (``_()``), and holds no seat's secret. ``passes``:
    it goes at the next action at the table or after a while (``presenter.NOTICE_SECONDS``),
    else it stays until an event is stored or a game begins."""

    text: str
    passes: bool = True


class Lifecycle:
    """The handlers of each moment, called in the order they were registered; one that
    raises is logged, and the others are called all the same (a part's mistake does not
    keep the daemon from starting, nor from closing the other parts). The daemon's own
    thread only."""

    def __init__(self) -> None:
        self._handlers: dict[object, list[Callable[..., None]]] = {moment: [] for moment in Moment}

    def register(self, moment: Moment, handler: Handler) -> Callable[[], None]:
        """``handler`` called at ``moment`` (READY, STOPPING); what unregisters it."""
        return self._add(moment, handler)

    def send(self, moment: Moment) -> None:
        self._tell(moment, moment.value)

    def subscribe(self, kind: type[M], handler: Callable[[M], None]) -> Callable[[], None]:
        """``handler`` given each moment of class ``kind`` published; what unsubscribes it."""
        return self._add(kind, handler)

    def publish(self, moment: object) -> None:
        """Tell ``moment`` to the handlers of its class."""
        self._tell(type(moment), type(moment).__name__, moment)

    def listeners(self, moment: Moment | type) -> int:
        """How many handlers ``moment`` has (the tests and the docs count them)."""
        return len(self._handlers.get(moment, []))

    def _add(self, key: object, handler: Callable[..., None]) -> Callable[[], None]:
        handlers = self._handlers.setdefault(key, [])
        handlers.append(handler)

        def remove() -> None:
            if handler in handlers:
                handlers.remove(handler)

        return remove

    def _tell(self, key: object, name: str, *moment: object) -> None:
        for handler in list(self._handlers.get(key, [])):  # one may leave while told
            try:
                handler(*moment)
            except Exception:  # noqa: BLE001 - logged whole; the other parts are told
                log.exception("a handler of %s failed: %r", name, handler)
