"""Screens as images: large type where it matters, text kept in its box, and every screen of
every game drawable from the real engines' views through whole simulated games."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import ImageDraw

from companion.bundles.deathtrap import screens as deathtrap_screens
from companion.bundles.deathtrap.rules import sim as deathtrap_sim
from companion.bundles.deathtrap.rules.engine import Deathtrap
from companion.bundles.rumble.rules import sim as rumble_sim
from companion.bundles.traps.rules import sim as traps_sim
from companion.bundles.tricky.rules import sim as tricky_sim
from companion.daemon.ui import TableUI
from companion.games.registry import engine
from companion.screens.canvas import HEIGHT, WIDTH, blank, fit_text
from companion.screens.common import HEADER, error_screen, headline, scoreboard
from companion.screens.screen_set import compose

SIMULATORS = {"deathtrap": deathtrap_sim, "rumble": rumble_sim, "traps": traps_sim,
              "tricky": tricky_sim}
#: The pin map wires eight seat screens.
MOST_SEATS = 8


def lit(image, box=(0, 0, WIDTH, HEIGHT)) -> np.ndarray:
    return np.asarray(image.crop(box), dtype=bool)


def ink_height(image, box) -> int:
    rows = np.flatnonzero(lit(image, box).any(axis=1))
    return int(rows[-1] - rows[0] + 1) if rows.size else 0


def test_the_number_that_matters_is_large() -> None:
    image = headline("Round 2/4  Bob to beat", "2 x 11", "Manticore by Ann")
    body = (0, HEADER + 1, WIDTH, HEIGHT - 13)
    assert ink_height(image, body) >= 22  # about 6 mm on a 0.96" screen
    assert ink_height(image, (0, HEIGHT - 12, WIDTH, HEIGHT)) <= 12


def test_long_text_is_shortened_to_stay_in_its_box() -> None:
    image = blank()
    fit_text(ImageDraw.Draw(image), (10, 20, 60, 32), "Bob disarmed T1 (quick, 10): +15 XP")
    pixels = lit(image)
    outside = pixels.copy()
    outside[20:32, 10:60] = False
    assert pixels.any() and not outside.any()


def test_the_scoreboard_inverts_the_winners_cells() -> None:
    image = scoreboard("Final scores", ["Ann", "Bob", "Cy", "Dee"], [9, 12, 12, 3], [1, 2])
    # Two columns of two rows under the title: Bob is left-bottom, Cy right-top.
    cells = {"Ann": (1, 16, 62, 38), "Bob": (1, 40, 62, 62), "Cy": (65, 16, 126, 38),
             "Dee": (65, 40, 126, 62)}
    share = {name: lit(image, box).mean() for name, box in cells.items()}
    assert share["Bob"] > 0.5 and share["Cy"] > 0.5
    assert share["Ann"] < 0.3 and share["Dee"] < 0.3


def test_an_error_has_an_inverted_title_and_the_message() -> None:
    image = error_screen("Orc does not beat Skeleton")
    assert lit(image, (0, 0, WIDTH, HEADER)).mean() > 0.6
    assert lit(image, (0, HEADER + 1, WIDTH, HEIGHT)).any()
    assert not np.array_equal(lit(image), lit(error_screen("Warrior does not beat Troll")))


def test_the_deathtrap_exchange_prompt_is_on_the_giving_seat_only() -> None:
    view = Deathtrap(["Ann", "Bob", "Cy", "Dee"], seed=1).view(0)
    plain = deathtrap_screens.seat(view, ["Ann", "Bob", "Cy", "Dee"], False)
    prompted = deathtrap_screens.seat(dict(view, prompt="Give your 2 highest creature cards "
                                                        "to Bob, then take 2 back"),
                                      ["Ann", "Bob", "Cy", "Dee"], False)
    body = (0, HEADER + 1, WIDTH, HEIGHT)
    assert not np.array_equal(lit(plain, body), lit(prompted, body))
    assert np.array_equal(lit(plain, (0, 0, WIDTH, HEADER)), lit(prompted, (0, 0, WIDTH, HEADER)))


@pytest.mark.parametrize("game_name", sorted(SIMULATORS))
@settings(max_examples=3, deadline=None)
@given(seed=st.integers(0, 10_000), data=st.data())
def test_every_screen_of_a_whole_simulated_game_draws(game_name: str, seed: int,
                                                      data: st.DataObject) -> None:
    rules = engine(game_name)
    seats = data.draw(st.integers(rules.min_seats, min(rules.max_seats, MOST_SEATS)),
                      label="seats")
    header, events = SIMULATORS[game_name].random_game(seed, seats)
    game = rules(header["seats"], header["seed"], header["options"])
    squares = list(game.view(None).get("squares", {}))
    ui = TableUI(game_name, seats, squares=squares)
    step = max(1, len(events) // 25)
    for index, event in enumerate(events):
        game.apply(event)
        if index % step and index != len(events) - 1:
            continue
        ui.peeks = {seat: 0.0 for seat in range(seats) if (index + seat) % 2}
        for name, image in compose(game, ui).items():
            assert image.size == (WIDTH, HEIGHT) and image.mode == "1", name
            assert lit(image).any(), f"{name} is blank after event {index}"


def widest_blank(image, box) -> int:
    """The widest run of columns with nothing drawn between the first and the last drawn
    column of ``box`` (drawn: unlike the box's own background, which may be inverted)."""
    cells = np.asarray(image.convert("1").crop(box), dtype=bool)
    background = cells.mean() > 0.5
    drawn = np.flatnonzero((cells != background).any(axis=0))
    return int(np.diff(drawn).max()) - 1 if len(drawn) > 1 else 0


@pytest.mark.parametrize("seats", [3, 4])
def test_final_scores_keep_a_space_between_a_name_and_its_score(seats):
    """"Ann 11", never "Ann11": the widest blank between a seat's name and its score is at
    least a space of the type drawn, the winner's inverted cell too."""
    from companion.screens.common import final_scores

    names, totals = ["Ann", "Bob", "Cy", "Dee"][:seats], [11, 13, 8, 14][:seats]
    image = final_scores(names, totals)
    rows = (seats + 1) // 2
    height = min(24, (HEIGHT - HEADER) // rows)
    for seat in range(seats):
        left, top = (seat // rows) * WIDTH // 2, HEADER + (seat % rows) * height
        box = (left + 2, top + 1, left + WIDTH // 2 - 3, top + height - 2)
        assert widest_blank(image, box) >= 6, (names[seat], widest_blank(image, box))
