"""Property tests over random `traps` games: secrecy, determinism, restore-on-error."""

from __future__ import annotations

import contextlib
import copy
import io
import json

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.bundles.traps.rules.dials import TRAP_IDS, check_catalog, default_catalog
from companion.bundles.traps.rules.engine import Traps
from companion.bundles.traps.rules.sim import random_game
from companion.cli import main
from companion.errors import CompanionError
from companion.table.log import Header
from companion.table.store import TableStore

NAMES = {trap["name"] for trap in check_catalog(default_catalog())["traps"].values()}
SECRET_WORDS = set(TRAP_IDS) | NAMES
CONTRACT_FIELDS = {
    "expose": {"type", "seat", "square", "clicks"},
    "trigger": {"type", "seat", "square", "clicks"},
    "disarm": {"type", "seat", "square", "mode", "dice", "variable_die"},
}
# What a square's public entry may hold while its trap has not been shown to everyone.
UNREVEALED_KEYS = {"status", "exposed_by", "disarmed_by", "xp_gained", "released"}

games = st.builds(
    lambda seed, seats, rolls, reveal_x, clicks: random_game(
        seed, seats, companion_rolls=rolls, reveal_exposed_x=reveal_x, dial_clicks=clicks),
    st.integers(0, 2**32), st.integers(2, 6), st.booleans(), st.booleans(),
    st.integers(2, 16))


def play(header: dict, events: list[dict]):
    """The game after each event, as (game, event) pairs."""
    game = Traps(header["seats"], header["seed"], header["options"])
    for event in events:
        game.apply(event)
        yield game, event


def revealed(game: Traps, square: str) -> bool:
    state = game.squares[square]
    return bool(state["triggers"]) or state["status"] == "clear"


def secret_words_of(game: Traps, square: str) -> set[str]:
    """The trap ids and names any position of this square's dial could show."""
    words = set()
    for position in game.dials[square]:
        if isinstance(position, dict):
            trap = game.options["catalog"]["traps"][position["trap"]]
            words |= {position["trap"], trap["name"]}
    return words


def public_words(public: dict) -> set[str]:
    return {entry[key] for entry in public["squares"].values()
            for key in ("trap", "name") if entry.get(key)}


@settings(max_examples=60, deadline=None)
@given(games)
def test_no_private_reading_in_the_public_view_or_another_seats_view(game_log):
    header, events = game_log
    for game, _event in play(header, events):
        public = game.view(None)
        shown_to_all = public_words(public)
        text = json.dumps(public)
        json.loads(text)
        for square, state in game.squares.items():
            entry = public["squares"][square]
            if not revealed(game, square):
                assert set(entry) <= UNREVEALED_KEYS, (square, entry)
                # No name of what this dial could hold, unless another square shows it.
                for word in secret_words_of(game, square) - shown_to_all:
                    assert word not in text, (square, word)
            for seat in range(len(game.seats)):
                seen = game.view(seat)["squares"][square]
                if str(seat) in state["read_by"]:
                    assert "reading_seen" in seen
                else:
                    assert seen == entry, (seat, square)
        for seat in range(len(game.seats)):
            view = game.view(seat)
            if game.note["seat"] != seat:
                assert view["note"] == ""
            rest = {key: value for key, value in view.items()
                    if key not in ("squares", "seat", "your_xp", "note")}
            assert rest == {key: value for key, value in public.items()
                            if key not in ("squares", "seat")}


@settings(max_examples=40, deadline=None)
@given(games)
def test_same_seed_and_events_give_the_same_dials_and_results(game_log):
    header, events = game_log
    again = random_game(header["seed"], len(header["seats"]), **header["options"])
    assert again == (header, events)
    first = [copy.deepcopy(game.referee_view()) for game, _ in play(header, events)]
    second = [copy.deepcopy(game.referee_view()) for game, _ in play(header, events)]
    assert first == second


@settings(max_examples=40, deadline=None)
@given(games)
def test_random_games_are_complete_and_xp_adds_up(game_log):
    header, events = game_log
    for event in events:
        assert set(event) <= CONTRACT_FIELDS[event["type"]]
    game = Traps(header["seats"], header["seed"], header["options"])
    for event in events:
        game.apply(event)
    assert game.finished
    earned = [0] * len(header["seats"])
    for entry in game.view(None)["squares"].values():
        if entry["status"] == "disarmed":
            earned[entry["disarmed_by"]] += entry["xp_gained"]
    assert game.totals() == earned
    assert game.winners() == [seat for seat, xp in enumerate(earned) if xp == max(earned)]


BAD_EVENTS = st.one_of(
    st.fixed_dictionaries({"type": st.sampled_from(["expose", "trigger", "disarm"]),
                           "seat": st.integers(-1, 7),
                           "square": st.sampled_from(["T1", "T2", "T3", "T4", "T5"])},
                          optional={"clicks": st.integers(-2, 40),
                                    "mode": st.sampled_from(["quick", "slow", "fast"]),
                                    "dice": st.lists(st.integers(0, 7), max_size=3),
                                    "variable_die": st.integers(0, 7)}),
)


@settings(max_examples=60, deadline=None)
@given(games, st.data())
def test_a_refused_event_changes_nothing(game_log, data):
    header, events = game_log
    cut = data.draw(st.integers(0, len(events)))
    game = Traps(header["seats"], header["seed"], header["options"])
    for event in events[:cut]:
        game.apply(event)
    event = data.draw(BAD_EVENTS)
    before = copy.deepcopy([game.referee_view(), game.view(None), game.totals()])
    try:
        game.apply(event)
    except CompanionError:
        assert copy.deepcopy([game.referee_view(), game.view(None), game.totals()]) == before


@settings(max_examples=8, deadline=None)
@given(st.integers(0, 2**32), st.integers(2, 5))
def test_replay_and_export_without_seat_hold_no_reading(tmp_path_factory, seed, seats):
    header, events = random_game(seed, seats)
    game = Traps(header["seats"], seed, {})
    for event in events:
        game.apply(event)
    hidden_words = set()
    for square in game.squares:
        if not revealed(game, square):
            hidden_words |= secret_words_of(game, square)
    hidden_words -= public_words(game.view(None))

    with TableStore(":memory:") as store:
        stored = store.new_session(Header.from_json(header))
        for event in events:
            stored.append(event)
        lines = stored.export_lines()
    exported_events = "\n".join(lines[1:])
    assert not any(word in exported_events for word in SECRET_WORDS)

    path = tmp_path_factory.mktemp("traps") / "game.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    for extra in ([], ["--json"]):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            assert main(["replay", str(path), *extra]) == 0
        for word in hidden_words:
            assert word not in out.getvalue()
