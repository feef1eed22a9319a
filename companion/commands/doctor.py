"""``companion doctor``: the hardware checks of :mod:`companion.hardware.doctor` for the parts
the daemon's config wires (its ``[hardware]`` overrides the pin map). Without ``--config`` it
checks what ``companion run`` without one would use: the pin map, and no part (every part is
off), and says how to check a build.

The config is read here, on the command side: the checks themselves take the pin map and
know nothing of the daemon.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the checks are loaded when the doctor runs
    from companion.hardware.doctor import Finding


def run_doctor(args: argparse.Namespace) -> int:
    from companion.daemon.config import load_config
    from companion.hardware.doctor import Finding, configured_parts, diagnose
    from companion.hardware.pins import load_pinmap

    # A broken pin map or config is a user error: one line, exit 2, from the CLI.
    config = load_config(args.config)  # none: every part off, as `companion run` has it
    pinmap = config.pinmap() if args.config else load_pinmap(args.pinmap)
    parts = configured_parts(config)
    unconfigured = [] if args.config else [Finding(True, NO_CONFIG)]
    if getattr(args, "test", False):
        from companion.commands.selftest import run_selftest
        from companion.daemon.sources import pin_factory

        for finding in unconfigured:
            print(finding.line())
        return run_selftest(args, pinmap, parts, pin_factory(config.inputs.pin_factory),
                            config.camera.source)
    findings = diagnose(pinmap, parts=parts) + unconfigured
    if config.voice.enabled:
        findings.extend(voice_findings(config.voice.speed))
    if config.web.enabled:
        from companion.web.address import page_url

        url = page_url(config.web.listen, config.web.port)
        findings.append(Finding(True, f"web pages: open {url}/ on the LAN; the seats' "
                                      "links: companion seats"))
    for finding in findings:
        print(finding.line())
    problems = sum(not finding.ok for finding in findings)
    print(f"{problems} thing{'s' * (problems != 1)} to fix" if problems else "all good")
    return 1 if problems else 0


#: What the doctor says first without ``--config``: why it checks no part, and how to.
NO_CONFIG = ("no --config: every part is off, as for `companion run` without one; check a "
             "build's parts with --config FILE (the service's: /etc/companion/companion.toml; "
             "examples/minimal.toml, camera.toml, full.toml)")


def voice_findings(speed: int) -> list[Finding]:
    """``[voice] enabled``: can the announcements be heard (espeak-ng, a sound device, and
    espeak-ng playing on it: its exit code and its stderr)?"""
    from companion.hardware.doctor import Finding
    from companion.voice.audible import check_voice

    return [Finding(check.ok, check.what, check.fix) for check in check_voice(speed)]


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    doctor = subparsers.add_parser(
        "doctor", help="check the table's hardware and say what to fix",
        description="Check the parts a daemon config wires: the I2C bus, multiplexer and "
                    "screens, the encoder and buttons, the camera, the serial hub and group "
                    "memberships against the pin map, and with [voice] enabled, that the voice "
                    "can be heard. Without --config every part is off, as for companion run "
                    "without one: only the pin map is checked. Exit 0 when all is well, 1 when "
                    "something needs fixing.")
    doctor.add_argument("--config", metavar="FILE",
                        help="the daemon's config (on a Pi: /etc/companion/companion.toml), "
                             "whose [hardware] overrides the pin map")
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
