"""What the table shows: the daemon's public face, for whoever watches the table.

The web pages (``web.snapshot``, after each redraw), the demo's players, the benchmarks and
the tests read the table here, never the daemon's parts: every screen's image, the open menu
and what it decides, the camera's sightings waiting, the table screen's notice, the game's dial
flow, a seat's refusal, the seats' join links. ``refresh`` shows the images that changed on the
screens and hands every image to the ``watchers`` (the web pages).

Words come in the language current in the reading thread: the table's, or inside
``using(lang)`` a seat page's (``menu``, ``seat_error`` and ``seat_image`` then say in ``lang``
what the daemon draws for that seat alone: a refusal, a secret being entered). The screens at
the table stay in the table's language.

Reading changes nothing; what acts on the table goes on the daemon's queue (``Daemon.submit``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from PIL import Image

from companion.daemon.enrolling import Enrolling
from companion.daemon.items import JoinLinks
from companion.daemon.library import Sample, TableLibrary
from companion.daemon.looks import Look, Looks
from companion.daemon.offers import Offers
from companion.daemon.open_dialogue import MenuShown, OpenDialogue
from companion.daemon.presenter import Presenter
from companion.daemon.questions import Question, Questions
from companion.daemon.recorder import CurrentGame
from companion.screens.screen_set import compose
from companion.table import StoredSession

#: Called after each redraw with the TableDisplay and every screen's image (e.g. ``WebPart.watch``).
DisplayWatcher = Callable[["TableDisplay", dict[str, Image.Image]], None]


class TableDisplay:
    """What the table shows now (see the module docstring); the daemon's own thread only."""

    def __init__(self, playing: CurrentGame, asking: OpenDialogue, presenter: Presenter,
                 looks: Looks | None = None, questions: Questions | None = None,
                 watchers: Iterable[DisplayWatcher] = (), offers: Offers | None = None,
                 enrolling: Enrolling | None = None, library: TableLibrary | None = None
                 ) -> None:
        self._playing, self._asking, self._presenter = playing, asking, presenter
        self._looks, self._questions, self._offers = looks, questions, offers
        self._enrolling = enrolling
        self._library = library
        #: Called after each redraw with this and every screen's image (the web pages).
        self.watchers: list[DisplayWatcher] = list(watchers)

    @property
    def stored_game(self) -> StoredSession | None:  # None while a new game is being chosen
        return self._playing.stored_game

    @property
    def menu(self) -> MenuShown | None:  # the open menu as shown
        return self._asking.menu_shown()

    @property
    def asks(self) -> str:
        """What the open menu decides: "new game", "entry", "confirm", "language" ("" when
        none)."""
        return self._asking.purpose

    @property
    def sightings(self) -> list[dict[str, Any]]:
        """The camera's unsure sightings waiting to be confirmed, the one asked about first."""
        return [sighting.event for sighting in self._asking.sightings]

    @property
    def camera(self) -> Look | None:
        """The camera's latest look at the game being played: its picture and readings, as
        they stand (for the table's controls page only: docs/camera.md)."""
        look, stored_game = self._looks.latest if self._looks else None, self.stored_game
        return look if look is not None and stored_game is not None \
            and look.session == stored_game.id else None

    def offers(self, look: Look) -> list[list[str]] | None:
        """Per reading of ``look`` (the latest), the cards it may be corrected to: the game's
        own that its rules allow there now, the likeliest first (``offers.py``; for the
        controls page only). None: no camera reads this game."""
        return self._offers.of(look) if self._offers is not None else None

    @property
    def enrolling(self) -> Enrolling | None:
        """The deck of the game on the table enrolled with the camera (its state, to be
        read, for the controls page only); None where the table has no camera library."""
        return self._enrolling if self._enrolling is not None and \
            self._enrolling.library is not None else None

    @property
    def samples(self) -> tuple[int, list[Sample]] | None:
        """The samples corrections taught the camera, oldest first, and the list's version
        (for the controls page only: each is a card's face on the table); None where the
        table has no camera library."""
        return self._library.samples_listed() if self._library is not None else None

    def pictures_kept(self) -> list[int]:
        """The events of the game being played that keep the camera's picture (for the
        controls page only)."""
        stored_game = self.stored_game
        if stored_game is None or self._looks is None:
            return []
        return self._looks.kept_seqs(stored_game)

    @property
    def watching(self) -> bool:
        """Whether a camera reads this game's table (its scenes become events)."""
        return self._playing.reader is not None

    @property
    def asked(self) -> Question | None:
        """The camera's unsure sighting the table is asked about now (the confirm step), with
        the crop of its reading: for the acting seat's page and the controls page only."""
        stored_game = self.stored_game
        if self._questions is None or stored_game is None:
            return None
        return self._questions.current(stored_game.id)

    @property
    def finished(self) -> dict[str, str]:
        """The parts done for good, each with what ended (a camera's folder of frames played
        once)."""
        return self._presenter.supervisor.finished_parts()

    @property
    def table_notice(self) -> str:
        return self._presenter.notice

    @property
    def join_links(self) -> JoinLinks:  # the seats' join links, for their QR codes
        return self._presenter.joins

    def dial_state(self) -> dict[str, Any] | None:  # the game's dial flow, if it is open
        return self._playing.ui.dial_state()

    def seat_error(self, seat: int) -> str | None:  # a refusal, while the seat's screen says it
        return self._playing.ui.error(seat)

    def seat_image(self, seat: int) -> Image.Image | None:
        """Seat ``seat``'s own screen as the daemon draws it (a menu holding its secret, its
        refusal, its join code, its game screen), in the language current in this thread:
        inside ``using(lang)``, what a seat's page in ``lang`` shows. None without a game."""
        stored_game = self.stored_game
        if stored_game is None:
            return None
        return self._presenter.seat_screen(stored_game, self._playing.ui, self.menu, seat)

    def images(self) -> dict[str, Image.Image]:
        """What every screen should show now: game screens from views only, menus, notices."""
        return self._presenter.images(self.stored_game, self._playing.ui, self.menu)

    def game_images(self) -> dict[str, Image.Image]:
        """The game's own screens from its views, without menus or notices."""
        assert self.stored_game is not None
        return compose(self.stored_game.game, self._playing.ui)

    def refresh(self) -> None:
        """Show every changed image; a screen that does not answer is reported and retried.
        Then the watchers get every image."""
        images = self._presenter.refresh(self.stored_game, self._playing.ui, self.menu)
        for watch in self.watchers:
            watch(self, images)
