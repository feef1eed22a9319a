"""`companion replay` on Rumble in the Dungeon table logs (README.md, Commands)."""

from __future__ import annotations

import json
from pathlib import Path

from companion.cli import main

LOGS = Path(__file__).parent.parent / "logs" / "rumble"
GRID_ESCAPE_EXITS = ["wizard", "barbarian", "zombie", "elf", "goblin", "skeleton", "thief",
                     "priest", "dwarf", "gelatinous-cube"]
GRID_NO_ESCAPE_EXITS = ["thief", "twin-thief", "wizard", "dwarf", "barbarian", "zombie",
                        "skeleton", "priest", "goblin", "gelatinous-cube", "knight"]


def replay(capsys, *argv):
    code = main(["replay", *map(str, argv), "--json"])
    return code, json.loads(capsys.readouterr().out)


def write_log(path, header, events):
    path.write_text("".join(json.dumps(line) + "\n" for line in [header, *events]))
    return path


def test_replay_of_a_whole_game_gives_exits_and_hand_computed_totals(capsys):
    code, result = replay(capsys, LOGS / "tokens.jsonl")
    assert code == 0
    assert result["finished"] is True
    assert result["totals"] == [17, 19, 19]
    assert result["rounds"] == [[10, 9, 7], [1, 10, 7], [6, 0, 5]]
    assert result["winners"] == [1, 2]
    assert result["state"]["exits"] == [GRID_NO_ESCAPE_EXITS, GRID_ESCAPE_EXITS,
                                        GRID_NO_ESCAPE_EXITS]
    assert result["state"]["escaped"] == [None, "knight", None]


def test_replay_of_a_game_revealed_at_the_end(capsys):
    code, result = replay(capsys, LOGS / "reveal.jsonl")
    assert code == 0
    assert result["totals"] == [10, 2, 12, 22] and result["winners"] == [3]


OPENING = [{"type": "start", "seat": 0},
           {"type": "move", "seat": 0, "character": "thief", "to": "A1"},
           {"type": "fight", "seat": 1, "victim": "knight"}]


def test_public_replay_output_holds_no_dealt_secret(tmp_path, capsys):
    outputs = []
    for seed in (1, 2):
        log = write_log(tmp_path / f"deal{seed}.jsonl",
                        {"game": "rumble", "seats": ["Ann", "Bob", "Cy"], "seed": seed,
                         "options": {}}, OPENING)
        outputs.append(replay(capsys, log)[1])
        seat = replay(capsys, log, "--seat", 1)[1]["state"]
        referee = replay(capsys, log, "--referee")[1]["state"]
        assert seat["secrets"] == referee["secrets"][0][1]
        assert len(seat["secrets"]) == 2
    # Different seeds deal different secrets, yet the public output is the same.
    assert outputs[0] == outputs[1]
    assert '"secrets"' not in json.dumps(outputs[0])


def test_public_replay_output_holds_no_told_secret(tmp_path, capsys):
    header = {"game": "rumble", "seats": ["Ann", "Bob", "Cy"], "seed": 4, "options": {}}
    hands = [["elf", "dwarf"], ["zombie", "priest"], ["goblin", "wizard"]]
    outputs = []
    for order in (hands, hands[::-1]):  # seats 0 and 2 swap their tokens
        told = [{"type": "secrets", "seat": s, "characters": pair} for s, pair in enumerate(order)]
        outputs.append(replay(capsys, write_log(tmp_path / "told.jsonl", header,
                                                [*told, *OPENING]))[1])
    assert outputs[0] == outputs[1]


def test_an_out_of_turn_line_is_reported_with_its_number(tmp_path, capsys):
    header = {"game": "rumble", "seats": ["Ann", "Bob", "Cy"], "seed": 4, "options": {}}
    events = [*OPENING, {"type": "fight", "seat": 0, "victim": "thief"}]
    code, result = replay(capsys, write_log(tmp_path / "turn.jsonl", header, events))
    assert code == 2
    assert result["error"]["line"] == 5
    assert "it is Cy's turn, not Ann's" in result["error"]["message"]
    assert result["state"]["exits"] == [["knight"]]  # the state as of line 4
