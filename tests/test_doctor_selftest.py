"""``companion doctor --test`` on gpiozero's mock pins, luma's dummy screens and a rendered
camera picture: what a person does is seen, what is not wired is reported not seen."""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
from gpiozero.pins.mock import MockFactory

from companion.commands.selftest import ControlCheck, try_camera, try_inputs, try_screens
from companion.hardware.oled import open_panels
from companion.hardware.pins import load_pinmap

PINMAP = load_pinmap(overrides={"buttons": {"seats": [5, 6, 13, 19]}})
EDGE_S = PINMAP.bounce_s * 2.5  # edges further apart than the debouncing's lock-out


class Fingers:
    """A person at the table, on mock pins: does what is asked, except on ``broken`` pins."""

    def __init__(self, factory: MockFactory, broken: set[int]) -> None:
        self.factory = factory
        self.broken = broken
        self.asked: list[str] = []

    def level(self, gpio: int, high: bool) -> None:
        if gpio not in self.broken:
            pin = self.factory.pin(gpio)
            (pin.drive_high if high else pin.drive_low)()
        time.sleep(EDGE_S)  # spacing the edges, not waiting for anything

    def __call__(self, step: ControlCheck) -> None:
        self.asked.append(step.ask)
        if step.kind == "press":
            self.level(step.gpio[0], False)
            self.level(step.gpio[0], True)
            return
        lead, follow = step.gpio if step.value > 0 else step.gpio[::-1]
        for gpio, high in ((lead, False), (follow, False), (lead, True), (follow, True)):
            self.level(gpio, high)


def test_each_control_is_asked_for_and_reported_seen_or_not():
    factory = MockFactory()
    fingers = Fingers(factory, broken={PINMAP.seat_buttons[2]})
    findings = try_inputs(PINMAP, fingers, factory, timeout=1.0)
    assert fingers.asked[:2] == ["press seat 1's button", "press seat 2's button"]
    assert "turn the dial one click counter-clockwise" in fingers.asked
    lines = {f.what: f.ok for f in findings}
    assert lines == {
        "seat 1's button (GPIO 5): seen": True, "seat 2's button (GPIO 6): seen": True,
        "seat 3's button (GPIO 13): not seen": False, "seat 4's button (GPIO 19): seen": True,
        "the menu button (GPIO 22): seen": True,
        "the dial clockwise (GPIO 17 and GPIO 18): seen": True,
        "the dial counter-clockwise (GPIO 17 and GPIO 18): seen": True,
        "the dial's push switch (GPIO 27): seen": True}


def test_a_dial_turned_the_wrong_way_is_not_seen():
    factory = MockFactory()
    fingers = Fingers(factory, broken=set())

    def backwards(step: ControlCheck) -> None:
        fingers(ControlCheck(step.what, step.ask, step.control, step.kind, -step.value, step.gpio)
                if step.kind == "dial" else step)

    found = {f.what.rsplit(":", 1)[0]: f.ok for f in try_inputs(PINMAP, backwards, factory,
                                                               timeout=0.5)}
    assert not found["the dial clockwise (GPIO 17 and GPIO 18)"]
    assert not found["the dial counter-clockwise (GPIO 17 and GPIO 18)"]


def test_each_screen_shows_its_seat_number_in_turn():
    panels = open_panels(PINMAP, simulate=True, names=["table", "seat:0", "seat:1"])

    class Dead:  # a screen that takes the image but shows nothing
        def show(self, image):
            return True

    panels["seat:1"] = Dead()

    def answer(question: str) -> bool:
        lit = [name for name, panel in panels.items()
               if hasattr(panel, "device") and panel.device.image.getbbox()]
        # What the person reads on the one lit screen: the label asked for, by its name.
        return len(lit) == 1 and f"'{lit[0].replace('seat:0', 'seat 1')}'" in question

    findings = try_screens(panels, answer)
    assert [(f.what, f.ok) for f in findings] == [
        ("screen table: seen", True), ("screen seat:0: seen", True),
        ("screen seat:1: not seen", False)]
    assert all(not p.device.image.getbbox() for p in panels.values() if hasattr(p, "device"))


def test_one_camera_picture_with_its_markers_drawn(tmp_path: Path):
    from companion.vision.layout import TableLayout
    from companion.vision.synthetic import Conditions, SceneRenderer

    renderer = SceneRenderer(TableLayout(), size=(1280, 720))
    rng = np.random.default_rng(1)
    frame = renderer.render([], rng, Conditions("felt"), renderer.camera(rng)).image
    out = tmp_path / "test.png"
    findings = try_camera(lambda: frame, out)
    assert [(f.what, f.ok) for f in findings] == [
        (f"camera: picture taken ({out}, markers drawn)", True),
        ("camera: 4 of 4 corner markers seen", True)]
    assert out.stat().st_size > 0

    def gone():
        raise OSError("no camera")

    (finding,) = try_camera(gone, out)
    assert not finding.ok and finding.what == "camera: no picture (no camera)"


def test_the_command_off_a_pi_says_what_it_cannot_open(capsys, monkeypatch, tmp_path):
    from companion.cli import main

    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    monkeypatch.setattr("sys.stdin", open(__import__("os").devnull))  # noqa: SIM115
    full = Path(__file__).resolve().parent.parent / "examples" / "full.toml"  # every part
    code = main(["doctor", "--test", "--config", str(full), "--timeout", "0.2",
                 "--out", str(tmp_path / "t.png")])
    out = capsys.readouterr().out
    assert code == 1
    assert "Traceback" not in out
    assert out.splitlines()[-1].endswith("not seen")


def test_doctor_off_a_pi_prints_its_own_findings_not_gpiozero_warnings(tmp_path):
    """gpiozero warns once per pin factory it tries (lgpio, RPi.GPIO, pigpio, native); the
    doctor says in its own words what it could not open, once."""
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k != "GPIOZERO_PIN_FACTORY"}
    full = str(Path(__file__).resolve().parent.parent / "examples" / "full.toml")
    for argv in (["doctor", "--config", full], ["doctor", "--test", "--config", full,
                                                "--timeout", "0.2",
                                                "--out", str(tmp_path / "t.png")]):
        done = subprocess.run([sys.executable, "-m", "companion.cli", *argv], env=env,
                              stdin=subprocess.DEVNULL, capture_output=True, text=True,
                              timeout=300)
        assert "PinFactoryFallback" not in done.stderr + done.stdout
        assert "Traceback" not in done.stderr
