"""Every `.py` path a Markdown page of the repository names is a file of it: the pages are
references to the code as it is, so a module moved or renamed fails here until they follow.

A path with a folder in it (``companion/vision/indices.py``, ``tests/test_layers.py``) is read
from the repository's root or from the page's own folder; ``*`` and a ``<placeholder>``
(``companion/bundles/<game>/camera.py``) stand for any name and must match a file. A bare
file name (``indices.py``) must lie in a folder the page names: one written out
(``companion/vision/``), the folder of a path it names, a folder of a tree it draws in a code
block, or the page's own folder. A tree is a code block whose first line is a folder::

    companion/bundles/<game>/
        rules/engine.py   the rules

names ``companion/bundles/<game>/rules/engine.py``.
"""

from __future__ import annotations

import re
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

#: A file name ending in .py, with or without folders before it.
PY_PATH = re.compile(r"[\w.<>*/-]+\.py\b")
#: A folder written out: ``companion/vision/``, or the folders of ``companion/vision/x.py``.
FOLDER = re.compile(r"[\w.<>*-]+(?:/[\w.<>*-]+)*/")
#: A web address, whose paths are not ours.
ADDRESS = re.compile(r"[a-z][\w+.-]*://\S+")
PLACEHOLDER = re.compile(r"<[^>]+>")


def pages(root: Path = ROOT) -> list[Path]:
    """The Markdown pages of the repository (its tracked ones, in a git checkout)."""
    listed = subprocess.run(["git", "ls-files", "*.md"], cwd=root, capture_output=True,
                            text=True)
    if listed.returncode != 0:  # not a git checkout: every page of the tree
        return sorted(path for path in root.rglob("*.md")
                      if not {".git", ".venv"} & set(path.relative_to(root).parts))
    return [root / name for name in sorted(set(listed.stdout.splitlines()))]


def found(base: Path, path: str) -> list[Path]:
    """The files or folders ``path`` names under ``base`` (a placeholder matches any name)."""
    pattern = PLACEHOLDER.sub("*", path.rstrip("/"))
    if "*" in pattern:
        return list(base.glob(pattern))
    return [base / pattern] if (base / pattern).exists() else []


def trees(lines: list[str]) -> Iterator[tuple[int, str]]:
    """(line number, full path) of each name in the trees the page's code blocks draw."""
    block: list[tuple[int, str]] | None = None
    for number, line in enumerate(lines, 1):
        if line.lstrip().startswith("```"):
            if block is not None:
                yield from tree_of(block)
            block = [] if block is None else None
        elif block is not None:
            block.append((number, line))


def tree_of(block: list[tuple[int, str]]) -> Iterator[tuple[int, str]]:
    drawn = [(number, line) for number, line in block if line.strip()]
    if not drawn or not drawn[0][1].split()[0].endswith("/"):
        return  # code, not a tree
    folders: list[tuple[int, str]] = []  # (indent, folder) from the top down
    for number, line in drawn:
        indent = len(line) - len(line.lstrip())
        while folders and folders[-1][0] >= indent:
            folders.pop()
        above = "".join(folder for _, folder in folders)
        names = line.strip().split("  ")[0]  # the name column, before what it says of it
        for name in names.split(", "):
            yield number, above + name
        if names.endswith("/"):
            folders.append((indent, names))


def missing(page: Path, root: Path = ROOT) -> list[str]:
    """``line: path`` of each `.py` path ``page`` names that is no file of ``root``."""
    lines = [ADDRESS.sub("", line) for line in page.read_text(encoding="utf-8").splitlines()]
    bases = (root, page.parent)
    drawn: dict[int, list[str]] = {}  # a tree's lines name paths below its folders
    for number, path in trees(lines):
        drawn.setdefault(number, []).append(path)
    folders = {page.parent, root}
    for text in [*lines, *(path for paths in drawn.values() for path in paths)]:
        for match in FOLDER.finditer(text):
            folders.update(place for base in bases for place in found(base, match.group())
                           if place.is_dir())
    gone = []
    for number, line in enumerate(lines, 1):
        named = drawn.get(number) or [match.group() for match in PY_PATH.finditer(line)]
        for path in named:
            if not path.endswith(".py") or path.startswith("/"):
                continue  # not a module, or a path of the machine, not of the repository
            where = bases if "/" in path else folders
            if not any(found(base, path) for base in where):
                gone.append(f"{number}: {path}")
    return gone


def test_the_pages_are_found():
    named = {path.relative_to(ROOT).as_posix() for path in pages()}
    assert {"README.md", "docs/architecture.md", "docs/engines.md", "examples/hoard/README.md",
            "companion/bundles/tricky/README.md"} <= named


@pytest.mark.parametrize("page", pages(), ids=lambda path: path.relative_to(ROOT).as_posix())
def test_every_py_path_a_page_names_exists(page):
    assert missing(page) == []


def test_a_missing_path_is_caught_and_a_present_one_is_not(tmp_path):
    for name in ("companion/vision/indices.py", "companion/bundles/tricky/rules/engine.py",
                 "tests/test_x.py"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("")
    (tmp_path / "docs").mkdir()
    page = tmp_path / "docs" / "page.md"
    page.write_text("\n".join([
        "`companion/vision/indices.py` and `../tests/test_x.py`, `tests/test_*.py`",  # 1
        "`indices.py` (a bare name in a folder named above)",                          # 2
        "`companion/vision/finder.py`, `sim.py`, `engine.py`, `tests/test_y*.py`",     # 3
        "```",
        "companion/bundles/<game>/",
        "    rules/engine.py    the rules",
        "    rules/sim.py       a random player",                                      # 7
        "```",
        "https://example.org/elsewhere.py, `/usr/lib/python3/x.py`",
    ]), encoding="utf-8")
    assert missing(page, root=tmp_path) == [
        "3: companion/vision/finder.py", "3: sim.py", "3: tests/test_y*.py",
        "7: companion/bundles/<game>/rules/sim.py"]  # engine.py: in a folder the tree draws
