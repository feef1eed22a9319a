"""The table screen says what the companion waits for: a Deathtrap deal, the Exploding Pig,
the exchange; the trap dial shows which die the dial sets; a fresh Traps table how to begin."""

from PIL import Image

from companion.bundles.deathtrap import screens as deathtrap
from companion.bundles.deathtrap.rules.engine import Deathtrap
from companion.bundles.traps import screens as traps
from companion.bundles.traps.dial import DialFlow
from companion.bundles.traps.rules.engine import Traps
from companion.screens.common import headline

SEATS = ["Ann", "Bob", "Cy", "Dee"]


def same(a: Image.Image, b: Image.Image) -> bool:
    return a.tobytes() == b.tobytes()


def test_deathtrap_table_asks_for_the_deal_then_the_pig_then_the_exchange() -> None:
    game = Deathtrap(SEATS, seed=1, options={"rounds": 2})
    assert same(deathtrap.table(game.view(None), SEATS),
                headline("Round 1/2", "Deal", "then press the dial: deal"))
    game.apply({"type": "deal"})
    assert same(deathtrap.table(game.view(None), SEATS),
                headline("Round 1/2", "Exploding Pig", "holder: dial, pig"))
    seat = deathtrap.seat(game.view(0), SEATS, False)
    assert same(seat, deathtrap.seat({**game.view(0), "round": 3}, SEATS, False))  # not "1/2"
    view = {**game.view(None), "phase": "exchange"}
    assert same(deathtrap.table(view, SEATS),
                headline("Round 1/2 over", "Exchange", "then deal: press the dial"))


def test_the_dice_step_brackets_the_die_the_dial_sets() -> None:
    flow = DialFlow(["T1"], step="dice", action_index=2, dice=[4, 5], die=1)
    assert same(traps.dial_flow(flow.dial_state()),
                headline("Disarm quick T1", "4 + [5]", "press: other die, tap seat"))
    flow.press()
    assert same(traps.dial_flow(flow.dial_state()),
                headline("Disarm quick T1", "[4] + 5", "press: other die, tap seat"))


def test_a_fresh_traps_table_says_how_to_begin() -> None:
    game = Traps(["Ann", "Bob"], seed=1)
    fresh = traps.table(game.view(None), ["Ann", "Bob"])
    assert fresh.crop((0, 64 - 13, 128, 64)).getbbox() is not None  # the bottom line has text
    game.apply({"type": "expose", "seat": 0, "square": "T1", "clicks": 1})
    assert not same(fresh, traps.table(game.view(None), ["Ann", "Bob"]))  # then: what happened


def test_tricky_table_asks_for_the_deal() -> None:
    from companion.bundles.tricky import screens as tricky
    from companion.bundles.tricky.rules.engine import Tricky

    game = Tricky(["Ann", "Bob", "Cy"], seed=1)
    total = game.view(None)["rounds_total"]
    assert same(tricky.table(game.view(None), ["Ann", "Bob", "Cy"]),
                headline(f"Round 1/{total}", "Deal", "then press the dial: deal"))
