"""The session life cycle: resume the unfinished session, or offer a new game on the table
screen; start the game chosen; play a session (resumed, new or fed). Each is published as a
moment (``GameStarted``, ``GameResumed``, ``LanguageChanged``: ``lifecycle.py``), and so is
what the table screen says of a session that cannot be resumed or started (``TableNotice``):
the sessions never call the screens."""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from companion.counts import counted
from companion.daemon.camera import SceneReader, TableGeometry
from companion.daemon.dialogues import LANGUAGE, choose_language, new_game
from companion.daemon.items import SeatNaming
from companion.daemon.lifecycle import (
    GameResumed,
    GameStarted,
    LanguageChanged,
    Lifecycle,
    TableNotice,
)
from companion.daemon.open_dialogue import LANGUAGE_MENU, NEW_GAME_MENU, OpenDialogue
from companion.daemon.recorder import CurrentGame, storage_notice
from companion.daemon.ui import TableUI
from companion.errors import CompanionError, LogError
from companion.i18n import _, use
from companion.i18n.choice import LanguageChoice
from companion.table import Header, StoredSession, TableStore
from companion.table.faults import StoreDamaged

log = logging.getLogger("companion.daemon")


@dataclass(frozen=True)
class NewGames:
    """What a new game offers first, and how the table's controls and camera are set up."""

    game: str = ""  # empty: the first game of the registry
    seats: Sequence[str] = ("Ann", "Bob", "Cy")
    options: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    peek_timeout_s: float = 5.0
    watching: bool = False  # a camera is part of this table: read its scenes
    geometry: TableGeometry = field(default_factory=TableGeometry)


class Sessions:
    """The session played, and the language. Publishes in ``moments`` the games started and
    resumed, the language changed and the notices of a session that cannot be resumed or
    started (``TableNotice``); subscribes to ``LanguageChanged`` (the game read again in it)."""

    def __init__(self, store: TableStore, playing: CurrentGame, asking: OpenDialogue,
                 settings: NewGames, language: LanguageChoice, moments: Lifecycle) -> None:
        self.store = store
        self.playing = playing
        self.asking = asking
        self.settings = settings
        self.language = language  # where the language chosen at the table is kept
        self.moments = moments
        self.moments.subscribe(LanguageChanged, self.read_again)

    def status(self) -> str:
        stored_game = self.playing.stored_game
        if stored_game is None:
            return "waiting for a new game"
        header = stored_game.header
        return f"session {stored_game.id}: {header.game}, {len(header.seats)} seats"

    def resume_or_offer(self) -> None:
        """Resume the unfinished session, or open the new-game menu on the table screen."""
        latest = self.store.latest(unfinished=True)
        if latest is None:
            self.offer_new_game()
            return
        try:
            stored_game = self.store.open_session(latest, seated=True)
        except (StoreDamaged, LogError) as error:  # e.g. a header an older version stored
            log.warning("session %d cannot be resumed: %s", latest, error)
            self.offer_new_game()  # the table plays on; `companion check` tells the rest
            self.moments.publish(TableNotice(_("session {n} unreadable").format(n=latest),
                                             passes=False))
            return
        self.play(stored_game, GameResumed)
        log.info("resumed session %d (%s, %d seats, %s)", latest, stored_game.header.game,
                 len(stored_game.header.seats), counted(len(stored_game.session.events), "event"))

    def offer_new_game(self) -> None:
        try:
            known = self.store.player_names()
        except CompanionError as error:  # a damaged store: the names of the config still do
            log.warning("players not read: %s", error)
            known = []
        settings = self.settings
        self.asking.ask(NEW_GAME_MENU, partial(new_game, settings.game, settings.seats,
                                               settings.options, known), self.chosen)

    def chosen(self, header: Header | None, completed: bool) -> None:
        """The new-game menu closed: start the game, or offer the menu again if there is
        nothing else to show."""
        if completed and header is LANGUAGE:
            self.ask_language()
        elif completed and header is not None:
            self.start_game(header)
        elif self.playing.stored_game is None:
            self.offer_new_game()

    def ask_language(self) -> None:
        """The language menu (from the new-game menu or a manual entry's)."""
        self.asking.ask(LANGUAGE_MENU, choose_language, self.language_chosen)

    def language_chosen(self, lang: str | None, completed: bool) -> None:
        if completed and lang is not None:
            self.set_language(lang)
        if self.playing.stored_game is None:
            self.offer_new_game()  # back to the new-game menu, in the language chosen

    def set_language(self, lang: str) -> None:
        """Every screen in ``lang`` from the next redraw; kept for the next start; published
        (``LanguageChanged``)."""
        use(lang)
        self.language.save(lang)
        log.info("language: %s", lang)
        self.moments.publish(LanguageChanged(lang))

    def read_again(self, _changed: LanguageChanged) -> None:
        """The game read again from the store, so the words it keeps (the latest event's)
        are in the language just chosen."""
        stored_game = self.playing.stored_game
        if stored_game is not None:
            self.play(self.store.open_session(stored_game.id, seated=True), GameResumed)

    def name_seat(self, named: SeatNaming) -> None:
        """A seat's own name (its page): stored, then the game read again with it, so that
        every screen, page and announcement says it; a refusal is kept in ``named.error``."""
        stored_game = self.playing.stored_game
        try:
            if stored_game is None:
                raise CompanionError("no game is being played")
            named.name = self.store.name_seat(stored_game.id, named.seat, named.name)
            self.playing.stored_game = self.store.open_session(stored_game.id, seated=True)
        except CompanionError as error:
            named.error = error
            return
        log.info("seat %d gave its name", named.seat + 1)

    def play(self, stored_game: StoredSession,
             moment: type[GameStarted | GameResumed] | None = None) -> None:
        """Play ``stored_game`` from now on (a resumed, new or fed session); published as
        ``moment`` (by default: resumed if it holds events, else started)."""
        game, settings = stored_game.game, self.settings
        self.playing.stored_game = stored_game
        self.playing.reader = SceneReader(game, settings.geometry) if settings.watching else None
        self.playing.ui = TableUI(game.name, len(game.seats),
                                  peek_timeout_s=settings.peek_timeout_s, **game.options)
        if moment is None:
            moment = GameResumed if stored_game.session.events else GameStarted
        self.moments.publish(moment(stored_game))

    def start_game(self, header: Header) -> None:
        try:
            stored_game = self.store.new_session(header)
        except CompanionError as error:  # a full disk: the menu again, to try once there is room
            log.warning("new game not started: %s", error)
            self.offer_new_game()
            self.moments.publish(TableNotice(storage_notice(error, _("no new game")),
                                             passes=False))
            return
        self.play(stored_game, GameStarted)
        log.info("new session %d: %s, %d seats", stored_game.id, header.game, len(header.seats))
