"""The example configs of real builds load, and wire exactly the parts they say."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.commands.run import parts, screens
from companion.daemon.config import load_config
from companion.hardware.doctor import configured_parts

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"

BUILDS = {
    "minimal": ({"inputs", "screens"}, 4, ["table", "seat:0", "seat:1", "seat:2", "seat:3"]),
    "camera": ({"inputs", "screens", "camera", "picamera"}, 4,
               ["table", "seat:0", "seat:1", "seat:2", "seat:3"]),
    "full": ({"inputs", "screens", "camera", "picamera", "hub"}, 8,
             ["table", *(f"seat:{n}" for n in range(8))]),
}


@pytest.mark.parametrize("build", sorted(BUILDS))
def test_each_example_config_wires_its_parts_only(build):
    wired, seats, screen_names = BUILDS[build]
    config = load_config(EXAMPLES / f"{build}.toml")
    assert configured_parts(config) == wired
    pinmap = config.pinmap()
    assert len(pinmap.seat_buttons) == seats == len(config.table.seats)
    assert [s.name for s in screens(config, sim=True)] == screen_names
    # In --sim the keyboard stands in for the pins; the parts not wired are not made at all.
    made = {part.name for part in parts(config, sim=True)}
    assert ("hub" in made) == ("hub" in wired)
    assert ("camera" in made) == ("camera" in wired)


def test_the_full_build_is_everything_the_web_pages_and_the_voice_too():
    config = load_config(EXAMPLES / "full.toml")
    assert config.web.enabled and config.voice.enabled


def test_the_examples_are_every_file_in_the_folder():
    assert sorted(p.stem for p in EXAMPLES.glob("*.toml")) == sorted(BUILDS)
