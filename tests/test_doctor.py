"""``companion doctor``: what it finds on a fake Pi (files, simulated buses, mock pins) and
that it runs and reports clearly on a computer that is not a Pi."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory

from companion.cli import main
from companion.hardware.doctor import Finding, Machine, diagnose
from companion.hardware.pins import DEFAULT_PINMAP, load_pinmap
from companion.hardware.simbus import SimBus

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"

CHANNEL_BUS = 20  # the overlay's bus number of channel 0 in this fake Pi


def fake_pi(tmp_path: Path, pinmap_overrides: dict | None = None, missing: str = "",
            groups: set[str] | None = None) -> tuple[Machine, object]:
    pinmap = load_pinmap(overrides=pinmap_overrides or {})
    dev, sysfs = tmp_path / "dev", tmp_path / "sys"
    dev.mkdir()
    (dev / "serial" / "by-id").mkdir(parents=True)
    for node in ("i2c-1", "gpiochip0", "video0", "companion-hub"):
        (dev / node).touch()
    buses = {1: SimBus(mux_address=pinmap.mux_address)}
    mux = sysfs / "1-0070"
    mux.mkdir(parents=True)
    for channel in range(8):
        os.symlink(f"../i2c-{CHANNEL_BUS + channel}", mux / f"channel-{channel}")
        buses[CHANNEL_BUS + channel] = SimBus()
    for wiring in pinmap.screens:
        if wiring.name != missing:
            buses[CHANNEL_BUS + wiring.channel].attach(wiring.address, wiring.driver)
            buses[1].attach(wiring.address, wiring.driver, wiring.channel)
    machine = Machine(dev=dev, sysfs_i2c=sysfs, smbus_opener=buses.__getitem__,
                      pin_factory=MockFactory(), user="ann", cwd=str(tmp_path),
                      unit=tmp_path / "companion.service", picamera2_importer=lambda: None,
                      user_groups=groups if groups is not None else set(
                          ["gpio", "i2c", "video", "dialout"]))
    return machine, pinmap


def problems(findings: list[Finding]) -> list[str]:
    return [finding.what for finding in findings if not finding.ok]


@pytest.mark.parametrize("mode", ["overlay", "select"])
def test_a_healthy_table_has_nothing_to_fix(tmp_path: Path, mode: str) -> None:
    machine, pinmap = fake_pi(tmp_path, {"i2c": {"mux_mode": mode}})
    findings = diagnose(pinmap, machine)
    assert problems(findings) == []
    assert sum("screen " in finding.what for finding in findings) == 9
    assert sum("(GPIO " in finding.what for finding in findings) == 3 + 1 + 8


@pytest.mark.parametrize("mode", ["overlay", "select"])
def test_a_silent_screen_is_named_with_its_channel_and_address(tmp_path: Path, mode: str) -> None:
    machine, pinmap = fake_pi(tmp_path, {"i2c": {"mux_mode": mode}}, missing="seat:5")
    findings = diagnose(pinmap, machine)
    assert problems(findings) == ["screen seat:5 (sh1106, channel 5, 0x3C)"]
    assert "wiring" in next(f.fix for f in findings if not f.ok)


def test_without_the_overlay_it_says_which_line_to_add(tmp_path: Path) -> None:
    machine, pinmap = fake_pi(tmp_path)
    for link in (machine.sysfs_i2c / "1-0070").iterdir():
        link.unlink()
    (machine.sysfs_i2c / "1-0070").rmdir()
    findings = diagnose(pinmap, machine)
    fixes = [finding.fix for finding in findings if not finding.ok]
    assert len(fixes) == 1
    assert "dtoverlay=i2c-mux,pca9548,addr=0x70" in fixes[0]


def test_missing_groups_camera_and_hub_are_each_reported(tmp_path: Path) -> None:
    machine, pinmap = fake_pi(tmp_path, groups={"gpio", "i2c"})
    (machine.dev / "video0").unlink()
    (machine.dev / "companion-hub").unlink()
    findings = diagnose(pinmap, machine)
    assert problems(findings) == ["camera: no /dev/video*",
                                  "serial hub: neither /dev/companion-hub nor /dev/serial/by-id/*",
                                  "user ann is not in group video (the camera)",
                                  "user ann is not in group dialout (the serial hub)"]
    assert "sudo adduser ann video" in findings[-2].fix


def test_on_a_computer_that_is_not_a_pi_it_reports_without_a_traceback(
        capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["doctor"])
    out, err = capsys.readouterr()
    assert code in (0, 1)
    assert err == ""
    lines = out.splitlines()
    assert lines[0] == "ok   pin map read and consistent"
    assert all(line.startswith(("ok   ", "FIX  ", "     -> ")) for line in lines[:-1])
    assert lines[-1] in ("all good", "1 thing to fix") or lines[-1].endswith("things to fix")
    assert (code == 1) == any(line.startswith("FIX") for line in lines)


def test_a_broken_pin_map_is_one_line_and_exit_2(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "pinmap.toml"
    bad.write_text(DEFAULT_PINMAP.read_text().replace("a = 17", "a = 99"))
    assert main(["doctor", "--pinmap", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "encoder.a must be a BCM GPIO number" in err


def test_a_picamera2_that_fails_to_import_is_reported_with_its_reason_and_fix(tmp_path: Path):
    machine, pinmap = fake_pi(tmp_path)

    def numpy_clash() -> None:
        raise ValueError("numpy.dtype size changed, may indicate binary incompatibility. "
                         "Expected 96 from C header, got 88 from PyObject")

    machine.picamera2_importer = numpy_clash
    (finding,) = [f for f in diagnose(pinmap, machine) if not f.ok]
    assert finding.what == "camera: Picamera2 does not import"
    assert "numpy.dtype size changed" in finding.fix
    assert "constraints/bookworm.txt" in finding.fix


def test_lgpio_needs_a_writable_working_directory_and_the_unit_names_one(tmp_path: Path):
    machine, pinmap = fake_pi(tmp_path)
    gone = tmp_path / "gone"  # not there at all: not writable even for root
    machine.cwd = str(gone)
    machine.unit.write_text("[Service]\nExecStart=/bin/true\n")
    found = problems(diagnose(pinmap, machine))
    assert f"lgpio working directory {gone} is not writable" in found
    assert any("names no WorkingDirectory" in what for what in found)
    machine.environ = {"LG_WD": str(tmp_path)}
    machine.unit.write_text("[Service]\nWorkingDirectory=/var/lib/companion\n")
    assert problems(diagnose(pinmap, machine)) == []


def test_parts_not_wired_in_the_config_are_not_checked(tmp_path: Path):
    from companion.daemon.config import parse_config
    from companion.hardware.doctor import configured_parts

    machine, pinmap = fake_pi(tmp_path)
    (machine.dev / "companion-hub").unlink()
    (machine.dev / "video0").unlink()
    config = parse_config("[inputs]\nenabled = true\n[screens]\nenabled = true\n")
    findings = diagnose(pinmap, machine, configured_parts(config))
    assert problems(findings) == []
    assert findings[-1].what == "not wired in the config (not checked): camera, hub"


def run_doctor(*argv: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "GPIOZERO_PIN_FACTORY"}
    return subprocess.run([sys.executable, "-m", "companion.cli", "doctor", *argv], env=env,
                          capture_output=True, text=True, timeout=300)


def test_without_a_config_every_part_is_off_as_for_the_daemon():
    """`companion run` without a config wires no part (companion.example.toml says so):
    `companion doctor` without one checks none, fixes nothing, and says how to check a
    build."""
    done = run_doctor()
    assert done.returncode == 0, done.stdout + done.stderr
    assert "FIX" not in done.stdout and done.stdout.splitlines()[-1] == "all good"
    assert "no --config: every part is off" in done.stdout
    assert "--config FILE" in done.stdout


def test_with_the_full_example_every_part_is_checked_the_voice_and_the_web_too():
    done = run_doctor("--config", str(EXAMPLES / "full.toml"))
    assert done.returncode in (0, 1) and "Traceback" not in done.stderr
    said = done.stdout
    for part in ("I2C bus 1", "GPIO", "camera", "serial hub", "voice", "web pages"):
        assert part in said, (part, said)
    assert "not wired" not in said and "no --config" not in said
