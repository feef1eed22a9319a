"""Whole scripted Deathtrap Dungeon games, with results worked out by hand from the rules.

The logs in tests/logs/deathtrap/ were written play by play from a plan on paper (small
decks of Orc 2, Skeleton 3, Warrior 5 plus the 4 specials keep each round short).
"""

from __future__ import annotations

import json
from pathlib import Path

from companion.bundles.deathtrap.rules.engine import Deathtrap, dealt_counts
from companion.games.registry import engine

LOGS = Path(__file__).parent.parent / "logs" / "deathtrap"


def load(name: str) -> tuple[dict, list[dict]]:
    lines = (LOGS / name).read_text(encoding="utf-8").splitlines()
    return json.loads(lines[0]), [json.loads(line) for line in lines[1:]]


def replay(header: dict, events: list[dict]) -> Deathtrap:
    game = Deathtrap(header["seats"], header["seed"], header["options"])
    for event in events:
        game.apply(event)
    return game


def test_the_registry_finds_the_engine():
    assert engine("deathtrap") is Deathtrap


def test_four_player_game_finish_orders_and_totals():
    game = replay(*load("four-players.jsonl"))
    # Round 1: Dee out first (orc orc), Ann (warrior), Bob (Red Lotus); Cy holds cards.
    # Round 2: Ann goes out on her lead, Cy with the Killing Machine, Dee; Bob is left.
    # Round 3: Dee, Bob, Cy (Killing Machine), Ann left. Round 4: Dee, Ann, Bob, Cy left.
    assert game.view(None)["finish_order"] == [[3, 0, 1, 2], [0, 2, 3, 1], [3, 1, 2, 0],
                                               [3, 0, 1, 2]]
    # 4 players: 1st 4 points, 2nd 3, 3rd 2, last 1.
    assert game.rounds() == [[3, 2, 1, 4], [4, 1, 3, 2], [1, 3, 2, 4], [3, 2, 1, 4]]
    assert game.totals() == [3 + 4 + 1 + 3, 2 + 1 + 3 + 2, 1 + 3 + 2 + 1, 4 + 2 + 4 + 4]
    assert game.finished and game.winners() == [3]


def test_eight_player_game_finish_orders_and_totals():
    game = replay(*load("eight-players.jsonl"))
    assert game.view(None)["finish_order"] == [
        [5, 0, 3, 4, 6, 7, 1, 2],  # Fay goes out with the Exploding Pig itself
        [0, 1, 2, 3, 5, 7, 4, 6],
        [7, 5, 6, 1, 2, 3, 4, 0],
        [3, 4, 5, 6, 7, 2, 0, 1],
    ]
    # 8 players: the k-th out scores 9 - k.
    assert game.rounds() == [[7, 2, 1, 6, 5, 8, 4, 3], [8, 7, 6, 5, 2, 4, 1, 3],
                             [1, 5, 4, 3, 2, 7, 6, 8], [2, 1, 3, 8, 7, 6, 5, 4]]
    assert game.totals() == [18, 15, 14, 22, 16, 25, 16, 18]
    assert game.winners() == [5]


def test_titles_after_each_round():
    header, events = load("four-players.jsonl")
    game = replay(header, events[:16])  # round 1 over: order Dee, Ann, Bob, Cy
    assert game.view(None)["titles"] == ["The Hero", "The Wimp", "The Total Wimp",
                                         "The Big Hero"]


def test_hand_counts_are_dealt_from_left_of_the_dealer():
    # 82 cards to 4 seats: 20 each and 2 more, to the two seats left of the dealer.
    assert dealt_counts(82, 4, 0) == [20, 21, 21, 20]
    assert dealt_counts(82, 4, 3) == [21, 21, 20, 20]
    # 82 to 8 seats: 10 each, 2 more; dealer 7 so seats 0 and 1 get them.
    assert dealt_counts(82, 8, 7) == [11, 11, 10, 10, 10, 10, 10, 10]
    game = Deathtrap(["A", "B", "C", "D", "E", "F"], seed=1)
    game.apply({"type": "deal"})
    # 82 = 6 x 13 + 4: seats 1 to 4 get 14.
    assert game.view(None)["counts"] == [13, 14, 14, 14, 14, 13]


def test_the_dealer_moves_clockwise_and_a_named_dealer_is_followed():
    header, events = load("four-players.jsonl")
    game = Deathtrap(header["seats"], 4, header["options"])
    dealers = []
    for event in events:
        game.apply(event)
        if event["type"] == "deal":
            dealers.append(game.view(None)["dealer"])
    # Rounds 1 and 2 rotate from seat 0; round 3 names dealer 3; round 4 follows on from it.
    assert dealers == [0, 1, 3, 0]


def test_after_the_hands_winner_went_out_the_next_seat_with_cards_leads():
    header, events = load("four-players.jsonl")
    # Round 1: Ann went out on her Warrior; Bob and Cy passed: Bob (next clockwise) leads.
    game = replay(header, events[:14])
    state = game.view(None)
    assert state["counts"][0] == 0
    assert state["leader"] == 1 and state["turn"] == 1 and state["to_beat"] is None


def test_killing_machine_out_of_turn_ends_the_hand():
    header, events = load("four-players.jsonl")
    game = replay(header, events[:25])  # round 2: Dee has just beaten Cy's Orcs
    assert game.view(None)["turn"] == 1  # Bob's turn, not Cy's
    game.apply({"type": "play", "seat": 2, "cards": ["killing-machine"]})
    state = game.view(None)
    # It was Cy's last card: she is out, and Dee, next clockwise with cards, leads.
    assert state["finish_order"][-1] == [0, 2]
    assert state["leader"] == 3 and state["to_beat"] is None


def test_killing_machine_as_a_lead_gives_the_lead_back():
    header, events = load("four-players.jsonl")
    game = replay(header, events[:14])
    game.apply({"type": "play", "seat": 1, "cards": ["killing-machine"]})
    state = game.view(None)
    assert state["leader"] == 1 and state["turn"] == 1 and state["counts"][1] == 1


def test_pig_holder_going_out_hands_the_lead_on():
    header, events = load("eight-players.jsonl")
    game = replay(header, events[:2])
    state = game.view(None)
    assert state["finish_order"] == [[5]]
    assert state["pig"] == {"seat": 5, "discard": "orc", "lead": 6}
    assert state["turn"] == 6


def test_a_round_in_progress_shows_its_partial_finish_order():
    header, events = load("eight-players.jsonl")
    game = replay(header, events[:12])
    assert game.view(None)["finish_order"] == [[5, 0]]
    assert game.rounds() == [] and game.totals() == [0] * 8 and game.winners() == []


def test_pig_holder_who_went_out_cannot_lead_themself():
    header, events = load("eight-players.jsonl")
    game = replay(header, events[:1])
    game.apply({"type": "pig", "seat": 5, "discard": "orc", "lead": 5})
    assert game.view(None)["pig"]["lead"] == 6 and game.view(None)["turn"] == 6
