"""Property tests: random legal games from random deals, random junk events, secrecy."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.bundles.deathtrap.rules.engine import Deathtrap
from companion.bundles.deathtrap.rules.sim import random_game
from companion.errors import CompanionError

OPTIONS = st.fixed_dictionaries({}, optional={
    "rounds": st.integers(1, 4),
    "first_dealer": st.integers(0, 3),
    "dealer_rotates": st.booleans(),
    "pig_discard": st.sampled_from(["creature", "any"]),
    "pig_default_lead": st.sampled_from(["left", "holder"]),
    "wilds_alone_value": st.integers(0, 14),
    "equal_beats": st.booleans(),
    "pass_locks_out": st.booleans(),
    "exchange": st.booleans(),
})
PRIVATE_KEYS = {"exchange", "prompt", "prompts"}


def new_game(header: dict) -> Deathtrap:
    return Deathtrap(header["seats"], header["seed"], header["options"])


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), seats=st.integers(4, 8), options=OPTIONS)
def test_random_legal_games_rank_every_seat_once_per_round(seed, seats, options):
    header, events = random_game(seed, seats, **options)
    game = new_game(header)
    for event in events:
        game.apply(event)
    rounds = options.get("rounds", 4)
    assert game.finished
    orders = game.view(None)["finish_order"]
    assert len(orders) == rounds == len(game.rounds())
    for order, points in zip(orders, game.rounds(), strict=True):
        assert sorted(order) == list(range(seats))
        assert sum(points) == seats * (seats + 1) // 2
        assert [points[seat] for seat in order] == list(range(seats, 0, -1))
    totals = game.totals()
    assert totals == [sum(r[seat] for r in game.rounds()) for seat in range(seats)]
    assert game.winners() == [s for s in range(seats) if totals[s] == max(totals)]


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32), seats=st.integers(4, 8))
def test_the_simulation_is_deterministic(seed, seats):
    assert random_game(seed, seats) == random_game(seed, seats)


JUNK = st.one_of(
    st.fixed_dictionaries({"type": st.just("play"), "seat": st.integers(-1, 8),
                           "cards": st.lists(st.sampled_from(
                               ["orc", "troll", "bloodbeast", "chaindog", "red-lotus",
                                "killing-machine", "exploding-pig", "goblin"]), max_size=4)}),
    st.fixed_dictionaries({"type": st.just("pass"), "seat": st.integers(0, 7)}),
    st.fixed_dictionaries({"type": st.just("deal")},
                          optional={"counts": st.lists(st.integers(0, 30), max_size=8)}),
    st.fixed_dictionaries({"type": st.just("pig"), "seat": st.integers(0, 7),
                           "discard": st.sampled_from(["orc", "chaindog", "exploding-pig"])}),
)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**16), seats=st.integers(4, 8), cut=st.floats(0, 1),
       junk=st.lists(JUNK, min_size=1, max_size=6))
def test_any_event_is_applied_or_refused_with_the_state_unchanged(seed, seats, cut, junk):
    header, events = random_game(seed, seats)
    game = new_game(header)
    for event in events[:int(cut * len(events))]:
        game.apply(event)
    for event in junk:
        before = (game.referee_view(), [game.view(s) for s in range(seats)])
        try:
            game.apply(event)
        except CompanionError as error:
            assert str(error)
            assert (game.referee_view(), [game.view(s) for s in range(seats)]) == before
        assert sum(game.view(None)["counts"]) <= game.pack.size


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32), seats=st.integers(4, 8))
def test_exchange_prompts_never_reach_the_public_view_or_other_seats(seed, seats):
    header, events = random_game(seed, seats)
    game = new_game(header)
    for event in events:
        game.apply(event)
        public = game.view(None)
        assert not PRIVATE_KEYS & set(public)
        assert "Give" not in json.dumps(public) and "Take" not in json.dumps(public)
        for seat in range(seats):
            mine = game.view(seat)["exchange"]
            assert all(seat in (e["from"], e["to"]) for e in mine)
            assert (game.view(seat)["prompt"] is None) == (not mine)
