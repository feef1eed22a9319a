"""Tricky Dungeon table logs through ``companion replay`` (README.md, Commands)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.bundles.tricky.rules.engine import Tricky
from companion.cli import main

LOGS = Path(__file__).parent.parent / "logs" / "tricky"


def replay_json(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict]:
    code = main(["replay", *args, "--json"])
    return code, json.loads(capsys.readouterr().out)


def test_standard_game_totals_and_state(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = replay_json(capsys, str(LOGS / "standard-4.jsonl"))
    assert code == 0
    # Hand totals of test_tricky_games.test_standard_game_four_players.
    assert out["finished"] is True and out["totals"] == [6, 4, 8, 5] and out["winners"] == [2]
    assert out["rounds"][5] == [1, 0, 1, 1]  # the Assassin missed: everyone else gains 1
    assert len(out["state"]["tricks"]) == 8 and out["state"]["tricks"][0] == [1, 3, 2, 1]
    assert out["state"]["revokes"] == []


def test_revoke_in_the_replay_state(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = replay_json(capsys, str(LOGS / "revoke-4.jsonl"))
    assert code == 0 and out["finished"] is False
    assert out["state"]["revokes"] == [
        {"round": 1, "seat": 2, "suit": "red", "trick": 1, "played_in": 3}]
    # Ann leads red-7, blue-7 and yellow-7: each the highest of its suit, no trump.
    assert out["state"]["tricks"] == [[3, 0, 0, 0]]


def test_illegal_event_stops_the_replay(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = replay_json(capsys, str(LOGS / "illegal-turn.jsonl"))
    assert code == 2
    assert out["error"]["line"] == 5
    assert "It is Bob's turn to play, not Cy's" in out["error"]["message"]
    assert out["state"]["trick"] == [{"seat": 0, "card": "red-7"}]


def test_undrawn_heroes_stay_out_of_the_public_output(
        capsys: pytest.CaptureFixture[str]) -> None:
    path = LOGS / "random-4-partial.jsonl"
    lines = path.read_text().splitlines()
    header = json.loads(lines[0])
    game = Tricky(header["seats"], header["seed"], header["options"])
    for line in lines[1:]:
        game.apply(json.loads(line))
    pile = game.referee_view()["hero_pile"]
    drawn, hidden = pile[:2], pile[2]  # one hero refused, the second on offer
    played = {entry["hero"] for entry in game.view(None)["heroes_played"]}
    assert hidden not in played
    for extra in ([], ["--seat", "1"], ["--seat", "0"]):
        code, out = replay_json(capsys, str(path), *extra)
        text = json.dumps(out)
        assert code == 0 and hidden not in text and all(hero in text for hero in drawn)
    code, out = replay_json(capsys, str(path), "--referee")
    assert out["state"]["hero_pile"] == pile
