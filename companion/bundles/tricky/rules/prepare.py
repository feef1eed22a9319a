"""Tricky Dungeon before the first card: the deal, the hero, trumps, exchanges, the Seer.

Each function is one event of ``Tricky`` (``engine.py``) applied to the game; it
raises a RuleViolation or EventError before it changes anything it checks.
"""

from __future__ import annotations

from typing import Any

from companion.bundles.tricky.rules.heroes import (
    ALL_HEROES,
    CHOSEN_TRUMP,
    HERO_SETS,
    NEIGHBOUR_TRUMP,
    SYMBOL_TRUMP,
    TRICKSTER_OPEN_CARDS,
    title,
)
from companion.bundles.tricky.rules.round import HERO, OVER, PLAY, PREPARE, Round
from companion.bundles.tricky.rules.state import TrickyState
from companion.errors import RuleViolation
from companion.i18n import N_, _

#: The 2-player game: the active player exchanges up to 7 cards (rule text).
TWO_PLAYER_EXCHANGE = 7


def preparing(game: TrickyState, action: str) -> Round:
    """The round, which must be between the hero choice and the first card."""
    r = game.playing_round()
    if r.phase == HERO:
        raise RuleViolation("hero-first", _("The active player chooses a hero before {action}")
                                          .format(action=action))
    if r.phase == PLAY:
        raise RuleViolation("cards-played", _("Too late for {action}: the first card is played")
                                              .format(action=action))
    return r


def deal(game: TrickyState, event: dict[str, Any]) -> None:
    if game.finished and game.history:
        raise RuleViolation("game-over", _("The game is over: no more rounds are played"))
    if game.current is not None and game.current.phase != OVER:
        raise RuleViolation("round-in-progress", _("Round {n} is still "
                                                   "being played")
                                                 .format(n=len(game.history) + 1))
    n = len(game.seats)
    expected = 0 if not game.history else (game.history[-1].active + 1) % n
    active = event.get("active", expected)  # a seat: checked against the seats already
    if game.history and active != expected:
        raise RuleViolation("active-rotation", _("{expected} is the active player "
                              "this round (it passes clockwise), not {active}")
                            .format(expected=game.seats[expected], active=game.seats[active]))
    offers: tuple[str, ...] = ()
    if game.options["variant"] == "random":
        pile = list(ALL_HEROES)
        game.rng("heroes", len(game.history)).shuffle(pile)
        # Heroes are drawn from the bottom of the shuffled pile.
        offers = tuple(pile[::-1][:game.options["random_refusals"] + 1])
    game.current = Round.deal(active, n, offers)


def hero(game: TrickyState, event: dict[str, Any]) -> None:
    r = game.playing_round()
    seat, chosen = event["seat"], event["hero"]
    if r.phase != HERO:
        raise RuleViolation("hero-chosen", _("The hero of this round is already chosen: "
                                             "the {hero}").format(hero=title(r.hero or '')))
    if seat != r.active:
        raise RuleViolation("turn", _("{active} is the active player and "
                                      "chooses the hero, not {seat}")
                                    .format(active=game.seats[r.active], seat=game.seats[seat]))
    if chosen not in ALL_HEROES:
        raise RuleViolation("hero", _("Unknown hero '{hero}' (heroes: {heroes})")
                                    .format(hero=chosen, heroes=', '.join(ALL_HEROES)))
    _check_hero_allowed(game, r, seat, chosen)
    if event.get("refuse"):
        _refuse_hero(game, r, event)
        return
    trump = _hero_trump(game, chosen, event)
    r.trump, r.hero, r.phase = trump, chosen, PREPARE
    used = game.heroes_used
    game.heroes_used = (*used[:seat], (*used[seat], chosen), *used[seat + 1:])


def _check_hero_allowed(game: TrickyState, r: Round, seat: int, chosen: str) -> None:
    variant = game.options["variant"]
    if variant == "random":
        if chosen != r.offer():
            raise RuleViolation("random-dungeon", _("The hero drawn is the {offer}: "
                                                    "take it or refuse it")
                                                  .format(offer=title(r.offer())))
        return
    heroes = HERO_SETS[game.options["hero_set"]]
    if chosen not in heroes:
        raise RuleViolation("hero-set", _("The {hero} is not in hero set "
                              "{hero_set} ({heroes})")
                            .format(hero=title(chosen), hero_set=game.options['hero_set'],
                                    heroes=', '.join(heroes)))
    if variant == "guild" and chosen in game.heroes_used[seat]:
        raise RuleViolation("guild", _("{seat} has already played the "
                                       "{hero}: in the adventurers guild each "
                                       "hero is played once")
                                     .format(seat=game.seats[seat], hero=title(chosen)))


def _refuse_hero(game: TrickyState, r: Round, event: dict[str, Any]) -> None:
    if game.options["variant"] != "random":
        raise RuleViolation("refuse", _("Only in the random dungeon may a hero be refused"))
    if "trump_suit" in event or "trump_value" in event:
        raise RuleViolation("refuse", _("A refused hero takes no trump"))
    if len(r.refused) >= game.options["random_refusals"]:
        raise RuleViolation("random-dungeon", _("The {hero} is the last "
                                                "hero drawn: it must be played")
                                              .format(hero=title(event['hero'])))
    r.refused.append(event["hero"])


def _hero_trump(game: TrickyState, chosen: str, event: dict[str, Any]) -> dict[str, Any] | None:
    kind = CHOSEN_TRUMP.get(chosen)
    for given in ("suit", "value"):
        if f"trump_{given}" in event and kind != given:
            raise RuleViolation("no-trump", _("The {hero} does not let the active "
                                              "player choose a trump {kind}")
                                            .format(hero=title(chosen), kind=given))
    if kind and f"trump_{kind}" not in event:
        raise RuleViolation("trump", _("The {hero} asks for a trump {chosen}: "
                                       "give 'trump_{chosen}'")
                                     .format(hero=title(chosen), chosen=kind))
    if kind == "suit":
        game.check_suit(event["trump_suit"])
        return {"suit": event["trump_suit"]}
    if kind == "value":
        if event["trump_value"] not in game.deck.values:
            raise RuleViolation("trump", _("No card has the value {trump_value} "
                                           "(values: {values})")
                                         .format(trump_value=event['trump_value'],
                                                 values=", ".join(map(str, game.deck.values))))
        return {"value": event["trump_value"]}
    if chosen in SYMBOL_TRUMP:
        return {"symbol": SYMBOL_TRUMP[chosen]}
    return None


def trump(game: TrickyState, event: dict[str, Any]) -> None:
    r = preparing(game, "naming a trump suit")
    if r.hero not in NEIGHBOUR_TRUMP:
        raise RuleViolation("no-trump", _("With the {hero} nobody names a trump "
                                          "suit (only with the Troubadour)")
                                        .format(hero=title(r.hero or '')))
    if r.trump is not None:
        raise RuleViolation("trump", _("The trump suit is already named: {suit}")
                                     .format(suit=r.trump['suit']))
    namer = r.left_of(r.active)
    if event["seat"] != namer:
        raise RuleViolation("turn", _("{namer}, left of the Troubadour, names the "
                                      "trump suit, not {seat}")
                                    .format(namer=game.seats[namer],
                                            seat=game.seats[event['seat']]))
    game.check_suit(event["suit"])
    r.trump = {"suit": event["suit"]}


def _heros_own(game: TrickyState, event: dict[str, Any], hero: str, rule: str, action: str,
               only: str, not_yours: str) -> Round:
    """The round, in which only the active player with ``hero`` may do this now; ``only``
    and ``not_yours`` are the refusals (marked with ``N_``, ``not_yours`` with ``{active}``
    and ``{seat}``)."""
    r = preparing(game, action)
    if r.hero != hero:
        raise RuleViolation(rule, _(only))
    if event["seat"] != r.active:
        raise RuleViolation("turn", _(not_yours).format(active=game.seats[r.active],
                                                        seat=game.seats[event['seat']]))
    return r


def open_cards(game: TrickyState, event: dict[str, Any]) -> None:
    r = _heros_own(game, event, "trickster", "open-cards", "turning cards face up",
                   N_("Only the Trickster turns cards face up"),
                   N_("{active}, the Trickster, turns the cards face up, not {seat}"))
    cards = event["cards"]
    if r.opened:
        raise RuleViolation("open-cards", _("The Trickster's four cards are already face up"))
    if len(cards) != TRICKSTER_OPEN_CARDS or len(set(cards)) != len(cards):
        raise RuleViolation("open-cards", _("The Trickster turns {n} "
                                            "different cards face up, got {count}")
                                          .format(n=TRICKSTER_OPEN_CARDS, count=len(cards)))
    for card in cards:
        game.check_card(card, "cards")
    if r.pile(game.deck) < TRICKSTER_OPEN_CARDS:
        raise RuleViolation("open-cards", _("The leftover pile holds fewer than "
                                            "{n} cards").format(n=TRICKSTER_OPEN_CARDS))
    r.opened = True
    r.open_cards = list(cards)


def exchange_limit(game: TrickyState, seat: int) -> int | None:
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


def exchange(game: TrickyState, event: dict[str, Any]) -> None:
    r = preparing(game, "exchanging cards")
    seat, count = event["seat"], event["count"]
    name, two_players = game.seats[seat], len(game.seats) == 2
    if r.hero == "trickster" and not r.opened:
        raise RuleViolation("open-cards", _("The Trickster turns four cards face up before "
                                            "any exchange"))
    if r.prediction is not None:
        raise RuleViolation("exchange", _("The Seer has predicted: exchanges are over"))
    if r.exchanged[seat] is not None:
        raise RuleViolation("exchange", _("{name} has already exchanged this round")
                                        .format(name=name))
    if seat != r.active and not two_players:
        raise RuleViolation("exchange", _("Only the active player exchanges cards with 3 or 4 "
                                          "players"))
    if seat != r.active and r.exchanged[r.active] is None:
        raise RuleViolation("exchange-order", _("The active player exchanges first; the other "
                                                "player may then exchange as many or fewer"))
    limit = exchange_limit(game, seat)
    if limit is not None and count > limit:
        raise RuleViolation("exchange-limit", _("{name} may exchange at most {limit} "
                                                "cards now, not {count}")
                                              .format(name=name, limit=limit, count=count))
    if "cards" in event:
        _discard(game, r, seat, count, event["cards"])
    r.exchanged[seat] = count


def _discard(game: TrickyState, r: Round, seat: int, count: int, cards: list[str]) -> None:
    """The face-up discards of the 2-player open exchange."""
    if len(game.seats) != 2:
        raise RuleViolation("exchange", _("With 3 or 4 players discards stay face down: give "
                                          "only the count"))
    if len(cards) != count or len(set(cards)) != len(cards):
        raise RuleViolation("exchange", _("The exchange names {count} different cards "
                                          "for a count of {count2}")
                                        .format(count=len(cards), count2=count))
    for card in cards:
        game.check_card(card, "cards")
        if game.deck.is_potion(card):
            raise RuleViolation("two-player-potions", _("Magic potions may not be exchanged "
                                  "in the 2-player game: {card} stays in hand").format(card=card))
        if card in r.discards:
            raise RuleViolation("card-discarded", _("{card} was already exchanged away")
                                                .format(card=card))
        if card in r.open_cards and seat != r.active:
            raise RuleViolation("open-card", _("{card} lies face up in front of the Trickster")
                                             .format(card=card))
    r.open_cards = [card for card in r.open_cards if card not in cards]
    r.discards.extend(cards)


def predict(game: TrickyState, event: dict[str, Any]) -> None:
    r = _heros_own(game, event, "seer", "predict", "the Seer's prediction",
                   N_("Only the Seer makes a prediction"),
                   N_("{active}, the Seer, predicts, not {seat}"))
    count = event["count"]
    if r.prediction is not None:
        raise RuleViolation("predict", _("The Seer has already predicted {prediction}")
                                       .format(prediction=r.prediction))
    most = game.hand_size() + len(game.deck.potions)
    if count > most:
        raise RuleViolation("predict", _("At most {most} tricks and potions can be collected "
                                         "in a round, not {count}")
                                       .format(most=most, count=count))
    r.prediction = count


def events_now(game: TrickyState, seat: int) -> list[str]:
    """The event types ``seat`` may send now: a deal between rounds (nothing once the game
    is over), the hero from the active player, then before the first card the Troubadour's
    trump from the left neighbour, the Trickster's open cards and the Seer's prediction from
    the active player, an exchange within its limit, and a play or the Ninja's reveal from
    the seat the trick waits for."""
    r = game.current
    if r is None or r.phase == OVER:
        return [] if game.finished else ["deal"]
    if r.phase == HERO:
        return ["hero"] if seat == r.active else []
    kinds = []
    if r.phase == PREPARE:
        waiting = r.waiting_for()
        if waiting is not None and waiting[0] == seat:
            kinds.append(waiting[1].replace("-", "_"))
        if exchange_limit(game, seat) is not None:
            kinds.append("exchange")
        if waiting is not None:
            return kinds
    if r.trick_full():
        hidden = any(play.seat == seat and play.card is None for play in r.trick)
        return [*kinds, "reveal"] if hidden else kinds
    return [*kinds, "play"] if seat == (r.leader + len(r.trick)) % r.seats else kinds
