"""From mock pins to pixels: the trap dial, seat buttons and peeks of a traps table, end to end.

Encoder detents (with bounce) and button presses go through gpiozero's MockFactory, the
table UI turns them into traps events, the engine applies them and the screen set draws;
the assertions are on the events and on regions of the resulting images.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from test_inputs_gpio import PINMAP, Bench

from companion.bundles.traps.rules.engine import Traps
from companion.bundles.traps.screens import dial_flow
from companion.daemon.ui import TableUI
from companion.errors import RuleViolation
from companion.screens.canvas import WIDTH
from companion.screens.common import HEADER, SECRET_BOX, error_screen, headline
from companion.screens.screen_set import compose

TITLE = (0, 0, WIDTH, HEADER)
CAGE = {"trap": "cage", "disarm": 9, "xp": 6}


def ink(image: Any, box: tuple[int, int, int, int]) -> float:
    """The share of lit pixels in a region."""
    return float(np.asarray(image.crop(box), dtype=bool).mean())


def same(first: Any, second: Any, box: tuple[int, int, int, int] | None = None) -> bool:
    crop = (lambda image: image.crop(box)) if box else (lambda image: image)
    return np.array_equal(np.asarray(crop(first), dtype=bool), np.asarray(crop(second), dtype=bool))


class TrapsTable(Bench):
    """A traps table of three seats wired to mock pins."""

    def __init__(self) -> None:
        super().__init__()
        self.game = Traps(["Ann", "Bob", "Cy"], seed=2,
                          options={"dials": {"T1": ["start", "x", CAGE, "x"]}})
        self.ui = TableUI("traps", 3, squares=list(self.game.squares),
                          peek_timeout_s=PINMAP.peek_timeout_s)
        self.applied: list[dict[str, Any]] = []
        self.seen = 0

    def settle(self) -> dict[str, Any]:
        """Feed the new input events to the UI and the game; the screens' images."""
        self.inputs.poll()
        for event in self.events[self.seen:]:
            table_event = self.ui.handle(event, self.now)
            if table_event is None:
                continue
            try:
                self.game.apply(table_event)
                self.applied.append(table_event)
            except RuleViolation as refusal:
                self.ui.refused(table_event["seat"], refusal.message, self.now)
        self.seen = len(self.events)
        return compose(self.game, self.ui)

    def switch(self) -> dict[str, Any]:
        self.tap(PINMAP.encoder_switch)
        return self.settle()

    def turn(self, detents: int, bounces: tuple[int, int, int, int] = (2, 1, 2, 1)) -> dict:
        for _ in range(abs(detents)):
            self.detent(1 if detents > 0 else -1, bounces)
        return self.settle()

    def seat_tap(self, seat: int) -> dict[str, Any]:
        self.tap(PINMAP.seat_buttons[seat], bounces=2)
        return self.settle()


def test_the_trap_dial_flow_from_detents_to_an_expose() -> None:
    table = TrapsTable()
    screens = table.switch()
    assert same(screens["table"], dial_flow(table.ui.dial_state()))
    assert table.ui.dial_state()["square"] == "T1"
    assert ink(screens["table"], TITLE) > 0.6  # the title bar is drawn inverted

    on_t2 = table.turn(+1)
    back_on_t1 = table.turn(-1)
    assert not same(on_t2["table"], back_on_t1["table"], (0, HEADER, WIDTH, 50))
    assert same(back_on_t1["table"], screens["table"])

    table.switch()  # the square is T1; the action wheel starts at "expose"
    at_clicks = table.switch()
    assert table.ui.dial_state()["step"] == "clicks"
    one = table.turn(-1)
    two = table.turn(-1)
    expected = headline("Expose T1", "2 clicks", "turn left, tap seat: done")
    assert same(two["table"], expected)
    assert not same(one["table"], two["table"], (0, HEADER, WIDTH, 50))  # the big number
    assert not same(at_clicks["table"], one["table"])

    after = table.seat_tap(1)
    assert table.applied == [{"type": "expose", "seat": 1, "square": "T1", "clicks": 2}]
    assert table.ui.dial_state() is None
    assert [e.kind for e in table.events if e.control == "encoder:0"] == ["dial"] * 4
    # The table now shows the squares: T1 is exposed ("!"), the others hidden.
    assert not same(after["table"], two["table"])


def test_the_reading_appears_while_the_exposer_holds_its_button() -> None:
    table = TrapsTable()
    table.game.apply({"type": "expose", "seat": 1, "square": "T1", "clicks": 2})
    before = table.settle()
    gpio = PINMAP.seat_buttons[1]
    table.level(gpio, False, bounces=2)
    table.wait(PINMAP.hold_s + 0.05)
    peeking = table.settle()
    assert not same(peeking["seat:1"], before["seat:1"], SECRET_BOX)
    assert same(peeking["seat:1"], before["seat:1"], TITLE)  # name and XP stay
    for name in ("table", "seat:0", "seat:2"):
        assert same(peeking[name], before[name]), name
    table.level(gpio, True, bounces=2)
    table.wait(0.02)
    released = table.settle()
    assert same(released["seat:1"], before["seat:1"])
    assert table.applied == []  # a hold is a peek, not a confirmation


def test_a_refused_action_shows_on_the_screen_of_the_seat_that_made_it() -> None:
    table = TrapsTable()
    table.switch()
    table.turn(+1)  # T2, never exposed
    table.switch()
    table.turn(+2)  # action: disarm quick
    table.switch()
    assert table.ui.dial_state()["step"] == "dice"
    table.turn(+3)  # first die 4
    table.switch()
    table.turn(+1)  # second die 2
    screens = table.seat_tap(2)
    assert table.applied == []
    message = table.ui.error(2)
    assert message is not None and "T2" in message
    assert same(screens["seat:2"], error_screen(message))
    assert ink(screens["seat:2"], TITLE) > 0.6
    assert not same(screens["seat:0"], screens["seat:2"])
    # The next press of that seat's button clears the error.
    table.level(PINMAP.seat_buttons[2], False)
    cleared = table.settle()["seat:2"]
    assert table.ui.error(2) is None
    assert not same(cleared, screens["seat:2"])


def test_the_menu_button_switches_the_table_screen_to_the_scores() -> None:
    table = TrapsTable()
    play = table.settle()
    table.tap(PINMAP.menu)
    scores = table.settle()
    assert table.ui.page == "scores"
    assert not same(play["table"], scores["table"])
    table.tap(PINMAP.menu)
    assert same(table.settle()["table"], play["table"])
