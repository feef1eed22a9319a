"""Illegal Tricky Dungeon events: each is refused with a reason and the state unchanged."""

from __future__ import annotations

from typing import Any

import pytest
from helpers import refused

from companion.bundles.tricky.rules.deck import default_deck
from companion.bundles.tricky.rules.engine import Tricky
from companion.errors import EventError, OptionError
from companion.games.registry import engine

SEATS = ["Ann", "Bob", "Cy", "Dee"]


def new_game(seats: int = 4, **options: Any) -> Tricky:
    return Tricky(SEATS[:seats], 5, options)


def started(hero: str = "thief", seats: int = 4, **fields: Any) -> Tricky:
    """A game dealt with Ann active and ``hero`` chosen."""
    options = {}
    for hero_set, heroes in (("B", "dwarven-hunter trickster seer troubadour sorcerer"),
                             ("C", "knight ninja elvish-hunter nymph fairy-scout")):
        if hero in heroes.split():
            options["hero_set"] = hero_set
    game = new_game(seats, **options)
    game.apply({"type": "deal"})
    game.apply({"type": "hero", "seat": 0, "hero": hero, **fields})
    return game


def play(game: Tricky, *cards: str, first: int = 0) -> None:
    for offset, card in enumerate(cards):
        game.apply({"type": "play", "seat": (first + offset) % len(game.seats), "card": card})


def play_out(game: Tricky) -> None:
    """Play the round's tricks with the deck in order, each trick led by the last winner."""
    cards = iter(game.deck.cards)
    while game.view(None)["phase"] in ("prepare", "play"):
        play(game, *(next(cards) for _ in game.seats), first=game.view(None)["leader"])


# --- the illegal events of the issue ----------------------------------------------------

def test_card_played_twice() -> None:
    game = started()
    play(game, "red-7", "red-0", "red-1", "red-3")
    refused(game, {"type": "play", "seat": 0, "card": "red-0"}, "card-played",
            "red-0 was already played in trick 1")


def test_wrong_seats_turn() -> None:
    game = started()
    play(game, "red-7")
    refused(game, {"type": "play", "seat": 2, "card": "red-1"}, "turn",
            "It is Bob's turn to play, not Cy's")


def test_trump_where_the_hero_has_none() -> None:
    game = new_game()
    game.apply({"type": "deal"})
    refused(game, {"type": "hero", "seat": 0, "hero": "thief", "trump_suit": "red"},
            "no-trump", "The Thief does not let the active player choose a trump suit")
    refused(game, {"type": "hero", "seat": 0, "hero": "barbarian", "trump_value": 3},
            "no-trump", "trump value")
    game = started("thief")
    refused(game, {"type": "trump", "seat": 1, "suit": "red"}, "no-trump",
            "With the Thief nobody names a trump suit")


def test_exchange_over_the_limit() -> None:
    game = started()  # 4 players: 32 - 28 = 4 cards left over
    refused(game, {"type": "exchange", "seat": 0, "count": 5}, "exchange-limit",
            "Ann may exchange at most 4 cards now, not 5")
    game = started(seats=3)  # 3 players: 5 left over
    game.apply({"type": "exchange", "seat": 0, "count": 5})
    game = started(seats=2)  # 2 players: at most 7, the other at most as many
    refused(game, {"type": "exchange", "seat": 0, "count": 8}, "exchange-limit", "at most 7")
    game.apply({"type": "exchange", "seat": 0, "count": 3})
    refused(game, {"type": "exchange", "seat": 1, "count": 4}, "exchange-limit",
            "Bob may exchange at most 3 cards now, not 4")


def test_potion_exchange_in_the_two_player_game() -> None:
    game = started(seats=2)
    refused(game, {"type": "exchange", "seat": 0, "count": 2, "cards": ["red-3", "green-6"]},
            "two-player-potions", "green-6 stays in hand")


def test_unknown_hero() -> None:
    game = new_game()
    game.apply({"type": "deal"})
    refused(game, {"type": "hero", "seat": 0, "hero": "paladin"}, "hero",
            "Unknown hero 'paladin'")


# --- more refusals ----------------------------------------------------------------------

def test_hero_from_another_set_and_by_another_seat() -> None:
    game = new_game()
    game.apply({"type": "deal"})
    refused(game, {"type": "hero", "seat": 0, "hero": "ninja"}, "hero-set",
            "The Ninja is not in hero set A")
    refused(game, {"type": "hero", "seat": 1, "hero": "thief"}, "turn",
            "Ann is the active player and chooses the hero, not Bob")


def test_hero_asking_for_trump_needs_it() -> None:
    game = new_game()
    game.apply({"type": "deal"})
    refused(game, {"type": "hero", "seat": 0, "hero": "barbarian"}, "trump",
            "The Barbarian asks for a trump suit")
    refused(game, {"type": "hero", "seat": 0, "hero": "barbarian", "trump_suit": "purple"},
            "suit", "Unknown suit 'purple'")
    game = new_game(hero_set="C")
    game.apply({"type": "deal"})
    refused(game, {"type": "hero", "seat": 0, "hero": "knight", "trump_value": 9}, "trump",
            "No card has the value 9")


def test_hero_chosen_once() -> None:
    game = started()
    refused(game, {"type": "hero", "seat": 0, "hero": "witch"}, "hero-chosen",
            "already chosen: the Thief")


def test_guild_hero_played_once_per_player() -> None:
    game = new_game(2, variant="guild", rounds_per_player=2)
    game.apply({"type": "deal"})
    game.apply({"type": "hero", "seat": 0, "hero": "thief"})
    play_out(game)
    game.apply({"type": "deal"})
    game.apply({"type": "hero", "seat": 1, "hero": "thief"})  # Bob has not played it yet
    assert game.view(None)["heroes_used"] == [["thief"], ["thief"]]


def test_guild_refuses_a_repeat() -> None:
    game = new_game(4, variant="guild")
    for number in range(4):
        game.apply({"type": "deal"})
        game.apply({"type": "hero", "seat": number, "hero": "thief"})
        play_out(game)
    game.apply({"type": "deal"})
    assert game.view(0)["hero_choices"] == ["assassin", "barbarian", "wizard", "witch"]
    refused(game, {"type": "hero", "seat": 0, "hero": "thief"}, "guild",
            "Ann has already played the Thief")


def test_troubadour_trump_by_the_left_neighbour_before_the_first_card() -> None:
    game = started("troubadour")
    assert game.view(1)["prompt"] == "Name the trump suit" and game.view(1)["your_turn"]
    refused(game, {"type": "play", "seat": 0, "card": "red-1"}, "trump",
            "Bob names the trump suit for the Troubadour before the first card")
    refused(game, {"type": "trump", "seat": 2, "suit": "red"}, "turn",
            "Bob, left of the Troubadour, names the trump suit, not Cy")
    game.apply({"type": "trump", "seat": 1, "suit": "red"})
    refused(game, {"type": "trump", "seat": 1, "suit": "blue"}, "trump", "already named: red")


def test_seer_predicts_after_exchanges_and_before_the_first_card() -> None:
    game = started("seer")
    refused(game, {"type": "play", "seat": 0, "card": "red-1"}, "predict",
            "Ann makes the Seer's prediction before the first card")
    refused(game, {"type": "predict", "seat": 1, "count": 2}, "turn", "Ann, the Seer, predicts")
    refused(game, {"type": "predict", "seat": 0, "count": 12}, "predict",
            "At most 11 tricks and potions")
    game.apply({"type": "predict", "seat": 0, "count": 3})
    refused(game, {"type": "exchange", "seat": 0, "count": 1}, "exchange",
            "The Seer has predicted: exchanges are over")
    game = started("thief")
    refused(game, {"type": "predict", "seat": 0, "count": 3}, "predict",
            "Only the Seer makes a prediction")


def test_exchange_rules() -> None:
    game = started()
    refused(game, {"type": "exchange", "seat": 1, "count": 1}, "exchange",
            "Only the active player exchanges cards with 3 or 4 players")
    refused(game, {"type": "exchange", "seat": 0, "count": 1, "cards": ["red-1"]}, "exchange",
            "discards stay face down")
    game.apply({"type": "exchange", "seat": 0, "count": 2})
    refused(game, {"type": "exchange", "seat": 0, "count": 1}, "exchange",
            "Ann has already exchanged this round")
    play(game, "red-1")
    game = started()
    play(game, "red-1")
    refused(game, {"type": "exchange", "seat": 0, "count": 1}, "cards-played",
            "the first card is played")
    game = started(seats=2)
    refused(game, {"type": "exchange", "seat": 1, "count": 1}, "exchange-order",
            "The active player exchanges first")
    refused(game, {"type": "exchange", "seat": 0, "count": 2, "cards": ["red-3"]}, "exchange",
            "names 1 different cards for a count of 2")
    game.apply({"type": "exchange", "seat": 0, "count": 2, "cards": ["red-3", "red-4"]})
    refused(game, {"type": "play", "seat": 0, "card": "red-4"}, "card-discarded",
            "red-4 was exchanged away this round")


def test_trickster_open_cards() -> None:
    game = started("trickster")
    refused(game, {"type": "exchange", "seat": 0, "count": 0}, "open-cards",
            "The Trickster turns four cards face up before any exchange")
    refused(game, {"type": "open_cards", "seat": 0, "cards": ["red-1", "red-2", "red-3"]},
            "open-cards", "turns 4 different cards face up, got 3")
    refused(game, {"type": "open_cards", "seat": 1,
                   "cards": ["red-1", "red-2", "red-3", "red-4"]}, "turn", "Ann, the Trickster")
    game.apply({"type": "open_cards", "seat": 0, "cards": ["red-1", "red-2", "red-3", "red-4"]})
    # With 4 players the four open cards were the whole leftover pile.
    refused(game, {"type": "exchange", "seat": 0, "count": 1}, "exchange-limit",
            "at most 0 cards")
    play(game, "blue-7")
    refused(game, {"type": "play", "seat": 1, "card": "red-2"}, "open-card",
            "red-2 lies face up in front of the Trickster (Ann)")
    play(game, "blue-1", "blue-2", "blue-0", first=1)  # Ann's blue-7 wins: she leads
    play(game, "green-0", "green-7", "green-1", "green-2")  # Bob's green-7 wins: he leads
    play(game, "red-7", "red-0", "red-5", first=1)
    refused(game, {"type": "play", "seat": 0, "card": "yellow-0"}, "follow-suit",
            "Ann must follow red: red-1 lies face up in their hand")
    refused(game, {"type": "open_cards", "seat": 0, "cards": ["red-1", "red-2", "red-3",
                                                               "red-4"]},
            "cards-played", "Too late")


def test_ninja_plays_face_down_and_reveals_last() -> None:
    game = started("ninja")
    refused(game, {"type": "play", "seat": 0, "card": "red-1"}, "ninja",
            "The Ninja plays face down")
    game.apply({"type": "play", "seat": 0, "suit": "red", "face_down": True})
    refused(game, {"type": "play", "seat": 1, "suit": "red", "face_down": True}, "face-down",
            "Only the Ninja")
    refused(game, {"type": "reveal", "seat": 0, "card": "red-1"}, "reveal-early",
            "after the trick's other cards")
    play(game, "red-7", "red-0", "red-5", first=1)
    refused(game, {"type": "play", "seat": 1, "card": "blue-7"}, "reveal-first",
            "Ann reveals the face-down card")
    refused(game, {"type": "reveal", "seat": 0, "card": "blue-1"}, "reveal",
            "Ann played a face-down red card, not blue-1")
    refused(game, {"type": "reveal", "seat": 0, "card": "red-0"}, "card-played",
            "red-0 was already played")
    refused(game, {"type": "reveal", "seat": 1, "card": "red-1"}, "reveal",
            "Bob has no face-down card")
    game.apply({"type": "reveal", "seat": 0, "card": "red-1"})


def test_round_order() -> None:
    game = new_game()
    refused(game, {"type": "play", "seat": 0, "card": "red-1"}, "no-round",
            "start one with a deal")
    game.apply({"type": "deal", "active": 2})
    refused(game, {"type": "play", "seat": 2, "card": "red-1"}, "hero-first",
            "chooses a hero before the first card")
    refused(game, {"type": "deal"}, "round-in-progress", "Round 1 is still being played")
    game.apply({"type": "hero", "seat": 2, "hero": "thief"})
    play_out(game)
    refused(game, {"type": "play", "seat": 0, "card": "red-7"}, "no-round", "No round")
    refused(game, {"type": "deal", "active": 0}, "active-rotation",
            "Dee is the active player this round (it passes clockwise), not Ann")
    game.apply({"type": "deal"})
    assert game.view(None)["active"] == 3


def test_unknown_card_and_malformed_plays() -> None:
    game = started()
    refused(game, {"type": "play", "seat": 0, "card": "purple-9"}, "card",
            "Unknown card 'purple-9'")
    for event in ({"type": "play", "seat": 0},
                  {"type": "play", "seat": 0, "card": "red-1", "suit": "red"},
                  {"type": "play", "seat": 0, "card": "red-1", "colour": "red"},
                  {"type": "play", "seat": 7, "card": "red-1"}):
        with pytest.raises(EventError):
            game.apply(event)
    with pytest.raises(EventError, match="unknown seat 9"):
        new_game().apply({"type": "deal", "active": 9})


def test_random_dungeon_draws_and_refusals() -> None:
    game = new_game(variant="random")
    game.apply({"type": "deal"})
    pile = game.referee_view()["hero_pile"]
    assert len(pile) == 3 and len(set(pile)) == 3
    refused(game, {"type": "hero", "seat": 0, "hero": pile[1]}, "random-dungeon",
            "take it or refuse it")
    game.apply({"type": "hero", "seat": 0, "hero": pile[0], "refuse": True})
    game.apply({"type": "hero", "seat": 0, "hero": pile[1], "refuse": True})
    refused(game, {"type": "hero", "seat": 0, "hero": pile[2], "refuse": True},
            "random-dungeon", "is the last hero drawn: it must be played")
    assert game.view(0)["hero_choices"] == [pile[2]]
    standard = new_game()
    standard.apply({"type": "deal"})
    refused(standard, {"type": "hero", "seat": 0, "hero": "thief", "refuse": True}, "refuse",
            "Only in the random dungeon")


def test_random_dungeon_hides_heroes_not_yet_drawn() -> None:
    game = new_game(variant="random", random_refusals=14)
    game.apply({"type": "deal"})
    pile = game.referee_view()["hero_pile"]
    assert len(pile) == 15
    for seat in (None, 0, 1, 2, 3):
        text = repr(game.view(seat))
        assert pile[0] in text
        assert not any(hero in text for hero in pile[1:])


def test_game_over() -> None:
    game = new_game(2, rounds_per_player=1)
    for active in (0, 1):
        game.apply({"type": "deal"})
        game.apply({"type": "hero", "seat": active, "hero": "thief"})
        play_out(game)
    assert game.finished
    refused(game, {"type": "deal"}, "game-over", "The game is over")
    refused(game, {"type": "play", "seat": 0, "card": "red-1"}, "game-over", "The game is over")


# --- options ----------------------------------------------------------------------------

def test_bad_options_are_named() -> None:
    with pytest.raises(OptionError, match="option 'variant'"):
        new_game(variant="marathon")
    with pytest.raises(OptionError, match="unknown option 'heroes'"):
        new_game(heroes="A")
    with pytest.raises(OptionError, match="at most 5 rounds per player"):
        new_game(variant="guild", rounds_per_player=6)
    with pytest.raises(OptionError, match="needs 2 to 4 seats"):
        Tricky(["Ann"], 1, {})
    deck = default_deck()
    deck["colours"][1]["stars"] = 1
    with pytest.raises(OptionError, match="option 'deck': every colour needs a different"):
        new_game(deck=deck)
    deck = default_deck()
    deck["hand_size"]["4"] = 9
    with pytest.raises(OptionError, match="4 hands of 9 need more than the 32 cards"):
        new_game(deck=deck)


def test_replaced_deck_is_used() -> None:
    deck = default_deck()
    deck["colours"].append({"suit": "purple", "stars": 5, "potion": 0})
    deck["hand_size"]["4"] = 9
    game = Tricky(SEATS, 1, {"deck": deck})
    assert game.view(None)["tricks_per_round"] == 9
    game.apply({"type": "deal"})
    game.apply({"type": "hero", "seat": 0, "hero": "thief"})
    play(game, "purple-3")
    assert engine("tricky") is Tricky
