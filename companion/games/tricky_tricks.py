"""Tricks of Tricky Dungeon: plays, the Ninja's reveal, follow-suit, revokes, round scores.

Mixed into ``companion.games.tricky.Tricky``, whose state and helpers it uses.
"""

from __future__ import annotations

from typing import Any

from companion.errors import EventError, RuleViolation
from companion.games.tricky_deck import Deck
from companion.games.tricky_heroes import Haul, hero_gold, trick_winner
from companion.i18n import _


class TrickyTricks:
    """The ``play`` and ``reveal`` events, and what ends a trick and a round."""

    seats: list[str]
    options: dict[str, Any]
    deck: Deck
    history: list[dict[str, Any]]
    revokes: list[dict[str, Any]]

    def on_play(self, event: dict[str, Any]) -> None:
        r = self._round()
        seat, n = event["seat"], len(self.seats)
        if r["phase"] == "hero":
            raise RuleViolation("hero-first", _("The active player chooses a hero before the "
                                              "first card"))
        if r["phase"] == "prepare":
            self._start_tricks(r)
        if len(r["trick"]) == n:
            ninja = self._name(r["active"])
            raise RuleViolation("reveal-first", _("{ninja} reveals the face-down card before the "
                                                "next card is played").format(ninja=ninja))
        expected = (r["leader"] + len(r["trick"])) % n
        if seat != expected:
            raise RuleViolation("turn", _("It is {expected}'s turn to play, not "
                                        "{seat}'s")
                                        .format(expected=self._name(expected),
                                                seat=self._name(seat)))
        suit = self._played_suit(r, seat, event)
        if "card" in event:
            self._check_unplayed(r, seat, event["card"])
        self._check_follow(r, seat, suit)
        if "card" in event:
            card = event["card"]
            r["trick"].append({"seat": seat, "card": card})
            r["played"][card] = self._trick_number(r)
            if card in r["open_cards"]:
                r["open_cards"].remove(card)
        else:
            r["trick"].append({"seat": seat, "suit": suit, "face_down": True})
        if len(r["trick"]) == n and all("card" in p for p in r["trick"]):
            self._end_trick(r)

    def _start_tricks(self, r: dict[str, Any]) -> None:
        waiting = self._waiting_for(r)
        if waiting is not None:
            seat, what = waiting
            needs = {"open-cards": _("{seat} turns four cards face up before the first card"),
                     "trump": _("{seat} names the trump suit for the Troubadour before the "
                                "first card"),
                     "predict": _("{seat} makes the Seer's prediction before the first "
                                  "card")}[what]
            raise RuleViolation(what, needs.format(seat=self._name(seat)))
        r["phase"] = "play"

    def _played_suit(self, r: dict[str, Any], seat: int, event: dict[str, Any]) -> str:
        """The suit of a play; the Ninja's cards go face down with only their suit told."""
        face_down = event.get("face_down", False)
        ninja = r["hero"] == "ninja" and seat == r["active"]
        if face_down:
            if "card" in event or "suit" not in event:
                raise EventError("a face-down play gives 'suit' and no 'card'")
            if not ninja:
                raise RuleViolation("face-down", _("Only the Ninja (the active player) plays "
                                                 "face down"))
            self._check_suit(event["suit"])
            return event["suit"]
        if "card" not in event:
            raise EventError("missing field 'card' in a play event")
        if "suit" in event:
            raise EventError("a face-up play gives 'card' only, not 'suit'")
        if ninja:
            raise RuleViolation("ninja", _("The Ninja plays face down: give the suit with "
                                         "\"face_down\": true, then reveal the card"))
        self._check_card(event["card"])
        return self.deck.suit(event["card"])

    def _check_unplayed(self, r: dict[str, Any], seat: int, card: str) -> None:
        if card in r["played"]:
            raise RuleViolation("card-played", _("{card} was already played in trick "
                                               "{trick}")
                                               .format(card=card, trick=r['played'][card]))
        if card in r["discards"]:
            raise RuleViolation("card-discarded", _("{card} was exchanged away this round")
                                                    .format(card=card))
        if card in r["open_cards"] and seat != r["active"]:
            raise RuleViolation("open-card", _("{card} lies face up in front of the Trickster "
                                             "({active})")
                                             .format(card=card, active=self._name(r['active'])))

    def _trick_number(self, r: dict[str, Any]) -> int:
        return sum(r["won"]) + 1

    def _check_follow(self, r: dict[str, Any], seat: int, suit: str) -> None:
        """Refuse what the companion can see; flag a revoke it can only see afterwards."""
        trick = self._trick_number(r)
        led = self.lead_suit(r)
        if led is not None and suit != led and seat == r["active"]:
            shown = [card for card in r["open_cards"] if self.deck.suit(card) == led]
            if shown:
                raise RuleViolation("follow-suit", _("{seat} must follow {led}: "
                                                   "{shown} lies face up in their hand")
                                                   .format(seat=self._name(seat), led=led,
                                                           shown=shown[0]))
        voids = r["voids"][seat]
        if suit in voids:
            self.revokes.append({"round": len(self.history) + 1, "seat": seat, "suit": suit,
                                 "trick": voids.pop(suit), "played_in": trick})
        if led is not None and suit != led:
            voids.setdefault(led, trick)

    def lead_suit(self, r: dict[str, Any]) -> str | None:
        if not r["trick"]:
            return None
        lead = r["trick"][0]
        return lead["suit"] if "suit" in lead else self.deck.suit(lead["card"])

    def on_reveal(self, event: dict[str, Any]) -> None:
        r = self._round()
        seat, card = event["seat"], event["card"]
        hidden = [p for p in r["trick"] if p["seat"] == seat and "card" not in p]
        if r["phase"] != "play" or not hidden:
            raise RuleViolation("reveal", _("{seat} has no face-down card to reveal")
                                            .format(seat=self._name(seat)))
        if len(r["trick"]) < len(self.seats):
            raise RuleViolation("reveal-early", _("The face-down card is revealed after the "
                                                "trick's other cards"))
        self._check_card(card)
        if self.deck.suit(card) != hidden[0]["suit"]:
            raise RuleViolation("reveal", _("{seat} played a face-down "
                                          "{suit} card, not {card}")
                                          .format(seat=self._name(seat), suit=hidden[0]['suit'],
                                                  card=card))
        self._check_unplayed(r, seat, card)
        hidden[0]["card"] = card
        del hidden[0]["face_down"], hidden[0]["suit"]
        r["played"][card] = self._trick_number(r)
        self._end_trick(r)

    def _end_trick(self, r: dict[str, Any]) -> None:
        cards = [p["card"] for p in r["trick"]]
        index = trick_winner(cards, r["hero"], r["trump"], self.deck, self.options["trump_order"])
        winner = r["trick"][index]["seat"]
        r["last_trick"] = {"number": self._trick_number(r), "cards": r["trick"],
                           "winner": winner}
        r["won"][winner] += 1
        r["collected"][winner].extend(cards)
        r["leader"] = winner
        r["trick"] = []
        if sum(r["won"]) == self.hand_size():
            self._end_round(r, winner)

    def _end_round(self, r: dict[str, Any], last_winner: int) -> None:
        active, n = r["active"], len(self.seats)
        haul = Haul(tricks=r["won"][active], cards=tuple(r["collected"][active]),
                    won_last=last_winner == active, prediction=r["prediction"])
        earned = hero_gold(r["hero"], haul, self.deck, n, self.options)
        if earned > 0:
            gold = [earned if seat == active else 0 for seat in range(n)]
        else:
            gold = [0 if seat == active else 1 for seat in range(n)]
        r["phase"] = "over"
        self.history.append({"active": active, "hero": r["hero"], "trump": r["trump"],
                             "tricks": list(r["won"]), "gold": gold})
