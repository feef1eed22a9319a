"""``companion doctor``: the hardware checks of :mod:`companion.hardware.doctor` against the
pin map, or against the daemon's config (whose ``[hardware]`` overrides the pin map).

The config is read here, on the command side: the checks themselves take the pin map and
know nothing of the daemon.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the checks are loaded when the doctor runs
    from companion.hardware.doctor import Finding


def run_doctor(args: argparse.Namespace) -> int:
    from companion.hardware.doctor import ALL_PARTS, Finding, configured_parts, diagnose
    from companion.hardware.pins import load_pinmap

    # A broken pin map or config is a user error: one line, exit 2, from the CLI.
    if args.config:
        from companion.daemon.config import load_config

        config = load_config(args.config)
        pinmap, parts = config.pinmap(), configured_parts(config)
        factory, source = config.inputs.pin_factory, config.camera.source
    else:
        pinmap, parts = load_pinmap(args.pinmap), ALL_PARTS - {"hub"}
        factory, source = "", "picamera"
    if getattr(args, "test", False):
        from companion.commands.selftest import run_selftest
        from companion.daemon.sources import pin_factory

        return run_selftest(args, pinmap, parts, pin_factory(factory), source)
    findings = diagnose(pinmap, parts=parts)
    if args.config and config.voice.enabled:
        findings.extend(voice_findings(config.voice.speed))
    if args.config and config.web.enabled:
        from companion.web.address import page_url

        url = page_url(config.web.listen, config.web.port)
        findings.append(Finding(True, f"web pages: open {url}/ on the LAN; the seats' "
                                      "links: companion seats"))
    for finding in findings:
        print(finding.line())
    problems = sum(not finding.ok for finding in findings)
    print(f"{problems} thing{'s' * (problems != 1)} to fix" if problems else "all good")
    return 1 if problems else 0


def voice_findings(speed: int) -> list[Finding]:
    """``[voice] enabled``: can the announcements be heard (espeak-ng, a sound device, and
    espeak-ng playing on it: its exit code and its stderr)?"""
    from companion.hardware.doctor import Finding
    from companion.voice.audible import check_voice

    return [Finding(check.ok, check.what, check.fix) for check in check_voice(speed)]


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    doctor = subparsers.add_parser(
        "doctor", help="check the table's hardware and say what to fix",
        description="Check the I2C bus, multiplexer and screens, the encoder and buttons, the "
                    "camera, the serial hub and group memberships against the pin map, and with "
                    "a config whose [voice] is enabled, that the voice can be heard. Exit 0 "
                    "when all is well, 1 when something needs fixing.")
    doctor.add_argument("--config", metavar="FILE",
                        help="the daemon's config, whose [hardware] overrides the pin map")
    doctor.add_argument("--pinmap", metavar="FILE",
                        help="the pin map to check against (default: hardware/pinmap.toml)")
    doctor.add_argument("--test", action="store_true",
                        help="try the wired hardware with a person: press each button, turn "
                             "the dial both ways, read each screen's seat number, one camera "
                             "picture with the markers drawn (stop the daemon first)")
    doctor.add_argument("--timeout", type=float, default=15.0, metavar="SECONDS",
                        help="--test: how long to wait for each control (default 15)")
    doctor.add_argument("--out", default="doctor-test.png", metavar="PNG",
                        help="--test: where the camera picture goes (default doctor-test.png)")
    doctor.add_argument("--camera-device", type=int, default=0, metavar="N",
                        help="--test with a USB camera: its number (default 0)")
    doctor.set_defaults(func=run_doctor)
