"""Secrecy on the glass: a private reading or secret character is drawn on exactly one seat's
screen, only while that seat peeks, and never on another seat's screen or the table screen.

Method: two tables that differ only in a secret (the hidden dial, the secret characters) and
see the same public events. Every screen whose pixels differ between them shows the secret;
only the owner's screen during its peek may.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from companion.bundles.rumble.rules.engine import Rumble
from companion.bundles.traps.rules.engine import Traps
from companion.daemon.ui import TableUI
from companion.hardware.events import InputEvent
from companion.screens.common import SECRET_BOX
from companion.screens.screen_set import compose

TRAPS = ["buzz-saw", "cage", "falling-weight", "fire-jets", "jaws-of-doom", "monstrous-hand",
         "noxious-acid-pool", "spiked-pit"]
readings = st.one_of(
    st.just("x"),
    st.fixed_dictionaries({"trap": st.sampled_from(TRAPS),
                           "disarm": st.one_of(st.integers(2, 12),
                                               st.sampled_from(["4+", "5+", "6+"])),
                           "xp": st.integers(1, 20)}))


def pixels(image: Any, box: tuple[int, int, int, int] | None = None) -> np.ndarray:
    return np.asarray(image.crop(box) if box else image, dtype=bool)


def differing(first: dict[str, Any], second: dict[str, Any]) -> set[str]:
    """The screens whose images differ anywhere."""
    return {name for name in first if not np.array_equal(pixels(first[name]),
                                                         pixels(second[name]))}


def traps_table(reading: Any, seats: int) -> Traps:
    # The dial's only trap position is reached by one click; T2 keeps a catalog dial.
    return Traps([f"P{seat}" for seat in range(seats)], seed=5,
                 options={"dials": {"T1": ["start", reading, "x"]}})


@settings(max_examples=40, deadline=None)
@given(readings, readings, st.integers(2, 6), st.data())
def test_a_trap_reading_shows_only_on_the_exposing_seat_and_only_while_it_peeks(
        first: Any, second: Any, seats: int, data: st.DataObject) -> None:
    assume(first != second)
    exposer = data.draw(st.integers(0, seats - 1), label="exposer")
    tables = [traps_table(first, seats), traps_table(second, seats)]
    uis = [TableUI("traps", seats, squares=["T1", "T2"], peek_timeout_s=5.0) for _ in tables]
    for game in tables:
        game.apply({"type": "expose", "seat": exposer, "square": "T1", "clicks": 1})

    # Nobody peeks: every screen is the same whatever the dial holds.
    assert differing(compose(tables[0], uis[0]), compose(tables[1], uis[1])) == set()

    # The exposer holds its button: its screen, and no other, shows the reading.
    for ui in uis:
        ui.handle(InputEvent("press", f"seat:{exposer}"), 1.0)
        ui.handle(InputEvent("hold", f"seat:{exposer}", 1), 1.6)
    peeking = [compose(game, ui) for game, ui in zip(tables, uis, strict=True)]
    assert differing(*peeking) == {f"seat:{exposer}"}
    own = [pixels(images[f"seat:{exposer}"], SECRET_BOX) for images in peeking]
    assert not np.array_equal(*own)  # the reading is really drawn, in the secret's place

    # Another seat peeking sees nothing of it.
    other = (exposer + 1) % seats
    for ui in uis:
        ui.handle(InputEvent("hold", f"seat:{other}", 1), 1.7)
    assert differing(*[compose(g, u) for g, u in zip(tables, uis, strict=True)]) \
        == {f"seat:{exposer}"}

    # Released: gone from the glass again.
    for ui in uis:
        ui.handle(InputEvent("release", f"seat:{exposer}"), 2.0)
    assert differing(*[compose(g, u) for g, u in zip(tables, uis, strict=True)]) == set()


def test_a_peek_blanks_after_the_timeout_even_if_still_held() -> None:
    tables = [traps_table("x", 3), traps_table({"trap": "cage", "disarm": 9, "xp": 6}, 3)]
    uis = [TableUI("traps", 3, squares=["T1"], peek_timeout_s=5.0) for _ in tables]
    for game, ui in zip(tables, uis, strict=True):
        game.apply({"type": "expose", "seat": 2, "square": "T1", "clicks": 1})
        ui.handle(InputEvent("hold", "seat:2", 1), 10.0)
    assert differing(*[compose(g, u) for g, u in zip(tables, uis, strict=True)]) == {"seat:2"}
    for ui in uis:
        ui.tick(14.9)
    assert differing(*[compose(g, u) for g, u in zip(tables, uis, strict=True)]) == {"seat:2"}
    for ui in uis:
        ui.tick(15.0)
    assert differing(*[compose(g, u) for g, u in zip(tables, uis, strict=True)]) == set()


CHARACTERS = ["knight", "thief", "twin-thief", "barbarian", "wizard", "priest", "dwarf", "elf",
              "zombie", "gelatinous-cube", "goblin", "skeleton"]


@settings(max_examples=25, deadline=None)
@given(st.permutations(CHARACTERS), st.permutations(CHARACTERS))
def test_secret_characters_show_only_on_their_seat_while_it_peeks(
        first: list[str], second: list[str]) -> None:
    seats = 3
    # Seat 1's secrets differ between the tables; the other seats' are the same.
    theirs = {0: ["knight", "thief"], 2: ["wizard", "priest"]}
    pool = [c for c in CHARACTERS if c not in theirs[0] + theirs[2]]
    mine = [[c for c in order if c in pool][:2] for order in (first, second)]
    assume(mine[0] != mine[1])
    tables, uis = [], []
    for secret in mine:
        game = Rumble(["Ann", "Bob", "Cy"], seed=3)
        for seat, characters in {**theirs, 1: secret}.items():
            game.apply({"type": "secrets", "seat": seat, "characters": characters})
        game.apply({"type": "start", "seat": 0})
        tables.append(game)
        uis.append(TableUI("rumble", seats))
    assert differing(*[compose(g, u) for g, u in zip(tables, uis, strict=True)]) == set()
    for ui in uis:
        ui.handle(InputEvent("hold", "seat:1", 1), 1.0)
    assert differing(*[compose(g, u) for g, u in zip(tables, uis, strict=True)]) == {"seat:1"}
    for ui in uis:
        ui.handle(InputEvent("release", "seat:1"), 2.0)
    assert differing(*[compose(g, u) for g, u in zip(tables, uis, strict=True)]) == set()
