"""Tricky Dungeon (``tricky``): heroes, trumps, tricks and gold, refereed from the table.

The companion cannot see hands. It is told each card as it is played (CONTRACT.md) and
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
from typing import Any, ClassVar

from companion.errors import EventError, OptionError, RuleViolation
from companion.games.base import Field, Game, Option, check_choice, check_int
from companion.games.tricky_deck import Deck, check_deck, default_deck
from companion.games.tricky_heroes import (
    ALL_HEROES,
    CHOSEN_TRUMP,
    HERO_SETS,
    NEIGHBOUR_TRUMP,
    SYMBOL_TRUMP,
    TRICKSTER_OPEN_CARDS,
    title,
)
from companion.games.tricky_tricks import TrickyTricks
from companion.games.tricky_view import TrickyViews
from companion.i18n import _

VARIANTS = ("standard", "longer", "race", "guild", "random")
#: Rounds each player is active when ``rounds_per_player`` is not given: (3-4 players, 2 players).
ROUNDS_PER_PLAYER = {"standard": (2, 4), "random": (2, 4), "longer": (3, 5), "guild": (5, 5),
                     "race": (None, None)}
#: The 2-player game: the active player exchanges up to 7 cards (rule text).
TWO_PLAYER_EXCHANGE = 7


def _check_rounds_per_player(value: Any) -> int | None:
    return None if value is None else check_int(1, 50)(value)


def _player_count_option(stem: str, players: str, default: int, meaning: str) -> Option:
    return Option(f"{stem}_{players}", default,
                  f"{meaning} with {players.replace('_', '-')} players", check_int(0, 99))


class Tricky(TrickyTricks, TrickyViews, Game):
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
    _fixed_attributes: ClassVar[frozenset[str]] = Game._fixed_attributes | {"deck"}

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
               "symbols, hand sizes; default companion/data/tricky-deck.json", check_deck),
    )

    EVENTS = {
        "deal": {"active": Field(int, required=False, minimum=0)},
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
        self.history: list[dict[str, Any]] = []
        self.revokes: list[dict[str, Any]] = []
        self.heroes_used: list[list[str]] = [[] for _ in self.seats]
        self.current: dict[str, Any] | None = None

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
        if r is None or r["phase"] != "hero" or seat != r["active"]:
            return []
        if self.options["variant"] == "random":
            return [r["offers"][len(r["refused"])]]
        heroes = HERO_SETS[self.options["hero_set"]]
        if self.options["variant"] == "guild":
            return [hero for hero in heroes if hero not in self.heroes_used[seat]]
        return list(heroes)

    @property
    def finished(self) -> bool:
        if self.current is not None and self.current["phase"] != "over":
            return False
        total = self.rounds_to_play()
        if total is not None and len(self.history) >= total:
            return True
        target = self.options["race_target"]
        return self.options["variant"] == "race" and any(t >= target for t in self.totals())

    def totals(self) -> list[int]:
        return [sum(gold[seat] for gold in self.rounds()) for seat in range(len(self.seats))]

    def rounds(self) -> list[list[int]]:
        return [list(done["gold"]) for done in self.history]

    FIGURES_TITLE = "Tricky: heroes dared as the active player, rounds with gold / rounds"

    @classmethod
    def figures_in_words(cls, mine: Mapping[str, Any]) -> str:
        return ", ".join(f"{title(hero)} {made}/{tried}"
                         for hero, (tried, made) in sorted(mine["heroes"].items())) or "-"

    def figures(self) -> dict[str, list[Any]]:
        """Per seat, each hero it dared as the active player: [rounds, rounds it earned gold]."""
        dared: list[dict[str, list[int]]] = [{} for _ in self.seats]
        for done in self.history:
            active = done["active"]
            tally = dared[active].setdefault(done["hero"], [0, 0])
            tally[0] += 1
            tally[1] += int(done["gold"][active] > 0)
        return {"heroes": dared}

    def state_in_words(self, state: dict[str, Any]) -> list[str]:
        names = self.seats
        total = state["rounds_total"] or "?"
        lines = [f"round {state['round']} of {total}, {state['phase']}"]
        if state["active"] is not None:
            hero = title(state["hero"]) if state["hero"] else "no hero yet"
            lines.append(f"{names[state['active']]} is active: {hero}")
        if state["trump"]:
            lines.append("trump: " + ", ".join(f"{k} {v}" for k, v in state["trump"].items()))
        if state["to_play"] is not None:
            lines.append(f"{names[state['to_play']]} to play")
        for number, done in enumerate(state["heroes_played"], start=1):
            gold = state["round_gold"][number - 1]
            lines.append(f"round {number}: {names[done['active']]} as the "
                         f"{title(done['hero'])}, gold " + ", ".join(map(str, gold)))
        for revoke in state["revokes"]:
            lines.append(f"revoke: {names[revoke['seat']]} played {revoke['suit']} in round "
                         f"{revoke['round']} after showing out in trick {revoke['trick']}")
        return lines

    # --- helpers ----------------------------------------------------------------------

    def _name(self, seat: int) -> str:
        return self.seats[seat]

    def _left_of(self, seat: int) -> int:
        return (seat + 1) % len(self.seats)

    def _round(self) -> dict[str, Any]:
        """The round being played; refuse if there is none."""
        if self.finished and self.history:
            raise RuleViolation("game-over", _("The game is over: no more rounds are played"))
        r = self.current
        if r is None or r["phase"] == "over":
            raise RuleViolation("no-round", _("No round is being played: start one with a deal"))
        return r

    def _preparing(self, action: str) -> dict[str, Any]:
        """The round, which must be between the hero choice and the first card."""
        r = self._round()
        if r["phase"] == "hero":
            raise RuleViolation("hero-first", _("The active player chooses a hero before {action}")
                                                .format(action=action))
        if r["phase"] == "play":
            raise RuleViolation("cards-played", _("Too late for {action}: the first card is played")
                                                  .format(action=action))
        return r

    def _check_card(self, card: str, field: str = "card") -> None:
        if not self.deck.is_card(card):
            raise RuleViolation("card", _("Unknown card '{card}' in '{field}' "
                                        "({cards})")
                                        .format(card=card, field=field,
                                                cards=self.deck.describe()))

    def _check_suit(self, suit: str) -> None:
        if suit not in self.deck.suits:
            raise RuleViolation("suit", _("Unknown suit '{suit}' (suits: "
                                        "{suits})")
                                        .format(suit=suit, suits=', '.join(self.deck.suits)))

    def _pile(self, r: dict[str, Any]) -> int:
        """Cards left in the leftover pile for exchanges."""
        opened = TRICKSTER_OPEN_CARDS if r["opened"] else 0
        exchanged = sum(count or 0 for count in r["exchanged"])
        return self.deck.leftover(len(self.seats)) - opened - exchanged

    def exchange_limit(self, seat: int) -> int | None:
        """How many cards ``seat`` may exchange now, or None if it may not exchange now."""
        r = self.current
        if (r is None or r["phase"] != "prepare" or r["prediction"] is not None
                or r["exchanged"][seat] is not None
                or (r["hero"] == "trickster" and not r["opened"])):
            return None
        pile = self._pile(r)
        if seat == r["active"]:
            return min(TWO_PLAYER_EXCHANGE, pile) if len(self.seats) == 2 else pile
        if len(self.seats) == 2 and r["exchanged"][r["active"]] is not None:
            return min(r["exchanged"][r["active"]], pile)
        return None

    def _waiting_for(self, r: dict[str, Any]) -> tuple[int, str] | None:
        """Who must act before the first card, and what they must do (None: nobody)."""
        active = r["active"]
        if r["hero"] == "trickster" and not r["opened"]:
            return active, "open-cards"
        if r["hero"] in NEIGHBOUR_TRUMP and r["trump"] is None:
            return self._left_of(active), "trump"
        if r["hero"] == "seer" and r["prediction"] is None:
            return active, "predict"
        return None

    def to_play(self) -> int | None:
        """The seat the table waits for, or None between rounds."""
        r = self.current
        if r is None or r["phase"] == "over":
            return None
        if r["phase"] == "hero":
            return r["active"]
        if r["phase"] == "prepare":
            waiting = self._waiting_for(r)
            return waiting[0] if waiting else r["active"]
        if len(r["trick"]) == len(self.seats):
            return next(p["seat"] for p in r["trick"] if "card" not in p)
        return (r["leader"] + len(r["trick"])) % len(self.seats)

    # --- events -----------------------------------------------------------------------

    def on_deal(self, event: dict[str, Any]) -> None:
        if self.finished and self.history:
            raise RuleViolation("game-over", _("The game is over: no more rounds are played"))
        if self.current is not None and self.current["phase"] != "over":
            raise RuleViolation("round-in-progress", _("Round {n} is still "
                                                     "being played")
                                                     .format(n=len(self.history) + 1))
        n = len(self.seats)
        expected = 0 if not self.history else self._left_of(self.history[-1]["active"])
        active = event.get("active", expected)
        if active >= n:
            raise EventError(f"unknown seat {active} in 'active' (seats are 0 to {n - 1})")
        if self.history and active != expected:
            raise RuleViolation("active-rotation", _("{expected} is the active player "
                                "this round (it passes clockwise), not {active}")
                                .format(expected=self._name(expected), active=self._name(active)))
        offers: list[str] = []
        if self.options["variant"] == "random":
            pile = list(ALL_HEROES)
            self.rng("heroes", len(self.history)).shuffle(pile)
            # Heroes are drawn from the bottom of the shuffled pile.
            offers = pile[::-1][:self.options["random_refusals"] + 1]
        self.current = {
            "active": active, "phase": "hero", "hero": None, "trump": None,
            "offers": offers, "refused": [], "opened": False, "open_cards": [],
            "exchanged": [None] * n, "discards": [], "prediction": None,
            "leader": active, "trick": [], "played": {}, "won": [0] * n,
            "collected": [[] for _ in range(n)], "last_trick": None, "voids": [{} for _ in
                                                                             range(n)],
        }

    def on_hero(self, event: dict[str, Any]) -> None:
        r = self._round()
        seat, hero = event["seat"], event["hero"]
        if r["phase"] != "hero":
            raise RuleViolation("hero-chosen", _("The hero of this round is already chosen: "
                                               "the {hero}").format(hero=title(r['hero'])))
        if seat != r["active"]:
            raise RuleViolation("turn", _("{active} is the active player and "
                                        "chooses the hero, not {seat}")
                                        .format(active=self._name(r['active']),
                                                seat=self._name(seat)))
        if hero not in ALL_HEROES:
            raise RuleViolation("hero", _("Unknown hero '{hero}' (heroes: {heroes})")
                                          .format(hero=hero, heroes=', '.join(ALL_HEROES)))
        self._check_hero_allowed(r, seat, hero)
        if event.get("refuse"):
            self._refuse_hero(r, event)
            return
        r["trump"] = self._hero_trump(hero, event)
        r["hero"] = hero
        r["phase"] = "prepare"
        self.heroes_used[seat].append(hero)

    def _check_hero_allowed(self, r: dict[str, Any], seat: int, hero: str) -> None:
        variant = self.options["variant"]
        if variant == "random":
            offer = r["offers"][len(r["refused"])]
            if hero != offer:
                raise RuleViolation("random-dungeon", _("The hero drawn is the {offer}: "
                                                      "take it or refuse it")
                                                      .format(offer=title(offer)))
            return
        heroes = HERO_SETS[self.options["hero_set"]]
        if hero not in heroes:
            raise RuleViolation("hero-set", _("The {hero} is not in hero set "
                                "{hero_set} ({heroes})")
                                .format(hero=title(hero), hero_set=self.options['hero_set'],
                                        heroes=', '.join(heroes)))
        if variant == "guild" and hero in self.heroes_used[seat]:
            raise RuleViolation("guild", _("{seat} has already played the "
                                         "{hero}: in the adventurers guild each "
                                         "hero is played once")
                                         .format(seat=self._name(seat), hero=title(hero)))

    def _refuse_hero(self, r: dict[str, Any], event: dict[str, Any]) -> None:
        if self.options["variant"] != "random":
            raise RuleViolation("refuse", _("Only in the random dungeon may a hero be refused"))
        if "trump_suit" in event or "trump_value" in event:
            raise RuleViolation("refuse", _("A refused hero takes no trump"))
        if len(r["refused"]) >= self.options["random_refusals"]:
            raise RuleViolation("random-dungeon", _("The {hero} is the last "
                                                  "hero drawn: it must be played")
                                                  .format(hero=title(event['hero'])))
        r["refused"].append(event["hero"])

    def _hero_trump(self, hero: str, event: dict[str, Any]) -> dict[str, Any] | None:
        chosen = CHOSEN_TRUMP.get(hero)
        for kind in ("suit", "value"):
            if f"trump_{kind}" in event and chosen != kind:
                raise RuleViolation("no-trump", _("The {hero} does not let the active "
                                                "player choose a trump {kind}")
                                                .format(hero=title(hero), kind=kind))
        if chosen and f"trump_{chosen}" not in event:
            raise RuleViolation("trump", _("The {hero} asks for a trump {chosen}: "
                                         "give 'trump_{chosen}'")
                                         .format(hero=title(hero), chosen=chosen))
        if chosen == "suit":
            self._check_suit(event["trump_suit"])
            return {"suit": event["trump_suit"]}
        if chosen == "value":
            if event["trump_value"] not in self.deck.values:
                raise RuleViolation("trump", _("No card has the value {trump_value} "
                                             "(values: {values})")
                                             .format(trump_value=event['trump_value'],
                                                     values=", ".join(map(str, self.deck.values))))
            return {"value": event["trump_value"]}
        if hero in SYMBOL_TRUMP:
            return {"symbol": SYMBOL_TRUMP[hero]}
        return None

    def on_trump(self, event: dict[str, Any]) -> None:
        r = self._preparing("naming a trump suit")
        if r["hero"] not in NEIGHBOUR_TRUMP:
            raise RuleViolation("no-trump", _("With the {hero} nobody names a trump "
                                            "suit (only with the Troubadour)")
                                            .format(hero=title(r['hero'])))
        if r["trump"] is not None:
            raise RuleViolation("trump", _("The trump suit is already named: {suit}")
                                           .format(suit=r['trump']['suit']))
        namer = self._left_of(r["active"])
        if event["seat"] != namer:
            raise RuleViolation("turn", _("{namer}, left of the Troubadour, names the "
                                        "trump suit, not {seat}")
                                        .format(namer=self._name(namer),
                                                seat=self._name(event['seat'])))
        self._check_suit(event["suit"])
        r["trump"] = {"suit": event["suit"]}

    def on_open_cards(self, event: dict[str, Any]) -> None:
        r = self._preparing("turning cards face up")
        seat, cards = event["seat"], event["cards"]
        if r["hero"] != "trickster":
            raise RuleViolation("open-cards", _("Only the Trickster turns cards face up"))
        if seat != r["active"]:
            raise RuleViolation("turn", _("{active}, the Trickster, turns the "
                                        "cards face up, not {seat}")
                                        .format(active=self._name(r['active']),
                                                seat=self._name(seat)))
        if r["opened"]:
            raise RuleViolation("open-cards", _("The Trickster's four cards are already face up"))
        if len(cards) != TRICKSTER_OPEN_CARDS or len(set(cards)) != len(cards):
            raise RuleViolation("open-cards", _("The Trickster turns {n} "
                                              "different cards face up, got {count}")
                                              .format(n=TRICKSTER_OPEN_CARDS,
                                                      count=len(cards)))
        for card in cards:
            self._check_card(card, "cards")
        if self._pile(r) < TRICKSTER_OPEN_CARDS:
            raise RuleViolation("open-cards", _("The leftover pile holds fewer than "
                                              "{n} cards")
                                              .format(n=TRICKSTER_OPEN_CARDS))
        r["opened"] = True
        r["open_cards"] = list(cards)

    def on_exchange(self, event: dict[str, Any]) -> None:
        r = self._preparing("exchanging cards")
        seat, count = event["seat"], event["count"]
        name, two_players = self._name(seat), len(self.seats) == 2
        if r["hero"] == "trickster" and not r["opened"]:
            raise RuleViolation("open-cards", _("The Trickster turns four cards face up before "
                                              "any exchange"))
        if r["prediction"] is not None:
            raise RuleViolation("exchange", _("The Seer has predicted: exchanges are over"))
        if r["exchanged"][seat] is not None:
            raise RuleViolation("exchange", _("{name} has already exchanged this round")
                                              .format(name=name))
        if seat != r["active"] and not two_players:
            raise RuleViolation("exchange", _("Only the active player exchanges cards with 3 or 4 "
                                            "players"))
        if seat != r["active"] and r["exchanged"][r["active"]] is None:
            raise RuleViolation("exchange-order", _("The active player exchanges first; the other "
                                                  "player may then exchange as many or fewer"))
        limit = self.exchange_limit(seat)
        if limit is not None and count > limit:
            raise RuleViolation("exchange-limit", _("{name} may exchange at most {limit} "
                                                  "cards now, not {count}")
                                                  .format(name=name, limit=limit, count=count))
        if "cards" in event:
            self._check_discards(r, seat, count, event["cards"])
        r["exchanged"][seat] = count

    def _check_discards(self, r: dict[str, Any], seat: int, count: int, cards: list[str]) -> None:
        """The face-up discards of the 2-player open exchange."""
        if len(self.seats) != 2:
            raise RuleViolation("exchange", _("With 3 or 4 players discards stay face down: give "
                                            "only the count"))
        if len(cards) != count or len(set(cards)) != len(cards):
            raise RuleViolation("exchange", _("The exchange names {count} different cards "
                                            "for a count of {count2}")
                                            .format(count=len(cards), count2=count))
        for card in cards:
            self._check_card(card, "cards")
            if self.deck.is_potion(card):
                raise RuleViolation("two-player-potions", _("Magic potions may not be exchanged "
                                    "in the 2-player game: {card} stays in hand").format(card=card))
            if card in r["discards"]:
                raise RuleViolation("card-discarded", _("{card} was already exchanged away")
                                                        .format(card=card))
            if card in r["open_cards"] and seat != r["active"]:
                raise RuleViolation("open-card", _("{card} lies face up in front of the Trickster")
                                                   .format(card=card))
        r["open_cards"] = [card for card in r["open_cards"] if card not in cards]
        r["discards"].extend(cards)

    def on_predict(self, event: dict[str, Any]) -> None:
        r = self._preparing("the Seer's prediction")
        seat, count = event["seat"], event["count"]
        if r["hero"] != "seer":
            raise RuleViolation("predict", _("Only the Seer makes a prediction"))
        if seat != r["active"]:
            raise RuleViolation("turn", _("{active}, the Seer, predicts, not "
                                        "{seat}")
                                        .format(active=self._name(r['active']),
                                                seat=self._name(seat)))
        if r["prediction"] is not None:
            raise RuleViolation("predict", _("The Seer has already predicted {prediction}")
                                             .format(prediction=r['prediction']))
        most = self.hand_size() + len(self.deck.potions)
        if count > most:
            raise RuleViolation("predict", _("At most {most} tricks and potions can be collected "
                                           "in a round, not {count}")
                                           .format(most=most, count=count))
        r["prediction"] = count
