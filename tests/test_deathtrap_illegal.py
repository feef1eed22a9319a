"""Every kind of illegal Deathtrap Dungeon event is refused with a reason, state unchanged."""

from __future__ import annotations

import pytest

from companion.bundles.deathtrap.rules.engine import Deathtrap
from companion.errors import CompanionError, EventError, OptionError, RuleViolation

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


def refused(game: Deathtrap, event: dict, error: type[CompanionError], message: str,
            rule: str | None = None) -> None:
    before = (game.view(None), game.referee_view(), [game.view(s) for s in range(len(SEATS))])
    with pytest.raises(error) as caught:
        game.apply(event)
    assert message in str(caught.value)
    if rule is not None:
        assert isinstance(caught.value, RuleViolation) and caught.value.rule == rule
    after = (game.view(None), game.referee_view(), [game.view(s) for s in range(len(SEATS))])
    assert after == before


def test_a_play_before_any_deal():
    refused(game_after(), {"type": "play", "seat": 0, "cards": ["orc"]}, RuleViolation,
            "no round in progress: a deal starts round 1", "deal")


def test_a_pass_before_any_deal():
    refused(game_after(), {"type": "pass", "seat": 0}, RuleViolation,
            "no round in progress", "deal")


def test_a_set_before_the_pig():
    refused(game_after({"type": "deal"}), {"type": "play", "seat": 0, "cards": ["orc"]},
            RuleViolation, "the Exploding Pig opens the round", "pig-first")


def test_a_pass_before_the_pig():
    refused(game_after({"type": "deal"}), {"type": "pass", "seat": 0}, RuleViolation,
            "the Exploding Pig opens the round", "pig-first")


def test_a_second_pig():
    refused(in_play(), {"type": "pig", "seat": 0, "discard": "orc"}, RuleViolation,
            "the Exploding Pig was already played this round (by Bob)", "pig")


def test_a_pig_before_the_deal():
    refused(game_after(), {"type": "pig", "seat": 0, "discard": "orc"}, RuleViolation,
            "a deal starts round 1", "deal")


def test_the_pig_discarding_a_wild():
    refused(game_after({"type": "deal"}), {"type": "pig", "seat": 0, "discard": "chaindog"},
            RuleViolation, "the Exploding Pig kills a monster: Chaindog is a special card", "pig")


def test_the_pig_discarding_the_killing_machine():
    refused(game_after({"type": "deal"}),
            {"type": "pig", "seat": 0, "discard": "killing-machine"}, RuleViolation,
            "The Killing Machine is a special card", "pig")


def test_the_pig_discarding_itself():
    refused(game_after({"type": "deal"}), {"type": "pig", "seat": 0, "discard": "exploding-pig"},
            RuleViolation, "discards one other card", "pig")


def test_the_pig_from_a_seat_holding_one_card():
    game = game_after({"type": "deal", "counts": [1, 4, 4, 4]}, options=SMALL)
    refused(game, {"type": "pig", "seat": 0, "discard": "orc"}, RuleViolation,
            "Ann holds 1 card: the Exploding Pig and one more card are needed", "pig")


def test_an_unknown_card_names_the_field():
    refused(in_play(), {"type": "play", "seat": 3, "cards": ["goblin", "goblin"]}, EventError,
            "field 'cards': unknown card 'goblin'")
    refused(game_after({"type": "deal"}), {"type": "pig", "seat": 0, "discard": "goblin"},
            EventError, "field 'discard': unknown card 'goblin'")


def test_an_empty_play():
    refused(in_play(), {"type": "play", "seat": 3, "cards": []}, RuleViolation,
            "a play needs at least one card", "set")


def test_a_seat_with_no_cards_left():
    game = game_after({"type": "deal", "counts": [3, 3, 3, 4]},
                      {"type": "pig", "seat": 0, "discard": "orc"},
                      {"type": "play", "seat": 1, "cards": ["orc"]},
                      {"type": "play", "seat": 2, "cards": ["skeleton"]},
                      {"type": "play", "seat": 3, "cards": ["warrior"]},
                      {"type": "play", "seat": 0, "cards": ["killing-machine"]},
                      options=SMALL)
    assert game.view(None)["counts"][0] == 0
    refused(game, {"type": "play", "seat": 0, "cards": ["orc"]}, RuleViolation,
            "Ann has no cards left", "hand-count")
    refused(game, {"type": "pass", "seat": 0}, RuleViolation, "Ann has no cards left",
            "hand-count")


def test_more_cards_than_the_seat_holds():
    game = game_after({"type": "deal", "counts": [4, 2, 3, 4]},
                      {"type": "pig", "seat": 0, "discard": "orc"}, options=SMALL)
    refused(game, {"type": "play", "seat": 1, "cards": ["orc", "orc", "orc"]}, RuleViolation,
            "Bob holds 2 cards, 3 given", "hand-count")


def test_the_pig_inside_a_set():
    refused(in_play(), {"type": "play", "seat": 3, "cards": ["exploding-pig", "orc"]},
            RuleViolation, "the Exploding Pig is played only before the first hand", "pig")


def test_the_killing_machine_with_other_cards():
    refused(in_play(), {"type": "play", "seat": 0, "cards": ["killing-machine", "orc"]},
            RuleViolation, "The Killing Machine is played alone", "killing-machine")


def test_a_second_killing_machine():
    game = in_play()
    game.apply({"type": "play", "seat": 0, "cards": ["killing-machine"]})
    refused(game, {"type": "play", "seat": 2, "cards": ["killing-machine"]}, RuleViolation,
            "The Killing Machine was already played this round", "copies")


def test_out_of_turn():
    refused(in_play(), {"type": "play", "seat": 0, "cards": ["troll", "troll"]}, RuleViolation,
            "it is Dee's turn, not Ann's", "turn")
    refused(in_play(), {"type": "pass", "seat": 1}, RuleViolation,
            "it is Dee's turn, not Bob's", "turn")


def test_the_leader_passing():
    game = game_after({"type": "deal"}, {"type": "pig", "seat": 1, "discard": "orc"})
    refused(game, {"type": "pass", "seat": 2}, RuleViolation,
            "Cy leads this hand and must play a set: only followers may pass", "lead")


def test_two_creature_types_in_one_set():
    refused(in_play(), {"type": "play", "seat": 3, "cards": ["troll", "orc"]}, RuleViolation,
            "a set is one creature type (plus wilds): Orc and Troll given", "set")


def test_more_copies_than_the_pack_holds():
    game = in_play()  # 1 Orc went with the Pig, the pack has 6
    game.apply({"type": "pass", "seat": 3})
    game.apply({"type": "pass", "seat": 0})
    game.apply({"type": "pass", "seat": 1})
    refused(game, {"type": "play", "seat": 2, "cards": ["orc"] * 6}, RuleViolation,
            "the pack has 6 Orc cards, 1 already played this round: 6 more cannot be", "copies")
    refused(game, {"type": "play", "seat": 2, "cards": ["chaindog", "chaindog"]}, RuleViolation,
            "the pack has only 1 Chaindog", "copies")


def test_a_different_number_of_cards():
    game = game_after({"type": "deal"}, {"type": "pig", "seat": 1, "discard": "orc"},
                      {"type": "play", "seat": 2, "cards": ["skeleton"] * 3})
    refused(game, {"type": "play", "seat": 3, "cards": ["troll", "troll"]}, RuleViolation,
            "3 cards needed, 2 given", "same-count")


def test_a_lower_set():
    refused(in_play(), {"type": "play", "seat": 3, "cards": ["orc", "chaindog"]}, RuleViolation,
            "Orc (2) does not beat Skeleton (3)", "follow-higher")


def test_an_equal_set():
    refused(in_play(), {"type": "play", "seat": 3, "cards": ["skeleton", "red-lotus"]},
            RuleViolation, "Skeleton (3) does not beat Skeleton (3): equal never beats",
            "follow-higher")


def test_wilds_alone_do_not_beat_a_creature():
    refused(in_play(), {"type": "play", "seat": 3, "cards": ["chaindog", "red-lotus"]},
            RuleViolation, "Chaindog and Red Lotus (0) does not beat Skeleton (3)",
            "follow-higher")


def test_a_deal_during_a_round():
    refused(in_play(), {"type": "deal"}, RuleViolation, "round 1 is still being played", "deal")
    refused(game_after({"type": "deal"}), {"type": "deal"}, RuleViolation,
            "round 1 is still being played", "deal")


def test_a_deal_after_the_last_round():
    game = game_after(options={"rounds": 1, **SMALL})
    for event in ({"type": "deal", "counts": [2, 2, 2, 7]},
                  {"type": "pig", "seat": 0, "discard": "orc"},
                  {"type": "play", "seat": 1, "cards": ["orc", "orc"]},
                  {"type": "play", "seat": 2, "cards": ["warrior", "warrior"]}):
        game.apply(event)
    assert game.finished
    refused(game, {"type": "deal"}, RuleViolation, "the game is over: all 1 rounds were played",
            "rounds")
    refused(game, {"type": "pass", "seat": 3}, RuleViolation, "the game is over", "rounds")


def test_deal_counts_of_the_wrong_length_or_sum():
    refused(game_after(), {"type": "deal", "counts": [20, 20, 42]}, RuleViolation,
            "counts: 4 hand counts needed (one per seat), 3 given", "deal")
    refused(game_after(), {"type": "deal", "counts": [20, 20, 20, 20]}, RuleViolation,
            "the counts add up to 80 cards, the whole pack of 82 is dealt", "deal")
    refused(game_after(), {"type": "deal", "counts": [0, 20, 20, 42]}, EventError,
            "field 'counts' of a deal event must be between 1 and")


@pytest.mark.parametrize(("event", "message"), [
    ({"type": "play", "seat": 3}, "missing field 'cards' in a play event"),
    ({"type": "play", "seat": 3, "cards": "troll"}, "field 'cards' of a play event must be a list"),
    ({"type": "play", "seat": 9, "cards": ["troll"]}, "unknown seat 9"),
    ({"type": "pass", "seat": 3, "why": "tired"}, "unknown field 'why' in a pass event"),
    ({"type": "trick", "seat": 3}, "unknown event type 'trick' for deathtrap"),
    ({"type": "pig", "seat": 0, "discard": "orc", "lead": 7}, "unknown seat 7 in field 'lead'"),
])
def test_malformed_events_name_the_field(event, message):
    refused(in_play(), event, EventError, message)


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
