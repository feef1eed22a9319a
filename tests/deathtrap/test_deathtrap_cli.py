"""`companion replay` and `companion rules` on Deathtrap Dungeon logs (README.md, Commands)."""

from __future__ import annotations

import json
from pathlib import Path

from helpers import run

LOGS = Path(__file__).parent.parent / "logs" / "deathtrap"


def cut_log(tmp_path: Path, lines: int, extra: list[dict] = ()) -> str:
    """The first ``lines`` lines of the four-player log (header included), plus ``extra``."""
    text = (LOGS / "four-players.jsonl").read_text(encoding="utf-8").splitlines()[:lines]
    path = tmp_path / "cut.jsonl"
    path.write_text("\n".join(text + [json.dumps(e) for e in extra]) + "\n", encoding="utf-8")
    return str(path)


def test_replay_json_gives_totals_rounds_and_finish_order(capsys):
    code, out, _ = run(capsys, "replay", str(LOGS / "four-players.jsonl"), "--json")
    result = json.loads(out)
    assert code == 0
    assert result["game"] == "deathtrap" and result["seats"] == ["Ann", "Bob", "Cy", "Dee"]
    assert result["finished"] is True
    assert result["totals"] == [11, 8, 7, 14] and result["winners"] == [3]
    assert result["rounds"] == [[3, 2, 1, 4], [4, 1, 3, 2], [1, 3, 2, 4], [3, 2, 1, 4]]
    assert result["state"]["finish_order"] == [[3, 0, 1, 2], [0, 2, 3, 1], [3, 1, 2, 0],
                                               [3, 0, 1, 2]]


def test_replay_of_the_eight_player_game(capsys):
    code, out, _ = run(capsys, "replay", str(LOGS / "eight-players.jsonl"), "--json")
    result = json.loads(out)
    assert code == 0 and result["totals"] == [18, 15, 14, 22, 16, 25, 16, 18]
    assert result["winners"] == [5]


def test_public_replay_output_holds_no_exchange_prompt(capsys, tmp_path):
    log = cut_log(tmp_path, 17)  # header + round 1: the exchange is due
    for argv in (["--json"], []):
        code, out, _ = run(capsys, "replay", log, *argv)
        assert code == 0
        assert "Give your" not in out and "Take 2" not in out and "prompt" not in out
    code, out, _ = run(capsys, "replay", log, "--json", "--seat", "2")
    state = json.loads(out)["state"]
    assert state["prompt"] == "Give your 2 highest creature cards to Dee, then take 2 back"
    code, out, _ = run(capsys, "replay", log, "--json", "--referee")
    assert len(json.loads(out)["state"]["exchange"]) == 4


def test_an_illegal_event_stops_the_replay_at_its_line(capsys, tmp_path):
    log = cut_log(tmp_path, 4, [{"type": "play", "seat": 3, "cards": ["orc"]}])
    code, out, _ = run(capsys, "replay", log, "--json")
    result = json.loads(out)
    assert code == 2
    assert result["error"]["line"] == 5
    assert "Orc (2) does not beat Skeleton (3)" in result["error"]["message"]
    assert result["state"]["turn"] == 3 and result["state"]["counts"] == [3, 2, 2, 3]
    code, out, err = run(capsys, "replay", log)
    assert code == 2 and "line 5" in err and "Traceback" not in err


def test_rules_lists_every_option(capsys):
    code, out, _ = run(capsys, "rules", "deathtrap", "--json")
    options = json.loads(out)["options"]
    assert code == 0
    assert options["pass_locks_out"]["default"] is False
    assert options["wilds_alone_value"]["default"] == 0 and options["rounds"]["default"] == 4
    assert len(options["deck"]["default"]["creatures"]) == 13
    code, out, _ = run(capsys, "rules", "deathtrap")
    assert code == 0 and "pig_default_lead" in out and "exchange" in out
