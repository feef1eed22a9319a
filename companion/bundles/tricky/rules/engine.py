"""Tricky Dungeon (``tricky``): heroes, trumps, tricks and gold, refereed from the table.

The companion cannot see hands. It is told each card as it is played (docs/table-log.md) and
keeps the rules it can check: whose turn it is, a card played twice, trumps, exchange
limits, the heroes' choices. A seat that did not follow a suit and later plays that suit
is flagged as a revoke, naming the trick where it showed out.

Example::

    game = Tricky(["Ann", "Bob", "Cy"], seed=7, options={})
    game.apply({"type": "deal"})
    game.apply({"type": "hero", "seat": 0, "hero": "barbarian", "trump_suit": "red"})
    game.apply({"type": "play", "seat": 0, "card": "red-7"})
    game.view(1)["prompt"]      # 'Play red if you can'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.bundles.tricky.rules import prepare as tricky_prepare
from companion.bundles.tricky.rules import tricks as tricky_tricks
from companion.bundles.tricky.rules import view as tricky_view
from companion.bundles.tricky.rules.deck import Deck, check_deck, default_deck
from companion.bundles.tricky.rules.heroes import ALL_HEROES, HERO_SETS, title
from companion.bundles.tricky.rules.prepare import TWO_PLAYER_EXCHANGE
from companion.bundles.tricky.rules.round import HERO, OVER, Revoke, Round, RoundResult
from companion.errors import OptionError, RuleViolation
from companion.games.base import Field, Game, Option, check_choice, check_int
from companion.i18n import _

VARIANTS = ("standard", "longer", "race", "guild", "random")
#: Rounds each player is active when ``rounds_per_player`` is not given: (3-4 players, 2 players).
ROUNDS_PER_PLAYER = {"standard": (2, 4), "random": (2, 4), "longer": (3, 5), "guild": (5, 5),
                     "race": (None, None)}
__all__ = ["TWO_PLAYER_EXCHANGE", "Tricky"]


def _check_rounds_per_player(value: Any) -> int | None:
    return None if value is None else check_int(1, 50)(value)


def _player_count_option(stem: str, players: str, default: int, meaning: str) -> Option:
    return Option(f"{stem}_{players}", default,
                  f"{meaning} with {players.replace('_', '-')} players", check_int(0, 99))


class Tricky(Game):
    """The Tricky Dungeon rules engine. See the module docstring."""

    name = "tricky"
    title = "Tricky Dungeon"
    PLAYED = ("A trick-taking game. Each round one player is active: they choose a hero, "
              "which may set the trump and changes what the round pays, and cards may be "
              "exchanged with the leftover pile. Then tricks are played: follow the colour "
              "led if you can; the highest trump, else the highest card of the colour led, "
              "wins (some heroes change that). The active player earns gold as the hero "
              "says; if they earn none, every other player gets 1 gold. The most gold after "
              "every player has been active (twice, by default) wins.")
    COMPANION = ("Follows the round (active player, hero, trump, exchanges, predictions), "
                 "judges every trick, keeps the gold and flags a revoke: a seat that showed "
                 "out of a colour and plays it later in the round. It never sees a hand: cards "
                 "are read by the camera as they are played or entered with the dial; the "
                 "heroes offered show only on the active seat's screen.")
    min_seats = 2
    max_seats = 4

    OPTIONS = (
        Option("variant", "standard",
               "standard | longer | race (first to race_target gold) | guild (each player "
               "plays every hero once) | random (heroes drawn from all 15)",
               check_choice(*VARIANTS)),
        Option("rounds_per_player", None,
               "rounds each player is active; null: 2 (4 with 2 players), longer 3 (5), "
               "guild 5, race until race_target; a number given is used as is",
               _check_rounds_per_player),
        Option("hero_set", "A", "the set of 5 heroes in play: A, B or C (random uses all 15)",
               check_choice("A", "B", "C")),
        Option("race_target", 15, "race variant: the gold that ends the game", check_int(1, 999)),
        Option("random_refusals", 2, "random variant: how many drawn heroes the active player "
               "may refuse", check_int(0, len(ALL_HEROES) - 1)),
        Option("trump_order", "value", "between trumps: 'value' = higher value, then more "
               "stars; 'stars' = more stars, then higher value", check_choice("value", "stars")),
        _player_count_option("thief_gold", "2_3", 5, "the Thief's gold before tricks"),
        _player_count_option("thief_gold", "4", 4, "the Thief's gold before tricks"),
        _player_count_option("trickster_gold", "2_3", 5, "the Trickster's gold before tricks"),
        _player_count_option("trickster_gold", "4", 4, "the Trickster's gold before tricks"),
        _player_count_option("barbarian_above", "2_3", 6, "Barbarian: 1 gold per trick+potion "
                             "above this"),
        _player_count_option("barbarian_above", "4", 4, "Barbarian: 1 gold per trick+potion "
                             "above this"),
        _player_count_option("sorcerer_above", "2_3", 6, "Sorcerer: 1 gold per trick+potion "
                             "above this"),
        _player_count_option("sorcerer_above", "4", 4, "Sorcerer: 1 gold per trick+potion "
                             "above this"),
        _player_count_option("knight_above", "2_3", 5, "Knight: 1 gold per trick+potion "
                             "above this"),
        _player_count_option("knight_above", "4", 3, "Knight: 1 gold per trick+potion "
                             "above this"),
        Option("deck", default_deck(), "the deck (assumed, editable): colours, stars, potions, "
               "symbols, hand sizes; default the shipped tricky-deck.json", check_deck),
    )

    EVENTS = {
        "deal": {"active": Field(int, required=False, minimum=0, is_seat=True)},
        "hero": {"seat": Field(int), "hero": Field(str),
                 "trump_suit": Field(str, required=False),
                 "trump_value": Field(int, required=False),
                 "refuse": Field(bool, required=False)},
        "trump": {"seat": Field(int), "suit": Field(str)},
        "exchange": {"seat": Field(int), "count": Field(int, minimum=0),
                     "cards": Field(list, required=False, items=str)},
        "predict": {"seat": Field(int), "count": Field(int, minimum=0)},
        "open_cards": {"seat": Field(int), "cards": Field(list, items=str)},
        "play": {"seat": Field(int), "card": Field(str, required=False),
                 "suit": Field(str, required=False), "face_down": Field(bool, required=False)},
        "reveal": {"seat": Field(int), "card": Field(str)},
    }

    # --- set-up and the shape of the game ------------------------------------------------

    def setup(self) -> None:
        self.deck = Deck(self.options["deck"])
        given = self.options["rounds_per_player"]
        heroes = len(HERO_SETS[self.options["hero_set"]])
        if self.options["variant"] == "guild" and given is not None and given > heroes:
            raise OptionError(f"option 'rounds_per_player': the adventurers guild plays each "
                              f"hero once, so at most {heroes} rounds per player, got {given}")
        # What stays of finished rounds: tuples of frozen records, shared by copies.
        self.history: tuple[RoundResult, ...] = ()
        self.revokes: tuple[Revoke, ...] = ()
        self.heroes_used: tuple[tuple[str, ...], ...] = tuple(() for _ in self.seats)
        self.current: Round | None = None  # the round in play, or the one just finished

    def rounds_to_play(self) -> int | None:
        """The number of rounds of the game, or None (race: until someone has the target)."""
        per_player = self.options["rounds_per_player"]
        if per_player is None:
            usual, two_players = ROUNDS_PER_PLAYER[self.options["variant"]]
            per_player = two_players if len(self.seats) == 2 else usual
        return None if per_player is None else per_player * len(self.seats)

    def hand_size(self) -> int:
        return self.deck.hand_size(len(self.seats))

    def hero_choices(self, seat: int) -> list[str]:
        """The heroes ``seat`` may pick now (empty unless it is the active player choosing)."""
        r = self.current
        if r is None or r.phase != HERO or seat != r.active:
            return []
        if self.options["variant"] == "random":
            return [r.offer()]
        heroes = HERO_SETS[self.options["hero_set"]]
        if self.options["variant"] == "guild":
            return [hero for hero in heroes if hero not in self.heroes_used[seat]]
        return list(heroes)

    @property
    def finished(self) -> bool:
        if self.current is not None and self.current.phase != OVER:
            return False
        total = self.rounds_to_play()
        if total is not None and len(self.history) >= total:
            return True
        target = self.options["race_target"]
        return self.options["variant"] == "race" and any(t >= target for t in self.totals())

    def totals(self) -> list[int]:
        return [sum(gold) for gold in zip(*(done.gold for done in self.history),
                                          strict=True)] or [0] * len(self.seats)

    def rounds(self) -> list[list[int]]:
        return [list(done.gold) for done in self.history]

    FIGURES_TITLE = "Tricky: heroes dared as the active player, rounds with gold / rounds"

    @classmethod
    def figures_in_words(cls, mine: Mapping[str, Any]) -> str:
        return ", ".join(f"{title(hero)} {made}/{tried}"
                         for hero, (tried, made) in sorted(mine["heroes"].items())) or "-"

    def figures(self) -> dict[str, list[Any]]:
        """Per seat, each hero it dared as the active player: [rounds, rounds it earned gold]."""
        dared: list[dict[str, list[int]]] = [{} for _ in self.seats]
        for done in self.history:
            tally = dared[done.active].setdefault(done.hero, [0, 0])
            tally[0] += 1
            tally[1] += int(done.gold[done.active] > 0)
        return {"heroes": dared}

    def state_in_words(self, state: dict[str, Any]) -> list[str]:
        return tricky_view.state_in_words(self, state)

    # --- the round and its checks ---------------------------------------------------------

    def playing_round(self) -> Round:
        """The round being played; refuse if there is none."""
        if self.finished and self.history:
            raise RuleViolation("game-over", _("The game is over: no more rounds are played"))
        r = self.current
        if r is None or r.phase == OVER:
            raise RuleViolation("no-round", _("No round is being played: start one with a deal"))
        return r

    def check_card(self, card: str, field: str = "card") -> None:
        if not self.deck.is_card(card):
            raise RuleViolation("card", _("Unknown card '{card}' in '{field}' "
                                        "({cards})")
                                        .format(card=card, field=field,
                                                cards=self.deck.describe()))

    def check_suit(self, suit: str) -> None:
        if suit not in self.deck.suits:
            raise RuleViolation("suit", _("Unknown suit '{suit}' (suits: "
                                        "{suits})")
                                        .format(suit=suit, suits=', '.join(self.deck.suits)))

    def events_now(self, seat: int) -> list[str]:
        """The deal between rounds, else what the round waits for from ``seat``
        (``tricky_prepare.events_now``)."""
        return tricky_prepare.events_now(self, seat)

    def exchange_limit(self, seat: int) -> int | None:
        """How many cards ``seat`` may exchange now, or None if it may not exchange now."""
        return tricky_prepare.exchange_limit(self, seat)

    def to_play(self) -> int | None:
        """The seat the table waits for, or None between rounds."""
        return None if self.current is None else self.current.to_play()

    def lead_suit(self, r: Round | None = None) -> str | None:
        """The suit led in the trick in play (None before its first card)."""
        r = r if r is not None else self.current
        return None if r is None else r.lead_suit(self.deck)

    # --- events: each is applied to a fresh copy of the game (Game.after) -------------

    def on_deal(self, event: dict[str, Any]) -> None:
        tricky_prepare.deal(self, event)

    def on_hero(self, event: dict[str, Any]) -> None:
        tricky_prepare.hero(self, event)

    def on_trump(self, event: dict[str, Any]) -> None:
        tricky_prepare.trump(self, event)

    def on_open_cards(self, event: dict[str, Any]) -> None:
        tricky_prepare.open_cards(self, event)

    def on_exchange(self, event: dict[str, Any]) -> None:
        tricky_prepare.exchange(self, event)

    def on_predict(self, event: dict[str, Any]) -> None:
        tricky_prepare.predict(self, event)

    def on_play(self, event: dict[str, Any]) -> None:
        tricky_tricks.play(self, event)

    def on_reveal(self, event: dict[str, Any]) -> None:
        tricky_tricks.reveal(self, event)

    # --- views (tricky_view.py) ---------------------------------------------------------

    def phase(self) -> str:
        """deal | hero | prepare | play | reveal | finished."""
        return tricky_view.phase(self)

    def view(self, seat: int | None) -> dict[str, Any]:
        return tricky_view.view(self, seat)

    def referee_view(self) -> dict[str, Any]:
        return tricky_view.referee_view(self)
