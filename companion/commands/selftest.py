"""``companion doctor --test``: the wired hardware, tried by a person one part at a time.

Asks for each button to be pressed and the dial turned both ways (and its switch pressed),
shows each screen its seat number in turn and asks whether it reads so, takes one camera
picture with the markers drawn; then reports each as seen / not seen. Like gpiozero's
``pinout`` or a pinball machine's switch test, it runs with the daemon stopped (the pins and
the bus are the daemon's while it runs).

The person is a pair of functions: ``ask(step)`` says what to do (a test drives mock pins
there) and ``answer(question)`` reads a yes or no (a test reads the dummy screen).
"""

from __future__ import annotations

import queue
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.hardware.doctor import Finding, quiet_fallbacks
from companion.hardware.events import InputEvent
from companion.hardware.pins import PinMap


@dataclass(frozen=True)
class ControlCheck:
    """One thing for the person to do with the controls, and the event that shows it."""

    what: str  # "seat 1's button"
    ask: str  # "press seat 1's button"
    control: str  # the InputEvent control it should come from
    kind: str  # "press" or "dial"
    value: int = 0  # the dial's direction for "dial"
    gpio: tuple[int, ...] = ()  # the pins involved (for the fix, and for tests' fingers)

    def met_by(self, event: InputEvent) -> bool:
        return (event.control == self.control and event.kind == self.kind
                and (self.kind != "dial" or event.value * self.value > 0))


def input_steps(pinmap: PinMap) -> list[ControlCheck]:
    """Every control of the pin map, seats counted from 1 as on the table."""
    steps = [ControlCheck(f"seat {n + 1}'s button", f"press seat {n + 1}'s button",
                          f"seat:{n}", "press", gpio=(pin,))
             for n, pin in enumerate(pinmap.seat_buttons)]
    steps.append(ControlCheck("the menu button", "press the menu button", "menu", "press",
                              gpio=(pinmap.menu,)))
    dial = (pinmap.encoder_a, pinmap.encoder_b)
    steps += [ControlCheck("the dial clockwise", "turn the dial one click clockwise",
                           "encoder:0", "dial", 1, dial),
              ControlCheck("the dial counter-clockwise",
                           "turn the dial one click counter-clockwise", "encoder:0", "dial", -1,
                           dial),
              ControlCheck("the dial's push switch", "press the dial (its push switch)",
                           "encoder-switch:0", "press", gpio=(pinmap.encoder_switch,))]
    return steps


def try_inputs(pinmap: PinMap, ask: Callable[[ControlCheck], None], pin_factory: Any = None,
               timeout: float = 15.0, clock: Callable[[], float] = time.monotonic
               ) -> list[Finding]:
    """Each control asked for in turn; seen if its event comes within ``timeout`` seconds."""
    from companion.hardware.inputs import TableInputs

    events: queue.SimpleQueue[InputEvent] = queue.SimpleQueue()
    with quiet_fallbacks():
        inputs = TableInputs(pinmap, events.put, pin_factory=pin_factory)
    findings = []
    try:
        for step in input_steps(pinmap):
            while not events.empty():  # what came before the question does not count
                events.get()
            ask(step)
            met = False
            deadline = clock() + timeout
            while not met and clock() < deadline:
                inputs.poll()
                try:
                    met = step.met_by(events.get(timeout=0.03))
                except queue.Empty:
                    continue
            pins = " and ".join(f"GPIO {pin}" for pin in step.gpio)
            findings.append(Finding(met, f"{step.what} ({pins}): {'seen' if met else 'not seen'}",
                                    "" if met else f"check its wires to {pins} and to GND "
                                    "(docs/hardware.md: the header)"))
    finally:
        inputs.close()
    return findings


def label(name: str) -> str:
    """What a screen is asked to show: its seat counted from 1, or "table"."""
    return f"seat {int(name[5:]) + 1}" if name.startswith("seat:") else name


def try_screens(panels: dict[str, Any], answer: Callable[[str], bool]) -> list[Finding]:
    """Each screen shows its seat number in turn (the others dark); seen if the person says
    it reads so. ``panels``: name -> Panel (``show`` an image, ``close``)."""
    from companion.screens.canvas import blank
    from companion.screens.common import headline

    findings = []
    for name in panels:
        for other, panel in panels.items():
            panel.show(headline("screen test", label(name)) if other == name else blank())
        reads = answer(f"does a screen read '{label(name)}' (and only one)?")
        findings.append(Finding(reads, f"screen {name}: {'seen' if reads else 'not seen'}",
                                "" if reads else "companion doctor (without --test) checks its "
                                "address and channel; then its wires (VCC 3.3 V, GND, SDA, SCL)"))
    for panel in panels.values():
        panel.show(blank())
    return findings


def try_camera(grab: Callable[[], Any], out: Path, layout: Any = None) -> list[Finding]:
    """One picture, saved at ``out`` with the markers drawn; how many corner markers show."""
    import cv2

    from companion.vision.calibration import draw_calibration
    from companion.vision.layout import TableLayout
    from companion.vision.library import CardLibrary
    from companion.vision.watch import TableWatcher

    try:
        frame = grab()
    except Exception as error:  # noqa: BLE001 - whatever stops the camera is the finding
        return [Finding(False, f"camera: no picture ({error})",
                        "companion doctor (without --test) says what is missing")]
    watcher = TableWatcher(CardLibrary(), layout or TableLayout())
    frame_reading = watcher.see(frame)
    cv2.imwrite(str(out), draw_calibration(frame, watcher, frame_reading))
    view = watcher.rectifier.last_view
    markers = 0 if view is None else view.markers_found
    return [Finding(True, f"camera: picture taken ({out}, markers drawn)"),
            Finding(markers == 4, f"camera: {markers} of 4 corner markers seen",
                    "" if markers == 4 else "put the printed corner markers in view "
                    "(hardware/markers.md) and look at the picture")]


def run_selftest(args: Any, pinmap: PinMap, parts: frozenset[str], pin_factory: Any = None,
                 camera_source: str = "picamera") -> int:
    """The CLI's ``doctor --test``: asks on stdout, reads yes/no from stdin."""

    def ask(step: ControlCheck) -> None:
        print(f"-> {step.ask} (within {args.timeout:g} s)", flush=True)

    def answer(question: str) -> bool:
        try:
            reply = input(f"-> {question} [y/n] ")
        except EOFError:
            return False
        return reply.strip().lower() in ("y", "yes")

    findings: list[Finding] = []
    if "inputs" in parts:
        try:
            findings += try_inputs(pinmap, ask, pin_factory, args.timeout)
        except Exception as error:  # noqa: BLE001 - no GPIO here: said, and the rest goes on
            findings.append(_cannot("the dial and buttons", error))
    if "screens" in parts:
        from companion.hardware.oled import open_panels

        try:
            panels = open_panels(pinmap)
        except Exception as error:  # noqa: BLE001 - no I2C here: said, and the rest goes on
            findings.append(_cannot("the screens", error))
            panels = {}
        try:
            findings += try_screens(panels, answer) if panels else []
        finally:
            for panel in panels.values():
                panel.close()
    if "camera" in parts:
        from companion.vision.calibration import grab

        camera = "picamera" if camera_source == "picamera" else str(args.camera_device)
        findings += try_camera(lambda: grab(camera), Path(args.out))
    for finding in findings:
        print(finding.line())
    missed = sum(not finding.ok for finding in findings)
    print(f"{missed} not seen" if missed else "everything seen" if findings
          else "nothing wired to try")
    return 1 if missed else 0


def _cannot(what: str, error: Exception) -> Finding:
    return Finding(False, f"{what}: cannot be opened ({error})",
                   "'companion doctor' (without --test) says what is missing")
