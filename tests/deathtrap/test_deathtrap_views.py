"""Deathtrap Dungeon views: what every screen shows, and the private exchange prompts."""

from __future__ import annotations

import json
from pathlib import Path

from companion.bundles.deathtrap.rules.engine import Deathtrap

LOGS = Path(__file__).parent.parent / "logs" / "deathtrap"
PRIVATE_KEYS = {"seat", "your_turn", "your_count", "exchange", "prompt", "prompts"}


def replay(name: str, count: int | None = None) -> Deathtrap:
    lines = (LOGS / name).read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    game = Deathtrap(header["seats"], header["seed"], header["options"])
    for line in lines[1:][:count]:
        game.apply(json.loads(line))
    return game


def test_public_view_keys_during_play():
    game = replay("four-players.jsonl", 3)  # Bob's Pig, Cy's Skeleton
    state = game.view(None)
    assert not PRIVATE_KEYS & set(state)
    assert state["phase"] == "play" and state["round"] == 1 and state["rounds"] == 4
    assert state["counts"] == [3, 2, 2, 3]
    assert state["to_beat"] == {"seat": 2, "cards": ["skeleton"], "count": 1, "value": 3,
                                "name": "Skeleton"}
    assert state["turn"] == 3 and state["leader"] == 2 and state["passed"] == []
    assert state["last"] == {"seat": 2, "action": "set", "cards": ["skeleton"]}
    assert state["pig"] == {"seat": 1, "discard": "orc", "lead": 2}
    assert state["played"] == {"exploding-pig": 1, "orc": 1, "skeleton": 1}
    json.dumps(state)


def test_seat_view_adds_only_that_seats_own_keys():
    game = replay("four-players.jsonl", 3)
    for seat in range(4):
        state = game.view(seat)
        assert state["seat"] == seat
        assert state["your_turn"] is (seat == 3)
        assert state["your_count"] == game.view(None)["counts"][seat]
        assert state["prompt"] is None and state["exchange"] == []
        assert {k: v for k, v in state.items() if k not in PRIVATE_KEYS} == game.view(None)


def test_exchange_prompts_go_only_to_the_four_seats_concerned():
    game = replay("eight-players.jsonl", 31)  # round 1 over: Fay, Ann, ..., Hal, Bob, Cy
    assert game.view(None)["phase"] == "exchange"
    assert not PRIVATE_KEYS & set(game.view(None))
    prompts = {seat: game.view(seat)["prompt"] for seat in range(8)}
    assert prompts == {
        0: "Take 1 card from Bob, give back any 1",             # Ann, the Hero
        1: "Give your highest creature card to Ann, then take 1 back",  # Bob, the Wimp
        2: "Give your 2 highest creature cards to Fay, then take 2 back",  # the Total Wimp
        3: None, 4: None, 6: None, 7: None,
        5: "Take 2 cards from Cy, give back any 2",             # Fay, the Big Hero
    }
    assert game.view(2)["exchange"] == [
        {"from": 2, "to": 5, "count": 2, "cards": "highest"},
        {"from": 5, "to": 2, "count": 2, "cards": "any"}]
    assert game.view(4)["exchange"] == []
    referee = game.referee_view()
    assert len(referee["exchange"]) == 4 and referee["prompts"][5] == prompts[5]


def test_the_next_deal_closes_the_exchange():
    game = replay("eight-players.jsonl", 32)
    assert game.view(None)["phase"] == "pig"
    assert all(game.view(seat)["prompt"] is None for seat in range(8))


def test_a_view_is_a_copy():
    game = replay("four-players.jsonl", 3)
    state = game.view(0)
    state["to_beat"]["cards"].append("troll")
    state["counts"][0] = 99
    state["finish_order"].append([1])
    assert game.view(None)["to_beat"]["cards"] == ["skeleton"]
    assert game.view(None)["counts"][0] == 3 and game.view(None)["finish_order"] == [[]]


def test_finished_game_view():
    game = replay("four-players.jsonl")
    state = game.view(None)
    assert state["phase"] == "over" and state["turn"] is None and state["to_beat"] is None
    assert state["totals"] == game.totals()
    assert state["titles"] == ["The Hero", "The Wimp", "The Total Wimp", "The Big Hero"]
