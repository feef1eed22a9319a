"""``companion doctor``: is the table's hardware where the pin map says, and usable by us?

Checks the pin map, the I2C bus, the TCA9548A and every screen address on its channel,
the GPIO chip and the resting level of the encoder and buttons, the camera, the serial
hub and the groups that grant access (gpio, i2c, video, dialout). Each finding is one
line, ``ok`` or ``FIX`` with what to do; exit 0 when all is well, 1 when something needs
fixing. It runs anywhere: on a computer that is not a Pi it says what is missing.
"""

from __future__ import annotations

import contextlib
import grp
import os
import pwd
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.hardware.pins import PinMap

GROUPS = {"gpio": "the encoder and buttons", "i2c": "the screens",
          "video": "the camera", "dialout": "the serial hub"}
HUB_LINK = "companion-hub"


@dataclass(frozen=True)
class Finding:
    ok: bool
    what: str
    fix: str = ""

    def line(self) -> str:
        return f"ok   {self.what}" if self.ok else f"FIX  {self.what}\n     -> {self.fix}"


@dataclass
class Machine:
    """Where the checks look; tests point it at a fake tree and fake buses."""

    dev: Path = Path("/dev")
    sysfs_i2c: Path = Path("/sys/bus/i2c/devices")
    smbus_opener: Callable[[int], Any] | None = None
    pin_factory: Any = None
    user: str | None = None
    user_groups: set[str] | None = None
    environ: dict[str, str] | None = None  # None: this process's environment
    cwd: str | None = None  # None: this process's working directory
    unit: Path = Path("/etc/systemd/system/companion.service")
    picamera2_importer: Callable[[], None] | None = None  # None: import picamera2

    def open_bus(self, number: int) -> Any:
        if self.smbus_opener is not None:
            return self.smbus_opener(number)
        import smbus2

        return smbus2.SMBus(number)

    def groups(self) -> tuple[str, set[str]]:
        if self.user is not None and self.user_groups is not None:
            return self.user, self.user_groups
        account = pwd.getpwuid(os.getuid())
        names = {grp.getgrgid(gid).gr_name for gid in os.getgroups() if _group_exists(gid)}
        names.add(grp.getgrgid(account.pw_gid).gr_name if _group_exists(account.pw_gid) else "")
        return account.pw_name, names


def _group_exists(gid: int) -> bool:
    try:
        grp.getgrgid(gid)
    except KeyError:
        return False
    return True


def _answers(bus: Any, address: int) -> bool:
    try:
        bus.read_byte(address)
    except OSError:
        return False
    return True


def check_i2c(pinmap: PinMap, machine: Machine) -> Iterator[Finding]:
    node = machine.dev / f"i2c-{pinmap.i2c_bus}"
    if not node.exists():
        yield Finding(False, f"I2C bus {pinmap.i2c_bus}: {node} does not exist",
                      "enable I2C: 'sudo raspi-config nonint do_i2c 0' (or dtparam=i2c_arm=on "
                      "in /boot/firmware/config.txt), then reboot")
        return
    try:
        bus = machine.open_bus(pinmap.i2c_bus)
    except OSError as exc:
        yield Finding(False, f"I2C bus {pinmap.i2c_bus}: cannot open {node} ({exc.strerror})",
                      "add yourself to the i2c group: 'sudo adduser $USER i2c', log in again")
        return
    yield Finding(True, f"I2C bus {pinmap.i2c_bus}: {node}")
    mux = pinmap.mux_address
    overlay = machine.sysfs_i2c / f"{pinmap.i2c_bus}-{mux:04x}"
    if pinmap.mux_mode == "overlay":
        if not overlay.exists():
            yield Finding(False, f"multiplexer 0x{mux:02X}: the i2c-mux overlay is not loaded",
                          f"add 'dtoverlay=i2c-mux,pca9548,addr=0x{mux:02x}' to "
                          "/boot/firmware/config.txt and reboot, or set "
                          "i2c.mux_mode = \"select\" in the pin map")
            return
        yield Finding(True, f"multiplexer 0x{mux:02X}: claimed by the kernel's i2c-mux driver")
    elif not _answers(bus, mux):
        yield Finding(False, f"multiplexer 0x{mux:02X} does not answer on bus {pinmap.i2c_bus}",
                      "check the TCA9548A's wiring (VIN 3.3V, GND, SDA GPIO 2, SCL GPIO 3) and "
                      "that A0-A2 set its address")
        return
    else:
        yield Finding(True, f"multiplexer 0x{mux:02X} answers")
    yield from _check_screens(pinmap, machine, bus, overlay)


def _check_screens(pinmap: PinMap, machine: Machine, bus: Any, overlay: Path) -> Iterator[Finding]:
    for wiring in pinmap.screens:
        where = f"screen {wiring.name} ({wiring.driver}, channel {wiring.channel}, " \
                f"0x{wiring.address:02X})"
        try:
            if pinmap.mux_mode == "overlay":
                number = int(os.readlink(overlay / f"channel-{wiring.channel}").rsplit("-", 1)[1])
                with contextlib.closing(machine.open_bus(number)) as channel_bus:
                    found = _answers(channel_bus, wiring.address)
            else:
                bus.write_byte(pinmap.mux_address, 1 << wiring.channel)
                found = _answers(bus, wiring.address)
        except (OSError, ValueError, IndexError):
            found = False
        yield Finding(found, where, "" if found else
                      "check that screen's wiring to its multiplexer channel (VCC, GND, SDA, "
                      "SCL) and its address jumper")


@contextlib.contextmanager
def quiet_fallbacks() -> Iterator[None]:
    """Without gpiozero's warning for each pin factory it tries in turn (lgpio, RPi.GPIO,
    pigpio, native): the doctor says in its own words what it could not open, and how to
    mend it."""
    from gpiozero.exc import PinFactoryFallback

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PinFactoryFallback)
        yield


def check_gpio(pinmap: PinMap, machine: Machine) -> Iterator[Finding]:
    chips = sorted(machine.dev.glob("gpiochip*"))
    if machine.pin_factory is None and not chips:
        yield Finding(False, "GPIO: no /dev/gpiochip* (not a Raspberry Pi?)",
                      "run on the Pi; on another computer use 'companion run --sim'")
        return
    from gpiozero import InputDevice
    from gpiozero.exc import GPIOZeroError

    pins = {"encoder A": pinmap.encoder_a, "encoder B": pinmap.encoder_b,
            "encoder switch": pinmap.encoder_switch, "menu button": pinmap.menu}
    # Seat buttons counted from 1, as on the table and the --sim keys.
    pins.update({f"seat {seat + 1} button": pin for seat, pin in enumerate(pinmap.seat_buttons)})
    for what, pin in pins.items():
        try:
            with quiet_fallbacks(), InputDevice(pin, pull_up=True,
                                                pin_factory=machine.pin_factory) as device:
                resting = not device.is_active  # pulled up: low means pressed or shorted
        except (GPIOZeroError, OSError, RuntimeError) as exc:
            yield Finding(False, f"{what} (GPIO {pin}): cannot read it ({exc})",
                          "stop the daemon if it runs ('sudo systemctl stop companion'); add "
                          "yourself to the gpio group ('sudo adduser $USER gpio'); install lgpio "
                          "('pip install .[pi]')")
            continue
        # Encoder contacts may rest closed at a detent; only the buttons must read open.
        if resting or what in ("encoder A", "encoder B"):
            yield Finding(True, f"{what} (GPIO {pin})")
        else:
            yield Finding(False, f"{what} (GPIO {pin}) reads pressed at rest",
                          "release it, or look for a short to GND on that wire")


def check_camera(machine: Machine) -> Iterator[Finding]:
    cameras = sorted(machine.dev.glob("video*"))
    if not cameras:
        yield Finding(False, "camera: no /dev/video*",
                      "connect the camera and enable it (camera_auto_detect=1 in config.txt)")
    elif not os.access(cameras[0], os.R_OK | os.W_OK):
        yield Finding(False, f"camera: {cameras[0]} is not accessible",
                      "add yourself to the video group: 'sudo adduser $USER video'")
    else:
        yield Finding(True, f"camera: {', '.join(map(str, cameras))}")


def check_picamera2(machine: Machine) -> Iterator[Finding]:
    """Picamera2 imports in this Python (any failure of its import, with its real reason)."""
    from companion.picamera import picamera2_problem

    importer = machine.picamera2_importer
    problem = picamera2_problem(importer) if importer else picamera2_problem()
    if problem is None:
        yield Finding(True, "camera: Picamera2 imports")
    else:
        yield Finding(False, "camera: Picamera2 does not import", problem)


def lgpio_directory(environ: dict[str, str] | None = None, cwd: str | None = None) -> Path:
    """Where lgpio makes its notification pipe: $LG_WD, else the working directory."""
    environ = dict(os.environ) if environ is None else environ
    return Path(environ.get("LG_WD") or cwd or os.getcwd())


def check_lgpio_directory(machine: Machine) -> Iterator[Finding]:
    """lgpio (gpiozero's backend on a Pi 5, and the default on a Pi 4) needs to write its
    notification pipe in its working directory; without it gpiozero falls back to another
    backend, which on a Pi 5 does not work (gpiozero issue 1106, lg issue 22)."""
    folder = lgpio_directory(machine.environ, machine.cwd)
    if os.access(folder, os.W_OK | os.X_OK):
        yield Finding(True, f"lgpio working directory {folder} is writable")
    else:
        yield Finding(False, f"lgpio working directory {folder} is not writable",
                      "run from a writable directory or set LG_WD to one (the service runs in "
                      "/var/lib/companion: WorkingDirectory= in systemd/companion.service)")
    unit = machine.unit
    if unit.exists():
        named = [line.split("=", 1)[1].strip() for line in unit.read_text().splitlines()
                 if line.startswith("WorkingDirectory=")]
        if named:
            yield Finding(True, f"{unit} runs in {named[-1]}")
        else:
            yield Finding(False, f"{unit} names no WorkingDirectory (lgpio cannot work in /)",
                          "reinstall the unit: 'sudo companion install-service'")


def check_hub(machine: Machine) -> Iterator[Finding]:
    candidates = [machine.dev / HUB_LINK, *sorted((machine.dev / "serial" / "by-id").glob("*"))]
    present = [path for path in candidates if path.exists()]
    if not present:
        yield Finding(False, f"serial hub: neither /dev/{HUB_LINK} nor /dev/serial/by-id/*",
                      "plug the Pico hub in by USB; install the udev rule that names it "
                      f"/dev/{HUB_LINK}")
    elif not os.access(present[0], os.R_OK | os.W_OK):
        yield Finding(False, f"serial hub: {present[0]} is not accessible",
                      "add yourself to the dialout group: 'sudo adduser $USER dialout'")
    else:
        yield Finding(True, f"serial hub: {present[0]}")


def check_groups(machine: Machine) -> Iterator[Finding]:
    user, groups = machine.groups()
    if user == "root":
        yield Finding(True, "running as root: no group membership needed")
        return
    for group, purpose in GROUPS.items():
        if group in groups:
            yield Finding(True, f"user {user} is in group {group} ({purpose})")
        else:
            yield Finding(False, f"user {user} is not in group {group} ({purpose})",
                          f"'sudo adduser {user} {group}', then log in again")


#: The parts doctor checks when no config says which are wired.
ALL_PARTS = frozenset({"inputs", "screens", "camera", "picamera", "hub"})


def diagnose(pinmap: PinMap, machine: Machine | None = None,
             parts: frozenset[str] = ALL_PARTS) -> list[Finding]:
    """Every finding for the ``parts`` wired ("inputs", "screens", "camera", "picamera" (the
    camera is a Pi camera), "hub"); a part that is not wired is not checked (not a FIX)."""
    machine = machine or Machine()
    findings = [Finding(True, "pin map read and consistent")]
    if "screens" in parts:
        findings.extend(check_i2c(pinmap, machine))
    if "inputs" in parts:
        findings.extend(check_gpio(pinmap, machine))
        findings.extend(check_lgpio_directory(machine))
    if "camera" in parts:
        findings.extend(check_camera(machine))
        if "picamera" in parts:
            findings.extend(check_picamera2(machine))
    if "hub" in parts:
        findings.extend(check_hub(machine))
    findings.extend(check_groups(machine))
    not_wired = sorted({"inputs", "screens", "camera", "hub"} - parts)
    if not_wired:
        findings.append(Finding(True, f"not wired in the config (not checked): "
                                      f"{', '.join(not_wired)}"))
    return findings


def configured_parts(config: Any) -> frozenset[str]:
    """The parts a daemon config wires (its ``enabled`` keys)."""
    wired = {name for name in ("inputs", "screens", "camera", "hub")
             if getattr(config, name).enabled}
    if config.camera.enabled and config.camera.source == "picamera":
        wired.add("picamera")
    return frozenset(wired)
