"""A game's screens named the keys of the views they read (``TABLE_KEYS``, ``SEAT_KEYS``):
drawn from those keys alone, every screen of every state of random games is the same image
as drawn from the whole view (so the drawings' keys may leave the rest out)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games import registry
from companion.games.views import view_of
from companion.screens.screen_set import drawn
from companion.table import Header
from companion.table.session import TableSession

SIMULATED = {"tricky": (2, 4), "deathtrap": (3, 6), "rumble": (3, 5), "traps": (1, 4)}


def named_keys(game: str) -> bool:
    screens = registry.get(game).screen_module()
    return screens.table_keys is not None or screens.seat_keys is not None


@pytest.mark.parametrize("game", [name for name in SIMULATED if named_keys(name)])
@settings(max_examples=5, deadline=None)
@given(seed=st.integers(0, 10_000), data=st.data())
def test_a_screen_drawn_from_its_keys_is_the_screen_drawn_from_its_view(game, seed, data):
    import importlib

    seats = data.draw(st.integers(*SIMULATED[game]))
    sim = importlib.import_module(f"companion.bundles.{game}.rules.sim")
    header, events = sim.random_game(seed, seats)
    session = TableSession(Header(game, tuple(header["seats"]), header["seed"],
                                  header.get("options", {})))
    screens = registry.get(game).screen_module()
    names = session.game.seats
    for event in events:
        session.apply(event)
        table = view_of(session.game, None)
        assert screens.table(drawn(table, screens.table_keys),
                             names).tobytes() == screens.table(table, names).tobytes()
        for seat in range(seats):
            view = view_of(session.game, seat)
            part = drawn(view, screens.seat_keys)
            for peeking in (False, True):
                assert screens.seat(part, names, peeking).tobytes() == \
                    screens.seat(view, names, peeking).tobytes()
