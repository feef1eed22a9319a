"""The state model of every engine and of the table session, over random legal games.

* An undo at any point gives exactly the game a replay of the events left in force gives,
  however many undos follow each other (the session keeps earlier states, it does not
  replay the log, so this is what keeps it honest).
* A refused event, an illegal one or a malformed one, leaves everything as it was.
* A copy of a state shares only immutable values, so no later event can reach into a kept
  state through a shared list or dict.
"""

from __future__ import annotations

import importlib
import random
from typing import Any

import pytest
from built_in import GAMES as BUILT_IN
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.errors import CompanionError
from companion.games.base import Game
from companion.games.registry import engine
from companion.games.state import copy_state, mutable_inside_shared
from companion.table.log import Header
from companion.table.session import EVERY, TableSession

GAMES = BUILT_IN


def random_log(game: str, seed: int, seats: int) -> tuple[Header, list[dict[str, Any]]]:
    sim = importlib.import_module(f"companion.bundles.{game}.rules.sim")
    engine_class = engine(game)
    seats = min(max(seats, engine_class.min_seats), engine_class.max_seats)
    header, events = sim.random_game(seed, seats)
    return Header.from_json(header), events


def everything(game: Game) -> list[Any]:
    """All a game shows: the referee's record, every view, the scores."""
    return [game.referee_view(), game.view(None), *(game.view(s) for s in range(len(game.seats))),
            game.totals(), game.rounds(), game.winners(), game.finished, game.figures()]


def replayed(header: Header, events: list[dict[str, Any]]) -> TableSession:
    session = TableSession(header)
    for event in events:
        session.apply(event)
    return session


def over_random_games(examples: int) -> Any:
    """Run a test for every game over ``examples`` random legal games (seed, seats, data)."""
    def wrap(test: Any) -> Any:
        test = given(seed=st.integers(0, 10**6), seats=st.integers(2, 5), data=st.data())(test)
        test = settings(max_examples=examples, deadline=None)(test)
        return pytest.mark.parametrize("name", GAMES)(test)
    return wrap


@over_random_games(15)
def test_undo_anywhere_equals_replaying_what_is_left(name, seed, seats, data):
    header, events = random_log(name, seed, seats)
    session = TableSession(header)
    stops = sorted(data.draw(st.lists(st.integers(0, len(events)), min_size=1, max_size=4)))
    done = 0
    for stop in stops:
        for event in events[done:stop]:
            session.apply(event)
        done = max(done, stop)
        # Undo as far back as a kept state or two (EVERY events apart), then some.
        count = data.draw(st.integers(0, min(len(session.in_force), 2 * EVERY + 3)))
        for _ in range(count):
            session.apply({"type": "undo"})
            assert everything(session.game) == everything(
                replayed(header, session.in_force).game)
        # The undone events are legal again: play them again and go on.
        for event in events[len(session.in_force):done]:
            session.apply(event)
    assert everything(session.game) == everything(replayed(header, events[:done]).game)
    assert len(session.events) == len(session.in_force) + 2 * sum(
        1 for e in session.events if e["type"] == "undo")


def tampered(game: Game, event: dict[str, Any], rand: random.Random) -> dict[str, Any]:
    """An event like ``event`` with one field changed, added or dropped: often refused."""
    changed = dict(event)
    choice = rand.randrange(6)
    if choice == 0:
        changed["type"] = rand.choice([*game.EVENTS, "nonsense"])
    elif choice == 1 and "seat" in changed:
        changed["seat"] = rand.randrange(-1, len(game.seats) + 1)
    elif choice == 2:
        fields = game.EVENTS.get(changed["type"], {})
        if fields:
            key = rand.choice(sorted(fields))
            changed[key] = rand.choice([0, 1, 7, -3, "x", True, [], ["red-3"], None, 10**7])
    elif choice == 3 and len(changed) > 1:
        del changed[rand.choice(sorted(set(changed) - {"type"}))]
    elif choice == 4:
        changed["extra"] = 1
    return changed


@over_random_games(15)
def test_a_refused_event_changes_nothing(name, seed, seats, data):
    header, events = random_log(name, seed, seats)
    cut = data.draw(st.integers(0, len(events)))
    session = replayed(header, events[:cut])
    rand = random.Random(data.draw(st.integers(0, 10**6)))
    later = events[cut:] or events[-1:]
    for _ in range(12):
        game = session.game
        state = copy_state(dict(vars(game)))
        shown = everything(game)
        entries, in_force = len(session.events), list(session.in_force)
        event = tampered(game, rand.choice(later), rand)
        try:
            session.check(event)
            session.apply(event)
        except CompanionError:
            assert session.game is game
            assert dict(vars(game)) == state
            assert everything(game) == shown
            assert (len(session.events), session.in_force) == (entries, in_force)
        else:
            session.apply({"type": "undo"})  # accepted: back to the game before it
            assert everything(session.game) == shown


@over_random_games(10)
def test_copies_share_only_immutable_values(name, seed, seats, data):
    header, events = random_log(name, seed, seats)
    session = replayed(header, events[:data.draw(st.integers(0, len(events)))])
    game = session.game
    state = {key: value for key, value in vars(game).items() if key not in Game.HEADER}
    assert mutable_inside_shared(state) is None
    twin = game.clone()
    before = everything(game)
    for event in events[len(session.in_force):]:
        twin.apply(event)  # the copy plays on; the original must not notice
    assert everything(game) == before


def test_a_state_holding_an_unknown_mutable_type_is_refused():
    class Bag:
        pass

    with pytest.raises(TypeError, match="Bag"):
        copy_state({"bag": Bag()})


@pytest.mark.parametrize("name", GAMES)
def test_restore_takes_back_an_event_or_an_undo(name):
    """What the store does when an entry cannot be made durable (a full disk)."""
    header, events = random_log(name, 1, 3)
    cut = len(events) // 2
    session = replayed(header, events[:cut])
    shown, in_force, entries = everything(session.game), list(session.in_force), \
        list(session.events)
    for entry in (events[cut], {"type": "undo"}):
        mark = session.mark()
        session.commit(session.prepare(entry))
        session.restore(mark)
        assert everything(session.game) == shown
        assert (session.in_force, session.events) == (in_force, entries)
    session.apply({"type": "undo"})
    assert everything(session.game) == everything(replayed(header, events[:cut - 1]).game)
