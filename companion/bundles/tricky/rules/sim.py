"""Random legal games of Tricky Dungeon, for property tests, the benchmark and the demo.

The simulator plays what the companion cannot see (the shuffle, the hands, the exchanges)
with ``random.Random(seed)`` and checks every event against the engine as it goes.

Example::

    header, events = random_game(3, seats=4, variant="random")
"""

from __future__ import annotations

import random
from typing import Any

from companion.bundles.tricky.rules.engine import TWO_PLAYER_EXCHANGE, Tricky
from companion.bundles.tricky.rules.heroes import (
    CHOSEN_TRUMP,
    NEIGHBOUR_TRUMP,
    TRICKSTER_OPEN_CARDS,
)
from companion.bundles.tricky.rules.round import OVER, Round
from companion.games.sim import seat_names


def random_game(seed: int, seats: int, **options: Any) -> tuple[dict[str, Any], list[dict]]:
    """A table-log header and the events of one complete random legal game."""
    names = seat_names(seats)
    header = {"game": "tricky", "seats": names, "seed": seed, "options": dict(options)}
    game = Tricky(names, seed, options)
    player = _Player(game, random.Random(seed))
    while not game.finished:
        player.play_round()
    return header, player.events


class _Player:
    """Plays rounds for every seat, holding the hands the companion never sees."""

    def __init__(self, game: Tricky, rand: random.Random) -> None:
        self.game, self.rand, self.deck = game, rand, game.deck
        self.events: list[dict[str, Any]] = []
        self.hands: list[list[str]] = []
        self.pile: list[str] = []
        self.face_down = ""

    def act(self, event: dict[str, Any]) -> None:
        self.game.apply(event)
        self.events.append(event)

    def play_round(self) -> None:
        game, rand, n = self.game, self.rand, len(self.game.seats)
        self.act({"type": "deal"})
        cards = list(self.deck.cards)
        rand.shuffle(cards)
        size = game.hand_size()
        self.hands = [cards[i * size:(i + 1) * size] for i in range(n)]
        self.pile = cards[n * size:]
        assert game.current is not None
        active = game.current.active
        hero = self.choose_hero(active)
        if hero == "trickster":
            opened, self.pile = self.pile[:TRICKSTER_OPEN_CARDS], self.pile[TRICKSTER_OPEN_CARDS:]
            self.act({"type": "open_cards", "seat": active, "cards": opened})
            self.hands[active].extend(opened)
        if hero in NEIGHBOUR_TRUMP:
            self.act({"type": "trump", "seat": (active + 1) % n,
                      "suit": rand.choice(self.deck.suits)})
        self.exchange(active, n)
        if hero == "seer":
            self.act({"type": "predict", "seat": active, "count": rand.randint(0, size // 2)})
        while game.current.phase != OVER:
            self.play_card(game.current)

    def choose_hero(self, active: int) -> str:
        current = self.game.current
        assert current is not None
        if self.game.options["variant"] == "random":
            refusals = self.rand.randint(0, self.game.options["random_refusals"])
            for offer in current.offers[:refusals]:
                self.act({"type": "hero", "seat": active, "hero": offer, "refuse": True})
        hero = self.rand.choice(self.game.hero_choices(active))
        event: dict[str, Any] = {"type": "hero", "seat": active, "hero": hero}
        if CHOSEN_TRUMP.get(hero) == "suit":
            event["trump_suit"] = self.rand.choice(self.deck.suits)
        elif CHOSEN_TRUMP.get(hero) == "value":
            event["trump_value"] = self.rand.choice(self.deck.values)
        self.act(event)
        return hero

    def exchange(self, active: int, n: int) -> None:
        """The active player, then (2 players) the other, swap cards blind with the pile."""
        order = [active, (active + 1) % n] if n == 2 else [active]
        for seat in order:
            limit = self.game.exchange_limit(seat)
            if limit is None:
                return
            # Trickster's open cards stay on the table; 2 players keep their potions.
            hidden = self.hands[seat][:self.game.hand_size()]
            allowed = [c for c in hidden if n > 2 or not self.deck.is_potion(c)]
            count = self.rand.randint(0, min(limit, len(allowed), TWO_PLAYER_EXCHANGE))
            if count == 0 and self.rand.random() < 0.5:
                continue
            discards = self.rand.sample(allowed, count)
            event: dict[str, Any] = {"type": "exchange", "seat": seat, "count": count}
            # No empty list: at the table nothing discarded is an exchange without cards.
            if n == 2 and self.rand.random() < 0.5 and discards:
                event["cards"] = discards
            self.act(event)
            for card in discards:
                self.hands[seat].remove(card)
            self.hands[seat].extend(self.pile[:count])
            self.pile = self.pile[count:]

    def play_card(self, current: Round) -> None:
        seat = self.game.to_play()
        assert seat is not None
        if current.trick_full():
            self.act({"type": "reveal", "seat": seat, "card": self.face_down})
            return
        hand = self.hands[seat]
        led = current.lead_suit(self.deck)
        legal = [card for card in hand if self.deck.suit(card) == led] or hand
        card = self.rand.choice(legal)
        hand.remove(card)
        if current.hero == "ninja" and seat == current.active:
            self.face_down = card
            self.act({"type": "play", "seat": seat, "suit": self.deck.suit(card),
                      "face_down": True})
        else:
            self.act({"type": "play", "seat": seat, "card": card})
