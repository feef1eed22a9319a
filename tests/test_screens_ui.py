"""The table UI: taps, holds (peeks), errors and the trap dial, as pure state with given times."""

from __future__ import annotations

from companion.daemon.ui import TableUI
from companion.hardware.events import InputEvent


def press(control: str) -> InputEvent:
    return InputEvent("press", control)


def release(control: str) -> InputEvent:
    return InputEvent("release", control)


def test_a_deathtrap_tap_passes_but_a_hold_only_peeks() -> None:
    ui = TableUI("deathtrap", seats=5)
    ui.handle(press("seat:3"), 0.0)
    assert ui.handle(release("seat:3"), 0.2) == {"type": "pass", "seat": 3}
    ui.handle(press("seat:3"), 1.0)
    ui.handle(InputEvent("hold", "seat:3", 1), 1.6)
    assert ui.peeking(3)
    assert ui.handle(release("seat:3"), 2.0) is None
    assert not ui.peeking(3)


def test_buttons_of_seats_not_at_the_table_are_ignored() -> None:
    ui = TableUI("deathtrap", seats=4)
    assert ui.handle(release("seat:6"), 0.0) is None


def dial_to(ui: TableUI, square_steps: int, action_steps: int) -> None:
    ui.handle(press("encoder-switch:0"), 0.0)
    ui.handle(InputEvent("dial", "encoder:0", square_steps), 0.1)
    ui.handle(press("encoder-switch:0"), 0.2)
    ui.handle(InputEvent("dial", "encoder:0", action_steps), 0.3)
    ui.handle(press("encoder-switch:0"), 0.4)


def test_an_expose_needs_clicks_and_a_trigger_may_go_without() -> None:
    ui = TableUI("traps", seats=3, squares=["T1", "T2", "T3"])
    dial_to(ui, -1, 0)  # wraps round to T3, expose
    assert ui.handle(release("seat:0"), 0.5) is None  # no clicks turned yet
    ui.handle(InputEvent("dial", "encoder:0", -1), 0.6)
    ui.handle(InputEvent("dial", "encoder:0", +1), 0.7)  # turned back: none again
    assert ui.dial_state()["clicks"] == 0
    ui.handle(InputEvent("dial", "encoder:0", -1), 0.8)
    assert ui.handle(release("seat:0"), 0.9) == {"type": "expose", "seat": 0, "square": "T3",
                                                  "clicks": 1}
    dial_to(ui, 1, 1)
    assert ui.handle(release("seat:2"), 1.0) == {"type": "trigger", "seat": 2, "square": "T2"}


def test_dice_wrap_from_six_to_one_and_the_menu_cancels_the_dial() -> None:
    ui = TableUI("traps", seats=2, squares=["T1"])
    dial_to(ui, 0, 3)  # disarm slow
    ui.handle(InputEvent("dial", "encoder:0", 6), 0.5)  # 1 -> 1 again after a full turn
    ui.handle(InputEvent("dial", "encoder:0", -1), 0.6)  # 1 -> 6
    ui.handle(press("encoder-switch:0"), 0.7)
    ui.handle(InputEvent("dial", "encoder:0", 2), 0.8)
    assert ui.dial_state()["dice"] == [6, 3]
    ui.handle(press("menu"), 0.9)
    assert ui.dial_state() is None and ui.page == "play"  # left the dial, nothing else
    ui.handle(press("menu"), 0.95)
    assert ui.page == "scores"
    assert ui.handle(release("seat:1"), 1.0) is None


def test_an_error_lasts_until_its_time_or_the_seats_next_press() -> None:
    ui = TableUI("traps", seats=2, squares=["T1"], error_s=4.0)
    ui.refused(1, "T1 is not exposed", 10.0)
    ui.tick(13.9)
    assert ui.error(1) == "T1 is not exposed"
    ui.tick(14.0)
    assert ui.error(1) is None
    ui.refused(0, "again", 20.0)
    ui.handle(press("seat:0"), 20.5)
    assert ui.error(0) is None
