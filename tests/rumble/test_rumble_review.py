"""A rules review of `rumble`: a scripted three-adventure game scored by hand from the rule
text and docs/rulings.md (never copied from the engine's output).

Default map, characters placed in row order; entry A1, chest in C4:
    A1 knight   A2 thief    A3 twin-thief  A4 barbarian
    B1 wizard   B2 priest   B3 dwarf       B4 elf
    C1 zombie   C2 gel.cube C3 goblin      C4 skeleton
"""

from __future__ import annotations

import json

import pytest

from companion.bundles.rumble.rules.engine import Rumble
from companion.errors import RuleViolation

SEATS = ["Ann", "Bob", "Cy"]

# (verb, character, room): "carry" is a move with the chest.
ADVENTURE = [
    ("carry", "skeleton", "C3"),         # C3: goblin, skeleton, chest
    ("fight", "goblin", None),
    ("carry", "skeleton", "C2"),         # C2: gelatinous-cube, skeleton, chest
    ("fight", "skeleton", None),         # the chest stays in C2 where the skeleton fell
    ("carry", "gelatinous-cube", "C1"),  # C1: zombie, cube, chest
    ("carry", "zombie", "B1"),           # B1: wizard, zombie, chest
    ("carry", "zombie", "A1"),           # A1: knight, zombie, chest
    ("escape", "knight", None),          # the knight began the turn in the entry with it
    ("move", "thief", "A1"),
    ("fight", "thief", None),
    ("move", "zombie", "A2"),
    ("move", "twin-thief", "A2"),
    ("fight", "zombie", None),
    ("move", "twin-thief", "A3"),
    ("move", "barbarian", "A3"),
    ("fight", "barbarian", None),
    ("move", "twin-thief", "B3"),
    ("fight", "dwarf", None),
    ("move", "elf", "B3"),
    ("fight", "elf", None),
    ("move", "priest", "B3"),
    ("fight", "twin-thief", None),
    ("move", "priest", "B2"),
    ("move", "wizard", "B2"),
    ("fight", "wizard", None),
    ("move", "priest", "C2"),
    ("move", "gelatinous-cube", "C2"),
    ("fight", "priest", None),           # the gelatinous cube stands last
]
EXITS = ["goblin", "skeleton", "thief", "zombie", "barbarian", "dwarf", "elf", "twin-thief",
         "wizard", "priest"]
# Ranks: knight 10 (escaped), cube 9 (last standing), then victims latest first: priest 8,
# wizard 7, twin-thief 6, elf 5, dwarf 4, barbarian 3, zombie 2, thief 1, skeleton 0, goblin 0.


def events(starter: int) -> list[dict]:
    out = []
    for index, (verb, character, room) in enumerate(ADVENTURE):
        seat = (starter + index) % len(SEATS)
        if verb in ("move", "carry"):
            out.append({"type": "move", "seat": seat, "character": character, "to": room,
                        "chest": verb == "carry"})
        elif verb == "fight":
            out.append({"type": "fight", "seat": seat, "victim": character})
        else:
            out.append({"type": "escape", "seat": seat, "character": character})
    return out


SECRETS = [
    # Adventure 1: Ann knight 10; Bob max(skeleton 0, thief 1) = 1; Cy max(zombie 2, elf 5) = 5.
    [["knight", "goblin"], ["skeleton", "thief"], ["zombie", "elf"]],
    # Adventure 2: Ann 10; Bob max(cube 9, thief 1) = 9; Cy max(elf 5, skeleton 0) = 5.
    [["knight", "goblin"], ["gelatinous-cube", "thief"], ["elf", "skeleton"]],
    # Adventure 3: Ann max(skeleton 0, goblin 0) = 0; Bob knight 10; Cy max(thief 1, barb 3) = 3.
    [["skeleton", "goblin"], ["knight", "zombie"], ["thief", "barbarian"]],
]


def given(game: Rumble, adventure: int) -> None:
    for seat, pair in enumerate(SECRETS[adventure]):
        game.apply({"type": "secrets", "seat": seat, "characters": pair})


def test_three_adventures_scored_by_hand_with_the_clockwise_tie_rule():
    game = Rumble(SEATS, seed=5)
    game.apply({"type": "start", "seat": 0})
    given(game, 0)
    for event in events(0):
        game.apply(event)
    public = game.view(None)
    assert public["exits"][0] == EXITS and public["escaped"][0] == "knight"
    assert game.rounds() == [[10, 1, 5]]
    # Fewest points: Bob (1) starts adventure 2.
    assert public["turn"] == 1 and public["starters"] == [0, 1]
    assert public["chest"] == "C4" and public["positions"]["skeleton"] == "C4"

    given(game, 1)
    for event in events(1):
        game.apply(event)
    # Totals 20, 10, 10: Bob and Cy tie. Clockwise from the seat after the previous starter
    # (Bob): Cy is met first, Bob itself last. Cy starts, not the lower seat number.
    assert game.totals() == [20, 10, 10]
    assert game.view(None)["turn"] == 2

    given(game, 2)
    for event in events(2):
        game.apply(event)
    assert game.rounds() == [[10, 1, 5], [10, 9, 5], [0, 10, 3]]
    assert game.totals() == [20, 20, 13]
    assert game.finished and game.winners() == [0, 1]
    assert game.view(None)["starters"] == [0, 1, 2]
    with pytest.raises(RuleViolation):
        game.apply({"type": "move", "seat": 2, "character": "knight", "to": "A2"})


def test_given_secrets_are_never_public_before_their_adventure_is_scored():
    game = Rumble(SEATS, seed=5)
    game.apply({"type": "start", "seat": 0})
    given(game, 0)
    script = events(0)
    for event in script[:-1]:
        game.apply(event)
        assert game.view(None)["revealed"] == []
        for seat in range(3):
            view = game.view(seat)
            assert view["secrets"] == SECRETS[0][seat]
            others = [c for s, pair in enumerate(SECRETS[0]) if s != seat for c in pair]
            shown = {key: value for key, value in view.items()
                     if key not in ("secrets", "actions", "refused", "last", "positions",
                                    "exits", "escaped", "rankings")}
            assert not any(c in json.dumps(shown) for c in others)
    game.apply(script[-1])
    assert game.view(None)["revealed"] == [SECRETS[0]]
    assert game.view(None)["rankings"][0][:2] == ["knight", "gelatinous-cube"]


def test_the_public_view_is_the_same_whatever_the_secrets():
    # Two tables, same moves, different secret characters: nobody else can tell them apart.
    tables = []
    for pairs in (SECRETS[0], SECRETS[2]):
        game = Rumble(SEATS, seed=5)
        game.apply({"type": "start", "seat": 0})
        for seat, pair in enumerate(pairs):
            game.apply({"type": "secrets", "seat": seat, "characters": pair})
        for event in events(0)[:10]:
            game.apply(event)
        tables.append(game)
    assert tables[0].view(None) == tables[1].view(None)


def test_dealt_secrets_show_on_their_own_seat_only_and_bind_at_the_first_action():
    games = [Rumble(SEATS, seed=seed) for seed in (8, 9)]
    for game in games:
        game.apply({"type": "start", "seat": 0})
    game = games[0]
    before = [game.view(seat)["secrets"] for seat in range(3)]
    dealt = [c for pair in before for c in pair]
    assert all(len(pair) == 2 for pair in before) and len(set(dealt)) == 6
    assert before != [games[1].view(seat)["secrets"] for seat in range(3)]
    for event in events(0)[:4]:
        for table in games:
            table.apply(event)
        # Another deal, the same public view: nothing in it depends on the secrets.
        assert games[0].view(None) == games[1].view(None)
        assert "secrets" not in games[0].view(None)
    assert [game.view(seat)["secrets"] for seat in range(3)] == before
    with pytest.raises(RuleViolation) as refusal:
        game.apply({"type": "secrets", "seat": 0, "characters": ["knight", "thief"]})
    assert refusal.value.rule == "secrets-timing"


@pytest.mark.parametrize(("event", "rule"), [
    # The chest is in C4 with the skeleton, not in the entry: no escape from A1.
    ({"type": "escape", "seat": 0, "character": "knight"}, "escape-chest"),
    # The skeleton shares C4 with the chest, but it is not the entry.
    ({"type": "escape", "seat": 0, "character": "skeleton"}, "escape-entry"),
    # The knight is alone in A1 but the chest is not there.
    ({"type": "move", "seat": 0, "character": "knight", "to": "A2", "chest": True}, "chest"),
    ({"type": "move", "seat": 0, "character": "knight", "to": "B2"}, "door"),
    ({"type": "fight", "seat": 0, "victim": "knight"}, "fight"),
    ({"type": "move", "seat": 1, "character": "knight", "to": "A2"}, "turn"),
])
def test_illegal_actions_at_the_start(event, rule):
    game = Rumble(SEATS, seed=5)
    game.apply({"type": "start", "seat": 0})
    given(game, 0)
    before = json.dumps(game.referee_view())
    with pytest.raises(RuleViolation) as refusal:
        game.apply(event)
    assert refusal.value.rule == rule
    assert json.dumps(game.referee_view()) == before


def test_a_character_not_alone_moves_only_with_the_chest_and_the_chest_stays_put_otherwise():
    game = Rumble(SEATS, seed=5)
    game.apply({"type": "start", "seat": 0})
    given(game, 0)
    for event in events(0)[:3]:  # C2: gelatinous-cube, skeleton, chest
        game.apply(event)
    with pytest.raises(RuleViolation) as refusal:
        game.apply({"type": "move", "seat": 0, "character": "skeleton", "to": "B2"})
    assert refusal.value.rule == "alone"
    # With the chest, the cube (not the one who brought it) may go: the chest goes too.
    game.apply({"type": "move", "seat": 0, "character": "gelatinous-cube", "to": "B2",
                "chest": True})
    assert game.view(None)["chest"] == "B2"
    # The skeleton, alone in C2 now, walks off without it.
    game.apply({"type": "move", "seat": 1, "character": "skeleton", "to": "C3"})
    assert game.view(None)["chest"] == "B2"


def test_giving_tokens_before_play_tells_no_seat_what_another_seat_holds():
    # Ann holds the elf. Bob (by mistake, or probing) says he holds the elf too. Whatever
    # Ann holds, Bob's event must be answered the same way; the clash shows up, naming no
    # character and no seat, when play would begin.
    answers = set()
    for anns in (["elf", "knight"], ["wizard", "knight"]):
        game = Rumble(SEATS, seed=5)
        game.apply({"type": "secrets", "seat": 0, "characters": anns})
        try:
            game.apply({"type": "secrets", "seat": 1, "characters": ["dwarf", "elf"]})
            answers.add("accepted")
        except RuleViolation as refusal:
            answers.add(str(refusal))
    assert answers == {"accepted"}
    game = Rumble(SEATS, seed=5)
    for seat, pair in enumerate([["elf", "knight"], ["dwarf", "elf"], ["thief", "goblin"]]):
        game.apply({"type": "secrets", "seat": seat, "characters": pair})
    game.apply({"type": "start", "seat": 0})
    with pytest.raises(RuleViolation) as refusal:
        game.apply({"type": "move", "seat": 0, "character": "knight", "to": "A2"})
    assert refusal.value.rule == "secrets-taken"
    assert "Elf" not in str(refusal.value) and "elf" not in str(refusal.value)
    assert game.legal_actions(0) == []


def test_a_token_revealed_twice_at_the_end_is_refused_naming_it():
    # Reveals are public, so the refusal may name the character.
    game = Rumble(SEATS, seed=5, options={"deal_secrets": False})
    game.apply({"type": "start", "seat": 0})
    for event in events(0):
        game.apply(event)
    game.apply({"type": "secrets", "seat": 0, "characters": ["elf", "knight"]})
    with pytest.raises(RuleViolation) as refusal:
        game.apply({"type": "secrets", "seat": 1, "characters": ["dwarf", "elf"]})
    assert refusal.value.rule == "secrets-taken" and "Elf" in str(refusal.value)
