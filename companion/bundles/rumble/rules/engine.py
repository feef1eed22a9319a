"""Rumble in the Dungeon: moves, fights, the chest, secret characters and scoring.

Characters wander a map of rooms and doors. Each turn a seat takes exactly one action:
move a lone character through a door, move any character together with the chest, start a
fight (the victim leaves the game) or escape with the chest from the entry room. When one
character is left, every seat scores its best secret character's rank. Three adventures.

Example::

    game = Rumble(["Ann", "Bob", "Cy"], seed=7)
    game.apply({"type": "start", "seat": 0})
    game.apply({"type": "move", "seat": 0, "character": "knight", "to": "A2"})
    game.apply({"type": "fight", "seat": 1, "victim": "thief"})
    game.view(None)["exits"]   # [["thief"]]
    game.view(2)["secrets"]    # Cy's two secret characters, on Cy's screen only
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, ClassVar

from companion.bundles.rumble.rules import actions as rumble_actions
from companion.bundles.rumble.rules import view as rumble_view
from companion.bundles.rumble.rules.data import (
    doors_of,
    start_placement,
)
from companion.bundles.rumble.rules.options import (  # noqa: F401 (re-exported)
    ACTIONS,
    EVENTS,
    NAMES,
    OPTIONS,
    OVER,
    PLAY,
    REVEAL,
    SECRETS_PER_SEAT,
)
from companion.errors import OptionError, RuleViolation
from companion.games.base import Field, Game
from companion.i18n import _


class Rumble(Game):
    """The Rumble in the Dungeon referee. See the module docstring."""

    name = "rumble"
    title = "Rumble in the Dungeon"
    PLAYED = ("Twelve characters start in the rooms of the dungeon; each player secretly "
              "backs two of them. On your turn, take one action with any character: move a "
              "lone one through a door (a character with the chest may carry it), start a "
              "fight in a crowded room (the victim leaves the game), or escape with the chest "
              "from the entry room. The adventure ends when one character is left: the "
              "escaper ranks first, then the last standing, then the victims, last removed "
              "first. Each player scores their better character; 3 adventures.")
    COMPANION = ("Deals the secret characters to the seats' own screens (or takes the "
                 "tokens drawn), checks every move, fight and escape against the map, ranks "
                 "and scores each adventure and says who starts the next. The camera follows "
                 "the pieces on the room tiles; anything else is entered with the dial.")
    min_seats = 3
    max_seats = 6
    OPTIONS = OPTIONS
    EVENTS: ClassVar[dict[str, dict[str, Field]]] = EVENTS

    def setup(self) -> None:
        dungeon, characters = self.options["map"], self.options["characters"]
        needed = SECRETS_PER_SEAT * len(self.seats)
        if len(characters) < needed:
            raise OptionError(f"option 'characters': {len(self.seats)} seats need at least "
                              f"{needed} characters (2 secret characters each), "
                              f"got {len(characters)}")
        try:
            start_rooms = start_placement(dungeon, characters)
        except ValueError as exc:
            raise OptionError(f"option 'map': {exc}") from None
        # Derived once from the options and read-only: every copy of the state shares them.
        self.start_rooms: Mapping[str, str] = MappingProxyType(start_rooms)
        self.doors: Mapping[str, tuple[str, ...]] = MappingProxyType(
            {room: tuple(rooms) for room, rooms in doors_of(dungeon).items()})
        first = self.rng("first-player", 1).randrange(len(self.seats))
        self.adventure = 0  # index of the adventure in play (or the last one, once over)
        self.phase = PLAY
        self.starters: list[int] = [first]
        self.turn: int | None = first
        self.actions = 0  # actions taken in the adventure in play
        self.positions: dict[str, str] = dict(self.start_rooms)
        self.chest: str | None = dungeon["treasure"]
        self.exits: list[list[str]] = [[]]
        self.escaped: list[str | None] = [None]
        self.secrets: list[list[tuple[str, ...] | None]] = [[None] * len(self.seats)]
        self.carried: list[int | None] = [None]  # per adventure: the seat that took the chest out
        self.source: list[str | None] = [None]  # per adventure: "dealt", "given" or not yet
        # Scored adventures: tuples, shared by every copy of the state.
        self.scores: tuple[tuple[int, ...], ...] = ()
        self.rankings: tuple[tuple[str, ...], ...] = ()
        self.last: dict[str, Any] | None = None

    # --- events ----------------------------------------------------------------------

    def on_start(self, event: dict[str, Any]) -> None:
        if self.adventure > 0 or self.actions > 0:
            raise RuleViolation("start", _("the first player is chosen before the first action "
                                "of adventure 1; later adventures start with the fewest points"))
        self.turn = self.starters[0] = event["seat"]

    def on_secrets(self, event: dict[str, Any]) -> None:
        seat, characters = event["seat"], event["characters"]
        refusal = (rumble_actions.over_refusal(self)
                   or rumble_actions.secrets_refusal(self, seat, characters))
        if refusal:
            raise refusal
        self.secrets[self.adventure][seat] = tuple(characters)
        self.source[self.adventure] = "given"
        if self.phase == REVEAL and None not in self.secrets[self.adventure]:
            self._score()

    def on_move(self, event: dict[str, Any]) -> None:
        self._act(event)

    def on_fight(self, event: dict[str, Any]) -> None:
        self._act(event)

    def on_escape(self, event: dict[str, Any]) -> None:
        self._act(event)

    # --- refusals and offered actions: rumble_actions.py -------------------------------

    def refusal(self, event: dict[str, Any]) -> RuleViolation | None:
        """Why a well-formed move, fight or escape is not allowed now, or None if it is."""
        return rumble_actions.refusal(self, event)

    # --- what happens ----------------------------------------------------------------

    def _act(self, event: dict[str, Any]) -> None:
        refusal = self.refusal(event)
        if refusal:
            raise refusal
        if self.actions == 0 and self.source[self.adventure] is None \
                and self.options["deal_secrets"]:
            self.secrets[self.adventure] = [tuple(pair) for pair in self.deal(self.adventure)]
            self.source[self.adventure] = "dealt"
        self.actions += 1
        self.last = {key: value for key, value in event.items() if key != "t"}
        kind = event["type"]
        if kind == "move":
            self.positions[event["character"]] = event["to"]
            if event.get("chest", False):
                self.chest = event["to"]
        elif kind == "fight":
            # The chest lies in the room, so it stays where the victim fell.
            del self.positions[event["victim"]]
            self.exits[self.adventure].append(event["victim"])
        else:
            del self.positions[event["character"]]
            self.escaped[self.adventure] = event["character"]
            self.carried[self.adventure] = event["seat"]
            self.chest = None
        if len(self.positions) > 1:
            assert self.turn is not None
            self.turn = (self.turn + 1) % len(self.seats)
            return
        self.phase, self.turn = REVEAL, None
        if None not in self.secrets[self.adventure]:
            self._score()

    def deal(self, adventure: int) -> list[list[str] | None]:
        """The companion's seeded deal of secret characters for an adventure (0-based)."""
        tokens = list(self.options["characters"])
        self.rng("secrets", adventure + 1).shuffle(tokens)
        return [tokens[2 * seat:2 * seat + 2] for seat in range(len(self.seats))]

    def ranking(self, adventure: int) -> list[str]:
        """An ended adventure's characters, rank 1 first: escaper, last standing, victims."""
        escaper = self.escaped[adventure]
        standing = list(self.positions) if adventure == self.adventure else []
        return ([escaper] if escaper else []) + standing + self.exits[adventure][::-1]

    def _score(self) -> None:
        ranking = self.ranking(self.adventure)
        top = self.options["top_points"]
        points = {c: max(0, top + 1 - rank) for rank, c in enumerate(ranking, start=1)}
        pairs = self.secrets[self.adventure]
        self.scores = (*self.scores, tuple(max(points[c] for c in pair) if pair else 0
                                          for pair in pairs))
        self.rankings = (*self.rankings, tuple(ranking))
        if len(self.scores) == self.options["adventures"]:
            self.phase = OVER
            return
        self.adventure += 1
        self.phase = PLAY
        self.actions = 0
        self.positions = dict(self.start_rooms)
        self.chest = self.options["map"]["treasure"]
        self.exits.append([])
        self.escaped.append(None)
        self.carried.append(None)
        self.secrets.append([None] * len(self.seats))
        self.source.append(None)
        self.turn = self._next_starter()
        self.starters.append(self.turn)

    def _next_starter(self) -> int:
        totals = self.totals()
        fewest = min(totals)
        tied = [seat for seat, total in enumerate(totals) if total == fewest]
        if self.options["first_player_tie"] == "random":
            return self.rng("first-player", self.adventure + 1).choice(tied)
        count = len(self.seats)
        after = [(self.starters[-1] + step) % count for step in range(1, count + 1)]
        return next(seat for seat in after if seat in tied)

    # --- what seats may do (rumble_actions.py) ------------------------------------------

    def waiting_for(self) -> list[int]:
        """Seats whose secret characters the companion still needs before play goes on."""
        return rumble_actions.waiting_for(self)

    def candidates(self, seat: int) -> list[dict[str, Any]]:
        """Every action the screens offer ``seat``: each character's moves, fights, escape."""
        return rumble_actions.candidates(self, seat)

    def events_now(self, seat: int) -> list[str]:
        """Its secret characters until they count (before the adventure's first action, or
        at its end), who starts before the game's first action, and the kinds of its legal
        actions on its turn; nothing once the game is over."""
        if self.finished:
            return []
        kinds = []
        if self.secrets[self.adventure][seat] is None and not (
                self.phase == PLAY and self.actions > 0):
            kinds.append("secrets")
        if self.adventure == 0 and self.actions == 0:
            kinds.append("start")
        legal = {action["type"] for action in self.legal_actions(seat)}
        return kinds + [kind for kind in ("move", "fight", "escape") if kind in legal]

    def legal_actions(self, seat: int) -> list[dict[str, Any]]:
        """The events ``seat`` may send now (empty when it is not that seat's turn)."""
        return rumble_actions.legal_actions(self, seat)

    def refused_actions(self, seat: int) -> list[dict[str, Any]]:
        """The offered actions that are not allowed, each with its rule and reason."""
        return rumble_actions.refused_actions(self, seat)

    # --- views -----------------------------------------------------------------------

    def _public(self) -> dict[str, Any]:
        return rumble_view.public_view(self)

    def own_secrets(self, seat: int) -> list[str] | None:
        """``seat``'s secret characters in the adventure in play, dealt or given, if known."""
        return rumble_view.own_secrets(self, seat)

    def _prompt(self, seat: int) -> str:
        return rumble_view.prompt(self, seat)

    def view(self, seat: int | None) -> dict[str, Any]:
        return rumble_view.view(self, seat)

    def referee_view(self) -> dict[str, Any]:
        return rumble_view.referee_view(self)

    # --- after the game --------------------------------------------------------------

    FIGURES_TITLE = "Rumble: own secret character escaped / chests carried out"

    @classmethod
    def figures_in_words(cls, mine: Mapping[str, Any]) -> str:
        return f"{mine['escapes']} / {mine['chests']}"

    def figures(self) -> dict[str, list[Any]]:
        """Per seat: own secret character escaped, chests carried out (rumble_view.figures)."""
        return rumble_view.figures(self)

    def state_in_words(self, state: dict[str, Any]) -> list[str]:
        return rumble_view.state_in_words(self, state)

    # --- scores ----------------------------------------------------------------------

    @property
    def finished(self) -> bool:
        return len(self.scores) == self.options["adventures"]

    def totals(self) -> list[int]:
        return [sum(scores[seat] for scores in self.scores) for seat in range(len(self.seats))]

    def rounds(self) -> list[list[int]]:
        return [list(scores) for scores in self.scores]
