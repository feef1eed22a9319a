"""The pin map: the shipped one is consistent; every mistake is a ConfigError naming its key."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.errors import ConfigError
from companion.hardware.pins import DEFAULT_PINMAP, load_pinmap


def test_shipped_pinmap_has_a_button_and_a_screen_per_seat_of_the_largest_game() -> None:
    pinmap = load_pinmap()
    assert len(pinmap.seat_buttons) == 8  # Deathtrap seats up to 8 players
    names = {screen.name for screen in pinmap.screens}
    assert names == {"table", *(f"seat:{seat}" for seat in range(8))}
    assert len(set(pinmap.gpio_uses().values())) == len(pinmap.gpio_uses())


def test_config_overrides_replace_single_keys() -> None:
    pinmap = load_pinmap(overrides={"encoder": {"a": 23}, "timing": {"hold_ms": 900}})
    assert pinmap.encoder_a == 23
    assert pinmap.encoder_b == 18  # untouched keys keep the file's value
    assert pinmap.hold_s == pytest.approx(0.9)


@pytest.mark.parametrize(("overrides", "named"), [
    ({"encoder": {"a": 5}}, "GPIO 5 is used twice: encoder.a and buttons.seats[0]"),
    ({"buttons": {"menu": 2}}, "GPIO 2 is used twice: buttons.menu and i2c.sda"),
    ({"buttons": {"seats": [5, 6, 5]}}, "buttons.seats[0] and buttons.seats[2]"),
    ({"encoder": {"b": 40}}, "[hardware.encoder] b: must be a BCM GPIO number 0-27, got 40"),
    ({"encoder": {"switch": "27"}}, "[hardware.encoder] switch: must be a BCM GPIO number"),
    ({"i2c": {"mux_mode": "magic"}}, "[hardware.i2c] mux_mode: must be one of overlay, select"),
    ({"timing": {"bounce_ms": -1}}, "[hardware.timing] bounce_ms: must be between 0 and 500 ms"),
    ({"display": {"persist": "yes"}}, "[hardware.display] persist: must be true or false"),
])
def test_mistakes_name_the_key(overrides: dict, named: str) -> None:
    with pytest.raises(ConfigError, match=None) as caught:
        load_pinmap(overrides=overrides)
    assert named in str(caught.value)


def test_a_missing_pin_names_the_key(tmp_path: Path) -> None:
    text = DEFAULT_PINMAP.read_text().replace("switch = 27\n", "")
    (tmp_path / "pinmap.toml").write_text(text)
    with pytest.raises(ConfigError, match=r"missing key encoder\.switch"):
        load_pinmap(tmp_path / "pinmap.toml")


def test_screens_are_checked(tmp_path: Path) -> None:
    text = DEFAULT_PINMAP.read_text()
    cases = {
        'driver = "sh1106"': ('driver = "ssd1331"', "screens[5].driver must be one of"),
        "channel = 1\n": ("channel = 0\n", "screens[2]: channel 0 address 0x3C is already "
                                           "used by screen 'seat:0'"),
        'name = "seat:3"': ('name = "seat:2"', "screens[4].name: screen 'seat:2' is listed"),
        "channel = 7": ("channel = 8", "screens[8].channel must be a multiplexer channel 0-7"),
    }
    for old, (new, message) in cases.items():
        (tmp_path / "pinmap.toml").write_text(text.replace(old, new, 1))
        with pytest.raises(ConfigError) as caught:
            load_pinmap(tmp_path / "pinmap.toml")
        assert message in str(caught.value), (old, str(caught.value))


def test_unreadable_and_broken_files_are_config_errors(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="cannot read the pin map"):
        load_pinmap(tmp_path / "absent.toml")
    (tmp_path / "bad.toml").write_text("[encoder\na = 1")
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_pinmap(tmp_path / "bad.toml")
