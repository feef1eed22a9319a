"""What the table is asked: the open dialogue (a new game, a manual entry, a sighting to
confirm), what it decides, and the camera's unsure sightings waiting their turn.

``menu_shown`` is the public face of the open menu (``MenuShown``): what the screens draw and
what a player, a test or the demo reads to know where the dial is; in the language current
in the reading thread (a seat's page reads a menu on its seat's screen in its own).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from companion.daemon.items import CameraProposal
from companion.daemon.menus import Dialogue, Steps
from companion.i18n import current

#: What an open dialogue decides.
NEW_GAME_MENU, ENTRY, CONFIRM, LANGUAGE_MENU = "new game", "entry", "confirm", "language"
#: Called with what a closed dialogue decided and whether it was completed (not left).
Done = Callable[[Any, bool], None]


@dataclass(frozen=True)
class MenuShown:
    """The open menu as the table shows it. ``asks``: what it decides (``"new game"``,
    ``"entry"``, ``"confirm"``, ``"language"``); ``seat``: the seat whose own screen shows
    it (a secret); ``step``: how many menus the dialogue has shown before this one."""

    asks: str
    title: str
    choices: tuple[tuple[str, Any], ...]
    cursor: int
    seat: int | None
    step: int
    lines: tuple[str, ...]

    def labels(self) -> list[str]:
        return [label for label, _ in self.choices]

    def values(self) -> list[Any]:
        return [value for _, value in self.choices]

    def title_and_lines(self) -> tuple[str, tuple[str, ...]]:
        return self.title, self.lines


class OpenDialogue:
    """The one open dialogue and the queue of sightings to confirm."""

    def __init__(self) -> None:
        self._dialogue: Dialogue | None = None
        self._done: Done | None = None
        self._purpose = ""
        self._step = 0
        self._unsure: list[CameraProposal] = []
        self._numbers: list[int] = []  # each sighting's number, as it was queued
        self._queued = 0
        #: While a closed dialogue's decision is acted on, what it showed stays shown.
        self._closing: MenuShown | None = None
        self._chosen: MenuShown | None = None  # the menu as shown when last chosen from

    @property
    def open(self) -> bool:
        return self._dialogue is not None

    @property
    def purpose(self) -> str:
        if self._dialogue is None and self._closing is not None:
            return self._closing.asks
        return self._purpose

    def menu_shown(self) -> MenuShown | None:
        """The open menu as shown; a closed one stays shown until what it decided is done
        (an event stored), so whoever sees it go sees the decision taken."""
        if self._dialogue is None:
            return self._closing
        menu = self._dialogue.menu_in(current())  # in the language drawn (a seat's page)
        title, *lines = menu.lines()
        return MenuShown(self._purpose, title, tuple(menu.choices), menu.cursor, menu.seat,
                         self._step, tuple(lines))

    def ask(self, purpose: str, steps: Callable[[], Steps], done: Done) -> None:
        """Open a dialogue deciding ``purpose``, its menus made by ``steps()`` (called again
        to show it in another language); ``done`` acts on what it decides."""
        self._dialogue = Dialogue(steps(), steps)
        self._purpose, self._step = purpose, 0
        self._done, self._chosen = done, None

    def close(self, decided: Any, completed: bool) -> None:
        """Close the dialogue (completed, or left) and act on what it decided."""
        done, self._closing = self._done, self._chosen or self.menu_shown()
        self._dialogue, self._done, self._purpose = None, None, ""
        try:
            if done is not None:
                done(decided, completed)
        finally:
            self._closing = self._chosen = None

    def turn(self, detents: int) -> None:
        if self._dialogue is not None:
            self._dialogue.turn(detents)

    def choose(self) -> tuple[bool, Any]:
        """Take the choice under the cursor: (the dialogue is done, what it decided)."""
        if self._dialogue is None:
            return False, None
        self._chosen = self.menu_shown()
        self._step += 1
        return self._dialogue.choose()

    # --- the camera's unsure sightings ------------------------------------------------

    @property
    def sightings(self) -> Sequence[CameraProposal]:
        return tuple(self._unsure)

    def queue(self, sighting: CameraProposal) -> None:
        self._queued += 1
        self._unsure.append(sighting)
        self._numbers.append(self._queued)

    @property
    def asked(self) -> tuple[int, CameraProposal] | None:
        """The sighting the confirm step asks about now, and its number (each sighting queued
        gets the next one: an answer names the question it answers)."""
        if self._unsure and self._dialogue is not None and self._purpose == CONFIRM:
            return self._numbers[0], self._unsure[0]
        return None

    def next_sighting(self) -> CameraProposal | None:
        """The sighting to ask about next, if none is being asked about."""
        return self._unsure[0] if self._unsure and self._dialogue is None else None

    def answered(self) -> CameraProposal:
        self._numbers.pop(0)
        return self._unsure.pop(0)

    def withdraw(self, look: int) -> bool:
        """Drop the sightings of the camera's look ``look`` waiting their turn (it was
        corrected); True if the one asked about now is one of them: the caller closes it."""
        asked = self._unsure[0] if self._unsure and self._purpose == CONFIRM else None
        kept = [(n, sighting) for n, sighting in zip(self._numbers, self._unsure, strict=True)
                if sighting.look != look or sighting is asked]
        self._numbers, self._unsure = [n for n, _ in kept], [sighting for _, sighting in kept]
        return asked is not None and asked.look == look
