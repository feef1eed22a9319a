"""`history` and `league` over 40 finished games of 6 players (one renamed, one typo merged):
every figure checked against values worked out here from the table logs."""

from __future__ import annotations

import json
from datetime import datetime

import pytest
from league_store import build
from openskill.models import PlackettLuce

from companion.cli import main
from companion.table.log import Header
from companion.table.session import TableSession

#: Who each name at the table is after `players merge Bobb Bob` and `players rename Cy Cyrus`.
PERSON = {"Bobb": "Bob", "Cy": "Cyrus"}


@pytest.fixture(scope="module")
def league_db(tmp_path_factory):
    path = tmp_path_factory.mktemp("league") / "table.db"
    logs = build(path)
    assert main(["players", "merge", "Bobb", "Bob", "--db", str(path)]) == 0
    assert main(["players", "rename", "Cy", "Cyrus", "--db", str(path)]) == 0
    return path, logs


def run_json(capsys, *argv):
    capsys.readouterr()
    assert main(list(argv)) == 0
    return json.loads(capsys.readouterr().out)


def worked_out(header, events):
    """A game's facts from its log: the public view at the end and the events, nothing else."""
    session = TableSession(Header.from_json(header))
    for event in events:
        session.apply(event)
    game = session.game
    view = game.view(None)
    seats = [PERSON.get(name, name) for name in header["seats"]]
    totals = game.totals()
    best = max(totals)
    places = [1 + sum(other > mine for other in totals) for mine in totals]
    start = datetime.fromisoformat(events[0]["t"])
    end = datetime.fromisoformat(events[-1]["t"])
    return {"seats": seats, "totals": totals, "places": places,
            "winners": [seats[s] for s, total in enumerate(totals) if total == best],
            "date": events[0]["t"], "minutes": round((end - start).total_seconds() / 60),
            "figures": figures_from_log(header["game"], view, events, len(seats))}


def figures_from_log(game, view, events, count):
    """Each game's figures, per seat, from the public view and the public events."""
    if game == "deathtrap":
        orders = view["finish_order"]
        return {"big_hero": [sum(o[0] == s for o in orders) for s in range(count)],
                "total_wimp": [sum(o[-1] == s for o in orders) for s in range(count)]}
    if game == "tricky":
        heroes = [{} for _ in range(count)]
        for played, gold in zip(view["heroes_played"], view["round_gold"], strict=True):
            tally = heroes[played["active"]].setdefault(played["hero"], [0, 0])
            tally[0] += 1
            tally[1] += gold[played["active"]] > 0
        return {"heroes": heroes}
    if game == "rumble":
        escapes = [sum(escaped in pairs[s] for escaped, pairs in
                       zip(view["escaped"], view["revealed"], strict=False) if escaped)
                   for s in range(count)]
        chests = [sum(e["type"] == "escape" and e["seat"] == s for e in events)
                  for s in range(count)]
        return {"escapes": escapes, "chests": chests}
    tried = [sum(e["type"] == "disarm" and e["seat"] == s for e in events) for s in range(count)]
    made = [0] * count
    by_trap = [{} for _ in range(count)]
    for square in view["squares"].values():
        if square["status"] == "disarmed" and square["disarmed_by"] is not None:
            seat = square["disarmed_by"]
            made[seat] += 1
            kind = square.get("trap") or "unrevealed"
            by_trap[seat][kind] = by_trap[seat].get(kind, 0) + square["xp_gained"]
    return {"disarms_tried": tried, "disarms_made": made, "xp_by_trap": by_trap}


def test_the_store_holds_40_finished_games_of_the_four_games_and_6_players(league_db):
    _, logs = league_db
    assert len(logs) >= 40
    assert {header["game"] for _, header, _ in logs} == {"deathtrap", "tricky", "rumble",
                                                         "traps"}
    people = {PERSON.get(n, n) for _, header, _ in logs for n in header["seats"]}
    assert len(people) == 6


def test_history_lists_every_game_newest_first_with_its_worked_out_figures(league_db, capsys):
    path, logs = league_db
    listed = run_json(capsys, "history", "--db", str(path), "--json")
    assert [game["session"] for game in listed] == [session for session, _, _ in logs][::-1]
    for game, (_, header, events) in zip(listed, logs[::-1], strict=True):
        expected = worked_out(header, events)
        assert game["game"] == header["game"]
        assert game["date"] == expected["date"]
        assert game["seats"] == expected["seats"]
        assert game["totals"] == expected["totals"]
        assert game["winners"] == expected["winners"]
        assert game["placings"] == expected["places"]
        assert game["minutes"] == expected["minutes"]
        assert game["figures"] == expected["figures"]


@pytest.mark.parametrize("player", ["Bob", "Bobb", "cyrus", "Ann"])
def test_history_of_a_player_holds_the_games_of_all_their_names(league_db, capsys, player):
    path, logs = league_db
    person = {"bobb": "Bob", "cyrus": "Cyrus"}.get(player.lower(), player)
    listed = run_json(capsys, "history", "--db", str(path), "--player", player, "--json")
    expected = [session for session, header, _ in logs
                if person in {PERSON.get(n, n) for n in header["seats"]}]
    assert [game["session"] for game in listed] == expected[::-1]
    assert all(person in game["seats"] for game in listed)


def test_history_by_game_and_date(league_db, capsys):
    path, logs = league_db
    listed = run_json(capsys, "history", "--db", str(path), "--game", "rumble", "--since",
                      "2026-01-20", "--json")
    expected = [session for session, header, events in logs
                if header["game"] == "rumble" and events[0]["t"][:10] >= "2026-01-20"]
    assert [game["session"] for game in listed] == expected[::-1] and expected


def expected_league(logs, game=None):
    """Per person: games, wins, placings and the openskill rating, from the logs."""
    model, ratings, table = PlackettLuce(), {}, {}
    for _, header, events in logs:
        if game is not None and header["game"] != game:
            continue
        facts = worked_out(header, events)
        rated = ratings.setdefault(header["game"], {})
        teams = [[rated.get(name) or model.rating()] for name in facts["seats"]]
        for name, (rating,) in zip(facts["seats"],
                                   model.rate(teams, ranks=facts["places"]), strict=True):
            rated[name] = rating
        for seat, name in enumerate(facts["seats"]):
            row = table.setdefault(name, {"games": 0, "wins": 0, "places": 0, "figures": {}})
            row["games"] += 1
            row["wins"] += name in facts["winners"]
            row["places"] += facts["places"][seat]
            mine = row["figures"].setdefault(header["game"], {})
            for key, values in facts["figures"].items():
                mine[key] = add(mine.get(key), values[seat])
    return table, ratings


def add(total, more):
    if total is None:
        return more
    if isinstance(more, dict):
        return {key: add(total.get(key), more.get(key)) if key in total and key in more
                else total.get(key, more.get(key)) for key in {*total, *more}}
    if isinstance(more, list):
        return [a + b for a, b in zip(total, more, strict=True)]
    return total + more


@pytest.mark.parametrize("game", [None, "deathtrap", "tricky", "rumble", "traps"])
def test_league_figures_equal_those_worked_out_from_the_logs(league_db, capsys, game):
    path, logs = league_db
    argv = ["league", "--db", str(path), "--json"] + (["--game", game] if game else [])
    players = run_json(capsys, *argv)["players"]
    table, ratings = expected_league(logs, game)
    assert sorted(p["name"] for p in players) == sorted(table)
    for row in players:
        mine = table[row["name"]]
        assert row["games"] == mine["games"]
        assert row["wins"] == mine["wins"]
        assert row["win_rate"] == pytest.approx(mine["wins"] / mine["games"], abs=1e-4)
        assert row["average_placing"] == pytest.approx(mine["places"] / mine["games"], abs=1e-4)
        assert row["figures"] == mine["figures"]
        for played, rated in ratings.items():
            if row["name"] in rated:
                expected = rated[row["name"]]
                assert row["ratings"][played]["rating"] == pytest.approx(expected.ordinal(),
                                                                         abs=1e-3)
                assert row["ratings"][played]["mu"] == pytest.approx(expected.mu, abs=1e-3)
    if game is not None:  # one game: its rating orders the table
        order = [row["ratings"][game]["rating"] for row in players]
        assert order == sorted(order, reverse=True)


def test_a_shared_win_counts_as_a_win_for_each_winner(league_db, capsys):
    path, logs = league_db
    shared = [s for s, header, events in logs if len(worked_out(header, events)["winners"]) > 1]
    listed = {g["session"]: g for g in run_json(capsys, "history", "--db", str(path), "--json")}
    for session in shared:
        assert len(listed[session]["winners"]) > 1
    table, _ = expected_league(logs)
    players = run_json(capsys, "league", "--db", str(path), "--json")["players"]
    assert sum(p["wins"] for p in players) == sum(row["wins"] for row in table.values())


def test_players_lists_the_renamed_and_the_merged(league_db, capsys):
    path, _ = league_db
    people = {p["name"]: p for p in run_json(capsys, "players", "--db", str(path), "--json")}
    assert "Cyrus" in people and "Cy" not in people and "Bobb" not in people
    assert people["Bob"]["aliases"] == ["Bobb"]


def test_the_table_logs_are_unchanged_by_rename_and_merge(league_db, capsys):
    path, logs = league_db
    for session, header, events in logs[:8]:
        capsys.readouterr()
        assert main(["export", "--db", str(path), str(session)]) == 0
        lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
        assert lines == [header, *events]


def test_one_person_in_two_seats_counts_one_game_and_the_table_still_ranks():
    """After a merge, a game where 'Bob' and 'Bobb' both sat is one game for that person, and
    gives no rating; a player rated in no game ranks last instead of failing."""
    from companion.history.league import league
    from companion.history.records import Play

    plays = [Play(1, "tricky", "2026-01-01T20:00", None, ["Ann", "Bob"], [1, 2], True,
                  [5, 3], [0]),
             Play(2, "tricky", "2026-01-02T20:00", None, ["Cy", "Bob", "Bobb"], [3, 2, 2],
                  True, [1, 4, 2], [1])]
    table = {s.name: s for s in league(plays).standings}
    assert table["Bob"].games == 2 and table["Bob"].wins == 1
    unrated = league(plays[1:]).standings  # its only game gives no rating: no failure
    assert {s.name for s in unrated} == {"Cy", "Bob"}
