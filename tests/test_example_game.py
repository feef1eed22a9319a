"""A fifth game as a separate distribution (issue 42): ``examples/hoard`` installed with pip
into a fresh venv beside the project is a game of every command, with no file of
``companion/`` naming it. The venv reuses the project's packages (a ``.pth`` file) and builds
the example offline with the project's setuptools (the ``test`` extra)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "hoard"

#: The daemon's new-game menu, as the table shows it first, and a config choosing the game.
MENU = """
from companion.daemon.config import parse_config
from companion.daemon.dialogues import new_game
menu = next(new_game("traps", ["Ann", "Bob"], {}))
print([label for label, _ in menu.entries], parse_config('[table]\\ngame = "hoard"\\n').table.game)
"""


def run(python: Path, *argv: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(python), *argv], capture_output=True, text=True, timeout=120,
                          cwd=cwd)


@pytest.fixture(scope="module")
def venv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv seeing the project's packages, with the example pip-installed into it."""
    place = tmp_path_factory.mktemp("example")
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(place / "venv")],
                   check=True, timeout=120)
    python = place / "venv" / "bin" / "python"
    inside = run(python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])",
                 cwd=place).stdout.strip()
    project = sysconfig.get_paths()["purelib"]
    # addsitedir, not a bare path: the project's own .pth files (its editable install) count.
    (Path(inside) / "project.pth").write_text(f"import site; site.addsitedir({project!r})\n")
    source = shutil.copytree(EXAMPLE, place / "hoard")  # its build leaves nothing in the repo
    done = run(python, "-m", "pip", "install", "--no-deps", "--no-build-isolation",
               "--no-index", "-q", str(source), cwd=place)
    assert done.returncode == 0, done.stdout + done.stderr
    return python


def companion(python: Path, *argv: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return run(python, "-m", "companion.cli", *argv, cwd=cwd)


def test_rules_has_the_installed_game(venv, tmp_path):
    done = companion(venv, "rules", "hoard", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("Dragon's Hoard (hoard)") and "goal = 20" in done.stdout
    listed = companion(venv, "rules", "--help", cwd=tmp_path).stdout
    assert "deathtrap, hoard, rumble, traps, tricky" in listed


def test_replay_reads_its_table_log(venv, tmp_path):
    done = companion(venv, "replay", str(EXAMPLE / "hoard.jsonl"), "--json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert (result["game"], result["finished"], result["totals"], result["winners"]) == (
        "hoard", True, [11, 8, 13], [2])
    bad = tmp_path / "late.jsonl"
    bad.write_text((EXAMPLE / "hoard.jsonl").read_text()
                   + '{"type": "grab", "seat": 0, "die": 3}\n')
    refused = companion(venv, "replay", str(bad), cwd=tmp_path)
    assert refused.returncode == 2 and "game is over" in refused.stderr
    assert "Traceback" not in refused.stderr


def test_the_demo_plays_it_through_the_daemon(venv, tmp_path):
    done = companion(venv, "demo", "hoard", "--quick", "--out", str(tmp_path / "out"),
                     cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("hoard: ") and "winners: " in done.stdout
    assert (tmp_path / "out" / "hoard-table.png").is_file()


def test_the_daemon_offers_it(venv, tmp_path):
    done = run(venv, "-c", MENU, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    labels, chosen = done.stdout.rsplit(" ", 1)
    assert chosen.strip() == "hoard"
    assert "Dragon's hoard" in labels and "Mage Knight traps" in labels


def test_no_file_of_companion_names_it():
    named = [path for path in (ROOT / "companion").rglob("*.py")
             if "hoard" in path.read_text(encoding="utf-8").lower()]
    assert named == []
