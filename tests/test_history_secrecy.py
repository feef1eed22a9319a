"""Over random finished games, nothing `history`, `league`, the plots or the exports produce
holds a private fact that was never revealed: no trap reading nobody saw go off, no hero
left in the random dungeon's pile, no secret character before its adventure was scored."""

from __future__ import annotations

import json
import re
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.bundles.deathtrap.rules import sim as deathtrap_sim
from companion.bundles.rumble.rules import sim as rumble_sim
from companion.bundles.traps.rules import sim as traps_sim
from companion.bundles.tricky.rules import sim as tricky_sim
from companion.commands.history import engines_of, history_json
from companion.games import registry
from companion.history import bgstats, plots, spreadsheet, tables
from companion.history.league import league
from companion.history.records import load_plays
from companion.table import Header, TableStore
from companion.table.session import TableSession

SIMULATORS = {"deathtrap": (deathtrap_sim, 4, 6), "tricky": (tricky_sim, 2, 4),
              "rumble": (rumble_sim, 3, 5), "traps": (traps_sim, 2, 4)}
#: On every dial and in every view's vocabulary: no secret in themselves.
NOT_SECRETS = {"start", "x", "X"}


def strings(value: Any) -> set[str]:
    """Every string value inside a JSON value (keys are the views' own words, not facts)."""
    found: set[str] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            found.add(item)
        elif isinstance(item, dict):
            stack.extend(item.values())
            found.update(k for k in item if isinstance(k, str) and not k.isidentifier())
        elif isinstance(item, list):
            stack.extend(item)
    return found


def svg_text(path) -> str:
    return " ".join(re.findall(r"<text[^>]*>([^<]*)</text>", path.read_text()))


def private_facts(game) -> set[str]:
    """What the referee knows at the end and nobody was shown: strings of its record that
    appear nowhere in the public view (nor are seat names or plain vocabulary)."""
    public = strings(game.view(None)) | set(game.seats) | NOT_SECRETS
    return {text for text in strings(game.referee_view()) - public if len(text) > 1}


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
@given(name=st.sampled_from(sorted(SIMULATORS)), seed=st.integers(0, 10_000),
       data=st.data())
def test_nothing_after_the_game_tells_a_fact_never_revealed(tmp_path_factory, name, seed,
                                                              data):
    simulator, low, high = SIMULATORS[name]
    seats = data.draw(st.integers(low, high), label="seats")
    options = {}
    if name == "tricky" and data.draw(st.booleans(), label="random dungeon"):
        options = {"variant": "random", "rounds_per_player": 1}
    header, events = simulator.random_game(seed, seats, **options)
    session = TableSession(Header.from_json(header))
    for event in events:
        session.apply(event)
    assert session.game.finished
    secrets = private_facts(session.game)

    folder = tmp_path_factory.mktemp("secrecy")
    with TableStore(folder / "t.db") as store:
        store.new_session(Header.from_json(header), events)
        plays = load_plays(store)
    standings = league(plays)
    engines, bundle = engines_of(plays), registry.get(name)
    plots.plot_game(plays[0], folder / "game.svg", bundle.engine.title, bundle.step)
    plots.plot_league(standings.history, folder / "league.svg",
                      {game: engine.title for game, engine in engines.items()})
    as_json = [history_json(plays[0]), standings.to_json(),
               bgstats.play_file(plays[0], bundle.engine.title)]
    text = "\n".join([tables.history_text(plays), tables.league_text(standings, engines),
                      spreadsheet.rows(plays), svg_text(folder / "game.svg"),
                      svg_text(folder / "league.svg"), json.dumps(as_json)])
    shown = strings(as_json)
    # The clock's own numbers (when the game was played, to the second) are no fact of it: a
    # trap reading of 10 is not told by a game started at 04:49:10.
    text = re.sub(r"\d{4}-\d\d-\d\d([T ]\d\d:\d\d(:\d\d(\.\d+)?)?)?|\b\d\d:\d\d(:\d\d)?\b", "",
                  text)
    for secret in secrets:
        assert secret not in shown, f"{name}: {secret!r} was never revealed"
        assert not re.search(rf"(?<![\w-]){re.escape(secret)}(?![\w-])", text), \
            f"{name}: {secret!r} was never revealed"


def test_a_trap_disarmed_unseen_counts_as_unrevealed():
    one_trap = {"squares": ["T1"], "dials": {"T1": ["start", {"trap": "spiked-pit",
                                                               "disarm": 2, "xp": 10}]}}
    game = TableSession(Header("traps", ("Ann", "Bob"), 1, one_trap))
    game.apply({"type": "expose", "seat": 0, "square": "T1", "clicks": 1})
    game.apply({"type": "disarm", "seat": 0, "square": "T1", "mode": "quick", "dice": [3, 4]})
    assert game.game.finished
    assert game.game.figures()["xp_by_trap"] == [{"unrevealed": 10}, {}]
