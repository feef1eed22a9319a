"""Out-of-range numbers in a config are refused before anything starts: every number is
bounded, and each refusal names its `[section] key`."""

from __future__ import annotations

import dataclasses
import typing

import pytest

from companion.daemon.config import SECTIONS, parse_config
from companion.errors import ConfigError


@pytest.mark.parametrize(("text", "named"), [
    ("[hardware.i2c]\nmux_address = 99999\n", "[hardware.i2c] mux_address: must be a TCA9548A"),
    ("[hardware.i2c]\nmux_address = 0x3C\n", "[hardware.i2c] mux_address: must be a TCA9548A"),
    ("[hardware.i2c]\nbus = -1\n", "[hardware.i2c] bus: must be an I2C bus number 0-255"),
    ("[hardware.i2c]\nbus = 100000\n", "[hardware.i2c] bus: must be an I2C bus number 0-255"),
    ("[hardware.timing]\nhold_ms = 1e300\n", "[hardware.timing] hold_ms: must be between"),
    ("[hardware.timing]\nhold_ms = nan\n", "[hardware.timing] hold_ms: must be between"),
    ("[hardware.timing]\nhold_ms = inf\n", "[hardware.timing] hold_ms: must be between"),
    ("[hardware.timing]\nbounce_ms = -1\n", "[hardware.timing] bounce_ms: must be between"),
    ("[hardware.timing]\npeek_timeout_ms = 1e9\n", "[hardware.timing] peek_timeout_ms"),
    ("[hardware.timing]\nbounce_ms = 300\nhold_ms = 200\n",
     "[hardware.timing] hold_ms: must be longer than timing.bounce_ms (300)"),
    ("[hardware]\nscreens = []\n", "[hardware] screens: must list the table screen"),
    ('[hardware]\nscreens = [{name = "seat:0", channel = 0, address = 0x3C, '
     'driver = "ssd1306"}]\n', "[hardware] screens: must include the table screen"),
    ('[hardware]\nscreens = [{name = "seat:99", channel = 0, address = 0x3C, '
     'driver = "ssd1306"}]\n', "[hardware] screens[0].name: must be 'table' or 'seat:N'"),
    ("[hardware.buttons]\nseats = []\n", "[hardware.buttons] seats: must list 1 to 8"),
    ("[hardware.buttons]\nseats = [5, 6, 13, 19, 26, 16, 20, 21, 4]\n",
     "[hardware.buttons] seats: must list 1 to 8"),
    ("[hub]\nbaud = 1e300\n", "[hub] baud: must be a whole number"),
    ("[camera]\nfps = nan\n", "[camera] fps: must be between"),
    ("[daemon]\nretry_seconds = inf\n", "[daemon] retry_seconds: must be between"),
])
def test_an_out_of_range_number_names_its_section_and_key(text, named):
    with pytest.raises(ConfigError) as error:
        parse_config(text)
    assert named in str(error.value)


def test_every_number_in_a_config_section_has_bounds():
    numbers = 0
    for name, section in SECTIONS.items():
        hints = typing.get_type_hints(section)
        for field in dataclasses.fields(section):
            kind = hints[field.name]
            if kind in (int, float) or typing.get_args(kind) in ((int,), (float,)):
                assert "range" in field.metadata, f"[{name}] {field.name} has no bounds"
                numbers += 1
    assert numbers  # the sections and their numbers were found
