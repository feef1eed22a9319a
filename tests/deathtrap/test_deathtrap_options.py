"""Each named option of docs/rulings.md for Deathtrap Dungeon changes behaviour as it says."""

from __future__ import annotations

import pytest

from companion.bundles.deathtrap.rules.deck import default_deck
from companion.bundles.deathtrap.rules.engine import Deathtrap
from companion.errors import EventError, RuleViolation

SEATS = ["Ann", "Bob", "Cy", "Dee"]
SMALL = {"creatures": [
    {"id": "orc", "name": "Orc", "value": 2, "copies": 3},
    {"id": "skeleton", "name": "Skeleton", "value": 3, "copies": 3},
    {"id": "warrior", "name": "Warrior", "value": 5, "copies": 3}]}
# With SMALL and these counts one round takes four events: Pig (Ann out), Bob, Cy out; Dee last.
QUICK_ROUND = [{"type": "deal", "counts": [2, 2, 2, 7]},
               {"type": "pig", "seat": 0, "discard": "orc"},
               {"type": "play", "seat": 1, "cards": ["orc", "orc"]},
               {"type": "play", "seat": 2, "cards": ["warrior", "warrior"]}]


def play(options: dict, *events: dict) -> Deathtrap:
    game = Deathtrap(SEATS, seed=5, options=options)
    for event in events:
        game.apply(event)
    return game


def opened(**options) -> Deathtrap:
    """Bob used the Pig, Cy leads two Skeletons."""
    return play(options, {"type": "deal"}, {"type": "pig", "seat": 1, "discard": "orc"},
                {"type": "play", "seat": 2, "cards": ["skeleton", "skeleton"]})


def test_every_ruling_is_an_option_with_a_default_and_help():
    options = {option.name: option for option in Deathtrap.OPTIONS}
    assert set(options) == {"deck", "rounds", "first_dealer", "dealer_rotates", "pig_discard",
                            "pig_default_lead", "wilds_alone_value", "equal_beats",
                            "pass_locks_out", "exchange"}
    defaults = {name: option.default for name, option in options.items()}
    assert defaults["rounds"] == 4 and defaults["wilds_alone_value"] == 0
    assert defaults["pass_locks_out"] is False and defaults["equal_beats"] is False
    assert defaults["deck"] == default_deck()
    assert all(option.help for option in options.values())


def test_default_deck_is_the_assumed_82_card_pack():
    creatures = default_deck()["creatures"]
    assert len(creatures) == 13 and all(c["copies"] == 6 for c in creatures)
    values = {c["name"]: c["value"] for c in creatures}
    assert values["Skeleton"] == 3 and values["Warrior"] == 5
    assert sorted(values.values()) == list(range(1, 14))
    assert Deathtrap(SEATS, seed=1).pack.size == 82


def test_deck_replaces_the_creatures_and_keeps_the_specials():
    deck = {"creatures": [{"id": "goblin", "name": "Goblin", "value": 7, "copies": 10}]}
    game = play({"deck": deck}, {"type": "deal"})
    # 10 Goblins + 4 specials: 3 each, 2 more to seats 1 and 2, left of dealer 0.
    assert game.view(None)["counts"] == [3, 4, 4, 3]
    game.apply({"type": "pig", "seat": 0, "discard": "goblin"})
    game.apply({"type": "play", "seat": 1, "cards": ["goblin", "chaindog"]})
    with pytest.raises(RuleViolation, match="Goblin \\(7\\) does not beat Goblin \\(7\\)"):
        game.apply({"type": "play", "seat": 2, "cards": ["goblin", "goblin"]})
    with pytest.raises(EventError, match="unknown card 'orc'"):
        game.apply({"type": "play", "seat": 2, "cards": ["orc", "orc"]})


def test_rounds_sets_the_length_of_the_game():
    game = play({"deck": SMALL, "rounds": 2}, *QUICK_ROUND)
    assert not game.finished and game.view(None)["phase"] == "exchange"
    for event in QUICK_ROUND:
        game.apply(event)
    assert game.finished and game.rounds() == [[4, 3, 2, 1], [4, 3, 2, 1]]
    assert game.winners() == [0]


def test_first_dealer_and_the_extra_cards_left_of_them():
    game = play({"first_dealer": 2}, {"type": "deal"})
    # 82 = 4 x 20 + 2: seats 3 and 0, left of the dealer, get 21.
    assert game.view(None)["dealer"] == 2
    assert game.view(None)["counts"] == [21, 20, 20, 21]


@pytest.mark.parametrize(("rotates", "dealers"), [(True, [0, 1]), (False, [0, 0])])
def test_dealer_rotates(rotates, dealers):
    game = play({"deck": SMALL, "dealer_rotates": rotates}, *QUICK_ROUND, {"type": "deal"})
    assert game.view(None)["dealer"] == dealers[1]


def test_pig_discard_any_lets_the_pig_take_a_wild():
    with pytest.raises(RuleViolation, match="kills a monster"):
        play({}, {"type": "deal"}, {"type": "pig", "seat": 0, "discard": "red-lotus"})
    game = play({"pig_discard": "any"}, {"type": "deal"},
                {"type": "pig", "seat": 0, "discard": "red-lotus"})
    assert game.view(None)["played"] == {"exploding-pig": 1, "red-lotus": 1}


@pytest.mark.parametrize(("default_lead", "leader"), [("left", 1), ("holder", 0)])
def test_pig_default_lead(default_lead, leader):
    game = play({"pig_default_lead": default_lead}, {"type": "deal"},
                {"type": "pig", "seat": 0, "discard": "orc"})
    assert game.view(None)["leader"] == leader
    named = play({"pig_default_lead": default_lead}, {"type": "deal"},
                 {"type": "pig", "seat": 0, "discard": "orc", "lead": 3})
    assert named.view(None)["leader"] == 3  # the holder's choice always wins


def test_wilds_alone_value():
    wilds = {"type": "play", "seat": 3, "cards": ["chaindog", "red-lotus"]}
    with pytest.raises(RuleViolation, match="Chaindog and Red Lotus \\(0\\) does not beat"):
        opened().apply(wilds)
    game = opened(wilds_alone_value=4)
    game.apply(wilds)
    assert game.view(None)["to_beat"]["value"] == 4


def test_equal_beats():
    equal = {"type": "play", "seat": 3, "cards": ["skeleton", "skeleton"]}
    with pytest.raises(RuleViolation, match="equal never beats"):
        opened().apply(equal)
    game = opened(equal_beats=True)
    game.apply(equal)
    assert game.view(None)["to_beat"]["seat"] == 3
    with pytest.raises(RuleViolation, match="Orc \\(2\\) does not beat Skeleton \\(3\\)"):
        game.apply({"type": "play", "seat": 0, "cards": ["orc", "orc"]})


def sit_out(game: Deathtrap) -> None:
    game.apply({"type": "pass", "seat": 3})
    game.apply({"type": "play", "seat": 0, "cards": ["troll", "troll"]})
    game.apply({"type": "pass", "seat": 1})
    game.apply({"type": "pass", "seat": 2})


def test_pass_does_not_lock_out_by_default():
    game = opened()
    sit_out(game)
    # Dee passed before Ann's Trolls: she may still answer them.
    assert game.view(None)["turn"] == 3 and game.view(None)["passed"] == [1, 2]
    game.apply({"type": "play", "seat": 3, "cards": ["ninja", "ninja"]})


def test_pass_locks_out():
    game = opened(pass_locks_out=True)
    sit_out(game)
    # Dee, Bob and Cy have all passed in this hand: it ends and Ann leads the next.
    state = game.view(None)
    assert state["leader"] == 0 and state["turn"] == 0 and state["to_beat"] is None


def test_locked_out_seat_is_skipped_in_the_turn_order():
    game = opened(pass_locks_out=True)
    game.apply({"type": "pass", "seat": 3})
    game.apply({"type": "play", "seat": 0, "cards": ["troll", "troll"]})
    game.apply({"type": "play", "seat": 1, "cards": ["ninja", "ninja"]})
    game.apply({"type": "play", "seat": 2, "cards": ["pit-fiend", "pit-fiend"]})
    assert game.view(None)["turn"] == 0  # Dee is skipped
    with pytest.raises(RuleViolation, match="it is Ann's turn"):
        game.apply({"type": "play", "seat": 3, "cards": ["bloodbeast", "bloodbeast"]})


@pytest.mark.parametrize(("exchange", "phase", "prompt"), [
    (True, "exchange", "Give your 2 highest creature cards to Ann, then take 2 back"),
    (False, "deal", None)])
def test_exchange(exchange, phase, prompt):
    game = play({"deck": SMALL, "exchange": exchange}, *QUICK_ROUND)
    assert game.view(None)["phase"] == phase
    assert game.view(3)["prompt"] == prompt  # Dee was last: the Total Wimp
