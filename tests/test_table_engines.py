"""The table machinery with the four real engines: undo, store, export, import, replay agree."""

from __future__ import annotations

import importlib
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.cli import main
from companion.table import Header, TableSession, TableStore
from companion.table.log import parse_log

GAMES = ("deathtrap", "rumble", "traps", "tricky")


def random_log(game: str, seed: int, seats: int) -> tuple[Header, list[dict]]:
    simulator = importlib.import_module(f"companion.bundles.{game}.rules.sim")
    header, events = simulator.random_game(seed, seats)
    return Header.from_json(header), events


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=10)
@given(seed=st.integers(0, 10_000), undo_at=st.lists(st.floats(0, 1), max_size=4))
def test_undo_store_export_import_replay_agree(game, seed, undo_at, tmp_path_factory):
    """Undos sprinkled into a real game, the withdrawn event played again: every route to the
    end gives the same result as the plain game."""
    header, events = random_log(game, seed, 4)
    cut = max(1, len(events) // 4)  # a quarter of the game keeps the example quick
    events = events[:cut]
    entries: list[dict] = []
    for index, event in enumerate(events):
        entries.append(event)
        if any(int(at * len(events)) == index for at in undo_at):
            entries += [{"type": "undo"}, event]
    plain = TableSession(header)
    for event in events:
        plain.apply(event)
    folder = tmp_path_factory.mktemp(game)
    with TableStore(folder / "t.db") as store:
        stored_game = store.new_session(header)
        for entry in entries:
            stored_game.append(entry)
        assert stored_game.session.result(referee=True) == plain.result(referee=True)
        log = folder / "game.jsonl"
        log.write_text("\n".join(stored_game.export_lines()) + "\n")
    parsed_header, parsed = parse_log(log.read_text().splitlines())
    assert [event for _, event in parsed] == entries and parsed_header == header
    with TableStore(folder / "copy.db") as store:
        copy = store.new_session(parsed_header, [event for _, event in parsed])
        assert copy.session.result(referee=True) == plain.result(referee=True)
    with TableStore(folder / "copy.db") as store:  # and again after a restart
        reopened = store.open_session(store.latest())
        assert reopened.session.result(referee=True) == plain.result(referee=True)


@pytest.mark.parametrize("game", GAMES)
def test_replay_command_prints_the_contract_shape(game, tmp_path, capsys):
    header, events = random_log(game, 5, 4)
    log = tmp_path / "game.jsonl"
    log.write_text("\n".join(json.dumps(x) for x in [header.to_json(), *events]) + "\n")
    assert main(["replay", str(log), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert set(result) == {"game", "seats", "finished", "totals", "rounds", "winners", "state"}
    assert result["finished"] is True and len(result["totals"]) == 4
    assert all(len(points) == 4 for points in result["rounds"])
    if game != "traps":  # rounds add up to the totals; traps counts XP only (rounds empty)
        assert [sum(column) for column in zip(*result["rounds"], strict=True)] == \
            result["totals"]
    else:
        assert result["rounds"] == []
    key = {"deathtrap": "finish_order", "rumble": "exits", "traps": "squares",
           "tricky": "tricks"}[game]
    assert key in result["state"]
