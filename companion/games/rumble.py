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

from collections import Counter
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, ClassVar

from companion.errors import OptionError, RuleViolation
from companion.games import rumble_view
from companion.games.base import Field, Game
from companion.games.rumble_data import (
    doors_of,
    start_placement,
)
from companion.games.rumble_options import (  # noqa: F401 (re-exported)
    ACTIONS,
    EVENTS,
    NAMES,
    OPTIONS,
    OVER,
    PLAY,
    REVEAL,
    SECRETS_PER_SEAT,
    _name,
)
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
        refusal = self._over_refusal() or self._secrets_refusal(seat, characters)
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

    # --- refusals: one place decides, for events and for the screens' action menus ---

    def _over_refusal(self) -> RuleViolation | None:
        if self.finished:
            return RuleViolation("game-over", _("the game is over: all {count} "
                                 "adventures are scored").format(count=len(self.scores)))
        return None

    def _secrets_refusal(self, seat: int, characters: list[str]) -> RuleViolation | None:
        number = self.adventure + 1
        if self.phase == PLAY and self.actions > 0:
            if self.options["deal_secrets"]:
                return RuleViolation("secrets-timing", _("the secret characters of adventure "
                                     "{number} were fixed at its first action; give them "
                                     "before an adventure's first action").format(number=number))
            return RuleViolation("secrets-timing", _("reveal secret characters when the adventure "
                                 "ends (one character left), or give them before its first "
                                 "action"))
        if self.secrets[self.adventure][seat] is not None:
            return RuleViolation("secrets-once", _("{player} has already given secret "
                                 "characters for adventure {number}; undo to correct them")
                                 .format(player=self.seats[seat], number=number))
        if len(characters) != SECRETS_PER_SEAT:
            return RuleViolation("secrets-count", _("each seat has exactly {n} "
                                 "secret characters, got {count}")
                                 .format(n=SECRETS_PER_SEAT, count=len(characters)))
        for character in characters:
            if character not in self.start_rooms:
                return self._unknown(character)
        if characters[0] == characters[1]:
            return RuleViolation("secrets-count", _("the two secret characters must be different, "
                                 "got {character} twice").format(character=_name(characters[0])))
        if self.phase != REVEAL:
            # Told in private before play: naming a clash here would tell this seat another
            # seat's token. The clash holds up the first action instead, naming nothing.
            return None
        taken = {c for pair in self.secrets[self.adventure] if pair for c in pair}
        for character in characters:
            if character in taken:
                return RuleViolation("secrets-taken", _("{character} is already another "
                                     "seat's secret character in adventure {number}: each "
                                     "token is held by one seat")
                                     .format(character=_name(character), number=number))
        return None

    def _unknown(self, character: str) -> RuleViolation:
        return RuleViolation("unknown-character", _("there is no character '{character}' "
                             "(characters: {characters})")
                             .format(character=character, characters=', '.join(self.start_rooms)))

    def _room_of(self, character: str) -> str | RuleViolation:
        if character not in self.start_rooms:
            return self._unknown(character)
        if character not in self.positions:
            return RuleViolation("left", _("{character} has already left the dungeon "
                                 "in adventure {adventure}")
                                 .format(character=_name(character), adventure=self.adventure + 1))
        return self.positions[character]

    def refusal(self, event: dict[str, Any]) -> RuleViolation | None:
        """Why a well-formed move, fight or escape is not allowed now, or None if it is."""
        return self._turn_refusal(event["seat"]) or self._action_refusal(
            event, Counter(self.positions.values()))

    def _action_refusal(self, event: dict[str, Any], crowds: Counter[str]
                        ) -> RuleViolation | None:
        """The refusal of the action itself; ``crowds``: how many characters each room holds."""
        kind = event["type"]
        if kind == "move":
            return self._move_refusal(event, crowds)
        if kind == "fight":
            return self._fight_refusal(event, crowds)
        return self._escape_refusal(event)

    def _turn_refusal(self, seat: int) -> RuleViolation | None:
        """Why ``seat`` may take no action now, whatever the action, or None."""
        if self.finished:
            return self._over_refusal()
        if self.phase == REVEAL:
            waiting = ", ".join(self.seats[s] for s in self.waiting_for())
            return RuleViolation("reveal", _("adventure {adventure} is over: waiting "
                                 "for the secret characters of {waiting}")
                                 .format(adventure=self.adventure + 1, waiting=waiting))
        if seat != self.turn:
            assert self.turn is not None
            return RuleViolation("turn", _("it is {player}'s turn, "
                                 "not {player2}'s")
                                 .format(player=self.seats[self.turn], player2=self.seats[seat]))
        missing = self.waiting_for()
        if missing:
            return RuleViolation("secrets-missing", _("{missing} "
                                 "must give secret characters first (or undo the secrets "
                                 "given, and the companion deals them all)")
                                 .format(missing=', '.join(self.seats[s] for s in missing)))
        if self.actions == 0 and self._tokens_clash():
            return RuleViolation("secrets-taken", _("two seats gave the same secret character "
                                 "for adventure {adventure}: each seat checks its "
                                 "tokens, then undo the wrong secrets and give them again")
                                 .format(adventure=self.adventure + 1))
        return None

    def _tokens_clash(self) -> bool:
        given = [c for pair in self.secrets[self.adventure] if pair for c in pair]
        return len(given) != len(set(given))

    def _move_refusal(self, event: dict[str, Any], crowds: Counter[str]) -> RuleViolation | None:
        character, to = event["character"], event["to"]
        room = self._room_of(character)
        if isinstance(room, RuleViolation):
            return room
        if to not in self.doors:
            return RuleViolation("unknown-room", _("there is no room '{to}' on the map "
                                 "(rooms: {rooms})").format(to=to, rooms=', '.join(self.doors)))
        if to not in self.doors[room]:
            return RuleViolation("door", _("no door leads from {room} to {to}: doors from "
                                 "{room} lead to {room2}")
                                 .format(room=room, to=to, room2=', '.join(self.doors[room])))
        if event.get("chest", False):
            if self.chest is None:
                return RuleViolation("chest", _("the chest has already left the dungeon"))
            if self.chest != room:
                return RuleViolation("chest", _("the chest is in {chest}, not with "
                                     "{character} in {room}")
                                     .format(chest=self.chest, character=_name(character),
                                             room=room))
        elif crowds[room] > 1:
            return RuleViolation("alone", _("{character} is not alone in {room}: only a "
                                 "lone character moves, unless it takes the chest along")
                                 .format(character=_name(character), room=room))
        return None

    def _fight_refusal(self, event: dict[str, Any], crowds: Counter[str]) -> RuleViolation | None:
        victim = event["victim"]
        room = self._room_of(victim)
        if isinstance(room, RuleViolation):
            return room
        if crowds[room] < 2:
            return RuleViolation("fight", _("{character} is alone in {room}: a fight needs "
                                 "two or more characters in the room")
                                 .format(character=_name(victim), room=room))
        return None

    def _escape_refusal(self, event: dict[str, Any]) -> RuleViolation | None:
        character = event["character"]
        room = self._room_of(character)
        if isinstance(room, RuleViolation):
            return room
        entry = self.options["map"]["entry"]
        if room != entry:
            return RuleViolation("escape-entry", _("{character} is in {room}: only from "
                                 "the entry room {entry} can a character escape")
                                 .format(character=_name(character), room=room, entry=entry))
        if self.chest != entry:
            where = f"in {self.chest}" if self.chest else "gone"
            return RuleViolation("escape-chest", _("the chest is {where}, not in the entry "
                                 "{entry}: a character escapes only with the chest")
                                 .format(where=where, entry=entry))
        return None

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

    # --- what seats may do -----------------------------------------------------------

    def waiting_for(self) -> list[int]:
        """Seats whose secret characters the companion still needs before play goes on."""
        pairs = self.secrets[self.adventure]
        if self.phase == REVEAL:
            return [seat for seat, pair in enumerate(pairs) if pair is None]
        if self.phase == PLAY and self.actions == 0 and self.options["deal_secrets"] \
                and self.source[self.adventure] == "given":
            return [seat for seat, pair in enumerate(pairs) if pair is None]
        return []

    def candidates(self, seat: int) -> list[dict[str, Any]]:
        """Every action the screens offer ``seat``: each character's moves, fights, escape."""
        if self.phase != PLAY or seat != self.turn:
            return []
        entry, found = self.options["map"]["entry"], []
        for character, room in self.positions.items():
            for to in self.doors[room]:
                found.append({"type": "move", "seat": seat, "character": character, "to": to,
                              "chest": False})
                if self.chest == room:
                    found.append({"type": "move", "seat": seat, "character": character,
                                  "to": to, "chest": True})
            found.append({"type": "fight", "seat": seat, "victim": character})
            if room in (entry, self.chest):
                found.append({"type": "escape", "seat": seat, "character": character})
        return found

    def legal_actions(self, seat: int) -> list[dict[str, Any]]:
        """The events ``seat`` may send now (empty when it is not that seat's turn)."""
        candidates = self.candidates(seat)
        if not candidates or self._turn_refusal(seat) is not None:
            return []
        crowds = Counter(self.positions.values())
        return [event for event in candidates if self._action_refusal(event, crowds) is None]

    def refused_actions(self, seat: int) -> list[dict[str, Any]]:
        """The offered actions that are not allowed, each with its rule and reason."""
        refused = []
        for event in self.candidates(seat):
            refusal = self.refusal(event)
            if refusal:
                refused.append({"event": event, "rule": refusal.rule, "reason": refusal.message})
        return refused

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
