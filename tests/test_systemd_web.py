"""The unit lets the web pages serve the LAN and nothing else, and stays well hardened."""

import re
import shutil
import subprocess
from pathlib import Path

import pytest

UNIT = Path(__file__).resolve().parent.parent / "systemd" / "companion.service"


def settings(name):
    return [line.split("=", 1)[1] for line in UNIT.read_text().splitlines()
            if line.startswith(name + "=")]


def test_the_unit_allows_loopback_link_local_and_private_ranges_only():
    allowed = " ".join(settings("IPAddressAllow")).split()
    assert set(allowed) == {"localhost", "link-local", "10.0.0.0/8", "172.16.0.0/12",
                            "192.168.0.0/16", "fc00::/7"}
    assert settings("IPAddressDeny") == ["any"]
    assert settings("RestrictAddressFamilies") == ["AF_UNIX AF_INET AF_INET6"]


def test_the_units_exposure_stays_at_most_2():
    if shutil.which("systemd-analyze") is None:
        pytest.skip("no systemd-analyze (apt-get install systemd)")
    done = subprocess.run(["systemd-analyze", "security", "--offline=true", str(UNIT)],
                          capture_output=True, text=True, timeout=120)
    found = re.search(r"Overall exposure level for \S+: ([\d.]+)", done.stdout)
    if found is None:
        pytest.skip(f"systemd-analyze security --offline unsupported here: {done.stderr[:200]}")
    assert float(found.group(1)) <= 2.0, done.stdout
