"""``companion doctor``: the hardware checks of :mod:`companion.hardware.doctor` against the
pin map, or against the daemon's config (whose ``[hardware]`` overrides the pin map).

The config is read here, on the command side: the checks themselves take the pin map and
know nothing of the daemon.
"""

from __future__ import annotations

import argparse

from companion.daemon.config import load_config
from companion.hardware.doctor import Finding, diagnose
from companion.hardware.pins import load_pinmap


def run_doctor(args: argparse.Namespace) -> int:
    # A broken pin map or config is a user error: one line, exit 2, from the CLI.
    config = load_config(args.config) if args.config else None
    pinmap = config.pinmap() if config else load_pinmap(args.pinmap)
    findings = diagnose(pinmap)
    if config is not None and config.web.enabled:
        from companion.web.address import page_url

        url = page_url(config.web.listen, config.web.port)
        findings.append(Finding(True, f"web pages: open {url}/ on the LAN; the seats' "
                                      "links: companion seats"))
    for finding in findings:
        print(finding.line())
    problems = sum(not finding.ok for finding in findings)
    print(f"{problems} thing{'s' * (problems != 1)} to fix" if problems else "all good")
    return 1 if problems else 0


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    doctor = subparsers.add_parser(
        "doctor", help="check the table's hardware and say what to fix",
        description="Check the I2C bus, multiplexer and screens, the encoder and buttons, the "
                    "camera, the serial hub and group memberships against the pin map. Exit 0 "
                    "when all is well, 1 when something needs fixing.")
    doctor.add_argument("--config", metavar="FILE",
                        help="the daemon's config, whose [hardware] overrides the pin map")
    doctor.add_argument("--pinmap", metavar="FILE",
                        help="the pin map to check against (default: hardware/pinmap.toml)")
    doctor.set_defaults(func=run_doctor)
