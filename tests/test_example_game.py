"""A fifth game as a separate distribution (issue 42): ``examples/hoard`` installed with pip
into a fresh venv beside an installed companion, as docs/bundles.md shows it, is a game of
every command, with no file of ``companion/`` naming it. The venv is made and the example
installed by the lines of docs/bundles.md; the companion in it is the project's own, installed
beside it (a ``.pth`` file) where the docs build it from the package index, and the example
is built offline with the project's setuptools (the ``test`` extra). Its seat page says the
seats by name and offers no peek: the game has no secrets (Chromium)."""

from __future__ import annotations

import json
import re
import shlex
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest
from helpers import wait_for
from web_table import LiveTable

from companion.daemon.items import CameraProposal
from companion.games import registry
from companion.table import Header

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "hoard"

#: The daemon's new-game menu, as the table shows it first, and a config choosing the game.
MENU = """
from companion.daemon.config import parse_config
from companion.daemon.dialogues import new_game
menu = next(new_game("traps", ["Ann", "Bob"], {}))
print([label for label, _ in menu.choices], parse_config('[table]\\ngame = "hoard"\\n').table.game)
"""


def run(python: Path, *argv: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(python), *argv], capture_output=True, text=True, timeout=120,
                          cwd=cwd)


def shown_install() -> list[list[str]]:
    """The lines docs/bundles.md shows to install and try the example, as words."""
    text = (ROOT / "docs" / "bundles.md").read_text(encoding="utf-8")
    block = re.search(r"Install it beside the companion.*?```\n(.*?)```", text, re.S)
    assert block, "docs/bundles.md shows no install"
    return [shlex.split(line) for line in block.group(1).splitlines() if line.strip()]


def test_the_docs_install_the_companion_into_a_fresh_venv_before_the_example():
    """A fresh venv holds no companion, and pip finds none on a package index: the lines
    make the venv, install the companion from the clone, then the example, all in that venv."""
    lines = shown_install()
    assert lines[0][:3] == ["python3", "-m", "venv"]
    venv = lines[0][3]
    assert lines[1] == [f"{venv}/bin/pip", "install", "."]
    assert lines[2] == [f"{venv}/bin/pip", "install", "./examples/hoard"]
    assert all(line[0].startswith(f"{venv}/bin/") for line in lines[1:])


@pytest.fixture(scope="module")
def venv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The docs' lines in a fresh venv: the venv made, the companion in it (the project's own,
    installed beside it: a ``.pth`` file, offline), then ``pip install ./examples/hoard`` as
    shown (offline: no index, the project's setuptools) from a copy of the clone's folder."""
    lines = shown_install()
    place = tmp_path_factory.mktemp("example")
    folder = Path(lines[0][3].replace("~", str(place)))
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(folder)],
                   check=True, timeout=120)
    python = folder / "bin" / "python"
    inside = run(python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])",
                 cwd=place).stdout.strip()
    project = sysconfig.get_paths()["purelib"]
    # addsitedir, not a bare path: the project's own .pth files (its editable install) count.
    (Path(inside) / "project.pth").write_text(f"import site; site.addsitedir({project!r})\n")
    clone = place / "clone"
    shutil.copytree(EXAMPLE, clone / "examples" / "hoard")  # its build leaves the repo as is
    pip = lines[2]
    assert pip[1:] == ["install", "./examples/hoard"]
    done = run(python, "-m", "pip", *pip[1:], "--no-index", "--no-build-isolation", "-q",
               cwd=clone)  # the companion it depends on is found installed: no --no-deps
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


@pytest.fixture
def hoard():
    """The example's game in this process (as its entry point makes it in a venv)."""
    sys.path.insert(0, str(EXAMPLE))
    try:
        import dungeon_hoard

        registry.register(dungeon_hoard.BUNDLE)
        yield
    finally:
        registry.unregister("hoard")
        sys.path.remove(str(EXAMPLE))


def test_its_seat_page_names_the_seats_and_offers_no_peek(browser, hoard, tmp_path):
    """Ann and Bob have rolled: Cy's turn. Ann's page says so by name; with nothing secret in
    the game there is no "Hold to see your secrets"."""
    header = Header("hoard", ("Ann", "Bob", "Cy"), 1, {})
    with LiveTable(tmp_path, header) as table:
        for seat, die in ((0, 4), (1, 3)):
            table.daemon.submit(CameraProposal({"type": "grab", "seat": seat, "die": die}))
        wait_for(lambda: table.stored() == 2, "two grabs stored")
        page = browser.new_context(viewport={"width": 390, "height": 800}).new_page()
        page.goto(table.links()[0])
        page.wait_for_selector('body[data-events="2"]', state="attached", timeout=60_000)
        words = page.inner_text("#words")
        assert "Cy's turn" in words and "seat 3" not in words, words
        assert page.is_hidden("#peek") and page.is_hidden("#peekbox")
        page.context.close()


def test_no_file_of_companion_names_it():
    named = [path for path in (ROOT / "companion").rglob("*.py")
             if "hoard" in path.read_text(encoding="utf-8").lower()]
    assert named == []
