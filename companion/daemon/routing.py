"""Input routing: the table's own controls first (menus, undo, new game), then the game's.

- The menu button: a tap chooses in a menu (else flips play/scores); a long press leaves a
  menu or the game's dial flow, else undoes the latest event.
- The dial: turns and presses go to the open menu; without one, a long press of its switch
  enters an event by hand; so does a tap, in a game without its own dial flow.
- Seat buttons and the game's dial flow: ``TableUI``.
- The camera's sightings: stored when sure, else asked about one by one; a scene the game
  cannot read is published (``SceneUnread``: the screens say why), never shown by name.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from functools import partial
from typing import Any

from companion.daemon.camera import SceneSettled
from companion.daemon.dialogues import (
    JOIN,
    LANGUAGE,
    NEW_GAME,
    Refused,
    confirm,
    manual_entry,
)
from companion.daemon.items import CameraProposal
from companion.daemon.lifecycle import Lifecycle, SceneUnread
from companion.daemon.looks import Looks
from companion.daemon.open_dialogue import CONFIRM, ENTRY, OpenDialogue
from companion.daemon.presenter import Presenter
from companion.daemon.recorder import (
    CurrentGame,
    Recorder,
    event_in_words,
    now_iso,
    sighting_in_words,
)
from companion.daemon.sessions import Sessions
from companion.daemon.ui import TABLE
from companion.errors import CompanionError
from companion.hardware.events import InputEvent

log = logging.getLogger("companion.daemon")

#: The table's own controls (the pin map's names): the dial's switch, the menu button.
#: Any dial's push switch does (the Pi's is encoder-switch:0, the hub's are numbered from 1).
SWITCH, MENU = "encoder-switch:0", "menu"


def is_switch(control: str) -> bool:
    return control.startswith("encoder-switch:")


class Router:
    """Where the controls and the camera's sightings go. ``presenter``: the table's own
    controls act on it (an action reads the notice, the join codes shown); ``moments``: where
    a scene the game cannot read is published."""

    def __init__(self, playing: CurrentGame, asking: OpenDialogue, recorder: Recorder,
                 sessions: Sessions, presenter: Presenter, moments: Lifecycle, clock: Any,
                 confirm_below: float, looks: Looks | None = None) -> None:
        self.playing = playing
        self.asking = asking
        self.recorder = recorder
        self.sessions = sessions
        self.presenter = presenter
        self.moments = moments
        self.clock = clock
        self.confirm_below = confirm_below
        self.looks = looks or Looks(confirm_below)  # what the camera saw, kept
        self.menu_held = False  # the menu button's hold was acted on; its release is not a tap

    @property
    def playable(self) -> bool:
        stored_game = self.playing.stored_game
        return stored_game is not None and not stored_game.game.finished

    # --- the controls ----------------------------------------------------------------------

    def on_input(self, event: InputEvent) -> None:
        if event.kind in ("press", "dial"):
            self.presenter.acted()
        ui = self.playing.ui
        if event.control == MENU:
            self.on_menu(event.kind)
        elif self.asking.open:
            if event.kind == "dial":
                self.asking.turn(event.value)
            elif event.kind == "press" and is_switch(event.control):
                self.choose()
        elif not self.playable:
            if event.kind == "press" and is_switch(event.control):
                self.sessions.offer_new_game()
        elif is_switch(event.control) and (event.kind == "hold" or (
                event.kind == "press" and not ui.has_flow)):
            # A game's own dial flow takes the taps, so a long press enters by hand in every
            # game; in the other games a tap does too.
            ui.dial = None
            assert self.playing.stored_game is not None
            joins = self.presenter.has_joins(self.playing.stored_game.id)
            game = self.playing.stored_game.game
            self.asking.ask(ENTRY, partial(manual_entry, game, joins=joins), self.entered)
        else:
            flow = ui.dial
            decided = ui.handle(event, self.clock())
            if decided is not None and self.recorder.append({**decided, "t": now_iso()}) is None:
                # Refused: the dial flow stays as it was, to be put right and tapped again.
                ui.dial = flow
            self.refuse_early()

    def refuse_early(self) -> None:
        """An event the public state already rules out (a disarm of a disarmed trap) is
        refused while the flow still asks for more (before the dice): the flow steps back."""
        flow, stored_game = self.playing.ui.dial, self.playing.stored_game
        if flow is None or stored_game is None:
            return
        refusal = flow.check(stored_game.game)
        if refusal is not None:
            log.info("refused early (%s)", refusal.rule)
            # Public: the whole table reads why, on the table screen.
            self.playing.ui.refused(TABLE, refusal.message, self.clock())

    def on_menu(self, kind: str) -> None:
        if kind == "press":
            self.menu_held = False
        elif kind == "hold" and not self.menu_held:
            self.menu_held = True
            stored_game = self.playing.stored_game
            if self.asking.open:
                self.close(None, completed=False)
            elif self.playing.ui.dial is not None:
                self.playing.ui.dial = None  # the dial flow is left like a menu, nothing undone
            elif stored_game is not None and stored_game.session.in_force:
                log.info("undo of the latest event (long press)")
                self.recorder.append({"type": "undo", "t": now_iso()})
        elif kind == "release" and not self.menu_held:
            if self.asking.open:
                self.choose()
            elif not self.playable:
                self.sessions.offer_new_game()
            else:
                self.playing.ui.handle(InputEvent("press", MENU), self.clock())

    def choose(self) -> None:
        completed, decided = self.asking.choose()
        if completed:
            self.close(decided, completed=True)

    def close(self, decided: Any, completed: bool) -> None:
        self.asking.close(decided, completed)
        self.next_confirmation()

    def entered(self, decided: Any, completed: bool) -> None:
        """A manual entry closed: store the event, tell its refusal, a new game or the
        language."""
        stored_game = self.playing.stored_game
        if not completed:
            return
        if decided is NEW_GAME:
            log.info("a new game asked for: session %s left unfinished",
                     stored_game.id if stored_game else None)
            self.sessions.offer_new_game()
        elif decided is LANGUAGE:
            self.sessions.ask_language()
        elif decided is JOIN:
            self.presenter.show_joins()
        elif isinstance(decided, Refused):
            # Said again in each language by the rule that stopped the entry early.
            again = partial(stored_game.game.refuse_early, decided.event) if stored_game else None
            self.recorder.refused(decided.event, decided.error, again)
        else:
            self.recorder.append({**decided, "t": now_iso()})

    def confirmed(self, decided: Any, completed: bool) -> None:
        """The confirm step closed: store the sighting on a yes, else drop it."""
        sighting = self.asking.answered()
        if completed and decided:
            self.store_proposal(sighting)
        else:
            log.info("discarded a sighting: %s", event_in_words(sighting.event))

    # --- the camera ------------------------------------------------------------------------

    def on_proposal(self, proposal: CameraProposal) -> None:
        if self.playing.stored_game is None:
            return
        if proposal.confidence >= self.confirm_below:
            self.store_proposal(proposal)
            return
        log.info("unsure (%.2f) of %s: asking the table", proposal.confidence,
                 event_in_words(proposal.event))
        self.ask(proposal)

    def ask(self, proposal: CameraProposal) -> None:
        """Ask the table to confirm ``proposal`` (in turn, after the sightings waiting)."""
        self.asking.queue(proposal)
        self.next_confirmation()

    def store_proposal(self, proposal: CameraProposal) -> int | None:
        """Store a sighting; its look's picture is kept with it."""
        seq = self.recorder.append({**proposal.event, "t": now_iso()})
        stored_game = self.playing.stored_game
        if stored_game is not None:
            self.looks.stored(stored_game, self.looks.get(proposal.look, stored_game.id), seq)
        return seq

    def on_scene(self, settled: SceneSettled) -> None:
        stored_game, reader = self.playing.stored_game, self.playing.reader
        if stored_game is None or reader is None:
            return
        before = reader.before
        try:
            proposals = reader.read(settled.scene, stored_game.game, settled.confidence)
        except CompanionError as error:  # the camera saw a change it cannot read
            log.info("camera: %s", error)
            # Kept all the same: the table may put it right on the controls page.
            self.looks.add(stored_game.id, before, reader.before, settled.picture, settled.frame,
                           settled.view)
            # What the camera saw lies open on the table: the screens tell the whole table.
            self.moments.publish(SceneUnread(error, self.clock()))
            return
        look = self.looks.add(stored_game.id, before, reader.before, settled.picture, settled.frame,
                              settled.view)
        for proposal in proposals:
            self.on_proposal(replace(proposal, look=look.number if look else None))

    def next_confirmation(self) -> None:
        sighting = self.asking.next_sighting()
        if sighting is not None and self.playing.stored_game is not None:
            game = self.playing.stored_game.game
            # The words made with the steps, so that a menu shown in another language says
            # them in it too.
            self.asking.ask(CONFIRM, lambda: confirm(sighting_in_words(sighting.event, game)),
                            self.confirmed)
