"""How the daemon's collaborators are built and joined (``wire``, called once by
``Daemon.__init__``): the parts' supervisor, the moments (``lifecycle.py``) with each part's
``listens``, the table's language, the systemd notifier, the heap's trimmer and the table's
collaborators. Each is given what it needs, and those that react to what happens at the table
subscribe to its moments instead of being called by name:

- the screens (``TableNews``): an event stored clears the notice and the refusals shown, an
  undo tells what it took back, a refusal goes to the acting seat's screen (or the table's),
  a scene the camera cannot read is told on the table screen, a notice for the table
  (``TableNotice``) goes on its notice bar, a game started or resumed clears the notice, a
  game finished turns the table screen to the game's own end (its final scores);
- the voice (``Announcer``, when there is one): each step stored is said (the last one's
  words say who won), and the voice is closed at STOPPING;
- the sessions (``Sessions``): the language changed reads the game again, in it.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from companion.daemon.announcer import Announcer
from companion.daemon.corrections import Corrector
from companion.daemon.enrolling import Enrolling
from companion.daemon.heap import HeapTrim, malloc_trim
from companion.daemon.library import TableLibrary
from companion.daemon.lifecycle import (
    EventRefused,
    EventStored,
    GameFinished,
    GameResumed,
    GameStarted,
    Lifecycle,
    SceneUnread,
    TableNotice,
)
from companion.daemon.looks import Looks
from companion.daemon.notify import Notifier
from companion.daemon.offers import Offers
from companion.daemon.open_dialogue import OpenDialogue
from companion.daemon.parts import Part, Submit, Supervisor
from companion.daemon.presenter import Presenter
from companion.daemon.questions import Questions
from companion.daemon.recorder import CurrentGame, Recorder, event_in_words, storage_notice
from companion.daemon.routing import Router
from companion.daemon.sessions import NewGames, Sessions
from companion.daemon.table_display import DisplayWatcher, TableDisplay
from companion.daemon.ui import TABLE
from companion.errors import RuleViolation
from companion.i18n import DEFAULT, _, use
from companion.i18n.choice import LanguageChoice
from companion.table import TableStore
from companion.table.faults import StoreError
from companion.voice.speaker import Speaker


class TableNews:
    """What the table's screens do at each moment: the table screen's notice (``Presenter``)
    and the refusals shown on a seat's screen or the table's (the game's ``TableUI``)."""

    def __init__(self, playing: CurrentGame, presenter: Presenter) -> None:
        self.playing = playing
        self.presenter = presenter

    def listen(self, moments: Lifecycle) -> None:
        moments.subscribe(EventStored, self.stored)
        moments.subscribe(EventRefused, self.refused)
        moments.subscribe(SceneUnread, self.unread)
        moments.subscribe(TableNotice, self.notice)
        moments.subscribe(GameStarted, self.game_on)
        moments.subscribe(GameResumed, self.game_on)
        moments.subscribe(GameFinished, self.game_over)

    def stored(self, moment: EventStored) -> None:
        self.presenter.clear()
        # A refusal (a seat's, or the table's: the camera's, an unreadable change) was made
        # by the state before: once an event or an undo is in, the game's screens show.
        self.playing.ui.moved_on()
        if moment.withdrawn is not None:  # the whole table sees what the long press took back
            self.presenter.tell(_("undone: {event}").format(
                event=event_in_words(moment.withdrawn, moment.stored_game.game.seats)))

    def refused(self, moment: EventRefused) -> None:
        # Even the rule that refused a seat's action can tell that seat's secret (no trap under
        # the dial it read: disarm-no-trap; a character another seat holds), so the rule and
        # the message go to the acting seat's own screen only. A seatless event's rule is told.
        error, seat, stored_game = moment.error, moment.seat, self.playing.stored_game
        if isinstance(error, StoreError):  # the rules allow it; the disk has no room for it
            self.presenter.tell(storage_notice(error, _("not recorded")), passes=False)
        elif seat is not None and stored_game is not None:
            self.playing.ui.refused(seat, str(error), moment.at, moment.said)
            # The banner goes with the refusal on its own screen (read, or its time up).
            self.presenter.tell(_("refused: see {player}").format(
                player=stored_game.game.seats[seat]), until=self.playing.ui.errors[seat][1])
        else:
            # No seat's secret in it: the whole table reads why, on the table screen.
            self.playing.ui.refused(TABLE, error.message if isinstance(error, RuleViolation)
                                    else str(error), moment.at)

    def unread(self, moment: SceneUnread) -> None:
        # What the camera saw lies open on the table: the whole table reads why, on the table
        # screen, as a refusal of no seat (gone once an event is stored).
        self.playing.ui.refused(TABLE, _("camera: {error}").format(error=moment.error),
                                moment.at)

    def notice(self, moment: TableNotice) -> None:
        self.presenter.tell(moment.text, passes=moment.passes)

    def game_on(self, _moment: GameStarted | GameResumed) -> None:
        self.presenter.clear()

    def game_over(self, _moment: GameFinished) -> None:
        # Once the game is over a tap of the menu button offers a new game instead of turning
        # the table screen's page: the scores page left, the table screen shows the game's own
        # end (Deathtrap's and Rumble's final scores, Tricky's final gold, Traps' squares).
        self.playing.ui.page = "play"


@dataclass(frozen=True)
class Collaborators:
    """What ``wire`` built: the daemon's collaborators, joined."""

    supervisor: Supervisor
    moments: Lifecycle
    language: LanguageChoice
    notifier: Notifier
    heap: HeapTrim
    playing: CurrentGame
    asking: OpenDialogue
    presenter: Presenter
    recorder: Recorder
    sessions: Sessions
    looks: Looks
    router: Router
    corrector: Corrector
    offers: Offers
    questions: Questions
    enrolling: Enrolling
    display: TableDisplay


@dataclass(frozen=True)
class Foundation:
    """The daemon's own collaborators, which ``wire`` builds before the table's."""

    supervisor: Supervisor
    moments: Lifecycle
    language: LanguageChoice
    notifier: Notifier
    heap: HeapTrim


def foundation(parts: Sequence[Part], screens: Sequence[Any], submit: Submit,
             retry_seconds: float, language: LanguageChoice | None, notifier: Notifier | None,
             clock: Callable[[], float]) -> Foundation:
    """The parts' supervisor, the moments with each part's ``listens`` registered, the table's
    language (the config's, or the one chosen at the table: made current), the systemd
    notifier and the heap's trimmer."""
    supervisor = Supervisor([*screens, *parts], retry_seconds, submit)
    moments = Lifecycle()
    for part in parts:
        for moment, handler in part.listens().items():
            moments.register(moment, handler)
    language = language or LanguageChoice(None, DEFAULT)
    use(language.load())
    # Freed pages given back now and then (heap.py).
    return Foundation(supervisor, moments, language, notifier or Notifier(clock),
                    HeapTrim(malloc_trim()))


def wire(store: TableStore, settings: NewGames, submit: Submit, *,
         screens: Sequence[Any] = (), parts: Sequence[Part] = (), retry_seconds: float = 5.0,
         confirm_below: float = 0.8, watchers: Iterable[DisplayWatcher] = (),
         language: LanguageChoice | None = None, notifier: Notifier | None = None,
         voice: Speaker | None = None, library: TableLibrary | None = None,
         clock: Callable[[], float] = time.monotonic) -> Collaborators:
    """The daemon's collaborators built and subscribed to the moments (the module docstring):
    the screens hear each moment before the voice. ``submit``: where the parts put what they
    bring (the daemon's queue)."""
    own = foundation(parts, screens, submit, retry_seconds, language, notifier, clock)
    moments = own.moments
    playing, asking = CurrentGame(), OpenDialogue()
    presenter = Presenter(screens, own.supervisor, clock)
    TableNews(playing, presenter).listen(moments)
    if voice is not None:
        Announcer(voice).listen(moments)
    recorder = Recorder(playing, moments, clock)
    sessions = Sessions(store, playing, asking, settings, own.language, moments)
    looks = Looks(confirm_below)  # what the camera saw, and its pictures kept
    router = Router(playing, asking, recorder, sessions, presenter, moments, clock,
                    confirm_below, looks)
    corrector = Corrector(playing, asking, recorder, looks, router.close, router.ask, library)
    # What a reading may be corrected to: the game's cards its rules allow there now.
    offers = Offers(playing)
    # The camera's, for the pages.
    questions = Questions(asking, looks, offers.of)
    # The deck of the game on the table enrolled with the camera, when the page asks.
    enrolling = Enrolling(playing, library)
    display = TableDisplay(playing, asking, presenter, looks, questions, watchers, offers,
                           enrolling, library)  # what it shows
    return Collaborators(own.supervisor, moments, own.language, own.notifier, own.heap,
                         playing, asking, presenter, recorder, sessions, looks, router,
                         corrector, offers, questions, enrolling, display)
