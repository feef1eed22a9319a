"""The repository defines itself: the table-log format and the rulings are docs in it
(docs/table-log.md, docs/rulings.md, and each game's events and rulings written once in its
own folder, companion/bundles/<game>/events.md and rulings.md, which those pages link), cited
by code and docs, and their examples replay."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from built_in import GAMES as BUILT_IN

from companion.games.registry import engine

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
BUNDLES = ROOT / "companion" / "bundles"
OUTSIDE = re.compile(r"CONTRACT\.md|RULINGS\.md")


def tracked_text_files() -> list[Path]:
    listed = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True)
    if listed.returncode != 0:  # not a git checkout: every file of the tree
        return [path for path in ROOT.rglob("*") if path.is_file() and ".venv" not in path.parts]
    return [ROOT / name for name in listed.stdout.splitlines()]


def test_nothing_cites_a_document_the_repository_does_not_hold():
    cited = []
    for path in tracked_text_files():
        if path.suffix not in {".py", ".md", ".json", ".toml", ".txt", ".service", ""}:
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, FileNotFoundError, IsADirectoryError):
            continue
        cited += [f"{path.relative_to(ROOT)}:{text.count(chr(10), 0, m.start()) + 1}"
                  for m in OUTSIDE.finditer(text)]
    assert cited == []


def test_the_readme_links_the_docs_that_define_us():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for page in ("docs/table-log.md", "docs/rulings.md", "docs/architecture.md"):
        assert f"({page})" in readme
        assert (ROOT / page).is_file()


def game_page(game: str, page: str) -> str:
    """A game's own page (``events.md`` or ``rulings.md`` in its folder), the one place it is
    written."""
    return (BUNDLES / game / page).read_text(encoding="utf-8")


@pytest.mark.parametrize("game", BUILT_IN)
def test_the_table_log_page_links_each_game_s_events_page(game):
    text = (DOCS / "table-log.md").read_text(encoding="utf-8")
    section = text.split(f"### `{game}`", 1)[1].split("\n### ", 1)[0].split("\n## ", 1)[0]
    assert f"(../companion/bundles/{game}/events.md)" in section


@pytest.mark.parametrize("game", BUILT_IN)
def test_the_game_s_events_page_names_every_event_and_field(game):
    text = game_page(game, "events.md")
    assert engine(game).EVENTS
    for kind, fields in engine(game).EVENTS.items():
        assert f"`{kind}`" in text, kind
        for name in fields:
            assert f"`{name}`" in text, (kind, name)


@pytest.mark.parametrize("game", BUILT_IN)
def test_the_rulings_page_links_each_game_s_rulings_page(game):
    text = (DOCS / "rulings.md").read_text(encoding="utf-8")
    section = text.split(f"(`{game}`)", 1)[1].split("\n## ", 1)[0]
    assert f"(../companion/bundles/{game}/rulings.md)" in section


@pytest.mark.parametrize("game", BUILT_IN)
def test_the_game_s_rulings_page_names_every_option(game):
    text = game_page(game, "rulings.md")
    assert engine(game).OPTIONS
    missing = [option.name for option in engine(game).OPTIONS if f"`{option.name}`" not in text]
    assert missing == []


@pytest.mark.parametrize("game", BUILT_IN)
def test_the_example_log_of_each_game_s_events_page_replays(game, tmp_path):
    examples = [block for block in re.findall(r"```json\n(.*?)```", game_page(game, "events.md"),
                                               re.S)
                if block.startswith('{"game"') and block.count("\n") > 1]
    assert len(examples) == 1
    log = tmp_path / f"{game}.jsonl"
    log.write_text(examples[0], encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "companion.cli", "replay", str(log)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, (game, done.stderr)


#: A relative link of a Markdown page: ``[words](path)`` or ``[words](path#part)``.
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")


def test_every_relative_link_of_a_page_leads_to_a_file():
    """The pages link one another (a game's rules page lies in its own folder,
    ``companion/bundles/<game>/README.md``): every relative link leads somewhere."""
    broken = []
    for path in tracked_text_files():
        if path.suffix != ".md" or not path.is_file():
            continue
        text = path.read_text(encoding="utf-8")
        for match in LINK.finditer(text):
            target = match.group(1)
            if re.match(r"[a-z]+:", target) or target.startswith("/"):
                continue  # a web address, not a file of ours
            if not (path.parent / target).exists():
                line = text.count("\n", 0, match.start()) + 1
                broken.append(f"{path.relative_to(ROOT)}:{line} -> {target}")
    assert broken == []
