"""``companion install-service``: the systemd unit and the hub's udev rule, installed.

The files come from the ``systemd/`` folder of the source checkout the companion was
installed from (``pip install -e``); the unit's ExecStart is pointed at the venv running
this command. ``--root DIR`` installs under another root (an image being built, a test);
``--dry-run`` prints what would be written and writes nothing. The example config
(``companion.example.toml``) becomes ``/etc/companion/companion.toml`` unless one is there.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import NamedTuple

from companion.errors import CompanionError

SOURCE = Path(__file__).resolve().parent.parent.parent / "systemd"
UNIT = "companion.service"
UDEV_RULE = "99-companion-hub.rules"
EXAMPLE_CONFIG = SOURCE.parent / "companion.example.toml"
#: The ExecStart program as written in systemd/companion.service.
DEFAULT_PROGRAM = "/opt/companion/venv/bin/companion"


class ServiceError(CompanionError):
    """The service files cannot be found or written."""


class InstalledFile(NamedTuple):
    """One file to install: where it goes and what it holds (a named tuple: the command line
    is built without loading dataclasses)."""

    path: Path
    text: str


def placements(root: Path, venv: Path, source: Path = SOURCE) -> list[InstalledFile]:
    """The unit (ExecStart in ``venv``) and the udev rule, placed under ``root``."""
    try:
        unit = (source / UNIT).read_text()
        rule = (source / UDEV_RULE).read_text()
    except OSError as error:
        raise ServiceError(
            f"{error.filename}: not found; install-service needs the source checkout's "
            "systemd/ folder (install with `pip install -e`, see docs/hub.md)") from error
    if DEFAULT_PROGRAM not in unit:
        raise ServiceError(f"{source / UNIT}: ExecStart does not name {DEFAULT_PROGRAM}")
    unit = unit.replace(DEFAULT_PROGRAM, str(venv / "bin" / "companion"))
    return [InstalledFile(root / "etc/systemd/system" / UNIT, unit),
            InstalledFile(root / "etc/udev/rules.d" / UDEV_RULE, rule)]


def config_placement(config_dir: Path, example: Path = EXAMPLE_CONFIG) -> InstalledFile | None:
    """The example config as the daemon's config, unless there is one already."""
    target = config_dir / "companion.toml"
    if target.exists() or not example.is_file():
        return None
    return InstalledFile(target, example.read_text())


def install(files: list[InstalledFile], config_dir: Path) -> None:
    for placement in files:
        try:
            placement.path.parent.mkdir(parents=True, exist_ok=True)
            placement.path.write_text(placement.text)
        except OSError as error:
            raise ServiceError(f"cannot write {placement.path}: {error.strerror} "
                               "(run as root: sudo companion install-service)") from error
    try:
        config_dir.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise ServiceError(f"cannot create {config_dir}: {error.strerror}") from error


def run_install_service(args: argparse.Namespace) -> int:
    root = Path(args.root)
    venv = Path(args.venv) if args.venv else Path(sys.prefix)
    if not (venv / "bin" / "companion").exists():
        raise ServiceError(f"--venv {venv}: no bin/companion in it")
    config_dir = root / "etc/companion"
    files = placements(root, venv)
    config = config_placement(config_dir)
    if config is not None:
        files.append(config)
    if args.dry_run:
        for placement in files:
            print(f"# would write {placement.path}")
            print(placement.text)
        print(f"# would create {config_dir}/")
        return 0
    install(files, config_dir)
    for placement in files:
        print(f"wrote {placement.path}")
    if config is None:
        print(f"kept {config_dir / 'companion.toml'}")
    if root == Path("/"):
        print("now run: sudo udevadm control --reload-rules && sudo udevadm trigger\n"
              "         sudo systemctl daemon-reload && sudo systemctl enable --now companion")
    return 0


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "install-service", help="install the systemd unit and the hub's udev rule",
        description="Install systemd/companion.service (ExecStart in this venv) and "
                    "systemd/99-companion-hub.rules, and create /etc/companion/.")
    parser.add_argument("--root", default="/", metavar="DIR",
                        help="install under this root instead of / (default: /)")
    parser.add_argument("--venv", metavar="DIR",
                        help=f"the venv ExecStart runs from (default: this one, {sys.prefix})")
    parser.add_argument("--dry-run", action="store_true",
                        help="print the files that would be written, write nothing")
    parser.set_defaults(func=run_install_service)
