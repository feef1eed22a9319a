"""What reaches the glass: partial redraws through luma onto simulated SSD1306/SH1106 chips,
only when the image changed, through the TCA9548A either way, and ``persist`` at exit."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from luma.core.interface.serial import i2c
from luma.oled.device import sh1106, ssd1306
from PIL import Image, ImageDraw

from companion.errors import ConfigError
from companion.hardware.oled import Multiplexer, MuxChannel, channel_bus, open_panels
from companion.hardware.panel import Panel
from companion.hardware.pins import load_pinmap
from companion.hardware.simbus import SimBus
from companion.screens.canvas import HEIGHT, WIDTH, blank

DRIVERS = {"ssd1306": ssd1306, "sh1106": sh1106}


def same(first: Image.Image, second: Image.Image) -> bool:
    return np.array_equal(np.asarray(first, dtype=bool), np.asarray(second, dtype=bool))


def panel_on_bus(driver: str, persist: bool = False) -> tuple[Panel, SimBus]:
    bus = SimBus()
    bus.attach(0x3C, driver)
    return Panel(DRIVERS[driver](i2c(bus=bus, address=0x3C)), persist), bus


rectangles = st.lists(st.tuples(st.integers(0, WIDTH - 1), st.integers(0, HEIGHT - 1),
                                st.integers(1, 40), st.integers(1, 20), st.booleans()),
                      max_size=6)


def picture(shapes: list[tuple[int, int, int, int, bool]], base: Image.Image) -> Image.Image:
    image = base.copy()
    draw = ImageDraw.Draw(image)
    for x, y, width, height, on in shapes:
        draw.rectangle((x, y, x + width, y + height), fill=255 if on else 0)
    return image


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(sorted(DRIVERS)), st.lists(rectangles, min_size=1, max_size=5))
def test_partial_redraws_leave_exactly_the_image_on_the_glass(
        driver: str, changes: list[list[tuple[int, int, int, int, bool]]]) -> None:
    panel, bus = panel_on_bus(driver)
    chip = bus.controllers[(None, 0x3C)]
    image = blank()
    for shapes in changes:
        image = picture(shapes, image)
        panel.show(image)
        assert same(chip.image(), image)


@pytest.mark.parametrize("driver", sorted(DRIVERS))
def test_an_unchanged_image_sends_nothing_and_a_small_change_sends_little(driver: str) -> None:
    panel, bus = panel_on_bus(driver)
    first = picture([(0, 0, 127, 63, True), (10, 10, 50, 30, False)], blank())
    assert panel.show(first)
    sent = bus.bytes_sent
    assert not panel.show(first.copy())
    assert bus.bytes_sent == sent
    second = picture([(60, 20, 8, 3, True)], first)  # a digit-sized change within 1-2 pages
    assert panel.show(second)
    partial = bus.bytes_sent - sent
    sent = bus.bytes_sent
    panel.device.display(second)  # what luma alone sends for the same update
    full = bus.bytes_sent - sent
    assert full > 1024  # the whole framebuffer, plus addressing
    assert partial < full / 20


@pytest.mark.parametrize(("persist", "kept"), [(True, True), (False, False)])
def test_persist_keeps_the_last_image_when_the_daemon_stops(persist: bool, kept: bool) -> None:
    panel, bus = panel_on_bus("ssd1306", persist=persist)
    chip = bus.controllers[(None, 0x3C)]
    image = picture([(5, 5, 30, 30, True)], blank())
    panel.show(image)
    panel.close()
    assert chip.on is kept
    assert same(chip.image(), image) is kept


def test_select_mode_switches_the_multiplexer_only_when_the_channel_changes() -> None:
    pinmap = load_pinmap(overrides={"i2c": {"mux_mode": "select"}})
    bus = SimBus(mux_address=pinmap.mux_address)
    chips = {w.name: bus.attach(w.address, w.driver, w.channel) for w in pinmap.screens}
    panels = open_panels(pinmap, smbus_opener=lambda number: bus)
    images = {name: picture([(index * 10, index * 5, 12, 12, True)], blank())
              for index, name in enumerate(panels)}
    for name, image in images.items():
        panels[name].show(image)
    for name, image in images.items():
        assert same(chips[name].image(), image), name  # each image on its own chip
    bus.mux_writes.clear()
    mux = Multiplexer(bus, pinmap.mux_address)
    third, fourth = MuxChannel(mux, 3, 0x3C), MuxChannel(mux, 4, 0x3C)
    third.command(0xAF)
    third.data([0xFF] * 40)
    fourth.command(0xAF)
    third.command(0xAE)
    assert bus.mux_writes == [1 << 3, 1 << 4, 1 << 3]
    assert chips["seat:3"].on is False and chips["seat:4"].on is True


def test_overlay_mode_finds_each_channel_bus_in_sysfs(tmp_path: Path) -> None:
    mux = tmp_path / "1-0070"
    mux.mkdir()
    os.symlink("../i2c-24", mux / "channel-3")
    assert channel_bus(1, 0x70, 3, sysfs=tmp_path) == 24
    with pytest.raises(ConfigError, match="dtoverlay=i2c-mux,pca9548,addr=0x70"):
        channel_bus(1, 0x70, 4, sysfs=tmp_path)


def test_a_screen_that_cannot_be_opened_is_named(tmp_path: Path) -> None:
    pinmap = load_pinmap()
    with pytest.raises(ConfigError, match=r"screen table \(channel 0, address 0x3D\)|dtoverlay"):
        open_panels(pinmap, names=["table"], sysfs=tmp_path)
    pinmap = load_pinmap(overrides={"i2c": {"mux_mode": "select"}})
    absent = SimBus(mux_address=pinmap.mux_address)  # nothing attached: no chip answers
    with pytest.raises(ConfigError, match=r"screen seat:2 \(channel 2, address 0x3C\)"):
        open_panels(pinmap, names=["seat:2"], smbus_opener=lambda number: absent)


def test_simulated_panels_keep_the_image_for_inspection() -> None:
    panels = open_panels(load_pinmap(), simulate=True)
    assert len(panels) == 9
    image = picture([(0, 0, 20, 20, True)], blank())
    panels["seat:4"].show(image)
    assert same(panels["seat:4"].device.image, image)
