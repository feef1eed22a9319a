"""The voice's side of the moments: each step stored said from the public views before and
after it (never a seat's view: nothing secret), and the voice closed at STOPPING, once what
it was given is said."""

from __future__ import annotations

from companion.daemon.lifecycle import EventStored, Lifecycle, Moment
from companion.games import registry
from companion.i18n import current
from companion.voice.announce import announcements
from companion.voice.speaker import Speaker


class Announcer:
    """Says what changed at the table through ``voice`` (``Speaker``), told by the moments."""

    def __init__(self, voice: Speaker) -> None:
        self.voice = voice

    def listen(self, moments: Lifecycle) -> None:
        moments.subscribe(EventStored, self.stored)
        moments.register(Moment.STOPPING, self.voice.close)  # what is waiting is said first

    def stored(self, moment: EventStored) -> None:
        """Say what changed in the public view over the step that stored ``moment.event``
        (an event of a longer step says nothing: its last event says the whole step)."""
        before = moment.public_before()
        if before is None:
            return
        stored_game = moment.stored_game
        said = registry.get(stored_game.header.game).announce
        game = stored_game.game
        words = announcements(said, dict(before), game.view(None), list(game.seats))
        if words:
            self.voice.say(". ".join(words), current())
