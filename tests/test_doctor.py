"""``companion doctor``: what it finds on a fake Pi (files, simulated buses, mock pins) and
that it runs and reports clearly on a computer that is not a Pi."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory

from companion.cli import main
from companion.hardware.doctor import Finding, Machine, diagnose
from companion.hardware.pins import DEFAULT_PINMAP, load_pinmap
from companion.hardware.simbus import SimBus

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
                      pin_factory=MockFactory(), user="ann",
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
