"""What a reading of the camera may be put right to: the game's own cards that its rules
allow there now, the likeliest first.

A correction names a reading of the latest look otherwise, reads the scene again with the
game's mapper and puts what comes out through the rules, on the game as it stood before
the look's events (``corrections.py``). The offers are worked out the same way, for every
card of the game (its bundle's ``cards``: a plug-in game's too, no list of ours) and every
reading: a card whose scene the mapper cannot read, or whose events the rules refuse (a card
of another game, one already played this round), is not offered. What the camera itself
found the reading most like comes first, in its order (``Reading.nearest``), then the
other cards allowed, in the game's own order. Nothing is stored, nothing changes.

Worked out once per look and state of the game (a correction, an event stored), in the
daemon's thread, when a page or a question asks.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from companion.daemon.corrections import corrected
from companion.daemon.looks import Look
from companion.daemon.recorder import CurrentGame
from companion.errors import CompanionError
from companion.games import registry
from companion.games.base import Game
from companion.table import StoredSession


def likeliest_first(allowed: Sequence[str], nearest: Sequence[str]) -> list[str]:
    """``allowed`` with the camera's nearest faces first, in their order.

    >>> likeliest_first(["green-1", "green-4", "red-2"], ["snake-girl", "red-2", "green-4"])
    ['red-2', 'green-4', 'green-1']
    """
    kept = set(allowed)
    first = [card for card in dict.fromkeys(nearest) if card in kept]
    return first + [card for card in allowed if card not in first]


def standing(stored_game: StoredSession, look: Look) -> int:
    """How many of the look's events are the latest in force (a correction withdraws them
    first); 0 when none are, or when later events stand on them."""
    session = stored_game.session
    mine = [session.events[seq - 1] for seq in look.seqs if 0 < seq <= len(session.events)]
    kept = [stored for stored in mine if any(stored is event for event in session.in_force)]
    count = len(kept)
    latest = session.in_force[len(session.in_force) - count:] if count else []
    return count if all(a is b for a, b in zip(latest, kept, strict=True)) else 0


def allowed_at(game: Game, look: Look, index: int, cards: Sequence[str], mapper: Any,
               zone_of: Any) -> list[str]:
    """The ``cards`` reading ``index`` of ``look`` may be corrected to, ``game`` being the
    game as it stood before the look's events."""
    from companion.vision.scene import TableScene

    before, public = look.before or TableScene(()), game.view(None)
    allowed = []
    for card in cards:
        scene = corrected(look, index, card, zone_of)[0]
        try:
            after = game
            for event in mapper.events(before, scene, public):
                after = after.after(event)
        except CompanionError:  # a scene the mapper cannot read, or the rules refuse
            continue
        allowed.append(card)
    return allowed


class Offers:
    """The cards each reading of the latest look may be corrected to (see the module)."""

    def __init__(self, playing: CurrentGame) -> None:
        self.playing = playing
        self._made: tuple[tuple[Any, ...], list[list[str]]] | None = None

    def of(self, look: Look) -> list[list[str]] | None:
        """Per reading of ``look``, the cards it may be made, the likeliest first; None when
        the game being played has no camera reading it or the look is not of it."""
        stored_game, reader = self.playing.stored_game, self.playing.reader
        if stored_game is None or reader is None or reader.mapper is None \
                or look.session != stored_game.id:
            return None
        session = stored_game.session
        key = (look.number, look.session, len(look.earlier), len(session.events))
        if self._made is None or self._made[0] != key:
            cards = registry.get(stored_game.header.game).cards(stored_game.game)
            game = session.game_before(standing(stored_game, look))
            self._made = (key, [
                likeliest_first(allowed_at(game, look, index, cards, reader.mapper,
                                           reader.table.zone_of), reading.nearest)
                for index, reading in enumerate(look.readings)])
        return self._made[1]
