"""``select`` mode: every screen on one I2C bus goes through one multiplexer, and a screen's
select and its write reach the bus together, so one screen's image never lands on another's
panel. Real luma SSD1306/SH1106 drivers and the daemon's own screens; only the bus is fake
(``SimBus``, recording which channel was selected when each write reached it)."""

from __future__ import annotations

import threading
import time
from typing import Any

import numpy as np
import pytest
from PIL import Image, ImageDraw

from companion.daemon.displays import PanelScreen
from companion.hardware import oled
from companion.hardware.pins import load_pinmap
from companion.hardware.simbus import SimBus
from companion.screens.canvas import blank

PINMAP = load_pinmap(overrides={"i2c": {"mux_mode": "select"}})
CHANNEL = {w.name: w.channel for w in PINMAP.screens}


class RecordingBus(SimBus):
    """The bus as the wire sees it: each write to a screen with the multiplexer's channel
    mask at that moment, and who wrote it. The multiplexer's select takes a moment, as on the
    wire, so that another thread may come in between."""

    def __init__(self) -> None:
        super().__init__(mux_address=PINMAP.mux_address)
        self.writes: list[tuple[str, int, int]] = []  # (thread, channel mask, address)
        self.closed = 0
        self.record = threading.Lock()
        self.fail_next_select = False

    def write_byte(self, address: int, value: int) -> None:
        if self.fail_next_select:
            self.fail_next_select = False
            raise OSError(121, "no answer")  # EREMOTEIO: a loose wire, for one write
        super().write_byte(address, value)
        time.sleep(0.0005)

    def write_i2c_block_data(self, address: int, register: int, data: list[int]) -> None:
        with self.record:
            self.writes.append((threading.current_thread().name, self.selected, address))
        super().write_i2c_block_data(address, register, data)

    def close(self) -> None:
        self.closed += 1


@pytest.fixture
def bus(monkeypatch: pytest.MonkeyPatch) -> RecordingBus:
    """The one fake bus every screen opened in ``select`` mode gets, counting its opens."""
    fake = RecordingBus()
    fake.opened = 0  # type: ignore[attr-defined]

    def opener(number: int) -> RecordingBus:
        assert number == PINMAP.i2c_bus
        fake.opened += 1  # type: ignore[attr-defined]
        return fake

    monkeypatch.setattr(oled, "_smbus2", opener)
    for wiring in PINMAP.screens:
        fake.attach(wiring.address, wiring.driver, wiring.channel)
    return fake


def picture(seed: int) -> Image.Image:
    image = blank()
    draw = ImageDraw.Draw(image)
    rng = np.random.default_rng(seed)
    for _ in range(4):
        x, y = int(rng.integers(0, 110)), int(rng.integers(0, 50))
        draw.rectangle((x, y, x + int(rng.integers(3, 18)), y + int(rng.integers(3, 14))),
                       fill=255)
    return image


def on_glass(bus: SimBus, name: str) -> np.ndarray:
    wiring = next(w for w in PINMAP.screens if w.name == name)
    return np.asarray(bus.controllers[(wiring.channel, wiring.address)].image(), dtype=bool)


def shows(image: Image.Image) -> np.ndarray:
    return np.asarray(image.convert("1"), dtype=bool)


def started(names: list[str]) -> list[PanelScreen]:
    """The daemon's screens, each started on its own (each opens its panel itself)."""
    screens = [PanelScreen(name, PINMAP) for name in names]
    for screen in screens:
        screen.start(lambda item: None)
    return screens


def test_screens_opened_one_by_one_share_the_multiplexer(bus: Any) -> None:
    # seat:0 and seat:1 both answer at 0x3C, on channels 1 and 2: a write on the wrong
    # channel lands on the other seat's panel.
    first, second = started(["seat:0", "seat:1"])
    images = {"seat:0": picture(1), "seat:1": picture(2)}
    first.show(images["seat:0"])
    second.show(images["seat:1"])
    first.show(picture(3))  # the first screen again: its channel must be selected again
    images["seat:0"] = picture(3)
    for name, image in images.items():
        assert np.array_equal(on_glass(bus, name), shows(image)), name
    assert bus.opened == 1
    first.stop()
    assert bus.closed == 0  # the other screen still uses the bus
    second.stop()
    assert bus.closed == 1


def test_every_write_reaches_the_bus_on_its_screens_channel_under_threads(bus: Any) -> None:
    names = ["table", "seat:0", "seat:1", "seat:2"]
    screens = started(names)
    bus.writes.clear()
    last: dict[str, Image.Image] = {}

    def draw(screen: PanelScreen, offset: int) -> None:
        for n in range(12):
            last[screen.name] = picture(offset * 100 + n)
            screen.show(last[screen.name])

    threads = [threading.Thread(target=draw, args=(screen, n), name=screen.name)
               for n, screen in enumerate(screens)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert not any(thread.is_alive() for thread in threads)
    assert {thread for thread, _, _ in bus.writes} == set(names)
    wrong = [(thread, mask) for thread, mask, _ in bus.writes if mask != 1 << CHANNEL[thread]]
    assert wrong == []
    for name in names:
        assert np.array_equal(on_glass(bus, name), shows(last[name])), name
    for screen in screens:
        screen.stop()
    assert bus.opened == 1 and bus.closed == 1


def test_a_failed_select_is_sent_again_and_a_closed_channel_writes_nothing(bus: Any) -> None:
    seat2, seat3 = started(["seat:2", "seat:3"])  # the same address, channels 3 and 4
    seat2.show(picture(7))
    bus.fail_next_select = True
    with pytest.raises(OSError):
        seat3.show(picture(8))
    seat3.show(picture(8))  # the daemon draws it again: channel 4 must be selected first
    assert np.array_equal(on_glass(bus, "seat:3"), shows(picture(8)))
    assert np.array_equal(on_glass(bus, "seat:2"), shows(picture(7)))
    panel = seat3.panel
    assert panel is not None
    seat3.stop()
    written = len(bus.writes)
    with pytest.raises(OSError, match="closed"):
        panel.device.command(0xAF)  # e.g. luma's clean-up at exit, after ours
    assert len(bus.writes) == written
    seat2.stop()
