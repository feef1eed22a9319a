"""The systemd unit, the hub's udev rule, verify.sh and ``companion install-service``."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from companion.cli import main
from companion.hardware.hub import UDEV_LINK

SYSTEMD = Path(__file__).resolve().parent.parent / "systemd"
VERIFY = SYSTEMD / "verify.sh"
needs_systemd = pytest.mark.skipif(shutil.which("systemd-analyze") is None,
                                   reason="systemd-analyze is not installed")


def verify(unit: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["bash", str(VERIFY), str(unit)], capture_output=True, text=True,
                          timeout=60)


def directives(unit: str) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for line in unit.splitlines():
        if "=" in line and not line.startswith("#"):
            key, value = line.split("=", 1)
            found.setdefault(key, []).append(value)
    return found


@needs_systemd
def test_shipped_unit_verifies_without_any_warning() -> None:
    result = verify(SYSTEMD / "companion.service")
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""


@needs_systemd
@pytest.mark.parametrize("change", [("\n[Install]\n", "\n[Install]\nBogus=1\n"),
                                    ("WatchdogSec=20", "WatchdogSec=twenty"),
                                    ("Type=notify", "Type=notify\nProtectSystem=maybe")])
def test_verify_fails_on_any_warning(tmp_path: Path, change: tuple[str, str]) -> None:
    unit = (SYSTEMD / "companion.service").read_text()
    assert change[0] in unit
    broken = tmp_path / "companion.service"
    broken.write_text(unit.replace(change[0], change[1], 1))
    result = verify(broken)
    assert result.returncode == 1
    assert "companion.service" in result.stderr


def test_unit_is_a_watched_notify_service_with_its_directories_and_groups() -> None:
    unit = directives((SYSTEMD / "companion.service").read_text())
    assert unit["Type"] == ["notify"]
    assert int(unit["WatchdogSec"][0]) > 0
    assert unit["Restart"] == ["on-failure"]
    assert unit["StateDirectory"] == ["companion"]
    # The store holds every secret: its directory is the service's alone.
    assert unit["StateDirectoryMode"] == ["0700"]
    # lgpio needs a writable working directory (/ is read-only under ProtectSystem=strict).
    assert unit["WorkingDirectory"] == ["/var/lib/companion"]
    assert unit["ConfigurationDirectory"] == ["companion"]
    assert set(unit["SupplementaryGroups"][0].split()) == {"gpio", "i2c", "video", "dialout",
                                                            "audio"}
    assert unit["ExecStart"] == [
        "/opt/companion/venv/bin/companion run --config /etc/companion/companion.toml"]
    for hardening in ("NoNewPrivileges", "ProtectSystem", "ProtectHome", "PrivateTmp"):
        assert hardening in unit


def test_udev_rule_names_the_hub_where_the_host_looks_for_it() -> None:
    lines = [line for line in (SYSTEMD / "99-companion-hub.rules").read_text().splitlines()
             if line and not line.startswith("#")]
    assert len(lines) == 1
    pairs = [part.strip() for part in lines[0].split(",")]
    assert all(re.fullmatch(r'[A-Z_]+(\{[a-zA-Z_]+\})?(==|\+=|=)"[^"]*"', pair) for pair in pairs)
    assert 'ATTRS{idVendor}=="2e8a"' in pairs and 'ATTRS{idProduct}=="0005"' in pairs
    assert f'SYMLINK+="{Path(UDEV_LINK).name}"' in pairs


def test_install_service_writes_unit_rule_and_config_dir_under_root(tmp_path: Path,
                                                                    capsys) -> None:
    assert main(["install-service", "--root", str(tmp_path)]) == 0
    unit = (tmp_path / "etc/systemd/system/companion.service").read_text()
    assert directives(unit)["ExecStart"] == [
        f"{sys.prefix}/bin/companion run --config /etc/companion/companion.toml"]
    assert (tmp_path / "etc/udev/rules.d/99-companion-hub.rules").read_text() == (
        SYSTEMD / "99-companion-hub.rules").read_text()
    config = tmp_path / "etc/companion/companion.toml"
    assert config.read_text() == (SYSTEMD.parent / "companion.example.toml").read_text()
    assert "wrote" in capsys.readouterr().out


def test_install_service_keeps_an_existing_config(tmp_path: Path, capsys) -> None:
    config = tmp_path / "etc/companion/companion.toml"
    config.parent.mkdir(parents=True)
    config.write_text("[hub]\nenabled = true\n")
    assert main(["install-service", "--root", str(tmp_path)]) == 0
    assert config.read_text() == "[hub]\nenabled = true\n"
    assert f"kept {config}" in capsys.readouterr().out


@needs_systemd
def test_installed_unit_verifies_too(tmp_path: Path) -> None:
    assert main(["install-service", "--root", str(tmp_path)]) == 0
    result = verify(tmp_path / "etc/systemd/system/companion.service")
    assert result.returncode == 0, result.stderr


def test_dry_run_writes_nothing(tmp_path: Path, capsys) -> None:
    assert main(["install-service", "--root", str(tmp_path), "--dry-run"]) == 0
    assert list(tmp_path.iterdir()) == []
    out = capsys.readouterr().out
    assert "would write" in out and "Type=notify" in out


def test_bad_venv_is_one_clear_line_and_exit_2(tmp_path: Path, capsys) -> None:
    code = main(["install-service", "--root", str(tmp_path), "--venv", str(tmp_path / "nope")])
    err = capsys.readouterr().err
    assert code == 2
    assert err.count("\n") == 1 and "--venv" in err and "Traceback" not in err


def test_unwritable_root_is_a_clear_error(tmp_path: Path, capsys) -> None:
    blocker = tmp_path / "etc"
    blocker.write_text("a file where a folder should be")
    assert main(["install-service", "--root", str(tmp_path)]) == 2
    assert "cannot write" in capsys.readouterr().err


def writable_dirs(unit: dict[str, list[str]]) -> list[str]:
    """What a unit under ProtectSystem=strict may write: its state, cache, logs and runtime
    directories, ReadWritePaths, and /tmp (private or not)."""
    roots = {"StateDirectory": "/var/lib", "CacheDirectory": "/var/cache",
             "LogsDirectory": "/var/log", "RuntimeDirectory": "/run"}
    found = [f"{root}/{name}" for key, root in roots.items()
             for value in unit.get(key, []) for name in value.split()]
    found += [path for value in unit.get("ReadWritePaths", []) for path in value.split()]
    return [*found, "/tmp", "/var/tmp"]


def names_a_writable_working_directory(text: str) -> bool:
    unit = directives(text)
    (folder,) = unit.get("WorkingDirectory", ["/"])[-1:]
    folder = folder.lstrip("-")
    if unit.get("ProtectSystem") != ["strict"]:
        return folder != "/"
    return any(folder == d or folder.startswith(d.rstrip("/") + "/") for d in writable_dirs(unit))


def test_the_unit_runs_in_a_directory_it_may_write_lgpio_s_pipe_in() -> None:
    text = (SYSTEMD / "companion.service").read_text()
    assert names_a_writable_working_directory(text)
    # Without WorkingDirectory= it would start in /, read-only under ProtectSystem=strict.
    without = "\n".join(line for line in text.splitlines()
                        if not line.startswith("WorkingDirectory="))
    assert not names_a_writable_working_directory(without)
    assert not names_a_writable_working_directory(
        text.replace("WorkingDirectory=/var/lib/companion", "WorkingDirectory=/opt/companion"))


def test_the_unit_raises_the_open_file_limit_well_above_what_the_pages_may_take() -> None:
    from companion.web.admission import ACCEPT_BACKLOG, RESERVED, limits

    limit = int(directives((SYSTEMD / "companion.service").read_text())["LimitNOFILE"][0])
    _, pages = limits(limit)
    assert limit > 1024 and pages + ACCEPT_BACKLOG + RESERVED < limit
