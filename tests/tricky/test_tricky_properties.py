"""Property tests over random legal Tricky Dungeon games (companion.bundles.tricky.rules.sim)."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.bundles.tricky.rules.engine import Tricky
from companion.bundles.tricky.rules.sim import random_game
from companion.errors import CompanionError

VARIANTS = ("standard", "longer", "race", "guild", "random")
games = st.tuples(st.integers(0, 10**6), st.integers(2, 4), st.sampled_from(VARIANTS),
                  st.sampled_from("ABC"))

# The shipped deck, restated from docs/rulings.md for an independent trick judge.
STARS = {"red": 1, "blue": 2, "yellow": 3, "green": 4}
POTIONS = {"red-2", "blue-5", "yellow-1", "green-6"}
SYMBOL_VALUES = {"spells": {3, 4}, "torches": {0}}


def split(card: str) -> tuple[str, int]:
    suit, value = card.rsplit("-", 1)
    return suit, int(value)


def judge(cards: list[str], hero: str, trump: dict[str, Any] | None) -> int:
    """The winning index, worked out straight from the rule text and docs/rulings.md."""
    def is_trump(card: str) -> bool:
        suit, value = split(card)
        if not trump:
            return False
        if "suit" in trump:
            return suit == trump["suit"]
        if "value" in trump:
            return value == trump["value"]
        if trump["symbol"] == "potions":
            return card in POTIONS
        return value in SYMBOL_VALUES[trump["symbol"]]

    trumps = [i for i, card in enumerate(cards) if is_trump(card)]
    if trumps:
        return max(trumps, key=lambda i: (split(cards[i])[1], STARS[split(cards[i])[0]]))
    led = split(cards[0])[0]
    followers = [i for i, card in enumerate(cards) if split(card)[0] == led]
    by_value = sorted(followers, key=lambda i: split(cards[i])[1])
    if hero == "nymph":
        return by_value[0]
    if hero == "fairy-scout" and len(by_value) > 1:
        return by_value[-2]
    return by_value[-1]


def replay(header: dict[str, Any], events: list[dict[str, Any]]) -> Tricky:
    game = Tricky(header["seats"], header["seed"], header["options"])
    for event in events:
        game.apply(event)
    return game


@settings(max_examples=30, deadline=None)
@given(games)
def test_every_trick_has_one_winner_who_leads_next(params: tuple[int, int, str, str]) -> None:
    seed, seats, variant, hero_set = params
    header, events = random_game(seed, seats, variant=variant, hero_set=hero_set)
    game = Tricky(header["seats"], header["seed"], header["options"])
    hand = game.hand_size()
    seen_tricks = 0
    must_lead: int | None = None
    for event in events:
        if event["type"] == "play" and must_lead is not None:
            assert event["seat"] == must_lead
            must_lead = None
        before = game.view(None)
        game.apply(event)
        after = game.view(None)
        if after["last_trick"] is None or after["last_trick"] == before["last_trick"]:
            continue
        seen_tricks += 1
        trick = after["last_trick"]
        played = [entry["seat"] for entry in trick["cards"]]
        assert sorted(played) == list(range(seats))
        cards = [entry["card"] for entry in trick["cards"]]
        winner = played[judge(cards, after["hero"], after["trump"])]
        assert trick["winner"] == winner
        assert sum(after["won"]) == trick["number"]
        # Exactly one seat gained exactly one trick: the winner.
        gained = [a - b for a, b in zip(after["won"], before["won"], strict=True)]
        assert gained == [int(seat == winner) for seat in range(seats)]
        if trick["number"] < hand:
            must_lead = winner
            assert after["to_play"] == winner
    assert game.finished
    assert seen_tricks == hand * len(game.rounds())
    assert game.view(None)["revokes"] == []


@settings(max_examples=30, deadline=None)
@given(games)
def test_gold_and_totals(params: tuple[int, int, str, str]) -> None:
    seed, seats, variant, hero_set = params
    header, events = random_game(seed, seats, variant=variant, hero_set=hero_set)
    game = replay(header, events)
    view = game.view(None)
    for number, (gold, done) in enumerate(zip(game.rounds(), view["heroes_played"],
                                              strict=True)):
        active = done["active"]
        assert active == (number + events[0].get("active", 0)) % seats
        others = [g for seat, g in enumerate(gold) if seat != active]
        assert (gold[active] > 0 and not any(others)) or (gold[active] == 0
                                                          and set(others) == {1})
        assert sum(view["tricks"][number]) == game.hand_size()
    assert game.totals() == [sum(col) for col in zip(*game.rounds(), strict=True)]
    target = game.options["race_target"]
    if variant == "race":
        assert max(game.totals()) >= target
        before_last = [t - g for t, g in zip(game.totals(), game.rounds()[-1], strict=True)]
        assert max(before_last) < target
    else:
        assert len(game.rounds()) == game.rounds_to_play()
    assert game.winners() == [s for s, t in enumerate(game.totals()) if t == max(game.totals())]
    if variant == "guild":
        for used in view["heroes_used"]:
            assert len(used) == len(set(used))
    json.dumps(game.view(None)), json.dumps(game.referee_view())


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 10**6), st.integers(2, 4))
def test_same_seed_same_game(seed: int, seats: int) -> None:
    first = random_game(seed, seats, variant="random")
    assert first == random_game(seed, seats, variant="random")
    assert replay(*first).referee_view() == replay(*first).referee_view()


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**6), st.integers(2, 4), st.data())
def test_illegal_events_change_nothing(seed: int, seats: int, data: st.DataObject) -> None:
    header, events = random_game(seed, seats, variant=data.draw(st.sampled_from(VARIANTS)))
    cut = data.draw(st.integers(1, len(events) - 1))
    game = replay(header, events[:cut])
    played = [e["card"] for e in events[:cut] if e["type"] == "play" and "card" in e]
    junk = [
        {"type": "play", "seat": data.draw(st.integers(0, seats - 1)),
         "card": data.draw(st.sampled_from(played)) if played else "red-9"},
        {"type": "hero", "seat": 0, "hero": "paladin"},
        {"type": "exchange", "seat": data.draw(st.integers(0, seats - 1)), "count": 99},
        {"type": "predict", "seat": 0, "count": 99},
        {"type": "reveal", "seat": data.draw(st.integers(0, seats - 1)), "card": "red-9"},
    ]
    event = data.draw(st.sampled_from(junk))
    views = [game.view(None), game.referee_view(), *(game.view(s) for s in range(seats))]
    before = copy.deepcopy(views)
    try:
        game.apply(event)
    except CompanionError:
        after = [game.view(None), game.referee_view(), *(game.view(s) for s in range(seats))]
        assert after == before
    else:
        # Only a play can be legal: a card played in an earlier round, by the seat to play.
        assert event["type"] == "play"


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 10**6), st.integers(2, 4), st.integers(0, 2))
def test_random_dungeon_hides_the_pile(seed: int, seats: int, refusals: int) -> None:
    game = Tricky(["Ann", "Bob", "Cy", "Dee"][:seats], seed, {"variant": "random"})
    game.apply({"type": "deal"})
    pile = game.referee_view()["hero_pile"]
    for hero in pile[:refusals]:
        game.apply({"type": "hero", "seat": 0, "hero": hero, "refuse": True})
    for seat in (None, *range(seats)):
        text = json.dumps(game.view(seat))
        assert pile[refusals] in text
        assert not any(hero in text for hero in pile[refusals + 1:])


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_simulated_games_finish(seats: int) -> None:
    header, events = random_game(1, seats)
    assert header == {"game": "tricky", "seats": ["Ann", "Bob", "Cy", "Dee"][:seats],
                      "seed": 1, "options": {}}
    assert replay(header, events).finished
