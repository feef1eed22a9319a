"""Whole Rumble in the Dungeon games from scripted moves, scored by hand from the rules.

Default map (rumble-map.json), characters placed in row order:
    A1 knight   A2 thief    A3 twin-thief  A4 barbarian        entry A1
    B1 wizard   B2 priest   B3 dwarf       B4 elf
    C1 zombie   C2 gel.cube C3 goblin      C4 skeleton         chest in C4
Points: rank 1 scores 10, rank 2 scores 9, ... never below 0.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.bundles.rumble.rules.engine import Rumble
from companion.games.registry import engine

LOGS = Path(__file__).parent.parent / "logs" / "rumble"

# No escape. Exits: thief, twin-thief, wizard, dwarf, barbarian, zombie, skeleton, priest,
# goblin, gelatinous-cube, knight; the elf stands last.
NO_ESCAPE = """
move thief A1 / fight thief / move twin-thief A4 / fight twin-thief / move wizard A1 /
fight wizard / move priest B3 / fight dwarf / move elf A4 / fight barbarian /
move zombie C2 / fight zombie / move goblin C4 / fight skeleton / move gelatinous-cube B2 /
move gelatinous-cube B3 / fight priest / carry goblin B4 / move elf B4 / fight goblin /
move gelatinous-cube B4 / fight gelatinous-cube / move knight A2 / move elf A4 /
move knight A3 / move elf A3 / fight knight
"""
# Hand ranking: elf 10, knight 9, cube 8, goblin 7, priest 6, skeleton 5, zombie 4,
# barbarian 3, dwarf 2, wizard 1, twin-thief 0, thief 0.
NO_ESCAPE_EXITS = ["thief", "twin-thief", "wizard", "dwarf", "barbarian", "zombie", "skeleton",
                   "priest", "goblin", "gelatinous-cube", "knight"]

# The chest goes C4 -> C3 -> C2 -> C1 -> B1 -> A1 with whoever shares its room; the knight,
# waiting in the entry, escapes. Then: wizard, barbarian, zombie, elf, goblin, skeleton, thief,
# priest, dwarf, gelatinous-cube fall; the twin thief stands last.
ESCAPE = """
carry skeleton C3 / carry goblin C2 / carry gelatinous-cube C1 / carry zombie B1 /
carry wizard A1 / escape knight / move thief A1 / fight wizard / move twin-thief A4 /
fight barbarian / move priest B1 / fight zombie / move dwarf B4 / fight elf /
move goblin C1 / fight goblin / move skeleton B3 / move skeleton B4 / fight skeleton /
move thief B1 / fight thief / move gelatinous-cube B1 / fight priest / move twin-thief B4 /
fight dwarf / move gelatinous-cube B2 / move twin-thief B3 / move gelatinous-cube B3 /
fight gelatinous-cube
"""
# Hand ranking: knight 10, twin-thief 9, cube 8, dwarf 7, priest 6, thief 5, skeleton 4,
# goblin 3, elf 2, zombie 1, barbarian 0, wizard 0.
ESCAPE_EXITS = ["wizard", "barbarian", "zombie", "elf", "goblin", "skeleton", "thief",
                "priest", "dwarf", "gelatinous-cube"]


def actions(script: str, starter: int, seats: int) -> list[dict]:
    """Script lines as events, the seats taking turns clockwise from ``starter``."""
    events = []
    for index, step in enumerate(s.split() for s in script.replace("\n", " ").split("/")):
        seat = (starter + index) % seats
        verb, character = step[0], step[1]
        if verb == "fight":
            events.append({"type": "fight", "seat": seat, "victim": character})
        elif verb == "escape":
            events.append({"type": "escape", "seat": seat, "character": character})
        else:
            events.append({"type": "move", "seat": seat, "character": character, "to": step[2],
                           "chest": verb == "carry"})
    return events


def secrets(pairs: dict[int, list[str]]) -> list[dict]:
    return [{"type": "secrets", "seat": seat, "characters": pair} for seat, pair in pairs.items()]


def play(seats: list[str], events: list[dict], **options) -> Rumble:
    game = engine("rumble")(seats, 11, options)
    for event in events:
        game.apply(event)
    return game


def tokens_game() -> list[dict]:
    """3 seats, physical tokens told before each adventure."""
    return [
        {"type": "start", "seat": 0},
        # Adventure 1: seat 0 elf 10, seat 1 knight 9, seat 2 goblin 7.
        *secrets({0: ["elf", "thief"], 1: ["knight", "wizard"], 2: ["goblin", "zombie"]}),
        *actions(NO_ESCAPE, starter=0, seats=3),
        # Fewest points: seat 2 (7) starts. Seat 0 zombie 1, seat 1 knight 10, seat 2 dwarf 7.
        *secrets({0: ["wizard", "zombie"], 1: ["knight", "barbarian"], 2: ["dwarf", "elf"]}),
        *actions(ESCAPE, starter=2, seats=3),
        # Totals 11, 19, 14: seat 0 starts. Seat 0 priest 6, seat 1 0, seat 2 skeleton 5.
        *secrets({0: ["priest", "dwarf"], 1: ["thief", "twin-thief"],
                  2: ["skeleton", "barbarian"]}),
        *actions(NO_ESCAPE, starter=0, seats=3),
    ]


def reveal_game() -> list[dict]:
    """4 seats, deal_secrets false: tokens revealed when each adventure ends."""
    return [
        {"type": "start", "seat": 3},
        *secrets({2: ["zombie", "barbarian"]}),  # told before the first action
        *actions(NO_ESCAPE, starter=3, seats=4),
        # Seat 0 thief 0, seat 1 dwarf 2, seat 2 zombie 4, seat 3 knight 9.
        *secrets({3: ["knight", "priest"], 0: ["thief", "twin-thief"], 1: ["wizard", "dwarf"]}),
        # Fewest: seat 0 (0) starts.
        *actions(ESCAPE, starter=0, seats=4),
        # Seat 0 elf 2, seat 1 0, seat 2 skeleton 4, seat 3 priest 6.
        *secrets({0: ["elf", "zombie"], 1: ["wizard", "barbarian"], 2: ["goblin", "skeleton"],
                  3: ["thief", "priest"]}),
        # Totals 2, 2, 8, 15: seats 0 and 1 tie; from the seat after the previous starter
        # (seat 0), seat 1 comes first.
        *actions(NO_ESCAPE, starter=1, seats=4),
        # Seat 0 cube 8, seat 1 0, seat 2 zombie 4, seat 3 goblin 7.
        *secrets({0: ["gelatinous-cube", "wizard"], 1: ["thief", "twin-thief"],
                  2: ["dwarf", "zombie"], 3: ["barbarian", "goblin"]}),
    ]


def test_three_adventures_with_tokens_told_before_play():
    game = play(["Ann", "Bob", "Cy"], tokens_game())
    assert game.finished
    assert game.rounds() == [[10, 9, 7], [1, 10, 7], [6, 0, 5]]
    assert game.totals() == [17, 19, 19]
    assert game.winners() == [1, 2]
    state = game.view(None)
    assert state["exits"] == [NO_ESCAPE_EXITS, ESCAPE_EXITS, NO_ESCAPE_EXITS]
    assert state["escaped"] == [None, "knight", None]
    assert state["starters"] == [0, 2, 0]
    assert state["phase"] == "over" and state["turn"] is None


def test_three_adventures_revealed_at_the_end_with_a_tie_for_first_player():
    game = play(["Ann", "Bob", "Cy", "Di"], reveal_game(), deal_secrets=False)
    assert game.rounds() == [[0, 2, 4, 9], [2, 0, 4, 6], [8, 0, 4, 7]]
    assert game.totals() == [10, 2, 12, 22]
    assert game.winners() == [3]
    state = game.view(None)
    assert state["starters"] == [3, 0, 1]
    assert state["escaped"] == [None, "knight", None]
    assert state["revealed"][1] == [["elf", "zombie"], ["wizard", "barbarian"],
                                    ["goblin", "skeleton"], ["thief", "priest"]]


def test_the_escaper_ranks_first_then_the_last_standing_then_victims_latest_first():
    game = play(["Ann", "Bob", "Cy"], tokens_game())
    assert game.view(None)["rankings"][1] == ["knight", "twin-thief", *ESCAPE_EXITS[::-1]]


def test_an_ended_adventure_waits_for_every_reveal_before_scoring():
    events = reveal_game()
    first_reveal = events.index({"type": "secrets", "seat": 3, "characters": ["knight", "priest"]})
    game = play(["Ann", "Bob", "Cy", "Di"], events[:first_reveal + 1], deal_secrets=False)
    state = game.view(None)
    assert state["phase"] == "reveal"
    assert state["waiting_for"] == [0, 1]
    assert game.rounds() == []
    assert game.view(0)["prompt"] == "Reveal your 2 secret characters"
    assert game.view(3)["prompt"] == "Waiting for the others' secret characters"


def test_the_companion_deals_two_distinct_secrets_per_seat_when_none_are_given():
    game = play(["Ann", "Bob", "Cy", "Di", "Ed"], [{"type": "start", "seat": 0}])
    shown = [game.view(seat)["secrets"] for seat in range(5)]
    game.apply(actions("move thief A1", starter=0, seats=5)[0])
    dealt = game.referee_view()["secrets"][0]
    assert dealt == shown  # the deal shown before the first action is the one that binds
    tokens = [c for pair in dealt for c in pair]
    assert len(tokens) == 10 and len(set(tokens)) == 10
    assert set(tokens) <= set(game.options["characters"])
    assert game.view(None)["secrets_from"] == "dealt"
    again = play(["Ann", "Bob", "Cy", "Di", "Ed"], [{"type": "start", "seat": 0}])
    assert [again.view(seat)["secrets"] for seat in range(5)] == shown


def test_the_deal_changes_with_the_seed_and_the_adventure():
    first = engine("rumble")(["Ann", "Bob", "Cy"], 1)
    second = engine("rumble")(["Ann", "Bob", "Cy"], 2)
    deals = {json.dumps(first.deal(0)), json.dumps(second.deal(0)), json.dumps(first.deal(1))}
    assert len(deals) == 3


def test_the_first_player_of_adventure_one_is_seeded_when_not_given():
    starters = {engine("rumble")(["Ann", "Bob", "Cy", "Di"], seed).turn for seed in range(40)}
    assert starters == {0, 1, 2, 3}
    assert engine("rumble")(["Ann", "Bob", "Cy"], 5).turn == engine("rumble")(
        ["Ann", "Bob", "Cy"], 5).turn


def test_a_random_tie_break_picks_one_of_the_tied_seats():
    events = reveal_game()
    cut = len(events) - 4 - 27  # before adventure 3's actions: seats 0 and 1 tie at 2
    starters = set()
    for seed in range(12):
        game = engine("rumble")(["Ann", "Bob", "Cy", "Di"], seed,
                                {"deal_secrets": False, "first_player_tie": "random"})
        for event in events[:cut]:
            game.apply(event)
        starters.add(game.turn)
    assert starters == {0, 1}


def test_the_chest_stays_where_its_carrier_falls():
    game = play(["Ann", "Bob", "Cy"], [{"type": "start", "seat": 0},
                                      *actions("move goblin C4 / fight skeleton", 0, 3)])
    assert game.view(None)["chest"] == "C4"
    game.apply({"type": "move", "seat": 2, "character": "goblin", "to": "C3", "chest": True})
    assert game.view(None)["chest"] == "C3"
    assert game.view(None)["positions"]["goblin"] == "C3"


def test_a_lone_character_may_leave_the_chest_behind():
    game = play(["Ann", "Bob", "Cy"], [{"type": "start", "seat": 0},
                                      *actions("move skeleton C3 / fight goblin", 0, 3)])
    game.apply({"type": "move", "seat": 2, "character": "skeleton", "to": "C4"})
    game.apply({"type": "move", "seat": 0, "character": "skeleton", "to": "B4"})
    assert game.view(None)["chest"] == "C4"
    assert game.view(None)["positions"]["skeleton"] == "B4"


def test_seat_views_offer_the_legal_actions_and_explain_the_refused_ones():
    game = play(["Ann", "Bob", "Cy"], [{"type": "start", "seat": 0},
                                      *actions("move thief A1", 0, 3)])
    view = game.view(1)
    assert view["your_turn"] and view["prompt"] == "Your turn: move, fight or escape"
    assert {"type": "fight", "seat": 1, "victim": "thief"} in view["actions"]
    assert {"type": "move", "seat": 1, "character": "knight", "to": "A2",
            "chest": False} not in view["actions"]
    reasons = {(r["event"]["type"], r["event"].get("character", r["event"].get("victim")),
                r["event"].get("to")): r["rule"] for r in view["refused"]}
    assert reasons[("move", "knight", "A2")] == "alone"
    assert reasons[("fight", "wizard", None)] == "fight"
    assert reasons[("escape", "knight", None)] == "escape-chest"
    assert game.view(2)["actions"] == [] and not game.view(2)["your_turn"]
    assert game.view(2)["prompt"] == "Bob's turn"


@pytest.mark.parametrize("name", ["tokens", "reveal"])
def test_the_fixture_logs_hold_the_scripted_games(name):
    """The JSONL fixtures are the scripted games above, so the CLI tests replay them."""
    lines = (LOGS / f"{name}.jsonl").read_text().splitlines()
    header, events = json.loads(lines[0]), [json.loads(line) for line in lines[1:]]
    assert events == (tokens_game() if name == "tokens" else reveal_game())
    assert header["game"] == "rumble"
