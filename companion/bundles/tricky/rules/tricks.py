"""Tricks of Tricky Dungeon: plays, the Ninja's reveal, follow-suit, revokes, round scores.

Each public function is one event of ``Tricky`` (``engine.py``) applied to the game.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Any

from companion.bundles.tricky.rules.heroes import Haul, hero_gold, trick_winner
from companion.bundles.tricky.rules.round import (
    HERO,
    OVER,
    PLAY,
    PREPARE,
    LastTrick,
    Revoke,
    Round,
    RoundResult,
    TrickPlay,
)
from companion.bundles.tricky.rules.state import TrickyState
from companion.errors import EventError, RuleViolation
from companion.i18n import N_, _

#: What the table is told to do before the first card, by what it waits for.
NEEDS = {"open-cards": N_("{seat} turns four cards face up before the first card"),
         "trump": N_("{seat} names the trump suit for the Troubadour before the "
                     "first card"),
         "predict": N_("{seat} makes the Seer's prediction before the first "
                       "card")}


def play(game: TrickyState, event: dict[str, Any]) -> None:
    r = game.playing_round()
    seat, n = event["seat"], len(game.seats)
    if r.phase == HERO:
        raise RuleViolation("hero-first", _("The active player chooses a hero before the "
                                            "first card"))
    if r.phase == PREPARE:
        waiting = r.waiting_for()
        if waiting is not None:
            raise RuleViolation(waiting[1], _(NEEDS[waiting[1]]).format(
                seat=game.seats[waiting[0]]))
    if r.trick_full():
        raise RuleViolation("reveal-first", _("{ninja} reveals the face-down card before the "
                                              "next card is played")
                                            .format(ninja=game.seats[r.active]))
    expected = (r.leader + len(r.trick)) % n
    if seat != expected:
        raise RuleViolation("turn", _("It is {expected}'s turn to play, not "
                                      "{seat}'s")
                                    .format(expected=game.seats[expected], seat=game.seats[seat]))
    suit = _played_suit(game, r, seat, event)
    card = event.get("card")
    if card is not None:
        _check_unplayed(game, r, seat, card)
    _check_follow(game, r, seat, suit)
    r.phase = PLAY
    if card is not None:
        r.trick.append(TrickPlay(seat, card=card))
        r.played[card] = r.trick_number()
        if card in r.open_cards:
            r.open_cards.remove(card)
    else:
        r.trick.append(TrickPlay(seat, suit=suit))
    if r.trick_full() and all(p.card is not None for p in r.trick):
        _end_trick(game, r)


def _played_suit(game: TrickyState, r: Round, seat: int, event: dict[str, Any]) -> str:
    """The suit of a play; the Ninja's cards go face down with only their suit told."""
    face_down = event.get("face_down", False)
    ninja = r.hero == "ninja" and seat == r.active
    if face_down:
        if "card" in event or "suit" not in event:
            raise EventError("a face-down play gives 'suit' and no 'card'")
        if not ninja:
            raise RuleViolation("face-down", _("Only the Ninja (the active player) plays "
                                               "face down"))
        game.check_suit(event["suit"])
        return event["suit"]
    if "card" not in event:
        raise EventError("missing field 'card' in a play event")
    if "suit" in event:
        raise EventError("a face-up play gives 'card' only, not 'suit'")
    if ninja:
        raise RuleViolation("ninja", _("The Ninja plays face down: give the suit with "
                                       "\"face_down\": true, then reveal the card"))
    game.check_card(event["card"])
    return game.deck.suit(event["card"])


def _check_unplayed(game: TrickyState, r: Round, seat: int, card: str) -> None:
    if card in r.played:
        raise RuleViolation("card-played", _("{card} was already played in trick "
                                             "{trick}").format(card=card, trick=r.played[card]))
    if card in r.discards:
        raise RuleViolation("card-discarded", _("{card} was exchanged away this round")
                                                .format(card=card))
    if card in r.open_cards and seat != r.active:
        raise RuleViolation("open-card", _("{card} lies face up in front of the Trickster "
                                           "({active})")
                                         .format(card=card, active=game.seats[r.active]))


def _check_follow(game: TrickyState, r: Round, seat: int, suit: str) -> None:
    """Refuse what the companion can see; flag a revoke it can only see afterwards."""
    trick = r.trick_number()
    led = r.lead_suit(game.deck)
    if led is not None and suit != led and seat == r.active:
        face_up = [card for card in r.open_cards if game.deck.suit(card) == led]
        if face_up:
            raise RuleViolation("follow-suit", _("{seat} must follow {led}: "
                                                 "{shown} lies face up in their hand")
                                               .format(seat=game.seats[seat], led=led,
                                                       shown=face_up[0]))
    voids = r.voids[seat]
    if suit in voids:
        revoke = Revoke(len(game.history) + 1, seat, suit, voids.pop(suit), trick)
        game.revokes = (*game.revokes, revoke)
    if led is not None and suit != led:
        voids.setdefault(led, trick)


def reveal(game: TrickyState, event: dict[str, Any]) -> None:
    r = game.playing_round()
    seat, card = event["seat"], event["card"]
    hidden = [p for p in r.trick if p.seat == seat and p.card is None]
    if r.phase != PLAY or not hidden:
        raise RuleViolation("reveal", _("{seat} has no face-down card to reveal")
                                      .format(seat=game.seats[seat]))
    if not r.trick_full():
        raise RuleViolation("reveal-early", _("The face-down card is revealed after the "
                                              "trick's other cards"))
    game.check_card(card)
    if game.deck.suit(card) != hidden[0].suit:
        raise RuleViolation("reveal", _("{seat} played a face-down "
                                        "{suit} card, not {card}")
                                      .format(seat=game.seats[seat], suit=hidden[0].suit,
                                              card=card))
    _check_unplayed(game, r, seat, card)
    hidden[0].card, hidden[0].suit = card, None
    r.played[card] = r.trick_number()
    _end_trick(game, r)


def _end_trick(game: TrickyState, r: Round) -> None:
    cards = [p.card or "" for p in r.trick]
    index = trick_winner(cards, r.hero or "", r.trump, game.deck, game.options["trump_order"])
    winner = r.trick[index].seat
    r.last_trick = LastTrick(r.trick_number(), tuple((p.seat, p.card or "") for p in r.trick),
                             winner)
    r.won[winner] += 1
    r.collected[winner].extend(cards)
    r.leader = winner
    r.trick = []
    if sum(r.won) == game.hand_size():
        _end_round(game, r, winner)


def _end_round(game: TrickyState, r: Round, last_winner: int) -> None:
    active, n = r.active, len(game.seats)
    haul = Haul(tricks=r.won[active], cards=tuple(r.collected[active]),
                won_last=last_winner == active, prediction=r.prediction)
    earned = hero_gold(r.hero or "", haul, game.deck, n, game.options)
    if earned > 0:
        gold = tuple(earned if seat == active else 0 for seat in range(n))
    else:
        gold = tuple(0 if seat == active else 1 for seat in range(n))
    r.phase = OVER
    trump = MappingProxyType(dict(r.trump)) if r.trump else None
    game.history = (*game.history, RoundResult(active, r.hero or "", trump, tuple(r.won), gold))
