"""Illegal Rumble events are refused with the rule and a reason, leaving the state unchanged.

Default map, characters in row order (see test_rumble_games.py):
    A1 knight  A2 thief  A3 twin-thief  A4 barbarian   (entry A1)
    B1 wizard  B2 priest B3 dwarf       B4 elf
    C1 zombie  C2 cube   C3 goblin      C4 skeleton    (chest C4)
"""

from __future__ import annotations

import pytest
from helpers import refused

from companion.bundles.rumble.rules.data import default_map
from companion.errors import EventError, OptionError
from companion.games.registry import engine

SEATS = ["Ann", "Bob", "Cy"]


def move(seat, character, to, chest=False):
    return {"type": "move", "seat": seat, "character": character, "to": to, "chest": chest}


def fight(seat, victim):
    return {"type": "fight", "seat": seat, "victim": victim}


def escape(seat, character):
    return {"type": "escape", "seat": seat, "character": character}


def secrets(seat, *characters):
    return {"type": "secrets", "seat": seat, "characters": list(characters)}


def game_after(*events, seats=SEATS, **options):
    game = engine("rumble")(seats, 3, options)
    for event in ({"type": "start", "seat": 0}, *events):
        game.apply(event)
    return game


def test_a_character_that_is_not_alone_moves_only_with_the_chest():
    game = game_after(move(0, "thief", "A1"))
    refused(game, move(1, "knight", "B1"), "alone", "Knight is not alone in A1")


def test_a_move_needs_a_door():
    refused(game_after(), move(0, "knight", "B2"), "door", "no door leads from A1 to B2")


def test_a_move_to_an_unknown_room():
    refused(game_after(), move(0, "knight", "Z9"), "unknown-room", "'Z9'")


def test_a_chest_move_needs_the_chest_in_the_room():
    refused(game_after(), move(0, "knight", "A2", chest=True), "chest", "the chest is in C4")


def test_a_fight_needs_two_characters_in_the_room():
    refused(game_after(), fight(0, "elf"), "fight", "Elf is alone in B4")


def test_an_escape_only_from_the_entry():
    # Skeleton shares C4 with the chest, but C4 is not the entry.
    refused(game_after(), escape(0, "skeleton"), "escape-entry", "Skeleton is in C4", "A1")


def test_an_escape_only_with_the_chest():
    refused(game_after(), escape(0, "knight"), "escape-chest", "the chest is in C4")


def test_acting_out_of_turn():
    refused(game_after(), move(2, "knight", "A2"), "turn", "it is Ann's turn, not Cy's")


def test_an_unknown_character():
    refused(game_after(), move(0, "dragon", "A2"), "unknown-character", "'dragon'")
    refused(game_after(), fight(0, "dragon"), "unknown-character", "'dragon'")


def test_a_character_that_has_left_cannot_act_or_be_fought():
    game = game_after(move(0, "thief", "A1"), fight(1, "thief"))
    refused(game, move(2, "thief", "A2"), "left", "Thief has already left")
    refused(game, fight(2, "thief"), "left", "Thief has already left")


def test_secrets_must_be_two_different_known_characters():
    game = game_after()
    refused(game, secrets(0, "elf"), "secrets-count", "exactly 2")
    refused(game, secrets(0, "elf", "elf"), "secrets-count", "Elf twice")
    refused(game, secrets(0, "elf", "dragon"), "unknown-character", "'dragon'")


def test_a_secret_token_is_held_by_one_seat():
    # Told in private, a clash is not named (it would tell Bob Ann's token): it holds up play.
    game = game_after(secrets(0, "elf", "knight"), secrets(1, "dwarf", "elf"),
                      secrets(2, "thief", "goblin"))
    refused(game, move(0, "knight", "A2"), "secrets-taken", "same secret character")
    refused(game, secrets(0, "dwarf", "thief"), "secrets-once", "Ann has already given")


def test_with_some_secrets_given_every_seat_must_give_them_before_play():
    game = game_after(secrets(0, "elf", "knight"), secrets(2, "dwarf", "thief"))
    refused(game, move(0, "knight", "A2"), "secrets-missing", "Bob")
    assert game.view(1)["prompt"] == "Give your 2 secret characters"


def test_dealt_secrets_cannot_be_replaced_once_play_began():
    game = game_after(move(0, "thief", "A1"))
    refused(game, secrets(1, "elf", "dwarf"), "secrets-timing", "first action")


def test_physical_tokens_are_revealed_at_the_end_not_during_play():
    game = game_after(move(0, "thief", "A1"), deal_secrets=False)
    refused(game, secrets(1, "elf", "dwarf"), "secrets-timing", "reveal")


def test_the_first_player_is_named_before_the_first_action():
    refused(game_after(move(0, "thief", "A1")), {"type": "start", "seat": 2}, "start")


def small_map():
    return {"rooms": ["R1", "R2", "R3", "R4", "R5", "R6"],
            "doors": [["R1", "R2"], ["R2", "R3"], ["R3", "R4"], ["R4", "R5"], ["R5", "R6"],
                      ["R1", "R3"], ["R1", "R4"], ["R1", "R5"], ["R1", "R6"]],
            "entry": "R1", "treasure": "R6"}


def ended_game():
    """3 seats, 6 characters, deal_secrets false: one character left, reveals pending."""
    game = engine("rumble")(SEATS, 3, {"deal_secrets": False, "map": small_map(),
                                       "characters": ["knight", "thief", "elf", "dwarf", "orc",
                                                      "troll"]})
    # Start: knight R1, thief R2, elf R3, dwarf R4, orc R5, troll R6 (chest).
    events = [{"type": "start", "seat": 0}, move(0, "thief", "R1"), fight(1, "thief"),
              move(2, "elf", "R1"), fight(0, "elf"), move(1, "dwarf", "R1"), fight(2, "dwarf"),
              move(0, "orc", "R1"), fight(1, "orc"), move(2, "troll", "R1"), fight(0, "troll")]
    for event in events:
        game.apply(event)
    return game


def test_actions_wait_for_the_reveals():
    game = ended_game()
    assert game.view(None)["phase"] == "reveal"
    refused(game, move(1, "knight", "R2"), "reveal", "waiting for the secret characters")


def test_nothing_after_the_last_adventure():
    game = engine("rumble")(SEATS, 3, {"adventures": 1, "deal_secrets": False,
                                       "map": small_map(), "characters": [
                                           "knight", "thief", "elf", "dwarf", "orc", "troll"]})
    for event in [{"type": "start", "seat": 0}, move(0, "thief", "R1"), fight(1, "thief"),
                  move(2, "elf", "R1"), fight(0, "elf"), move(1, "dwarf", "R1"),
                  fight(2, "dwarf"), move(0, "orc", "R1"), fight(1, "orc"),
                  move(2, "troll", "R1"), fight(0, "troll"), secrets(0, "knight", "thief"),
                  secrets(1, "elf", "dwarf"), secrets(2, "orc", "troll")]:
        game.apply(event)
    # Ranking: knight 10, troll 9, orc 8, dwarf 7, elf 6, thief 5.
    assert game.finished and game.rounds() == [[10, 7, 9]] and game.winners() == [0]
    refused(game, move(0, "knight", "R2"), "game-over", "over")
    refused(game, secrets(0, "knight", "thief"), "game-over", "over")


@pytest.mark.parametrize("event, words", [
    ({"type": "move", "seat": 0, "character": "knight"}, "missing field 'to'"),
    ({"type": "move", "seat": 0, "character": "knight", "to": "A2", "door": 1},
     "unknown field 'door'"),
    ({"type": "fight", "seat": 7, "victim": "knight"}, "unknown seat 7"),
    ({"type": "move", "seat": 0, "character": "knight", "to": "A2", "chest": "yes"},
     "field 'chest'"),
    ({"type": "secrets", "seat": 0, "characters": ["elf", 3]}, "field 'characters'"),
    ({"type": "teleport", "seat": 0}, "unknown event type 'teleport'"),
])
def test_malformed_events_name_the_field(event, words):
    game = game_after()
    before = game.referee_view()
    with pytest.raises(EventError, match=words):
        game.apply(event)
    assert game.referee_view() == before


@pytest.mark.parametrize("options, words", [
    ({"map": {**default_map(), "doors": [["A1", "Z9"]]}}, "'Z9', which is not in 'rooms'"),
    ({"map": {**default_map(), "doors": [["A1", "A2"]]}}, "no doors lead from the entry"),
    ({"map": {**default_map(), "treasure": "A1"}}, "must be different rooms"),
    ({"map": {**default_map(), "start": {"knight": "A1"}}}, "'start' gives no room for thief"),
    ({"map": {**default_map(), "exit": "A1"}}, "unknown key 'exit'"),
    ({"characters": ["knight", "elf", "orc", "troll", "imp"]}, "need at least 6 characters"),
    ({"characters": ["knight", "knight"]}, "'knight' is listed twice"),
    ({"deal_secrets": "yes"}, "option 'deal_secrets'"),
    ({"adventures": 0}, "option 'adventures'"),
    ({"first_player_tie": "oldest"}, "option 'first_player_tie'"),
    ({"dice": 2}, "unknown option 'dice'"),
])
def test_bad_options_are_refused_by_name(options, words):
    with pytest.raises(OptionError, match=words):
        engine("rumble")(SEATS, 3, options)


def test_seat_counts_follow_the_box():
    with pytest.raises(OptionError, match="3 to 6 seats"):
        engine("rumble")(["Ann", "Bob"], 3)
    with pytest.raises(OptionError, match="3 to 6 seats"):
        engine("rumble")([f"P{i}" for i in range(7)], 3)


def test_a_table_map_with_its_own_start_placement():
    dungeon = small_map()
    dungeon["start"] = {"knight": "R6", "thief": "R6", "elf": "R1", "dwarf": "R2", "orc": "R3",
                        "troll": "R4"}
    game = engine("rumble")(SEATS, 3, {"map": dungeon, "characters": [
        "knight", "thief", "elf", "dwarf", "orc", "troll"]})
    game.apply({"type": "start", "seat": 0})
    # Knight and thief share the treasure room: either may carry the chest out, not walk alone.
    refused(game, move(0, "knight", "R5"), "alone")
    game.apply(move(0, "knight", "R5", chest=True))
    assert game.view(None)["chest"] == "R5"
