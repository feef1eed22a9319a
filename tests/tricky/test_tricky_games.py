"""Tricky Dungeon rounds and whole games from scripted tricks, with gold computed by hand.

Deck (tricky-deck.json, assumed): red 1 star, blue 2, yellow 3, green 4; values 0-7.
Potions: red-2, blue-5, yellow-1, green-6. Spells: every 3 and 4. Goblins: 1s and 2s that
are not potions. Orcs: 5s and 6s that are not potions. Torches: 0s. Ogres: 7s.

A trick is written (leader, "cards in play order from the leader", winner) with seats
counted from the active player (0 = active, 1 = the player on their left, ...), so a
scripted round can be played by any active seat. The winner of every trick was worked
out by hand from the rules; the engine must agree and let exactly that seat lead next.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from companion.bundles.tricky.rules.engine import Tricky
from companion.games.registry import engine

SEATS = ["Ann", "Bob", "Cy", "Dee"]
SUITS = {"r": "red", "b": "blue", "y": "yellow", "g": "green"}
LOGS = Path(__file__).parent.parent / "logs" / "tricky"


def card(short: str) -> str:
    return f"{SUITS[short[0]]}-{short[1:]}"


@dataclass(frozen=True)
class Scripted:
    """One scripted round: the hero event fields, set-up events, tricks and hand-computed gold."""

    hero: str
    tricks: tuple[tuple[int, str, int], ...]
    gold: tuple[int, ...]
    trump: dict[str, Any] = field(default_factory=dict)
    before: tuple[tuple[str, int, dict[str, Any]], ...] = ()


# --- 4 players: 7 cards each, 4 left over ----------------------------------------------

# Every trick followed; winners by highest card: the active player wins only trick 5.
BASE = ((0, "r0 r7 r1 r3", 1), (1, "b7 b0 b1 b2", 1), (1, "y7 y0 y1 y2", 1),
        (1, "g0 g7 g1 g2", 2), (2, "r4 r5 r6 r2", 0), (0, "b3 b4 b5 b6", 3),
        (3, "y3 y4 y5 y6", 2))
# Thief, 4 players: 4 gold, minus 1 for the one trick won.
THIEF = Scripted("thief", BASE, (3, 0, 0, 0))
# Assassin: the last trick goes to seat 2, so no gold: everyone else gains 1.
ASSASSIN_MISSES = Scripted("assassin", BASE, (0, 1, 1, 1))
# Assassin winning the last trick with yellow-6: 4 gold.
ASSASSIN = Scripted("assassin", BASE[:6] + ((3, "y3 y6 y4 y5", 0),), (4, 0, 0, 0))
# Trickster, 4 players: 4 gold minus 1 trick (trick 5) minus 1 potion in it (red-2) = 2.
# The four leftover cards are turned face up; the Trickster never needs them here.
TRICKSTER = Scripted("trickster", BASE, (2, 0, 0, 0),
                     before=(("open_cards", 0, {"cards": ["green-3", "green-4", "green-5",
                                                          "green-6"]}),))
# Seer: the active player takes 1 trick and 1 potion (red-2); predicting 2 earns 5 gold.
SEER = Scripted("seer", BASE, (5, 0, 0, 0), before=(("predict", 0, {"count": 2}),))
SEER_WRONG = Scripted("seer", BASE, (0, 1, 1, 1), before=(("predict", 0, {"count": 1}),))
# Ninja: plays face down; trick 5 brings red-4, one spell: 1 gold.
NINJA = Scripted("ninja", BASE, (1, 0, 0, 0))

# Fairy Scout: the second highest of the led suit wins, a lone card of the suit wins.
# Active wins trick 6 (blue-5 under blue-6) and trick 7 (yellow-3, the only yellow): 2 x 2.
FAIRY = Scripted("fairy-scout", (
    (0, "r0 r7 r1 r3", 3), (3, "b7 b0 b1 b2", 2), (2, "y7 y6 y1 y2", 3),
    (3, "g0 g7 g6 g2", 1), (1, "r4 r5 r6 r2", 2), (2, "b3 b4 b5 b6", 0),
    (0, "y3 g1 g3 g4", 0)), (4, 0, 0, 0))
# Nymph: the lowest of the led suit wins; the active player collects red-7 and blue-7,
# two ogres: 2 x 2 gold.
NYMPH = Scripted("nymph", (
    (0, "r0 r7 r1 r3", 0), (0, "b0 b7 b1 b2", 0), (0, "y1 y0 y7 y2", 1),
    (1, "g7 g0 g1 g2", 2), (2, "r4 r5 r6 r2", 1), (1, "b3 b4 b5 b6", 1),
    (1, "y3 y4 y5 y6", 1)), (4, 0, 0, 0))

# Barbarian with blue trump: seat 3 shows out of blue in trick 2; the active player trumps
# the yellow lead in trick 7. Active: 6 tricks + 2 potions (blue-5, yellow-1) = 8,
# 4 above the 4-player minimum of 4: 4 gold.
BARBARIAN = Scripted("barbarian", (
    (0, "b7 b0 b1 b2", 0), (0, "b6 b5 b3 g3", 0), (0, "r7 r0 r1 r3", 0),
    (0, "y7 y0 y1 y2", 0), (0, "g7 g0 g1 g2", 0), (0, "r4 r5 r6 r2", 2),
    (2, "y3 y4 b4 y6", 0)), (4, 0, 0, 0), trump={"trump_suit": "blue"})
# Troubadour: the player on the left names red. Active: trick 1 and trick 5 (trumping blue
# with red-3, taking blue-5): 2 tricks + 1 potion = 3 gold.
TROUBADOUR = Scripted("troubadour", (
    (0, "b7 b0 b1 b2", 0), (0, "r0 r7 r1 r2", 1), (1, "y7 y1 y0 g6", 1),
    (1, "g7 g0 g1 g2", 1), (1, "b3 b4 b5 r3", 0), (0, "r4 r5 r6 y2", 2),
    (2, "y3 y4 g3 y6", 1)), (3, 0, 0, 0), before=(("trump", 1, {"suit": "red"}),))
# Wizard: spells (3s and 4s) are trump. Active: trick 1 (red-3 beats red-7), trick 2
# (blue-4, taking blue-5), trick 7 (green-5): 1 potion = 2 gold.
WIZARD_TRICKS = (
    (0, "r3 r7 r0 r1", 0), (0, "b4 b5 b6 b7", 0), (0, "y0 y1 y3 y4", 3),
    (3, "g3 g6 g4 g7", 1), (1, "r4 r2 y2 r5", 1), (1, "b3 b0 b1 b2", 1),
    (1, "g0 g1 g2 g5", 0))
WIZARD = Scripted("wizard", WIZARD_TRICKS, (2, 0, 0, 0))
# Sorcerer, same trumps and tricks: 3 tricks + 1 potion = 4, not above 4: no gold.
SORCERER = Scripted("sorcerer", WIZARD_TRICKS, (0, 1, 1, 1))
# Witch: potions are trump. Active: trick 1 (red-2 trumps, taking red-3 and red-4),
# trick 6, trick 7: 2 spells = 2 gold.
WITCH = Scripted("witch", (
    (0, "r2 r7 r3 r4", 0), (0, "b0 b3 b4 y1", 3), (3, "g0 g3 g4 g6", 2),
    (2, "b5 r0 b7 b1", 2), (2, "y3 y4 y0 y2", 3), (3, "r5 r6 r1 g7", 0),
    (0, "y7 y5 y6 g5", 0)), (2, 0, 0, 0))
# Knight with 2s trump: in trick 1 three 2s fall, yellow-2 has the most stars (3).
# Active: tricks 3-7 = 5, potions yellow-1, blue-5, green-6 = 3; 8 is 5 above 3: 5 gold.
KNIGHT = Scripted("knight", (
    (0, "r2 r7 b2 y2", 3), (3, "g2 g7 g0 g1", 3), (3, "b0 b7 b1 b3", 0),
    (0, "y7 y0 y1 y3", 0), (0, "r6 r5 g3 g4", 0), (0, "b6 b5 b4 g5", 0),
    (0, "g6 r1 y5 y6", 0)), (5, 0, 0, 0), trump={"trump_value": 2})
# Dwarven Hunter: torches (0s) are trump; green-0 (4 stars) beats yellow-0 in trick 2.
# Active: trick 1 (red-1), trick 4 (yellow-2; yellow-1 is a potion), trick 6: 2 goblins.
DWARVEN = Scripted("dwarven-hunter", (
    (0, "r0 r7 r1 r6", 0), (0, "b7 b1 y0 g0", 3), (3, "g1 g2 g7 g3", 1),
    (1, "y7 y1 y2 b0", 0), (0, "b2 b3 y3 y4", 1), (1, "r2 r3 r4 r5", 0),
    (0, "g4 g5 g6 y5", 2)), (2, 0, 0, 0))
# Elvish Hunter: potions are trump. Active: trick 1 (red-5, red-6) and trick 3 (yellow-1
# trumps, taking yellow-5 and yellow-6): 4 orcs = 4 gold.
ELVISH = Scripted("elvish-hunter", (
    (0, "r7 r5 r6 r0", 0), (0, "b0 b6 b5 b1", 2), (2, "y5 y6 y1 y0", 0),
    (0, "g5 g7 g6 g0", 2), (2, "r1 r2 r3 r4", 3), (3, "b2 b3 b4 b7", 2),
    (2, "y2 y3 y4 y7", 1)), (4, 0, 0, 0))

HEROES_4 = {"thief": THIEF, "assassin": ASSASSIN, "barbarian": BARBARIAN, "wizard": WIZARD,
            "witch": WITCH, "dwarven-hunter": DWARVEN, "trickster": TRICKSTER, "seer": SEER,
            "troubadour": TROUBADOUR, "sorcerer": SORCERER, "knight": KNIGHT, "ninja": NINJA,
            "elvish-hunter": ELVISH, "nymph": NYMPH, "fairy-scout": FAIRY}
HERO_SET = {hero: hero_set for hero_set, heroes in {
    "A": ("thief", "assassin", "barbarian", "wizard", "witch"),
    "B": ("dwarven-hunter", "trickster", "seer", "troubadour", "sorcerer"),
    "C": ("knight", "ninja", "elvish-hunter", "nymph", "fairy-scout")}.items()
    for hero in heroes}

# --- 2 and 3 players: 9 cards each -----------------------------------------------------

# Thief, 2 players: 5 gold minus the 3 tricks won (4, 5, 8) = 2.
THIEF_2 = Scripted("thief", (
    (0, "r0 r7", 1), (1, "r6 r1", 1), (1, "b7 b0", 1), (1, "b1 b6", 0), (0, "y7 y0", 0),
    (0, "y1 y6", 1), (1, "g7 g0", 1), (1, "g1 g6", 0), (0, "r2 r3", 1)), (2, 0))
# Barbarian, 3 players, green trump: the active player takes 8 of 9 tricks and the
# potions red-2, blue-5, yellow-1, green-6 = 12, 6 above the minimum of 6: 6 gold.
BARBARIAN_3 = Scripted("barbarian", (
    (0, "r7 r2 r0", 0), (0, "b7 b5 b0", 0), (0, "y7 y1 y0", 0), (0, "g7 g6 g0", 0),
    (0, "r6 r1 r3", 0), (0, "b6 b1 b2", 0), (0, "y6 y2 y3", 0), (0, "g5 g1 g2", 0),
    (0, "r4 r5 g3", 2)), (6, 0, 0), trump={"trump_suit": "green"})


def play_round(game: Tricky, scripted: Scripted, active: int, dealt: bool = False) -> list[int]:
    """Play ``scripted`` with ``active`` as the active player; return that round's gold.

    ``dealt``: the deal (and, in the random dungeon, the refusals) already happened.
    """
    n = len(game.seats)
    seat_of = [(active + rel) % n for rel in range(n)]
    if not dealt:
        game.apply({"type": "deal"})
    assert game.view(None)["active"] == active
    game.apply({"type": "hero", "seat": active, "hero": scripted.hero, **scripted.trump})
    for kind, rel, fields in scripted.before:
        game.apply({"type": kind, "seat": seat_of[rel], **fields})
    for number, (leader, cards, winner) in enumerate(scripted.tricks, start=1):
        assert game.view(None)["leader"] == seat_of[leader], f"trick {number}"
        hidden = None
        for offset, short in enumerate(cards.split()):
            seat = seat_of[(leader + offset) % n]
            if scripted.hero == "ninja" and seat == active:
                hidden = card(short)
                game.apply({"type": "play", "seat": seat, "suit": hidden.split("-")[0],
                            "face_down": True})
            else:
                game.apply({"type": "play", "seat": seat, "card": card(short)})
        if hidden:
            game.apply({"type": "reveal", "seat": active, "card": hidden})
        last = game.view(None)["last_trick"]
        assert (last["number"], last["winner"]) == (number, seat_of[winner]), f"trick {number}"
    assert game.view(None)["revokes"] == []
    return game.rounds()[-1]


def rotated(gold: tuple[int, ...], active: int) -> list[int]:
    """Gold written from the active player's seat, turned to table seats."""
    n = len(gold)
    return [gold[(seat - active) % n] for seat in range(n)]


def new_game(seats: int, **options: Any) -> Tricky:
    return Tricky(SEATS[:seats], 11, options)


# --- each hero, one round ---------------------------------------------------------------

@pytest.mark.parametrize("scripted", [*HEROES_4.values(), ASSASSIN_MISSES, SEER_WRONG],
                         ids=[*HEROES_4, "assassin-misses", "seer-wrong"])
def test_hero_round_gold_four_players(scripted: Scripted) -> None:
    game = new_game(4, hero_set=HERO_SET[scripted.hero])
    assert play_round(game, scripted, 0) == list(scripted.gold)
    assert game.totals() == list(scripted.gold)


def test_thief_two_players_and_barbarian_three_players() -> None:
    game = new_game(2)
    assert play_round(game, THIEF_2, 0) == [2, 0]
    game = new_game(3)
    assert play_round(game, BARBARIAN_3, 0) == [6, 0, 0]


def test_player_count_numbers_are_options() -> None:
    game = new_game(4, thief_gold_4=6)
    assert play_round(game, THIEF, 0) == [5, 0, 0, 0]
    game = new_game(4, hero_set="C", knight_above_4=6)
    assert play_round(game, KNIGHT, 0) == [2, 0, 0, 0]


def test_trump_order_option() -> None:
    # Elvish Hunter: potions are trump. Yellow-1 (3 stars) is led, blue-5 (2 stars) and
    # red-2 (1 star) trump in. Value first (default): blue-5 wins; stars first: yellow-1.
    for order, winner in (("value", 1), ("stars", 0)):
        game = new_game(4, hero_set="C", trump_order=order)
        game.apply({"type": "deal"})
        game.apply({"type": "hero", "seat": 0, "hero": "elvish-hunter"})
        for seat, played in enumerate(["yellow-1", "blue-5", "red-0", "red-2"]):
            game.apply({"type": "play", "seat": seat, "card": played})
        assert game.view(None)["last_trick"]["winner"] == winner, order


def test_ninja_card_stays_hidden_until_revealed() -> None:
    game = new_game(4, hero_set="C")
    game.apply({"type": "deal"})
    game.apply({"type": "hero", "seat": 0, "hero": "ninja"})
    game.apply({"type": "play", "seat": 0, "suit": "red", "face_down": True})
    for seat, played in ((1, "red-7"), (2, "red-1"), (3, "red-3")):
        game.apply({"type": "play", "seat": seat, "card": played})
    for seat in (None, 0, 1, 2, 3):
        view = game.view(seat)
        assert view["trick"][0] == {"seat": 0, "suit": "red", "face_down": True}
        assert view["phase"] == "reveal"
    assert game.view(0)["prompt"] == "Reveal your face-down card"
    game.apply({"type": "reveal", "seat": 0, "card": "red-0"})
    assert game.view(None)["last_trick"]["cards"][0] == {"seat": 0, "card": "red-0"}
    assert game.view(None)["last_trick"]["winner"] == 1


def test_trickster_plays_an_open_card() -> None:
    game = new_game(4, hero_set="B")
    game.apply({"type": "deal"})
    game.apply({"type": "hero", "seat": 0, "hero": "trickster"})
    game.apply({"type": "open_cards", "seat": 0,
                "cards": ["green-3", "green-4", "green-5", "green-6"]})
    game.apply({"type": "play", "seat": 0, "card": "green-6"})
    assert game.view(None)["open_cards"] == ["green-3", "green-4", "green-5"]


def test_revoke_is_flagged_naming_the_trick() -> None:
    game = new_game(4)
    game.apply({"type": "deal"})
    game.apply({"type": "hero", "seat": 0, "hero": "thief"})
    tricks = [["red-7", "red-0", "blue-1", "red-3"],     # Cy shows out of red in trick 1
              ["blue-7", "blue-0", "blue-2", "blue-3"],
              ["yellow-7", "yellow-0", "red-1", "yellow-3"]]  # ...and plays red in trick 3
    for played in tricks:
        for seat, name in enumerate(played):
            game.apply({"type": "play", "seat": seat, "card": name})
    assert game.view(None)["revokes"] == [
        {"round": 1, "seat": 2, "suit": "red", "trick": 1, "played_in": 3}]
    # Cy also showed out of yellow in trick 3: that marks a new void.
    assert game.view(None)["voids"][2] == ["yellow"]


# --- whole games, one per variant -------------------------------------------------------

def play_game(game: Tricky, rounds: list[Scripted]) -> list[int]:
    """Play the rounds, the active seat turning clockwise; return the hand-summed totals."""
    n = len(game.seats)
    totals = [0] * n
    for number, scripted in enumerate(rounds):
        assert not game.finished
        active = number % n
        play_round(game, scripted, active)
        totals = [t + g for t, g in zip(totals, rotated(scripted.gold, active), strict=True)]
    return totals


def test_standard_game_four_players() -> None:
    game = new_game(4)
    rounds = [THIEF, ASSASSIN, BARBARIAN, WIZARD, WITCH, ASSASSIN_MISSES, THIEF, WIZARD]
    # Worked out round by round:
    # r1 Ann 3; r2 Bob 4; r3 Cy 4; r4 Dee 2; r5 Ann 2; r6 Bob 0 -> Ann, Cy, Dee +1;
    # r7 Cy 3; r8 Dee 2.  Ann 3+2+1 = 6, Bob 4, Cy 4+1+3 = 8, Dee 2+1+2 = 5.
    assert play_game(game, rounds) == [6, 4, 8, 5]
    assert game.finished and game.totals() == [6, 4, 8, 5] and game.winners() == [2]
    # Round 1 (BASE): Bob wins tricks 1-3, Cy 4 and 7, Ann 5, Dee 6.
    assert game.view(None)["tricks"][0] == [1, 3, 2, 1]
    with pytest.raises(Exception, match="game is over"):
        game.apply({"type": "deal"})


def test_two_player_game_with_open_exchange() -> None:
    game = new_game(2)
    for number in range(8):
        active = number % 2
        game.apply({"type": "deal"})
        game.apply({"type": "hero", "seat": active, "hero": "thief"})
        game.apply({"type": "exchange", "seat": active, "count": 3})
        game.apply({"type": "exchange", "seat": 1 - active, "count": 2,
                    "cards": ["blue-2", "blue-3"]})
        assert game.view(None)["discards"] == ["blue-2", "blue-3"]
        for leader, cards, _winner in THIEF_2.tricks:
            for offset, short in enumerate(cards.split()):
                game.apply({"type": "play", "seat": (active + leader + offset) % 2,
                            "card": card(short)})
    # 4 rounds as the Thief each at 2 gold: 8 each, a shared win.
    assert game.finished and game.totals() == [8, 8] and game.winners() == [0, 1]
    assert len(game.rounds()) == 8


def test_longer_game() -> None:
    game = new_game(4, variant="longer")
    rounds = [THIEF] * 12
    assert play_game(game, rounds) == [9, 9, 9, 9]
    assert game.finished and len(game.rounds()) == 12


def test_longer_game_given_rounds_used_as_is() -> None:
    game = new_game(2, rounds_per_player=1)
    assert play_game(game, [THIEF_2, THIEF_2]) == [2, 2]
    assert game.finished


def test_race_to_15() -> None:
    game = new_game(4, variant="race", hero_set="C")
    # The Knight earns its player 5 a round: after 8 rounds everyone has 10, Ann reaches 15
    # in round 9 and the race is over.
    assert play_game(game, [KNIGHT] * 8) == [10, 10, 10, 10]
    assert not game.finished
    play_round(game, KNIGHT, 0)
    assert game.finished and game.totals() == [15, 10, 10, 10] and game.winners() == [0]


def test_adventurers_guild() -> None:
    game = new_game(4, variant="guild")
    order = [THIEF, ASSASSIN, BARBARIAN, WIZARD, WITCH]
    # Round k: seat k % 4 plays order[k // 4 ... ] shifted so each seat plays every hero.
    rounds = [order[(k // 4 + k % 4) % 5] for k in range(20)]
    # Each seat plays all five once: 3 + 4 + 4 + 2 + 2 = 15.
    assert play_game(game, rounds) == [15, 15, 15, 15]
    assert game.finished and game.winners() == [0, 1, 2, 3]
    assert sorted(game.view(None)["heroes_used"][1]) == sorted(h.hero for h in order)


def test_random_dungeon() -> None:
    game = new_game(4, variant="random")
    expected = [0, 0, 0, 0]
    for number in range(8):
        active = number % 4
        game.apply({"type": "deal"})
        refusals = number % 3  # none, one, then two refusals
        for _ in range(refusals):
            offer = game.view(None)["hero_offer"]
            game.apply({"type": "hero", "seat": active, "hero": offer, "refuse": True})
        hero = game.view(None)["hero_offer"]
        assert game.view(None)["refused"] == game.referee_view()["hero_pile"][:refusals]
        scripted = HEROES_4[hero]
        play_round(game, scripted, active, dealt=True)
        expected = [t + g for t, g in zip(expected, rotated(scripted.gold, active), strict=True)]
    assert game.finished and game.totals() == expected


# --- the log fixtures and the command line ----------------------------------------------

def test_log_fixture_replays_to_hand_totals() -> None:
    lines = (LOGS / "standard-4.jsonl").read_text().splitlines()
    header = json.loads(lines[0])
    game = engine("tricky")(header["seats"], header["seed"], header["options"])
    for line in lines[1:]:
        game.apply(json.loads(line))
    assert game.finished and game.totals() == [6, 4, 8, 5]


def test_seat_prompts_follow_the_round() -> None:
    game = new_game(3, hero_set="C")
    assert game.view(0)["prompt"] is None and game.view(None)["phase"] == "deal"
    game.apply({"type": "deal"})
    assert game.view(0)["prompt"] == "Choose a hero" and game.view(0)["your_turn"]
    assert game.view(0)["hero_choices"] == ["knight", "ninja", "elvish-hunter", "nymph",
                                            "fairy-scout"]
    assert game.view(1)["prompt"] is None and game.view(1)["hero_choices"] == []
    game.apply({"type": "hero", "seat": 0, "hero": "ninja"})
    # 3 players: 32 - 27 = 5 cards left over for the active player's exchange.
    assert game.view(0)["prompt"] == "Exchange up to 5 cards"
    assert game.view(0)["exchange_limit"] == 5 and game.view(1)["exchange_limit"] is None
    game.apply({"type": "exchange", "seat": 0, "count": 2})
    assert game.view(0)["prompt"] == "Lead a card face down"
    game.apply({"type": "play", "seat": 0, "suit": "blue", "face_down": True})
    assert game.view(1)["prompt"] == "Play blue if you can" and game.view(1)["your_turn"]
    assert game.view(2)["prompt"] is None and not game.view(2)["your_turn"]
