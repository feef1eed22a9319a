"""Every kind of illegal Deathtrap Dungeon event is refused with a reason, state unchanged."""

from __future__ import annotations

import pytest
from helpers import refused

from companion.bundles.deathtrap.rules.engine import Deathtrap
from companion.errors import EventError, OptionError

SEATS = ["Ann", "Bob", "Cy", "Dee"]
SMALL = {"deck": {"creatures": [
    {"id": "orc", "name": "Orc", "value": 2, "copies": 3},
    {"id": "skeleton", "name": "Skeleton", "value": 3, "copies": 3},
    {"id": "warrior", "name": "Warrior", "value": 5, "copies": 3}]}}


def game_after(*events: dict, options: dict | None = None) -> Deathtrap:
    game = Deathtrap(SEATS, seed=3, options=options or {})
    for event in events:
        game.apply(event)
    return game


def in_play(**options) -> Deathtrap:
    """Round 1 under way: Bob used the Pig, Cy led two Skeletons; Dee to play."""
    return game_after({"type": "deal"}, {"type": "pig", "seat": 1, "discard": "orc"},
                      {"type": "play", "seat": 2, "cards": ["skeleton", "skeleton"]},
                      options=options)


def test_a_play_before_any_deal():
    refused(game_after(), {"type": "play", "seat": 0, "cards": ["orc"]},
            "deal", "no round in progress: a deal starts round 1")


def test_a_pass_before_any_deal():
    refused(game_after(), {"type": "pass", "seat": 0}, "deal", "no round in progress")


def test_a_set_before_the_pig():
    refused(game_after({"type": "deal"}), {"type": "play", "seat": 0, "cards": ["orc"]},
            "pig-first", "the Exploding Pig opens the round")


def test_a_pass_before_the_pig():
    refused(game_after({"type": "deal"}), {"type": "pass", "seat": 0},
            "pig-first", "the Exploding Pig opens the round")


def test_a_second_pig():
    refused(in_play(), {"type": "pig", "seat": 0, "discard": "orc"},
            "pig", "the Exploding Pig was already played this round (by Bob)")


def test_a_pig_before_the_deal():
    refused(game_after(), {"type": "pig", "seat": 0, "discard": "orc"},
            "deal", "a deal starts round 1")


def test_the_pig_discarding_a_wild():
    refused(game_after({"type": "deal"}), {"type": "pig", "seat": 0, "discard": "chaindog"},
            "pig", "the Exploding Pig kills a monster: Chaindog is a special card")


def test_the_pig_discarding_the_killing_machine():
    refused(game_after({"type": "deal"}), {"type": "pig", "seat": 0, "discard": "killing-machine"},
            "pig", "The Killing Machine is a special card")


def test_the_pig_discarding_itself():
    refused(game_after({"type": "deal"}), {"type": "pig", "seat": 0, "discard": "exploding-pig"},
            "pig", "discards one other card")


def test_the_pig_from_a_seat_holding_one_card():
    game = game_after({"type": "deal", "counts": [1, 4, 4, 4]}, options=SMALL)
    refused(game, {"type": "pig", "seat": 0, "discard": "orc"},
            "pig", "Ann holds 1 card: the Exploding Pig and one more card are needed")


def test_an_unknown_card_names_the_field():
    refused(in_play(), {"type": "play", "seat": 3, "cards": ["goblin", "goblin"]},
            None, "field 'cards': unknown card 'goblin'", error=EventError)
    refused(game_after({"type": "deal"}), {"type": "pig", "seat": 0, "discard": "goblin"},
            None, "field 'discard': unknown card 'goblin'", error=EventError)


def test_an_empty_play():
    refused(in_play(), {"type": "play", "seat": 3, "cards": []},
            "set", "a play needs at least one card")


def test_a_seat_with_no_cards_left():
    game = game_after({"type": "deal", "counts": [3, 3, 3, 4]},
                      {"type": "pig", "seat": 0, "discard": "orc"},
                      {"type": "play", "seat": 1, "cards": ["orc"]},
                      {"type": "play", "seat": 2, "cards": ["skeleton"]},
                      {"type": "play", "seat": 3, "cards": ["warrior"]},
                      {"type": "play", "seat": 0, "cards": ["killing-machine"]},
                      options=SMALL)
    assert game.view(None)["counts"][0] == 0
    refused(game, {"type": "play", "seat": 0, "cards": ["orc"]},
            "hand-count", "Ann has no cards left")
    refused(game, {"type": "pass", "seat": 0}, "hand-count", "Ann has no cards left")


def test_more_cards_than_the_seat_holds():
    game = game_after({"type": "deal", "counts": [4, 2, 3, 4]},
                      {"type": "pig", "seat": 0, "discard": "orc"}, options=SMALL)
    refused(game, {"type": "play", "seat": 1, "cards": ["orc", "orc", "orc"]},
            "hand-count", "Bob holds 2 cards, 3 given")


def test_the_pig_inside_a_set():
    refused(in_play(), {"type": "play", "seat": 3, "cards": ["exploding-pig", "orc"]},
            "pig", "the Exploding Pig is played only before the first hand")


def test_the_killing_machine_with_other_cards():
    refused(in_play(), {"type": "play", "seat": 0, "cards": ["killing-machine", "orc"]},
            "killing-machine", "The Killing Machine is played alone")


def test_a_second_killing_machine():
    game = in_play()
    game.apply({"type": "play", "seat": 0, "cards": ["killing-machine"]})
    refused(game, {"type": "play", "seat": 2, "cards": ["killing-machine"]},
            "copies", "The Killing Machine was already played this round")


def test_out_of_turn():
    refused(in_play(), {"type": "play", "seat": 0, "cards": ["troll", "troll"]},
            "turn", "it is Dee's turn, not Ann's")
    refused(in_play(), {"type": "pass", "seat": 1}, "turn", "it is Dee's turn, not Bob's")


def test_the_leader_passing():
    game = game_after({"type": "deal"}, {"type": "pig", "seat": 1, "discard": "orc"})
    refused(game, {"type": "pass", "seat": 2},
            "lead", "Cy leads this hand and must play a set: only followers may pass")


def test_two_creature_types_in_one_set():
    refused(in_play(), {"type": "play", "seat": 3, "cards": ["troll", "orc"]},
            "set", "a set is one creature type (plus wilds): Orc and Troll given")


def test_more_copies_than_the_pack_holds():
    game = in_play()  # 1 Orc went with the Pig, the pack has 6
    game.apply({"type": "pass", "seat": 3})
    game.apply({"type": "pass", "seat": 0})
    game.apply({"type": "pass", "seat": 1})
    refused(game, {"type": "play", "seat": 2, "cards": ["orc"] * 6},
            "copies", "the pack has 6 Orc cards, 1 already played this round: 6 more cannot be")
    refused(game, {"type": "play", "seat": 2, "cards": ["chaindog", "chaindog"]},
            "copies", "the pack has only 1 Chaindog")


def test_a_different_number_of_cards():
    game = game_after({"type": "deal"}, {"type": "pig", "seat": 1, "discard": "orc"},
                      {"type": "play", "seat": 2, "cards": ["skeleton"] * 3})
    refused(game, {"type": "play", "seat": 3, "cards": ["troll", "troll"]},
            "same-count", "3 cards needed, 2 given")


def test_a_lower_set():
    refused(in_play(), {"type": "play", "seat": 3, "cards": ["orc", "chaindog"]},
            "follow-higher", "Orc (2) does not beat Skeleton (3)")


def test_an_equal_set():
    refused(in_play(), {"type": "play", "seat": 3, "cards": ["skeleton", "red-lotus"]},
            "follow-higher", "Skeleton (3) does not beat Skeleton (3): equal never beats")


def test_wilds_alone_do_not_beat_a_creature():
    refused(in_play(), {"type": "play", "seat": 3, "cards": ["chaindog", "red-lotus"]},
            "follow-higher", "Chaindog and Red Lotus (0) does not beat Skeleton (3)")


def test_a_deal_during_a_round():
    refused(in_play(), {"type": "deal"}, "deal", "round 1 is still being played")
    refused(game_after({"type": "deal"}), {"type": "deal"}, "deal", "round 1 is still being played")


def test_a_deal_after_the_last_round():
    game = game_after(options={"rounds": 1, **SMALL})
    for event in ({"type": "deal", "counts": [2, 2, 2, 7]},
                  {"type": "pig", "seat": 0, "discard": "orc"},
                  {"type": "play", "seat": 1, "cards": ["orc", "orc"]},
                  {"type": "play", "seat": 2, "cards": ["warrior", "warrior"]}):
        game.apply(event)
    assert game.finished
    refused(game, {"type": "deal"}, "rounds", "the game is over: all 1 rounds were played")
    refused(game, {"type": "pass", "seat": 3}, "rounds", "the game is over")


def test_deal_counts_of_the_wrong_length_or_sum():
    refused(game_after(), {"type": "deal", "counts": [20, 20, 42]},
            "deal", "counts: 4 hand counts needed (one per seat), 3 given")
    refused(game_after(), {"type": "deal", "counts": [20, 20, 20, 20]},
            "deal", "the counts add up to 80 cards, the whole pack of 82 is dealt")
    refused(game_after(), {"type": "deal", "counts": [0, 20, 20, 42]},
            None, "field 'counts' of a deal event must be between 1 and", error=EventError)


@pytest.mark.parametrize(("event", "message"), [
    ({"type": "play", "seat": 3}, "missing field 'cards' in a play event"),
    ({"type": "play", "seat": 3, "cards": "troll"}, "field 'cards' of a play event must be a list"),
    ({"type": "play", "seat": 9, "cards": ["troll"]}, "unknown seat 9"),
    ({"type": "pass", "seat": 3, "why": "tired"}, "unknown field 'why' in a pass event"),
    ({"type": "trick", "seat": 3}, "unknown event type 'trick' for deathtrap"),
    ({"type": "pig", "seat": 0, "discard": "orc", "lead": 7}, "unknown seat 7 in field 'lead'"),
])
def test_malformed_events_name_the_field(event, message):
    refused(in_play(), event, None, message, error=EventError)


@pytest.mark.parametrize(("options", "message"), [
    ({"rounds": 0}, "option 'rounds': must be between 1 and 20"),
    ({"pass_locks_out": "yes"}, "option 'pass_locks_out': must be true or false"),
    ({"pig_discard": "wild"}, "option 'pig_discard': must be one of creature, any"),
    ({"first_dealer": 5}, "option 'first_dealer': seats are 0 to 3, got 5"),
    ({"deck": {"creatures": []}}, "option 'deck': 'creatures' must list at least one creature"),
    ({"deck": {"creatures": [{"id": "orc", "name": "Orc", "value": 2}]}},
     "option 'deck': creature 1 must have exactly id, name, value and copies"),
    ({"deck": {"creatures": [{"id": "chaindog", "name": "Dog", "value": 2, "copies": 2}]}},
     "'chaindog' is a special card, not a creature"),
    ({"deck": {"creatures": [{"id": "orc", "name": "Orc", "value": 2, "copies": 1}]}},
     "option 'deck': 5 cards are too few for 4 seats"),
    ({"decks": {}}, "unknown option 'decks' for deathtrap"),
])
def test_bad_options_name_the_option(options, message):
    with pytest.raises(OptionError) as caught:
        Deathtrap(SEATS, seed=1, options=options)
    assert message in str(caught.value)


def test_too_few_or_too_many_seats():
    with pytest.raises(OptionError, match="needs 4 to 8 seats, got 3"):
        Deathtrap(SEATS[:3], seed=1)
