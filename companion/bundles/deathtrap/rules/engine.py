"""Deathtrap Dungeon: The Card Game, refereed from what is played and what is pressed.

The companion never sees hands. It knows the hand counts (from the deal), sees every set
played face up (the camera) and every pass (a button), and so checks the climbing rules:
same number of cards, strictly higher value, whose turn it is, the Killing Machine at any
moment, players going out, the finishing order and its points (N + 1 - k).

Example::

    game = Deathtrap(["Ann", "Bob", "Cy", "Dee"], seed=1, options={})
    game.apply({"type": "deal"})                     # dealer seat 0: 20/21/21/20 cards
    game.apply({"type": "pig", "seat": 2, "discard": "orc"})   # Dee (left of Cy) leads
    game.apply({"type": "play", "seat": 3, "cards": ["skeleton", "skeleton"]})
    game.apply({"type": "play", "seat": 0, "cards": ["orc", "chaindog"]})
    # RuleViolation: Orc (2) does not beat Skeleton (3) [rule: follow-higher]
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from companion.bundles.deathtrap.rules import view as deathtrap_view
from companion.bundles.deathtrap.rules.deck import (
    EXPLODING_PIG,
    KILLING_MACHINE,
    WILDS,
    Pack,
)
from companion.bundles.deathtrap.rules.options import EVENTS, OPTIONS
from companion.bundles.deathtrap.rules.view import TITLES  # noqa: F401 (re-exported)
from companion.errors import EventError, OptionError, RuleViolation
from companion.games.base import Field, Game
from companion.i18n import _, ngettext


class Deathtrap(Game):
    name = "deathtrap"
    title = "Deathtrap Dungeon: The Card Game"
    PLAYED = ("Each round the whole pack is dealt; from round 2 on some cards are exchanged "
              "first. The holder of the Exploding Pig discards it with one monster and names "
              "who leads. The leader puts down a set of one creature (wilds may join it); "
              "clockwise, each player beats it with as many cards of a higher creature, or "
              "passes. When all others have passed, the last set's player leads again. The "
              "first to be rid of their cards is the Big Hero, the last one left the Total "
              "Wimp; points follow the order of going out, over 4 rounds.")
    COMPANION = ("Keeps count of the cards each seat holds (never the cards themselves), "
                 "checks every set against the set to beat, keeps the turn, records who goes "
                 "out, gives the titles and points, and shows the exchange before rounds 2-4 "
                 "on the seats' own screens. Sets are read by the camera or entered with the "
                 "dial; a pass is a tap of the seat's button.")
    min_seats = 4
    max_seats = 8
    OPTIONS = OPTIONS
    EVENTS: ClassVar[dict[str, dict[str, Field]]] = EVENTS

    def setup(self) -> None:
        seats = len(self.seats)
        self.pack = Pack.from_option(self.options["deck"])
        if self.pack.size < 2 * seats:
            raise OptionError(f"option 'deck': {self.pack.size} cards are too few for "
                              f"{seats} seats (at least 2 each)")
        if self.options["first_dealer"] >= seats:
            raise OptionError(f"option 'first_dealer': seats are 0 to {seats - 1}, "
                              f"got {self.options['first_dealer']}")
        self.round = 0
        self.phase = "deal"  # deal | exchange | pig | play | over
        self.dealer: int | None = None
        self.counts = [0] * seats
        self.pig: dict[str, Any] | None = None
        self.leader: int | None = None
        self.turn: int | None = None
        self.to_beat: dict[str, Any] | None = None
        self.passed: list[int] = []
        self.played: dict[str, int] = {}
        self.last: dict[str, Any] | None = None
        self.order: list[int] = []  # the round in play: seats in the order they went out
        # Finished rounds, each a tuple of seats (first out first): a tuple, shared by copies.
        self.history: tuple[tuple[int, ...], ...] = ()

    # --- events ------------------------------------------------------------------------

    def on_deal(self, event: dict[str, Any]) -> None:
        if self.phase == "over":
            raise RuleViolation("rounds", _("the game is over: all {round} rounds were played")
                                            .format(round=self.round))
        if self.phase in ("pig", "play"):
            raise RuleViolation("deal", _("round {round} is still being played: it ends "
                                        "when only one player holds cards")
                                        .format(round=self.round))
        seats = len(self.seats)
        if "dealer" in event:
            dealer = event["dealer"]
        elif self.dealer is None:
            dealer = self.options["first_dealer"]
        else:
            dealer = (self.dealer + int(self.options["dealer_rotates"])) % seats
        if "counts" in event:
            counts = list(event["counts"])
            if len(counts) != seats:
                raise RuleViolation("deal", _("counts: {seats} hand counts needed (one per seat), "
                                            "{count} given").format(seats=seats, count=len(counts)))
            if sum(counts) != self.pack.size:
                raise RuleViolation("deal", _("the counts add up to {counts} cards, the "
                                            "whole pack of {size} is dealt")
                                            .format(counts=sum(counts), size=self.pack.size))
        else:
            counts = dealt_counts(self.pack.size, seats, dealer)
        self.round += 1
        self.phase = "pig"
        self.dealer = dealer
        self.counts = counts
        self.pig = None
        self.played = {}
        self.last = None
        self.order = []
        self._new_hand(None)

    def on_pig(self, event: dict[str, Any]) -> None:
        seat, discard = event["seat"], event["discard"]
        if self.phase == "play":
            raise RuleViolation("pig", _("the Exploding Pig was already played this round "
                                       "(by {pig})")
                                       .format(pig=self.seats[self.pig["seat"]] if self.pig
                                               else "?"))
        self._check_round_open()
        self._check_known(discard, "discard")
        if discard == EXPLODING_PIG:
            raise RuleViolation("pig", _("the Exploding Pig discards one other card with it"))
        if self.options["pig_discard"] == "creature" and not self.pack.is_creature(discard):
            raise RuleViolation("pig", _("the Exploding Pig kills a monster: "
                                       "{card} is a special card")
                                       .format(card=self.pack.title(discard)))
        held = self.counts[seat]
        if held < 2:
            raise RuleViolation("pig", ngettext(
                "{player} holds {n} card: the Exploding Pig and one more card are needed",
                "{player} holds {n} cards: the Exploding Pig and one more card are needed",
                held).format(player=self.seats[seat], n=held))
        self._check_copies([EXPLODING_PIG, discard])
        lead = event.get("lead")
        self._discard(seat, [EXPLODING_PIG, discard])
        if lead is None:
            lead = seat if self.options["pig_default_lead"] == "holder" \
                else self._next_with_cards(seat)
        if self.counts[lead] == 0:
            # The holder went out with the Pig: the lead passes clockwise.
            lead = self._next_with_cards(lead)
        self.pig = dict(seat=seat, discard=discard, lead=lead)
        self.last = dict(seat=seat, action="pig", cards=[EXPLODING_PIG, discard])
        self.phase = "play"
        self._new_hand(lead)

    def on_play(self, event: dict[str, Any]) -> None:
        seat, cards = event["seat"], event["cards"]
        if self.phase == "pig":
            raise RuleViolation("pig-first", _("the Exploding Pig opens the round: its holder "
                                             "plays it before any set"))
        self._check_round_open()
        if not cards:
            raise RuleViolation("set", _("a play needs at least one card"))
        for card in cards:
            self._check_known(card, "cards")
        self._check_holds(seat, len(cards))
        if EXPLODING_PIG in cards:
            raise RuleViolation("pig", _("the Exploding Pig is played only before the first hand "
                                       "(a pig event)"))
        if KILLING_MACHINE in cards:
            self._killing_machine(seat, cards)
            return
        self._check_turn(seat)
        creatures = sorted({card for card in cards if card not in WILDS},
                           key=lambda card: self.pack.value[card])
        if len(creatures) > 1:
            names = " and ".join(self.pack.title(card) for card in creatures)
            raise RuleViolation("set", _("a set is one creature type (plus wilds): {names} given")
                                         .format(names=names))
        self._check_copies(cards)
        label, value = self._set_label(creatures[0] if creatures else None, cards)
        beaten = self.to_beat
        if beaten is not None:
            needed = len(beaten["cards"])
            if len(cards) != needed:
                raise RuleViolation("same-count", ngettext(
                    "{n} card needed, {given} given", "{n} cards needed, {given} given",
                    needed).format(n=needed, given=len(cards)))
            if value < beaten["value"] or (value == beaten["value"]
                                           and not self.options["equal_beats"]):
                why = _(": equal never beats") if value == beaten["value"] else ""
                raise RuleViolation("follow-higher", _("{label} ({value}) does not beat "
                                                     "{name} ({value2}){why}")
                                                     .format(label=label, value=value,
                                                             name=beaten["name"],
                                                             value2=beaten["value"], why=why))
        self.to_beat = dict(seat=seat, cards=list(cards), value=value, name=label)
        self.last = dict(seat=seat, action="set", cards=list(cards))
        if not self.options["pass_locks_out"]:
            self.passed = []
        self._discard(seat, cards)
        if self.phase == "play":
            self._next_turn(seat)

    def on_pass(self, event: dict[str, Any]) -> None:
        seat = event["seat"]
        if self.phase == "pig":
            raise RuleViolation("pig-first", _("the Exploding Pig opens the round: nothing is "
                                             "played or passed before it"))
        self._check_round_open()
        self._check_holds(seat, 0)
        self._check_turn(seat)
        if self.to_beat is None:
            raise RuleViolation("lead", _("{player} leads this hand and must play a set: "
                                        "only followers may pass").format(player=self.seats[seat]))
        self.passed.append(seat)
        self.last = dict(seat=seat, action="pass", cards=[])
        self._next_turn(seat)

    def events_now(self, seat: int) -> list[str]:
        """A deal between rounds; in a round, the pig from a seat holding two cards or more
        before the play, then a play from any seat holding cards (the Killing Machine is
        played out of turn) and a pass from the seat to play when there is a set to beat."""
        if self.phase in ("deal", "exchange"):
            return ["deal"]
        if self.phase == "over" or self.counts[seat] == 0:
            return []
        if self.phase == "pig":
            return ["pig"] if self.counts[seat] >= 2 else []
        return ["play", "pass"] if seat == self.turn and self.to_beat is not None else ["play"]

    # --- checks ------------------------------------------------------------------------

    def _check_round_open(self) -> None:
        if self.phase == "over":
            raise RuleViolation("rounds", _("the game is over: all {round} rounds were played")
                                            .format(round=self.round))
        if self.phase in ("deal", "exchange"):
            raise RuleViolation("deal", _("no round in progress: a deal starts round "
                                        "{round}").format(round=self.round + 1))

    def _check_known(self, card: str, field: str) -> None:
        if not self.pack.known(card):
            raise EventError(f"field '{field}': unknown card '{card}' "
                             f"(cards: {', '.join(self.pack.copies)})")

    def _check_holds(self, seat: int, needed: int) -> None:
        held = self.counts[seat]
        if held == 0:
            raise RuleViolation("hand-count", _("{player} has no cards left")
                                                .format(player=self.seats[seat]))
        if needed > held:
            raise RuleViolation("hand-count", ngettext(
                "{player} holds {n} card, {given} given", "{player} holds {n} cards, {given} given",
                held).format(player=self.seats[seat], n=held, given=needed))

    def _check_turn(self, seat: int) -> None:
        if seat != self.turn:
            raise RuleViolation("turn", _("it is {player}'s turn, not {other}'s").format(
                player=self.seats[self.turn], other=self.seats[seat])
                                if self.turn is not None else _("it is nobody's turn"))

    def _check_copies(self, cards: list[str]) -> None:
        """The pack holds only so many of each card: more means a misread or a wrong event."""
        for card in set(cards):
            copies, before = self.pack.copies[card], self.played.get(card, 0)
            if before + cards.count(card) > copies:
                name = self.pack.title(card)
                if copies == 1:
                    raise RuleViolation("copies", (
                        _("{card} was already played this round") if before
                        else _("the pack has only 1 {card}")).format(card=name))
                raise RuleViolation("copies", ngettext(
                    "the pack has {n} {card} card, {before} already played this round: "
                    "{more} more cannot be",
                    "the pack has {n} {card} cards, {before} already played this round: "
                    "{more} more cannot be", copies).format(
                        n=copies, card=name, before=before, more=cards.count(card)))

    # --- what happens ------------------------------------------------------------------

    def _set_label(self, creature: str | None, cards: list[str]) -> tuple[str, int]:
        """How players name a set, and its value (wilds alone: ``wilds_alone_value``)."""
        if creature is not None:
            return self.pack.title(creature), self.pack.value[creature]
        names = " and ".join(self.pack.title(card) for card in dict.fromkeys(cards))
        return names, self.options["wilds_alone_value"]

    def _killing_machine(self, seat: int, cards: list[str]) -> None:
        if len(cards) > 1:
            raise RuleViolation("killing-machine", _("The Killing Machine is played alone"))
        self._check_copies(cards)
        self._discard(seat, cards)
        self.last = dict(seat=seat, action="killing-machine", cards=list(cards))
        if self.phase == "play":
            self._new_hand(seat if self.counts[seat] else self._next_with_cards(seat))

    def _discard(self, seat: int, cards: list[str]) -> None:
        """Cards leave a hand; a seat reaching 0 is out, and one left holding cards ends it."""
        for card in cards:
            self.played[card] = self.played.get(card, 0) + 1
        self.counts[seat] -= len(cards)
        if self.counts[seat] == 0:
            self.order.append(seat)
        holding = [s for s, count in enumerate(self.counts) if count]
        if len(holding) == 1:
            self._end_round(holding[0])

    def _end_round(self, last: int) -> None:
        self.history = (*self.history, (*self.order, last))
        self.order = []
        if self.round >= self.options["rounds"]:
            self.phase = "over"
        else:
            self.phase = "exchange" if self.options["exchange"] else "deal"
        self._new_hand(None)

    def _new_hand(self, leader: int | None) -> None:
        self.leader = leader
        self.turn = leader
        self.to_beat = None
        self.passed = []

    def _next_turn(self, seat: int) -> None:
        """The hand ends once all others holding cards have passed; else play goes clockwise."""
        setter = self.to_beat["seat"] if self.to_beat else seat
        waiting = [s for s, count in enumerate(self.counts)
                   if count and s != setter and s not in self.passed]
        if not waiting:
            self._new_hand(setter if self.counts[setter] else self._next_with_cards(setter))
        else:
            self.turn = self._next_with_cards(seat, skip=self.passed)

    def _next_with_cards(self, seat: int, skip: list[int] | None = None) -> int:
        seats = len(self.seats)
        for step in range(1, seats + 1):
            other = (seat + step) % seats
            if self.counts[other] and (skip is None or other not in skip):
                return other
        raise AssertionError("a round in play always has two seats holding cards")

    # --- views -------------------------------------------------------------------------

    def exchanges(self) -> list[dict[str, Any]]:
        """Who gives what to whom before the next deal (empty when no exchange is due)."""
        return deathtrap_view.exchanges(self)

    def titles(self) -> list[str | None]:
        """The titles of the latest finished round, per seat (None: no title)."""
        return deathtrap_view.titles(self)

    def view(self, seat: int | None) -> dict[str, Any]:
        return deathtrap_view.view(self, seat)

    def prompt(self, seat: int, mine: list[dict[str, Any]]) -> str | None:
        """The private exchange instruction for ``seat``'s screen."""
        return deathtrap_view.prompt(self, seat, mine)

    def referee_view(self) -> dict[str, Any]:
        return deathtrap_view.referee_view(self)

    @property
    def finished(self) -> bool:
        return self.phase == "over"

    def totals(self) -> list[int]:
        return [sum(points) for points in zip(*self.rounds(), strict=True)] if self.history \
            else [0] * len(self.seats)

    def rounds(self) -> list[list[int]]:
        """Points per seat for each finished round: the k-th of N to go out scores N + 1 - k."""
        seats = len(self.seats)
        rounds = []
        for order in self.history:
            points = [0] * seats
            for place, seat in enumerate(order):
                points[seat] = seats - place
            rounds.append(points)
        return rounds

    FIGURES_TITLE = "Deathtrap: rounds as The Big Hero / The Total Wimp"

    @classmethod
    def figures_in_words(cls, mine: Mapping[str, Any]) -> str:
        return f"{mine['big_hero']} / {mine['total_wimp']}"

    def figures(self) -> dict[str, list[Any]]:
        """Rounds each seat ended as The Big Hero (first out) and The Total Wimp (last)."""
        return deathtrap_view.figures(self)

    def state_in_words(self, state: dict[str, Any]) -> list[str]:
        return deathtrap_view.state_in_words(self, state)

    def finish_order(self) -> list[list[int]]:
        """Per round, the seats in the order they went out (the round in play included)."""
        orders = [list(order) for order in self.history]
        if self.phase in ("pig", "play"):
            orders.append(list(self.order))
        return orders


def dealt_counts(size: int, seats: int, dealer: int) -> list[int]:
    """Hand sizes after dealing ``size`` cards one at a time, starting left of the dealer."""
    counts = [size // seats] * seats
    for step in range(size % seats):
        counts[(dealer + 1 + step) % seats] += 1
    return counts
