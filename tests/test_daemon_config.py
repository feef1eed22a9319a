"""The daemon's config: every kind of broken file is refused naming its section and key."""

from pathlib import Path

import pytest

from companion.cli import main
from companion.daemon.config import Config, load_config, parse_config
from companion.errors import ConfigError

EXAMPLE = Path(__file__).resolve().parents[1] / "companion.example.toml"


def test_the_example_config_is_valid_and_an_empty_one_takes_the_defaults():
    example = load_config(EXAMPLE)
    assert example.options == {"tricky": {"variant": "standard"}}
    assert example.pinmap().hold_s == pytest.approx(0.6)
    assert parse_config("") == Config()


@pytest.mark.parametrize(("text", "named"), [
    ("[hub\n", "not valid TOML"),
    ("[cameras]\n", "[cameras]: unknown section"),
    ("hub = 3\n", "[hub]: must be a section"),
    ("[hub]\nspeed = 9600\n", "[hub] speed: unknown key"),
    ("[hub]\nbaud = \"fast\"\n", "[hub] baud: must be a whole number"),
    ("[hub]\nbaud = 12\n", "[hub] baud: must be between"),
    ("[hub]\nenabled = 1\n", "[hub] enabled: must be true or false"),
    ("[inputs]\npin_factory = \"magic\"\n", "[inputs] pin_factory: must be one of"),
    ("[camera]\nfps = 0\n", "[camera] fps: must be between"),
    ("[camera]\nsource = 3\n", "[camera] source: must be a string"),
    ("[vision]\nconfirm_below = true\n", "[vision] confirm_below: must be a number"),
    ("[table]\ngame = \"chess\"\n", "[table] game: must be one of"),
    ("[table]\nseats = \"Ann\"\n", "[table] seats: must be a list"),
    ("[table]\nseats = [\"Ann\", 2]\n", "[table] seats[1]: must be a string"),
    ("[table]\nseats = [\"Ann\", \"Ann\"]\n", "[table] seats: must be a non-empty list"),
    ("[options.chess]\n", "[options.chess]: unknown game"),
    ("[options]\ntricky = 3\n", "[options.tricky]: must be a table"),
    ("[options.tricky]\nflavour = 1\n", "[options.tricky]: unknown option 'flavour'"),
    ("[hardware.encoder]\nc = 4\n", "[hardware.encoder] c: unknown key"),
    ("[hardware.encoder]\na = 5\n", "GPIO 5 is used twice"),
    ("[vision]\ntable_width_mm = 20\n", "[vision] table_width_mm: must be between"),
    ("[vision]\ntable_width_mm = 400\nmarker_mm = 200\n", "[vision] table_width_mm / "
     "table_height_mm / marker_mm: marker_mm must be positive and small beside the table"),
    ("[vision]\nroom_columns = 0\n", "[vision] room_columns: must be between"),
])
def test_a_broken_config_names_its_section_and_key(text, named):
    with pytest.raises(ConfigError) as error:
        parse_config(text)
    assert named in str(error.value)


def test_a_missing_config_file_is_one_clear_line_and_exit_2(tmp_path, capsys):
    assert main(["run", "--config", str(tmp_path / "nope.toml")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("companion: no such config file") and "Traceback" not in err
    broken = tmp_path / "broken.toml"
    broken.write_text("[hub]\nbaud = -1\n")
    assert main(["run", "--config", str(broken)]) == 2
    assert "[hub] baud" in capsys.readouterr().err


def test_the_table_geometry_reaches_the_camera_zones_and_the_rumble_rooms():
    from companion.daemon.camera import SceneReader
    from companion.games.registry import engine

    config = parse_config("[vision]\ntable_width_mm = 1000\ntable_height_mm = 700\n"
                          "room_columns = 3\nrooms_x_mm = 50\nrooms_y_mm = 20\n"
                          "room_tile_mm = 150\n")
    game = engine("rumble")(["Ann", "Bob", "Cy"], 1, {})
    reader = SceneReader(game, config.vision.geometry())
    assert (reader.table.width_mm, reader.table.height_mm, reader.table.seats) == (1000, 700, 3)
    # the 4th room starts the second row of three: x from 50 mm, y from 20 + 150 mm
    corners = reader.mapper.layout.rooms[game.options["map"]["rooms"][3]]
    assert corners[0].tolist() == [50.0, 170.0] and corners[2].tolist() == [200.0, 320.0]
