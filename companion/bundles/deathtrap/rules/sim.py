"""Random complete, legal Deathtrap Dungeon games: real shuffled hands, random choices.

The simulation holds the hands the companion never sees and keeps its own account of the
rules (turns, hands, going out), so replaying its events through the engine is an
independent check of both. Same seed, same game.

>>> header, events = random_game(7, 4)
>>> header["game"], events[0]["type"], events[-1]["type"] in ("play", "pass")
('deathtrap', 'deal', True)
"""

from __future__ import annotations

import random
from typing import Any

from companion.bundles.deathtrap.rules.deck import (
    EXPLODING_PIG,
    KILLING_MACHINE,
    SPECIALS,
    WILDS,
    Pack,
)
from companion.bundles.deathtrap.rules.engine import Deathtrap
from companion.games.sim import seat_names

PASS_ANYWAY = 0.2      # a player who could follow passes anyway ("to save them")
KILLING_MOMENT = 0.03  # chance, before each action, that the Killing Machine's holder plays it


class _Round:
    """One round at the table, seen from above: every hand, whose turn, the set to beat."""

    def __init__(self, rnd: random.Random, pack: Pack, options: dict[str, Any],
                 hands: list[list[str]]) -> None:
        self.rnd, self.pack, self.options, self.hands = rnd, pack, options, hands
        self.order: list[int] = []
        self.turn = 0
        self.to_beat: tuple[int, int, int] | None = None  # seat, count, value
        self.passed: list[int] = []
        self.events: list[dict[str, Any]] = []

    def holding(self) -> list[int]:
        return [seat for seat, hand in enumerate(self.hands) if hand]

    def next_with_cards(self, seat: int, skip: tuple[int, ...] | list[int] = ()) -> int:
        seats = len(self.hands)
        for step in range(1, seats + 1):
            other = (seat + step) % seats
            if self.hands[other] and other not in skip:
                return other
        raise AssertionError("a round in play always has two seats holding cards")

    def discard(self, seat: int, cards: list[str]) -> bool:
        """Remove cards from a hand; True when the round is over."""
        for card in cards:
            self.hands[seat].remove(card)
        if not self.hands[seat]:
            self.order.append(seat)
        left = self.holding()
        if len(left) == 1:
            self.order.append(left[0])
            return True
        return False

    def new_hand(self, leader: int) -> None:
        self.turn, self.to_beat, self.passed = leader, None, []

    def play_pig(self) -> bool:
        holder = next(s for s, hand in enumerate(self.hands) if EXPLODING_PIG in hand)
        hand = self.hands[holder]
        if self.options["pig_discard"] == "creature":
            choices = [card for card in hand if self.pack.is_creature(card)]
        else:
            choices = [card for card in hand if card != EXPLODING_PIG]
        discard = self.rnd.choice(choices)
        event: dict[str, Any] = {"type": "pig", "seat": holder, "discard": discard}
        chosen = self.rnd.random() < 0.5
        if chosen:
            event["lead"] = self.rnd.randrange(len(self.hands))
        self.events.append(event)
        over = self.discard(holder, [EXPLODING_PIG, discard])
        if chosen:
            lead = event["lead"]
        elif self.options["pig_default_lead"] == "holder":
            lead = holder
        else:
            lead = self.next_with_cards(holder)
        self.new_hand(lead if self.hands[lead] else self.next_with_cards(lead))
        return over

    def sets(self, seat: int) -> list[list[str]]:
        """Every set ``seat`` may legally play now (to lead, or to beat the set on the table)."""
        hand = self.hands[seat]
        wilds = [card for card in hand if card in WILDS]
        groups: dict[str, int] = {}
        for card in hand:
            if self.pack.is_creature(card):
                groups[card] = groups.get(card, 0) + 1
        if self.to_beat is None:
            found = [[c] * k for c, n in groups.items() for k in range(1, n + 1)]
            found += [[c] * n + wilds for c, n in groups.items() if wilds]
            if wilds and not found:
                found.append(wilds)
            return found
        _, count, value = self.to_beat
        beats = (value.__le__ if self.options["equal_beats"] else value.__lt__)
        found = []
        for creature, have in groups.items():
            if beats(self.pack.value[creature]) and have + len(wilds) >= count:
                mine = min(have, count)
                found.append([creature] * mine + wilds[:count - mine])
        if len(wilds) >= count and beats(self.options["wilds_alone_value"]):
            found.append(wilds[:count])
        return found

    def act(self) -> bool:
        """One event at the table; True when the round is over."""
        holder = next((s for s, hand in enumerate(self.hands) if KILLING_MACHINE in hand), None)
        seat = self.turn
        only_machine = self.hands[seat] == [KILLING_MACHINE]
        if holder is not None and (self.rnd.random() < KILLING_MOMENT or only_machine):
            return self.killing_machine(holder if not only_machine else seat)
        sets = self.sets(seat)
        if sets and (self.to_beat is None or self.rnd.random() >= PASS_ANYWAY):
            cards = self.rnd.choice(sets)
            self.events.append({"type": "play", "seat": seat, "cards": cards})
            over = self.discard(seat, cards)
            self.to_beat = (seat, len(cards), self.value(cards))
            if not self.options["pass_locks_out"]:
                self.passed = []
        else:
            self.events.append({"type": "pass", "seat": seat})
            self.passed.append(seat)
            over = False
        if not over:
            self.advance(seat)
        return over

    def killing_machine(self, seat: int) -> bool:
        self.events.append({"type": "play", "seat": seat, "cards": [KILLING_MACHINE]})
        over = self.discard(seat, [KILLING_MACHINE])
        if not over:
            self.new_hand(seat if self.hands[seat] else self.next_with_cards(seat))
        return over

    def value(self, cards: list[str]) -> int:
        creature = next((card for card in cards if card not in WILDS), None)
        return self.pack.value[creature] if creature else self.options["wilds_alone_value"]

    def advance(self, seat: int) -> None:
        assert self.to_beat is not None
        setter = self.to_beat[0]
        others = [s for s in self.holding() if s != setter and s not in self.passed]
        if not others:
            self.new_hand(setter if self.hands[setter] else self.next_with_cards(setter))
        else:
            self.turn = self.next_with_cards(seat, self.passed)


def _exchange(rnd: random.Random, pack: Pack, hands: list[list[str]], order: list[int]) -> None:
    """Total Wimp -> Big Hero: 2 highest creatures, 2 any back; Wimp -> Hero: 1 and 1."""
    for giver, taker, count in ((order[-1], order[0], 2), (order[-2], order[1], 1)):
        creatures = sorted((c for c in hands[giver] if c not in SPECIALS),
                           key=lambda card: pack.value[card], reverse=True)
        given = creatures[:count]
        back = rnd.sample(hands[taker], len(given))
        for card in given:
            hands[giver].remove(card)
        for card in back:
            hands[taker].remove(card)
        hands[taker] += given
        hands[giver] += back


def random_game(seed: int, seats: int, **options: Any
                ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A table-log header and the events of one complete random legal game."""
    rnd = random.Random(seed)
    resolved = Deathtrap.resolve_options(options)
    pack = Pack.from_option(resolved["deck"])
    cards = [card for card, copies in pack.copies.items() for _ in range(copies)]
    header = {"game": "deathtrap", "seats": seat_names(seats), "seed": seed,
              "options": dict(options)}
    events: list[dict[str, Any]] = []
    dealer = resolved["first_dealer"]
    order: list[int] = []
    for number in range(resolved["rounds"]):
        if number:
            dealer = (dealer + int(resolved["dealer_rotates"])) % seats
        rnd.shuffle(cards)
        hands: list[list[str]] = [[] for _ in range(seats)]
        for index, card in enumerate(cards):
            hands[(dealer + 1 + index) % seats].append(card)
        if order and resolved["exchange"]:
            _exchange(rnd, pack, hands, order)
        deal: dict[str, Any] = {"type": "deal"}
        if rnd.random() < 0.2:
            deal["counts"] = [len(hand) for hand in hands]
        events.append(deal)
        table = _Round(rnd, pack, resolved, hands)
        over = table.play_pig()
        while not over:
            over = table.act()
        events += table.events
        order = table.order
    return header, events
