"""`companion replay` of the `traps` table logs in tests/logs/traps/ (README.md, Commands)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.cli import main

LOGS = Path(__file__).parent.parent / "logs" / "traps"


def replay(capsys: pytest.CaptureFixture[str], name: str, *extra: str) -> tuple[int, str]:
    code = main(["replay", str(LOGS / name), *extra])
    return code, capsys.readouterr().out


def test_scripted_log_gives_the_hand_computed_xp_and_states(capsys):
    code, out = replay(capsys, "scripted.jsonl", "--json")
    result = json.loads(out)
    assert code == 0
    # T1: Ann's quick 6 < 7 triggers the Spiked Pit; Bob's slow 5 + 2 = 7 disarms it: Bob 10.
    # T2: Buzz Saw 6+ fixed at 6 + 3 = 9 by Cy's failed 8; Ann's 9 disarms it: Ann 20.
    # T3: 5 clicks on a 3-position dial land on position 2, an X: clear.
    # T4: 4 clicks land on position 1, the Cage: Cy imprisoned; Bob's slow 7 < 8 leaves it
    #     locked; Ann's 8 frees Cy: Ann 30.
    assert result["totals"] == [30, 10, 0]
    assert result["rounds"] == []
    assert result["finished"] is True and result["winners"] == [0]
    squares = result["state"]["squares"]
    assert {square: entry["status"] for square, entry in squares.items()} == {
        "T1": "disarmed", "T2": "disarmed", "T3": "clear", "T4": "disarmed"}
    assert squares["T2"]["disarm_now"] == 9
    assert squares["T4"]["released"] == 2 and squares["T4"]["disarmed_by"] == 0


def test_replay_without_seat_shows_no_private_reading(capsys):
    for extra in ([], ["--json"]):
        code, out = replay(capsys, "secrets.jsonl", *extra)
        assert code == 0
        # T3's Falling Weight fell in public; T1 (Ann's) and T2 (Bob's) are private readings.
        assert "Falling Weight" in out
        for secret in ("monstrous", "Monstrous", "acid", "Acid", "Noxious", '"x"'):
            assert secret not in out, secret
    squares = json.loads(replay(capsys, "secrets.jsonl", "--json")[1])["state"]["squares"]
    assert squares["T1"] == {"status": "exposed", "exposed_by": [0]}
    assert squares["T2"] == {"status": "exposed", "exposed_by": [1]}


def test_replay_with_a_seat_shows_that_seats_readings_only(capsys):
    ann = json.loads(replay(capsys, "secrets.jsonl", "--json", "--seat", "0")[1])["state"]
    assert ann["squares"]["T1"]["reading_seen"]["name"] == "Monstrous Hand"
    assert "reading_seen" not in ann["squares"]["T2"]
    bob = json.loads(replay(capsys, "secrets.jsonl", "--json", "--seat", "1")[1])["state"]
    assert bob["squares"]["T2"]["reading_seen"]["name"] == "X"
    assert "Monstrous" not in json.dumps(bob)
    referee = json.loads(replay(capsys, "secrets.jsonl", "--json", "--referee")[1])["state"]
    assert referee["squares"]["T1"]["reading_now"]["name"] == "Monstrous Hand"
    assert referee["squares"]["T2"]["reading_now"]["name"] == "X"


def test_an_illegal_event_stops_the_replay_at_its_line(capsys):
    code, out = replay(capsys, "illegal.jsonl", "--json")
    result = json.loads(out)
    assert code == 2
    # Line 4 exposes T1 again after Ann disarmed it (6 + 5 = 11 >= 7) on line 3.
    assert result["error"]["line"] == 4
    assert "expose-disarmed" in result["error"]["message"]
    assert result["totals"] == [10, 0]
    assert result["state"]["squares"]["T1"]["status"] == "disarmed"


def test_companion_rolls_replay_the_same_every_time(capsys):
    first = replay(capsys, "rolls.jsonl", "--json", "--referee")
    second = replay(capsys, "rolls.jsonl", "--json", "--referee")
    assert first == second and first[0] == 0
    squares = json.loads(first[1])["state"]["squares"]
    # Every die the events left out was rolled: each 12-position dial turned 1 to 6 clicks.
    assert all(1 <= squares[square]["position"] <= 6 for square in ("T1", "T2"))
    assert squares["T1"]["read_by"] == {"0": squares["T1"]["position"]}
    assert squares["T2"]["status"] in ("triggered", "clear")


def test_an_undone_failed_disarm_leaves_no_trace(capsys):
    code, out = replay(capsys, "undo.jsonl", "--json")
    result = json.loads(out)
    assert code == 0
    # Bob's quick 4 < 8 is withdrawn; his slow 3 + 3 + 2 = 8 >= 8 disarms the Fire Jets.
    assert result["totals"] == [0, 10]
    assert result["finished"] is True
    assert result["state"]["squares"]["T1"] == {
        "status": "disarmed", "exposed_by": [1], "disarmed_by": 1, "xp_gained": 10,
        "released": None}
