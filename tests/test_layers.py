"""The layers as docs/architecture.md draws them: each package (and top-level module) of
``companion/`` imports only what its row of ``ALLOWED`` names (at module top or inside a
function alike), so imports point one way: a game never knows the daemon, a screen never
knows which bus carries its image, the camera, the screens, the voice and the history are
handed what a game gives them and never look a game up, and the daemon knows no web page."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "companion"

#: What each part of ``companion/`` may import (``companion.X``), lowest first. A part not
#: listed here fails the test: every package and top-level module has its row.
ALLOWED: dict[str, set[str]] = {
    # The foundation: words, errors, paths, the terminal's escaping.
    "i18n": set(),
    "errors": {"i18n"},
    "paths": set(),
    "terminal": set(),
    "counts": set(),
    "places": {"i18n"},
    "picamera": set(),
    "arguments": set(),
    # What every game shares (the Game base, the contract of a game, the one registry).
    "games": {"errors", "i18n"},
    # The parts below the games' folders: each takes a game's parts as arguments.
    "table": {"games", "errors", "i18n", "counts", "paths", "terminal"},
    "hardware": {"errors", "picamera"},
    "screens": {"games", "i18n", "places"},
    "vision": {"games", "errors", "i18n", "picamera"},
    "voice": {"errors", "i18n"},
    "history": {"games", "table", "errors", "places", "terminal"},
    # One folder per game: its rules, and how it meets the screens, the camera and the voice.
    "bundles": {"games", "errors", "i18n", "screens", "vision", "voice"},
    # The daemon joins the parts at the table; the web pages show the daemon; the commands
    # (and the composition root, ``commands/run.py``) join everything.
    "daemon": {"bundles", "games", "table", "hardware", "screens", "vision", "voice", "errors",
               "i18n", "counts", "paths", "places", "terminal"},
    "web": {"daemon", "bundles", "games", "table", "hardware", "screens", "vision", "errors",
            "i18n", "counts", "paths", "terminal"},
    "commands": {"web", "daemon", "bundles", "games", "table", "history", "hardware", "screens",
                 "vision", "voice", "errors", "i18n", "counts", "paths", "places", "terminal",
                 "arguments"},
    "cli": {"errors", "terminal"},  # and the commands, by name (``COMMAND_MODULES``)
}

#: The one module that finds and looks up games: only these parts may ask it (the others are
#: handed a game's parts). ``games`` itself answers its own questions.
REGISTRY = "companion.games.registry"
ASK_THE_REGISTRY = {"games", "table", "daemon", "web", "commands"}

#: Imports that go against ``ALLOWED``, each with why it stays: file -> imported modules.
EXCEPTIONS: dict[str, set[str]] = {}


def parts_of_companion() -> list[str]:
    """Every package and top-level module of ``companion/``."""
    return sorted({path.stem for path in PACKAGE.glob("*.py") if path.stem != "__init__"}
                  | {path.name for path in PACKAGE.iterdir()
                     if (path / "__init__.py").is_file()})


def imported_modules(path: Path) -> dict[str, int]:
    """``{module: first line}`` of every ``companion.*`` module the file imports (``from
    companion import x`` is ``companion.x``)."""
    found: dict[str, int] = {}
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            # ``from companion.games import registry`` imports companion.games.registry.
            names = [f"{node.module}.{alias.name}" for alias in node.names]
            names += [node.module] if node.module != "companion" else []
        elif isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        else:
            continue
        for name in names:
            if name.startswith("companion."):
                found.setdefault(name, node.lineno)
    return found


def imported_layers(path: Path) -> dict[str, int]:
    """``{layer: first line}`` of every ``companion.<layer>`` the module imports."""
    found: dict[str, int] = {}
    for name, line in imported_modules(path).items():
        found.setdefault(name.split(".")[1], line)
    return found


def files_of(part: str) -> list[Path]:
    folder = PACKAGE / part
    return sorted(folder.rglob("*.py")) if folder.is_dir() else [PACKAGE / f"{part}.py"]


def leaks_of(part: str) -> list[str]:
    parts = set(parts_of_companion())
    leaks = []
    for path in files_of(part):
        where = str(path.relative_to(PACKAGE.parent))
        excused = EXCEPTIONS.get(where, set())
        for name, line in imported_modules(path).items():
            layer = name.split(".")[1]
            if name in excused or layer not in parts or layer == part:
                continue  # an attribute of ``companion`` itself (its version), or its own
            if layer not in ALLOWED[part]:
                leaks.append(f"{where}:{line} imports {name}")
            elif (name == REGISTRY or name.startswith(REGISTRY + ".")) \
                    and part not in ASK_THE_REGISTRY:
                leaks.append(f"{where}:{line} looks a game up ({name})")
    return leaks


def test_every_part_of_the_companion_has_its_row():
    assert set(parts_of_companion()) == set(ALLOWED)


@pytest.mark.parametrize("part", sorted(ALLOWED))
def test_a_part_imports_only_what_its_row_allows(part):
    assert leaks_of(part) == []


def test_imports_point_one_way():
    """No two parts import each other, through any chain: the rows draw no cycle."""
    def reaches(start: str, seen: set[str]) -> set[str]:
        for other in ALLOWED[start] - seen:
            seen.add(other)
            reaches(other, seen)
        return seen

    assert [part for part in ALLOWED if part in reaches(part, set())] == []


def test_the_exceptions_are_still_needed():
    for where, names in EXCEPTIONS.items():
        assert names <= set(imported_modules(PACKAGE.parent / where)), where


@pytest.mark.parametrize("rules", sorted(PACKAGE.glob("bundles/*/rules")),
                         ids=lambda path: path.parent.name)
def test_a_games_rules_are_of_the_games_layer(rules):
    """A game's engine and rules modules, in its own folder, import what an engine may (the
    shared ``Game`` base, words, errors) and their own rules package, nothing else (not even
    the registry)."""
    own = f"companion.bundles.{rules.parent.name}.rules"
    leaks = [f"{path.relative_to(PACKAGE.parent)}:{line} imports {name}"
             for path in sorted(rules.rglob("*.py"))
             for name, line in imported_modules(path).items()
             if not name.startswith(own) and (name.split(".")[1] not in ALLOWED["games"] | {"games"}
                                              or name.startswith(REGISTRY))]
    assert leaks == []
    assert (rules / "engine.py").is_file()


def test_the_check_sees_a_leak(tmp_path):
    leak = tmp_path / "leak.py"
    leak.write_text("def f():\n    from companion.daemon.config import load_config\n"
                    "from companion import bundles\n")
    assert imported_layers(leak) == {"daemon": 2, "bundles": 3}
    assert imported_modules(leak) == {"companion.daemon.config": 2,
                                      "companion.daemon.config.load_config": 2,
                                      "companion.bundles": 3}
