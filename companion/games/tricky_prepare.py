"""Tricky Dungeon before the first card: the deal, the hero, trumps, exchanges, the Seer.

Each function is one event of ``companion.games.tricky.Tricky`` applied to the game; it
raises a RuleViolation or EventError before it changes anything it checks.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.errors import EventError, RuleViolation
from companion.games.tricky_heroes import (
    ALL_HEROES,
    CHOSEN_TRUMP,
    HERO_SETS,
    NEIGHBOUR_TRUMP,
    SYMBOL_TRUMP,
    TRICKSTER_OPEN_CARDS,
    title,
)
from companion.games.tricky_round import HERO, OVER, PLAY, PREPARE, Round

if TYPE_CHECKING:
    from companion.games.tricky import Tricky

#: The 2-player game: the active player exchanges up to 7 cards (rule text).
TWO_PLAYER_EXCHANGE = 7


def preparing(game: Tricky, action: str) -> Round:
    """The round, which must be between the hero choice and the first card."""
    r = game.playing_round()
    if r.phase == HERO:
        raise RuleViolation("hero-first", f"The active player chooses a hero before {action}")
    if r.phase == PLAY:
        raise RuleViolation("cards-played", f"Too late for {action}: the first card is played")
    return r


def deal(game: Tricky, event: dict[str, Any]) -> None:
    if game.finished and game.history:
        raise RuleViolation("game-over", "The game is over: no more rounds are played")
    if game.current is not None and game.current.phase != OVER:
        raise RuleViolation("round-in-progress", f"Round {len(game.history) + 1} is still "
                                                 "being played")
    n = len(game.seats)
    expected = 0 if not game.history else (game.history[-1].active + 1) % n
    active = event.get("active", expected)
    if active >= n:
        raise EventError(f"unknown seat {active} in 'active' (seats are 0 to {n - 1})")
    if game.history and active != expected:
        raise RuleViolation("active-rotation", f"{game.seats[expected]} is the active player "
                            f"this round (it passes clockwise), not {game.seats[active]}")
    offers: tuple[str, ...] = ()
    if game.options["variant"] == "random":
        pile = list(ALL_HEROES)
        game.rng("heroes", len(game.history)).shuffle(pile)
        # Heroes are drawn from the bottom of the shuffled pile.
        offers = tuple(pile[::-1][:game.options["random_refusals"] + 1])
    game.current = Round.deal(active, n, offers)


def hero(game: Tricky, event: dict[str, Any]) -> None:
    r = game.playing_round()
    seat, chosen = event["seat"], event["hero"]
    if r.phase != HERO:
        raise RuleViolation("hero-chosen", f"The hero of this round is already chosen: "
                                           f"the {title(r.hero or '')}")
    if seat != r.active:
        raise RuleViolation("turn", f"{game.seats[r.active]} is the active player and "
                                    f"chooses the hero, not {game.seats[seat]}")
    if chosen not in ALL_HEROES:
        raise RuleViolation("hero", f"Unknown hero '{chosen}' (heroes: {', '.join(ALL_HEROES)})")
    _check_hero_allowed(game, r, seat, chosen)
    if event.get("refuse"):
        _refuse_hero(game, r, event)
        return
    trump = _hero_trump(game, chosen, event)
    r.trump, r.hero, r.phase = trump, chosen, PREPARE
    used = game.heroes_used
    game.heroes_used = (*used[:seat], (*used[seat], chosen), *used[seat + 1:])


def _check_hero_allowed(game: Tricky, r: Round, seat: int, chosen: str) -> None:
    variant = game.options["variant"]
    if variant == "random":
        if chosen != r.offer():
            raise RuleViolation("random-dungeon", f"The hero drawn is the {title(r.offer())}: "
                                                  f"take it or refuse it")
        return
    heroes = HERO_SETS[game.options["hero_set"]]
    if chosen not in heroes:
        raise RuleViolation("hero-set", f"The {title(chosen)} is not in hero set "
                            f"{game.options['hero_set']} ({', '.join(heroes)})")
    if variant == "guild" and chosen in game.heroes_used[seat]:
        raise RuleViolation("guild", f"{game.seats[seat]} has already played the "
                                     f"{title(chosen)}: in the adventurers guild each "
                                     "hero is played once")


def _refuse_hero(game: Tricky, r: Round, event: dict[str, Any]) -> None:
    if game.options["variant"] != "random":
        raise RuleViolation("refuse", "Only in the random dungeon may a hero be refused")
    if "trump_suit" in event or "trump_value" in event:
        raise RuleViolation("refuse", "A refused hero takes no trump")
    if len(r.refused) >= game.options["random_refusals"]:
        raise RuleViolation("random-dungeon", f"The {title(event['hero'])} is the last "
                                              "hero drawn: it must be played")
    r.refused.append(event["hero"])


def _hero_trump(game: Tricky, chosen: str, event: dict[str, Any]) -> dict[str, Any] | None:
    kind = CHOSEN_TRUMP.get(chosen)
    for given in ("suit", "value"):
        if f"trump_{given}" in event and kind != given:
            raise RuleViolation("no-trump", f"The {title(chosen)} does not let the active "
                                            f"player choose a trump {given}")
    if kind and f"trump_{kind}" not in event:
        raise RuleViolation("trump", f"The {title(chosen)} asks for a trump {kind}: "
                                     f"give 'trump_{kind}'")
    if kind == "suit":
        game.check_suit(event["trump_suit"])
        return {"suit": event["trump_suit"]}
    if kind == "value":
        if event["trump_value"] not in game.deck.values:
            raise RuleViolation("trump", f"No card has the value {event['trump_value']} "
                                         f"(values: {', '.join(map(str, game.deck.values))})")
        return {"value": event["trump_value"]}
    if chosen in SYMBOL_TRUMP:
        return {"symbol": SYMBOL_TRUMP[chosen]}
    return None


def trump(game: Tricky, event: dict[str, Any]) -> None:
    r = preparing(game, "naming a trump suit")
    if r.hero not in NEIGHBOUR_TRUMP:
        raise RuleViolation("no-trump", f"With the {title(r.hero or '')} nobody names a trump "
                                        "suit (only with the Troubadour)")
    if r.trump is not None:
        raise RuleViolation("trump", f"The trump suit is already named: {r.trump['suit']}")
    namer = r.left_of(r.active)
    if event["seat"] != namer:
        raise RuleViolation("turn", f"{game.seats[namer]}, left of the Troubadour, names the "
                                    f"trump suit, not {game.seats[event['seat']]}")
    game.check_suit(event["suit"])
    r.trump = {"suit": event["suit"]}


def _heros_own(game: Tricky, event: dict[str, Any], hero: str, rule: str, action: str,
               only: str, does: str) -> Round:
    """The round, in which only the active player with ``hero`` may do this now."""
    r = preparing(game, action)
    if r.hero != hero:
        raise RuleViolation(rule, f"Only the {title(hero)} {only}")
    if event["seat"] != r.active:
        raise RuleViolation("turn", f"{game.seats[r.active]}, the {title(hero)}, {does}, not "
                                    f"{game.seats[event['seat']]}")
    return r


def open_cards(game: Tricky, event: dict[str, Any]) -> None:
    r = _heros_own(game, event, "trickster", "open-cards", "turning cards face up",
                   "turns cards face up", "turns the cards face up")
    cards = event["cards"]
    if r.opened:
        raise RuleViolation("open-cards", "The Trickster's four cards are already face up")
    if len(cards) != TRICKSTER_OPEN_CARDS or len(set(cards)) != len(cards):
        raise RuleViolation("open-cards", f"The Trickster turns {TRICKSTER_OPEN_CARDS} "
                                          f"different cards face up, got {len(cards)}")
    for card in cards:
        game.check_card(card, "cards")
    if r.pile(game.deck) < TRICKSTER_OPEN_CARDS:
        raise RuleViolation("open-cards", "The leftover pile holds fewer than "
                                          f"{TRICKSTER_OPEN_CARDS} cards")
    r.opened = True
    r.open_cards = list(cards)


def exchange_limit(game: Tricky, seat: int) -> int | None:
    """How many cards ``seat`` may exchange now, or None if it may not exchange now."""
    r = game.current
    if (r is None or r.phase != PREPARE or r.prediction is not None
            or r.exchanged[seat] is not None or (r.hero == "trickster" and not r.opened)):
        return None
    pile = r.pile(game.deck)
    two_players = len(game.seats) == 2
    if seat == r.active:
        return min(TWO_PLAYER_EXCHANGE, pile) if two_players else pile
    active_count = r.exchanged[r.active]
    if two_players and active_count is not None:
        return min(active_count, pile)
    return None


def exchange(game: Tricky, event: dict[str, Any]) -> None:
    r = preparing(game, "exchanging cards")
    seat, count = event["seat"], event["count"]
    name, two_players = game.seats[seat], len(game.seats) == 2
    if r.hero == "trickster" and not r.opened:
        raise RuleViolation("open-cards", "The Trickster turns four cards face up before "
                                          "any exchange")
    if r.prediction is not None:
        raise RuleViolation("exchange", "The Seer has predicted: exchanges are over")
    if r.exchanged[seat] is not None:
        raise RuleViolation("exchange", f"{name} has already exchanged this round")
    if seat != r.active and not two_players:
        raise RuleViolation("exchange", "Only the active player exchanges cards with 3 or 4 "
                                        "players")
    if seat != r.active and r.exchanged[r.active] is None:
        raise RuleViolation("exchange-order", "The active player exchanges first; the other "
                                              "player may then exchange as many or fewer")
    limit = exchange_limit(game, seat)
    if limit is not None and count > limit:
        raise RuleViolation("exchange-limit", f"{name} may exchange at most {limit} "
                                              f"cards now, not {count}")
    if "cards" in event:
        _discard(game, r, seat, count, event["cards"])
    r.exchanged[seat] = count


def _discard(game: Tricky, r: Round, seat: int, count: int, cards: list[str]) -> None:
    """The face-up discards of the 2-player open exchange."""
    if len(game.seats) != 2:
        raise RuleViolation("exchange", "With 3 or 4 players discards stay face down: give "
                                        "only the count")
    if len(cards) != count or len(set(cards)) != len(cards):
        raise RuleViolation("exchange", f"The exchange names {len(cards)} different cards "
                                        f"for a count of {count}")
    for card in cards:
        game.check_card(card, "cards")
        if game.deck.is_potion(card):
            raise RuleViolation("two-player-potions", f"Magic potions may not be exchanged "
                                f"in the 2-player game: {card} stays in hand")
        if card in r.discards:
            raise RuleViolation("card-discarded", f"{card} was already exchanged away")
        if card in r.open_cards and seat != r.active:
            raise RuleViolation("open-card", f"{card} lies face up in front of the Trickster")
    r.open_cards = [card for card in r.open_cards if card not in cards]
    r.discards.extend(cards)


def predict(game: Tricky, event: dict[str, Any]) -> None:
    r = _heros_own(game, event, "seer", "predict", "the Seer's prediction",
                   "makes a prediction", "predicts")
    count = event["count"]
    if r.prediction is not None:
        raise RuleViolation("predict", f"The Seer has already predicted {r.prediction}")
    most = game.hand_size() + len(game.deck.potions)
    if count > most:
        raise RuleViolation("predict", f"At most {most} tricks and potions can be collected "
                                       f"in a round, not {count}")
    r.prediction = count
