"""The presenter: the game's views, the open menu and the notices -> one image per screen,
shown on the screens that changed.

Game screens come from the views only (``screens.screen_set``); a menu holding a
seat's secret goes to that seat's own screen; the table screen carries the notice (a part
that failed, a refusal, what an undo took back), and when the table screen itself is out
the seats' screens carry the news instead.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from PIL import Image

from companion.daemon.items import JoinLinks
from companion.daemon.open_dialogue import MenuShown
from companion.daemon.pages import Page, draw, with_notice
from companion.daemon.parts import Supervisor, describe
from companion.daemon.ui import TableUI
from companion.i18n import _
from companion.screens.canvas import blank
from companion.screens.join import join_screen
from companion.screens.screen_set import seat_image, table_image
from companion.table import StoredSession

#: How long a notice of what just happened stays on the table screen unless the table acts
#: first (long enough to read it from across the table).
NOTICE_SECONDS = 8.0


class Presenter:
    """The screens, and the table screen's notice."""

    def __init__(self, screens: Sequence[Any], supervisor: Supervisor, clock: Any) -> None:
        self.screens = {screen.name: screen for screen in screens}
        self.supervisor = supervisor
        self.clock = clock
        self.notice = ""
        self._passes = False  # the notice goes at the next action (a refusal, an undo)
        self._until: float | None = None  # ... or at this time, read or not
        self.joins = JoinLinks(None, {})  # the seats' join links (the web pages')
        self.joining = False  # each seat's screen shows its join code, until the next action

    # --- the notice ------------------------------------------------------------------

    def tell(self, text: str, passes: bool = True, until: float | None = None) -> None:
        """A table-screen notice; ``passes``: it goes at the next action at the table, or
        ``NOTICE_SECONDS`` from now (``until``: then instead), so that a notice of what
        happened (an undo, a refusal) never outlives the moment it tells of."""
        self.notice, self._passes = text, passes
        self._until = None if not passes else (
            until if until is not None else self.clock() + NOTICE_SECONDS)

    def clear(self) -> None:
        self.notice, self._passes, self._until = "", False, None

    def tick(self, now: float) -> bool:
        """End a notice whose time is up; whether one ended (the screens to draw again)."""
        if self._until is not None and now >= self._until:
            self.clear()
            return True
        return False

    def acted(self) -> None:
        """The table acts again (a press, a turn): a notice that passes has been read, the
        join codes scanned."""
        self.joining = False
        if self._passes:
            self.clear()

    # --- the seats' join codes ----------------------------------------------------------

    def has_joins(self, session: int) -> bool:
        return self.joins.session == session and bool(self.joins.urls)

    def keep_joins(self, links: JoinLinks) -> None:
        """The seats' join links of a session (the web pages'), shown when the table asks."""
        self.joins = links

    def show_joins(self) -> None:
        """Each seat's join code on its own screen, until the next press or turn."""
        self.joining = True
        self.tell(_("Scan your own code"), until=float("inf"))  # as long as the codes show

    # --- the images ------------------------------------------------------------------

    def images(self, stored_game: StoredSession | None, ui: TableUI, menu: MenuShown | None
               ) -> dict[str, Image.Image]:
        """What every screen should show now: game screens from views only, menus, notices."""
        failures = self.supervisor.failures()
        failure = "; ".join(f"{name}: {reason}" for name, reason in failures.items())
        images: dict[str, Image.Image] = {}
        if stored_game is not None:
            images["table"] = table_image(stored_game.game, ui)
            for seat in range(len(stored_game.header.seats)):
                images[f"seat:{seat}"] = self.seat_screen(stored_game, ui, menu, seat)
        if menu is not None and menu.seat is not None and stored_game is not None:
            # A seat's secret is entered on its own screen; the table only says who is at it.
            images["table"] = draw(Page(_("Enter by hand"), (
                _("{player}: on your").format(player=stored_game.game.seats[menu.seat]),
                _("own screen, with the dial"))))
        elif menu is not None:
            images["table"] = draw(Page(menu.title, menu.lines))
        elif stored_game is None:
            images["table"] = draw(Page(_("Dungeon Table"), (_("starting..."),)))
        images["table"] = with_notice(images["table"], failure or self.notice)
        if "table" in failures:
            # The table screen is out: the seats' screens carry the news instead.
            for name in images:
                images[name] = with_notice(images[name], failure)
        return images

    def seat_screen(self, stored_game: StoredSession, ui: TableUI, menu: MenuShown | None,
                    seat: int) -> Image.Image:
        """Seat ``seat``'s own screen, bar the notices: a menu holding its secret, its join
        code, else its game screen (its refusal while it shows). In the language current: a
        seat's page draws it in its own."""
        if menu is not None and menu.seat == seat:
            return draw(Page(menu.title, menu.lines))
        url = self.joins.urls.get(seat) if self.joining and self.has_joins(stored_game.id) else None
        if url is not None:
            return join_screen(url, stored_game.game.seats[seat])
        return seat_image(stored_game.game, ui, seat)

    def refresh(self, stored_game: StoredSession | None, ui: TableUI, menu: MenuShown | None
                ) -> dict[str, Image.Image]:
        """Show every changed image; a screen that does not answer is reported and retried,
        and the others are drawn again to carry the notice. The images shown."""
        for _attempt in range(len(self.screens) + 1):  # each failure takes a screen out
            images = self.images(stored_game, ui, menu)
            if self._show(images):
                break
        return images

    def _show(self, images: Mapping[str, Image.Image]) -> bool:
        """Show the images; False if a screen failed (the images are then out of date)."""
        failures = self.supervisor.failures()
        for name, screen in self.screens.items():
            if name in failures:
                continue
            try:
                screen.show_if_changed(images.get(name) or blank())
            except Exception as error:  # noqa: BLE001 - any screen error: retry later
                self.supervisor.failed(name, describe(error), self.clock())
                return False
        return True
