"""Properties of Rumble in the Dungeon over random legal games, maps and secrets."""

from __future__ import annotations

import copy
import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.bundles.rumble.rules.sim import random_game
from companion.errors import RuleViolation
from companion.games.registry import engine

Rumble = engine("rumble")
SEAT_NAMES = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo"]


@st.composite
def tables(draw):
    """Seats and options: the default dungeon or a random connected one."""
    seats = draw(st.integers(3, 6))
    options = {"deal_secrets": draw(st.booleans())}
    if draw(st.booleans()):
        count = draw(st.integers(2 * seats, 12))
        rooms = [f"R{i}" for i in range(count + draw(st.integers(0, 3)))]
        picks = random.Random(draw(st.integers(0, 10**6)))
        doors = {frozenset((rooms[i], picks.choice(rooms[:i]))) for i in range(1, len(rooms))}
        doors |= {frozenset(picks.sample(rooms, 2)) for _ in range(picks.randrange(6))}
        options["map"] = {"rooms": rooms, "doors": [sorted(d) for d in sorted(doors, key=sorted)],
                          "entry": rooms[0], "treasure": rooms[-1]}
        options["characters"] = [f"c{i}" for i in range(count)]
    return seats, options


def replay(header, events):
    game = Rumble(header["seats"], header["seed"], header["options"])
    for event in events:
        game.apply(event)
    return game


@settings(max_examples=80, deadline=None)
@given(tables(), st.integers(0, 10**9))
def test_every_random_adventure_ranks_each_character_once(table, seed):
    seats, options = table
    header, events = random_game(seed, seats, **options)
    game = replay(header, events)
    assert game.finished
    state = game.view(None)
    characters = game.options["characters"]
    assert len(state["rankings"]) == game.options["adventures"] == 3
    for adventure, ranking in enumerate(state["rankings"]):
        assert sorted(ranking) == sorted(characters)
        escaper = state["escaped"][adventure]
        exits = state["exits"][adventure]
        assert escaper not in exits
        assert ranking[len(ranking) - len(exits):] == exits[::-1]
        assert ranking[0] == escaper if escaper else ranking[0] not in exits
        pairs = state["revealed"][adventure]
        tokens = [c for pair in pairs for c in pair]
        assert len(tokens) == 2 * seats == len(set(tokens))
        expected = [max(max(0, 11 - ranking.index(c) - 1) for c in pair) for pair in pairs]
        assert game.rounds()[adventure] == expected
    assert game.totals() == [sum(r[s] for r in game.rounds()) for s in range(seats)]
    assert game.winners() == [s for s, t in enumerate(game.totals()) if t == max(game.totals())]


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 10**9), st.integers(3, 6))
def test_random_games_are_deterministic_for_a_seed(seed, seats):
    assert random_game(seed, seats) == random_game(seed, seats)


def play_along(games, choices):
    """Apply the same random legal actions to ``games`` while adventure 1 is being played;
    yield after each one."""
    for choice in choices:
        lead = games[0]
        if lead.phase != "play" or lead.adventure != 0 or len(lead.positions) <= 2:
            return  # the next action could end the adventure and reveal the secrets
        actions = lead.legal_actions(lead.turn)
        event = actions[choice % len(actions)]
        for game in games:
            game.apply(event)
        yield event


@settings(max_examples=80, deadline=None)
@given(st.integers(3, 6), st.integers(0, 10**6), st.integers(0, 10**6),
       st.lists(st.integers(0, 10**4), max_size=60))
def test_the_public_view_does_not_depend_on_the_dealt_secrets(seats, seed_a, seed_b, choices):
    games = [Rumble(SEAT_NAMES[:seats], seed, {}) for seed in (seed_a, seed_b)]
    for game in games:
        game.apply({"type": "start", "seat": 0})
    assert games[0].view(None) == games[1].view(None)
    for _ in play_along(games, choices):
        public = games[0].view(None)
        assert public == games[1].view(None)
        text = json.dumps(public)
        assert '"secrets"' not in text and "pending_deal" not in text
        assert public["revealed"] == []


@settings(max_examples=80, deadline=None)
@given(st.integers(3, 6), st.permutations(list(range(12))), st.data(),
       st.lists(st.integers(0, 10**4), max_size=60))
def test_a_seat_never_sees_the_other_seats_secrets(seats, order, data, choices):
    names = Rumble.OPTIONS[1].default
    pairs = [[names[order[2 * s]], names[order[2 * s + 1]]] for s in range(seats)]
    watcher = data.draw(st.integers(0, seats - 1))
    others = [s for s in range(seats) if s != watcher]
    one, two = data.draw(st.permutations(others))[:2]
    swapped = [list(pair) for pair in pairs]
    swapped[one], swapped[two] = pairs[two], pairs[one]
    games = []
    for hands in (pairs, swapped):
        game = Rumble(SEAT_NAMES[:seats], 5, {})
        game.apply({"type": "start", "seat": 0})
        for seat, pair in enumerate(hands):
            game.apply({"type": "secrets", "seat": seat, "characters": pair})
        games.append(game)
    assert games[0].view(watcher)["secrets"] == pairs[watcher]
    assert games[0].view(watcher) == games[1].view(watcher)
    assert games[0].view(None) == games[1].view(None)
    for _ in play_along(games, choices):
        assert games[0].view(watcher) == games[1].view(watcher)
        assert games[0].view(None) == games[1].view(None)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**9), st.integers(3, 6), st.floats(0, 1))
def test_offered_actions_match_what_apply_accepts(seed, seats, where):
    header, events = random_game(seed, seats)
    game = replay(header, events[:int(where * (len(events) - 1))])
    for seat in range(seats):
        for event in game.legal_actions(seat):
            copy.deepcopy(game).apply(event)
        for entry in game.refused_actions(seat):
            trial = copy.deepcopy(game)
            before = trial.referee_view()
            try:
                trial.apply(entry["event"])
            except RuleViolation as refusal:
                assert (refusal.rule, refusal.message) == (entry["rule"], entry["reason"])
            else:
                raise AssertionError(f"{entry['event']} was accepted")
            assert trial.referee_view() == before
    if game.phase == "play" and not game.waiting_for():
        assert game.legal_actions(game.turn)  # a seat to play always has a legal action


@settings(max_examples=60, deadline=None)
@given(tables(), st.integers(0, 10**9), st.floats(0, 1))
def test_legal_actions_are_the_offered_actions_no_refusal_stops(table, seed, where):
    seats, options = table
    header, events = random_game(seed, seats, **options)
    game = replay(header, events[:int(where * (len(events) - 1))])
    for seat in range(seats):
        offered = game.candidates(seat)
        assert game.legal_actions(seat) == [event for event in offered
                                            if game.refusal(event) is None]
        assert len(game.legal_actions(seat)) + len(game.refused_actions(seat)) == len(offered)
