"""A rules review of Deathtrap Dungeon: situations worked out by hand from the rule text.

Each test uses a small pack (Orc 2, Skeleton 3, Warrior 5, Troll 9, six of each, plus the
4 specials: 28 cards) and hand counts given in the deal, so that every count, turn and
finishing place below can be checked on paper. Seats: Ann 0, Bob 1, Cy 2, Dee 3, clockwise.
"""

from __future__ import annotations

from typing import Any

import pytest
from helpers import refused

from companion.bundles.deathtrap.rules.engine import Deathtrap

SEATS = ["Ann", "Bob", "Cy", "Dee"]
DECK = {"creatures": [
    {"id": "orc", "name": "Orc", "value": 2, "copies": 6},
    {"id": "skeleton", "name": "Skeleton", "value": 3, "copies": 6},
    {"id": "warrior", "name": "Warrior", "value": 5, "copies": 6},
    {"id": "troll", "name": "Troll", "value": 9, "copies": 6},
]}


def game_with(counts: list[int], **options: Any) -> Deathtrap:
    game = Deathtrap(SEATS, 1, {"deck": DECK, **options})
    game.apply({"type": "deal", "counts": counts})
    return game


def play(game: Deathtrap, seat: int, *cards: str) -> None:
    game.apply({"type": "play", "seat": seat, "cards": list(cards)})


def pass_(game: Deathtrap, seat: int) -> None:
    game.apply({"type": "pass", "seat": seat})


def opened(counts: list[int] | None = None, **options: Any) -> Deathtrap:
    """Ann holds the Pig and kills an Orc with it; Bob (on her left) leads the first hand."""
    game = game_with(counts or [7, 7, 7, 7], **options)
    game.apply({"type": "pig", "seat": 0, "discard": "orc"})
    return game


# --- the Killing Machine -------------------------------------------------------------------

def test_killing_machine_out_of_turn_stops_the_hand_and_its_player_leads():
    game = opened()
    play(game, 1, "skeleton", "skeleton")          # Bob leads; Cy's turn
    play(game, 3, "killing-machine")                # Dee, out of turn
    state = game.view(None)
    # Counts: Ann 7-2, Bob 7-2, Cy 7, Dee 7-1.
    assert state["counts"] == [5, 5, 7, 6]
    assert (state["leader"], state["turn"], state["to_beat"]) == (3, 3, None)
    play(game, 3, "orc")                            # Dee leads the new hand: one card now
    assert game.view(None)["turn"] == 0


def test_killing_machine_as_a_lead_ends_the_empty_hand_and_the_same_player_leads():
    game = opened()
    play(game, 1, "killing-machine")
    state = game.view(None)
    assert (state["leader"], state["turn"], state["to_beat"]) == (1, 1, None)
    assert state["counts"] == [5, 6, 7, 7]
    # Bob still leads, so Bob may not pass and nobody else may play in turn.
    refused(game, {"type": "pass", "seat": 1}, "lead", "must play a set")
    refused(game, {"type": "play", "seat": 2, "cards": ["orc"]}, "turn", "Bob's turn")


def test_killing_machine_as_the_last_card_goes_out_and_the_next_seat_with_cards_leads():
    game = game_with([9, 9, 1, 9])
    game.apply({"type": "pig", "seat": 0, "discard": "orc"})   # Bob leads
    play(game, 1, "troll")
    play(game, 2, "killing-machine")                # Cy's only card: Cy is out, first
    state = game.view(None)
    assert state["finish_order"] == [[2]]
    assert state["counts"] == [7, 8, 0, 9]
    assert (state["leader"], state["turn"]) == (3, 3)  # clockwise from Cy: Dee


def test_killing_machine_is_played_alone_and_not_before_the_pig():
    game = game_with([7, 7, 7, 7])
    refused(game, {"type": "play", "seat": 2, "cards": ["killing-machine"]},
            "pig-first", "Exploding Pig")
    game.apply({"type": "pig", "seat": 0, "discard": "orc"})
    refused(game, {"type": "play", "seat": 2, "cards": ["killing-machine", "orc"]},
            "killing-machine", "played alone")


def test_killing_machine_from_a_player_locked_out_by_a_pass_still_stops_the_hand():
    game = opened(pass_locks_out=True)
    play(game, 1, "orc")
    pass_(game, 2)                                   # Cy sits out the rest of this hand
    play(game, 2, "killing-machine")                 # ... but the Machine is "at any time"
    assert (game.view(None)["leader"], game.view(None)["passed"]) == (2, [])


# --- the hand's winner going out, and who leads next ---------------------------------------

def test_winner_who_went_out_is_followed_by_the_next_seat_holding_cards():
    game = game_with([9, 2, 8, 9])
    game.apply({"type": "pig", "seat": 0, "discard": "orc"})   # [7, 2, 8, 9], Bob leads
    play(game, 1, "warrior", "warrior")              # Bob's last two cards: Bob out first
    assert game.view(None)["turn"] == 2
    pass_(game, 2)
    pass_(game, 3)
    pass_(game, 0)                                   # everyone holding cards passed
    state = game.view(None)
    assert state["finish_order"] == [[1]]
    assert (state["leader"], state["turn"], state["to_beat"]) == (2, 2, None)


def test_an_out_player_is_skipped_and_the_last_set_still_wins_the_hand():
    game = game_with([9, 2, 8, 9])
    game.apply({"type": "pig", "seat": 0, "discard": "orc"})
    play(game, 1, "warrior", "warrior")              # Bob out
    play(game, 2, "troll", "troll")                  # Cy beats it
    pass_(game, 3)
    pass_(game, 0)                                   # Bob has no cards: the hand is over
    state = game.view(None)
    assert (state["leader"], state["to_beat"]) == (2, None)
    refused(game, {"type": "pass", "seat": 1}, "hand-count", "Bob has no cards left")


# --- pass_locks_out ------------------------------------------------------------------------

def test_passing_does_not_lock_a_player_out_by_default():
    game = opened()
    play(game, 1, "orc")
    pass_(game, 2)
    play(game, 3, "skeleton")
    play(game, 0, "warrior")
    pass_(game, 1)
    assert game.view(None)["turn"] == 2              # Cy passed before, may play again
    play(game, 2, "troll")
    assert game.view(None)["turn"] == 3


def test_pass_locks_out_skips_a_passer_until_the_hand_ends():
    game = opened(pass_locks_out=True)
    play(game, 1, "orc")
    pass_(game, 2)                                   # Cy is out of this hand
    play(game, 3, "skeleton")
    play(game, 0, "warrior")
    pass_(game, 1)                                   # Bob out of it too
    assert game.view(None)["turn"] == 3              # Cy skipped
    refused(game, {"type": "play", "seat": 2, "cards": ["troll"]}, "turn", "Dee's turn")
    pass_(game, 3)                                   # only Ann's Warrior is left standing
    state = game.view(None)
    assert (state["leader"], state["turn"], state["passed"]) == (0, 0, [])


# --- wilds ---------------------------------------------------------------------------------

def test_a_wild_alone_is_worth_0_and_any_creature_beats_it():
    game = opened()
    play(game, 1, "chaindog")
    refused(game, {"type": "play", "seat": 2, "cards": ["red-lotus"]},
            "follow-higher", "equal never beats")
    play(game, 2, "orc")                             # Orc 2 > 0
    refused(game, {"type": "play", "seat": 3, "cards": ["red-lotus"]},
            "follow-higher", "does not beat Orc (2)")


def test_both_wilds_are_a_pair_of_value_0_and_wilds_join_any_set():
    game = opened()
    play(game, 1, "chaindog", "red-lotus")
    assert game.view(None)["to_beat"]["value"] == 0
    play(game, 2, "orc", "orc")
    game2 = opened()
    play(game2, 1, "orc", "chaindog")                # a pair of Orcs, worth 2
    refused(game2, {"type": "play", "seat": 2, "cards": ["orc", "orc"]},
            "follow-higher", "equal never beats")
    refused(game2, {"type": "play", "seat": 2, "cards": ["skeleton", "red-lotus", "skeleton"]},
            "same-count", "2 cards needed, 3 given")
    play(game2, 2, "skeleton", "red-lotus")
    assert game2.view(None)["to_beat"]["value"] == 3


def test_wilds_alone_value_option_changes_what_a_lone_wild_is_worth():
    game = opened(wilds_alone_value=10)
    play(game, 1, "troll")
    play(game, 2, "chaindog")                        # 10 > Troll 9
    assert game.view(None)["to_beat"]["value"] == 10


# --- the Exploding Pig opening ---------------------------------------------------------------

def test_pig_opening_default_lead_is_left_of_the_holder_and_wraps_round():
    game = game_with([7, 7, 7, 7])
    refused(game, {"type": "pass", "seat": 0}, "pig-first", "Exploding Pig")
    refused(game, {"type": "pig", "seat": 3, "discard": "chaindog"}, "pig", "special card")
    refused(game, {"type": "pig", "seat": 3, "discard": "killing-machine"}, "pig",
            "special card")
    game.apply({"type": "pig", "seat": 3, "discard": "troll"})
    state = game.view(None)
    assert state["counts"] == [7, 7, 7, 5]
    assert (state["leader"], state["turn"]) == (0, 0)   # Dee's left is Ann
    refused(game, {"type": "pig", "seat": 1, "discard": "orc"}, "pig", "already played")


def test_pig_holder_may_choose_themself_or_anyone_to_lead():
    game = game_with([7, 7, 7, 7])
    game.apply({"type": "pig", "seat": 1, "discard": "orc", "lead": 1})
    assert game.view(None)["turn"] == 1
    game = game_with([7, 7, 7, 7])
    game.apply({"type": "pig", "seat": 1, "discard": "orc", "lead": 3})
    assert game.view(None)["turn"] == 3


# --- a whole round, titles, exchange prompts, points and tied totals ---------------------------

def play_round_one(game: Deathtrap) -> None:
    """Ann out first, then Bob, then Cy; Dee is left holding cards."""
    game.apply({"type": "deal", "counts": [2, 1, 1, 24]})
    game.apply({"type": "pig", "seat": 3, "discard": "orc"})   # Dee's left: Ann leads
    play(game, 0, "orc", "orc")                       # Ann out
    pass_(game, 1)                                    # a pair is needed, Bob holds 1
    pass_(game, 2)
    pass_(game, 3)
    assert game.view(None)["leader"] == 1             # Ann is out: clockwise, Bob
    play(game, 1, "troll")                            # Bob out
    pass_(game, 2)
    pass_(game, 3)
    play(game, 2, "skeleton")                         # Cy out: only Dee holds cards


def test_round_points_titles_and_private_exchange_prompts():
    game = Deathtrap(SEATS, 1, {"deck": DECK, "rounds": 2})
    play_round_one(game)
    public = game.view(None)
    assert public["phase"] == "exchange"
    assert public["finish_order"] == [[0, 1, 2, 3]]
    assert game.rounds() == [[4, 3, 2, 1]]            # N + 1 - k with N = 4
    assert public["titles"] == ["The Big Hero", "The Hero", "The Wimp", "The Total Wimp"]
    assert "prompt" not in public and "exchange" not in public
    prompts = [game.view(seat)["prompt"] for seat in range(4)]
    assert prompts == ["Take 2 cards from Dee, give back any 2",
                       "Take 1 card from Cy, give back any 1",
                       "Give your highest creature card to Bob, then take 1 back",
                       "Give your 2 highest creature cards to Ann, then take 2 back"]
    # Each seat sees only its own part of the exchange.
    assert game.view(1)["exchange"] == [{"from": 2, "to": 1, "count": 1, "cards": "highest"},
                                        {"from": 1, "to": 2, "count": 1, "cards": "any"}]


def test_tied_totals_share_the_win():
    game = Deathtrap(SEATS, 1, {"deck": DECK, "rounds": 2})
    play_round_one(game)                              # 4, 3, 2, 1
    game.apply({"type": "deal", "counts": [24, 1, 1, 2]})
    assert [game.view(seat)["prompt"] for seat in range(4)] == [None] * 4
    game.apply({"type": "pig", "seat": 3, "discard": "orc", "lead": 2})   # Dee out at once
    play(game, 2, "skeleton")                         # Cy out
    pass_(game, 0)
    play(game, 1, "troll")                            # Bob out: Ann is left
    assert game.view(None)["finish_order"] == [[0, 1, 2, 3], [3, 2, 1, 0]]
    assert game.rounds() == [[4, 3, 2, 1], [1, 2, 3, 4]]
    assert game.totals() == [5, 5, 5, 5]
    assert game.finished and game.winners() == [0, 1, 2, 3]
    refused(game, {"type": "deal"}, "rounds", "game is over")


def test_five_players_points_titles_and_the_middle_seat_exchanges_nothing():
    game = Deathtrap([*SEATS, "Eve"], 1, {"deck": DECK})
    game.apply({"type": "deal", "counts": [2, 1, 1, 1, 23]})
    game.apply({"type": "pig", "seat": 4, "discard": "orc"})   # Eve's left: Ann leads
    play(game, 0, "orc", "orc")                       # Ann out
    for seat in (1, 2, 3, 4):
        pass_(game, seat)
    play(game, 1, "troll")                            # Bob (next after Ann) leads, out
    for seat in (2, 3, 4):
        pass_(game, seat)
    play(game, 2, "skeleton")                         # Cy out
    play(game, 3, "warrior")                          # Dee beats it and is out: Eve is left
    assert game.view(None)["finish_order"] == [[0, 1, 2, 3, 4]]
    assert game.rounds() == [[5, 4, 3, 2, 1]]         # N + 1 - k with N = 5
    assert game.titles() == ["The Big Hero", "The Hero", None, "The Wimp", "The Total Wimp"]
    assert (game.view(2)["exchange"], game.view(2)["prompt"]) == ([], None)
    assert game.view(3)["prompt"] == "Give your highest creature card to Bob, then take 1 back"
    assert game.view(4)["prompt"] == "Give your 2 highest creature cards to Ann, then take 2 back"


@pytest.mark.parametrize(("seats", "dealer", "counts"), [
    # 82 cards one at a time from the dealer's left: the first (82 mod N) seats get one more.
    (4, 0, [20, 21, 21, 20]), (4, 3, [21, 21, 20, 20]), (5, 0, [16, 17, 17, 16, 16]),
    (6, 0, [13, 14, 14, 14, 14, 13]), (7, 6, [12, 12, 12, 12, 12, 11, 11]),
    (8, 0, [10, 11, 11, 10, 10, 10, 10, 10])])
def test_hand_counts_of_the_whole_pack_dealt_from_the_dealers_left(seats, dealer, counts):
    game = Deathtrap([f"P{seat}" for seat in range(seats)], 1, {})
    game.apply({"type": "deal", "dealer": dealer})
    assert game.view(None)["counts"] == counts
