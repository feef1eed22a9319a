"""The after-the-game commands as a user meets them: BG Stats and CSV files, plots, sessions,
replay in words, players, an older store, and bad input (one line naming the field, exit 2)."""

from __future__ import annotations

import csv
import io
import json
import sqlite3

import pytest
from league_store import build

from companion.cli import main
from companion.table import Header, TableStore

#: Every field BG Stats needs in its play file, with its JSON type.
PLAYER = {"id": int, "uuid": str, "name": str, "isAnonymous": bool, "modificationDate": str}
GAME = {"id": int, "uuid": str, "name": str, "modificationDate": str, "cooperative": bool,
        "highestWins": bool, "noPoints": bool, "usesTeams": bool, "bggId": int}
LOCATION = {"id": int, "uuid": str, "name": str, "modificationDate": str}
PLAY = {"uuid": str, "modificationDate": str, "playDate": str, "durationMin": int,
        "ignored": bool, "manualWinner": bool, "rounds": int, "locationRefId": int,
        "gameRefId": int, "usesTeams": bool, "playerScores": list}
SCORE = {"playerRefId": int, "score": str, "winner": bool, "newPlayer": bool,
         "startPlayer": bool, "seatOrder": int, "rank": int}


@pytest.fixture(scope="module")
def store_path(tmp_path_factory):
    path = tmp_path_factory.mktemp("cli") / "table.db"
    logs = build(path, games=8)
    with TableStore(path) as store:  # one game left unfinished
        store.new_session(Header("traps", ("Ann", "Bob"), 3), [
            {"type": "expose", "seat": 0, "square": "T1", "clicks": 2}])
    return path, logs


def out_of(capsys, *argv, code=0):
    capsys.readouterr()
    assert main(list(argv)) == code
    return capsys.readouterr()


def has_shape(obj, shape):
    for key, kind in shape.items():
        assert isinstance(obj[key], kind) and not (kind is int and isinstance(obj[key], bool)), key


def test_the_bgstats_play_file_has_every_field_bgstats_needs(store_path, capsys):
    path, logs = store_path
    session, header, events = logs[2]
    data = json.loads(out_of(capsys, "export", "--bgstats", "--db", str(path), str(session)).out)
    for player in data["players"]:
        has_shape(player, PLAYER)
    for game in data["games"]:
        has_shape(game, GAME)
    for location in data["locations"]:
        has_shape(location, LOCATION)
    (play,) = data["plays"]
    has_shape(play, PLAY)
    ids = {player["id"] for player in data["players"]}
    assert play["gameRefId"] in {game["id"] for game in data["games"]}
    assert play["locationRefId"] in {loc["id"] for loc in data["locations"]}
    assert sorted(s["playerRefId"] for s in play["playerScores"]) == sorted(ids)
    for score in play["playerScores"]:
        has_shape(score, SCORE)
    assert play["playDate"] == events[0]["t"][:19].replace("T", " ")
    assert [p["name"] for p in data["players"]] == header["seats"]
    uuids = [p["uuid"] for p in data["players"]] + [data["games"][0]["uuid"], play["uuid"]]
    assert len(set(uuids)) == len(uuids)
    again = json.loads(out_of(capsys, "export", "--bgstats", "--db", str(path),
                              str(session)).out)
    assert again == data  # the same game gives the app the same objects: no duplicates


def test_csv_has_a_row_per_player_per_game(store_path, capsys):
    path, logs = store_path
    rows = list(csv.DictReader(io.StringIO(out_of(capsys, "export", "--csv", "--db",
                                                  str(path)).out)))
    assert len(rows) == sum(len(header["seats"]) for _, header, _ in logs)
    assert {row["player"] for row in rows} >= set(logs[0][1]["seats"])


def test_sessions_show_scores_winners_and_unfinished_games(store_path, capsys):
    path, logs = store_path
    text = out_of(capsys, "sessions", "--db", str(path)).out.splitlines()
    assert "UNFINISHED" in text[-1] and "won" not in text[-1]
    assert all("won)" in line for line in text[:-1])
    listed = json.loads(out_of(capsys, "sessions", "--db", str(path), "--json").out)
    assert listed[-1]["finished"] is False and listed[-1]["winners"] == []
    assert listed[0]["totals"] is not None and listed[0]["winners"]


def test_plots_are_written_as_png_and_svg(store_path, capsys, tmp_path):
    path, _ = store_path
    out_of(capsys, "history", "--db", str(path), "--plot", str(tmp_path / "game.png"))
    assert (tmp_path / "game.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    out_of(capsys, "league", "--db", str(path), "--game", "tricky", "--plot",
           str(tmp_path / "league.svg"))
    assert "<svg" in (tmp_path / "league.svg").read_text()


def test_replay_without_json_prints_the_state_in_words(tmp_path, capsys):
    log = tmp_path / "t.jsonl"
    log.write_text('{"game": "traps", "seats": ["Ann", "Bob"], "seed": 7, "options": {}}\n'
                   '{"type": "expose", "seat": 0, "square": "T1", "clicks": 3}\n')
    text = out_of(capsys, "replay", str(log)).out
    assert "T1: exposed, exposed by Ann" in text and "{" not in text
    seat = out_of(capsys, "replay", str(log), "--seat", "0").out
    assert "private:" in seat and "reading_seen" in seat
    as_json = json.loads(out_of(capsys, "replay", str(log), "--json").out)
    assert set(as_json) == {"game", "seats", "finished", "totals", "rounds", "winners", "state"}


@pytest.mark.parametrize(("argv", "field"), [
    (["history", "--since", "yesterday"], "--since"),
    (["history", "--game", "chess"], "--game"),
    (["history", "--player", "Zed"], "--player"),
    (["history", "--session", "999"], "--session"),
    (["history", "--plot", "chart.pdf"], "--plot"),
    (["league", "--since", "2026-02-30"], "--since"),
    (["league", "--plot", "/no/such/folder/x.png"], "--plot"),
    (["export", "--bgstats", "9"], "SESSION"),
    (["players", "rename", "Zed", "Zoe"], "OLD"),
    (["players", "rename", "Ann", ""], "NEW"),
    (["players", "rename", "Ann", "Dee"], "NEW"),
    (["players", "merge", "Ann", "Ann"], "INTO"),
])
def test_bad_input_is_one_line_naming_the_field_exit_2(store_path, capsys, argv, field):
    path, _ = store_path
    result = out_of(capsys, *argv, "--db", str(path), code=2)
    lines = result.err.strip().splitlines()
    assert len(lines) == 1 and field in lines[0] and "Traceback" not in result.err
    assert result.out == ""


def test_a_merge_of_two_who_sat_together_is_refused(store_path, capsys):
    path, logs = store_path
    first, second = logs[0][1]["seats"][:2]
    error = out_of(capsys, "players", "merge", first, second, "--db", str(path), code=2).err
    assert "same game" in error


def test_errors_with_json_are_json(store_path, capsys):
    path, _ = store_path
    result = out_of(capsys, "league", "--game", "chess", "--json", "--db", str(path), code=2)
    assert "--game" in json.loads(result.out)["error"]["message"]


def test_a_store_from_before_players_is_read_as_it_is_and_migrated_when_written(tmp_path,
                                                                                 capsys):
    path = tmp_path / "old.db"
    build(path, games=4)
    db = sqlite3.connect(path)  # make it a store as the previous version wrote it
    db.executescript("DROP TABLE seats; DROP TABLE players; DROP TABLE results; "
                     "PRAGMA user_version = 0;")
    db.close()
    before = json.loads(out_of(capsys, "history", "--db", str(path), "--json").out)
    tables = {row[0] for row in sqlite3.connect(path).execute(
        "SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert tables == {"sessions", "events"}, "reading changed nothing"
    assert len(before) == 4 and before[0]["winners"]
    assert out_of(capsys, "players", "--db", str(path)).out.count("games") >= 4
    with TableStore(path):  # a writer (the daemon, import) migrates it
        pass
    after = json.loads(out_of(capsys, "history", "--db", str(path), "--json").out)
    assert after == before
    assert sqlite3.connect(path).execute("SELECT COUNT(*) FROM results").fetchone()[0] == 4
