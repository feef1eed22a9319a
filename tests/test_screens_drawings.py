"""Only the screens whose inputs changed are drawn again; a kept image is the one that would
be drawn afresh (so it can carry nothing its own view does not hold)."""

from __future__ import annotations

from companion.bundles.deathtrap.rules.engine import Deathtrap
from companion.bundles.traps.rules.engine import Traps
from companion.daemon.ui import TableUI
from companion.hardware.events import InputEvent
from companion.screens.screen_set import Drawings, compose


def test_unchanged_screens_are_not_drawn_again():
    game = Traps(["Ann", "Bob", "Cy"], seed=1)
    ui = TableUI("traps", 3, squares=list(game.squares))
    drawings = Drawings()
    first = compose(game, ui, drawings)
    assert drawings.drawn == 4  # the table and three seats
    assert compose(game, ui, drawings) == first
    assert drawings.drawn == 4
    ui.handle(InputEvent("press", "encoder-switch:0"), 0.0)  # the dial: the table screen only
    ui.handle(InputEvent("dial", "encoder:0", 1), 0.0)
    turned = compose(game, ui, drawings)
    assert drawings.drawn == 5
    assert {name for name in turned if turned[name] is not first[name]} == {"table"}


def test_kept_images_match_fresh_ones_through_a_game():
    game = Deathtrap(["Ann", "Bob", "Cy", "Dee"], seed=3)
    ui = TableUI("deathtrap", 4)
    kept = Drawings()
    for _ in range(12):
        seat = game.view(None).get("turn")
        if not isinstance(seat, int):
            break
        cached, fresh = compose(game, ui, kept), compose(game, ui, Drawings(size=0))
        assert {name: image.tobytes() for name, image in cached.items()} == \
            {name: image.tobytes() for name, image in fresh.items()}
        ui.peeks.add(seat)  # a peek: that seat's own screen only changes
        peeked = compose(game, ui, kept)
        assert {name for name in peeked if peeked[name] is not cached[name]} <= {f"seat:{seat}"}
        ui.peeks.discard(seat)
        game.apply({"type": "pass", "seat": seat})
