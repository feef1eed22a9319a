"""The layers as docs/architecture.md draws them: each package imports only the layers below
it (at module top or inside a function alike), so a game never knows where its events come
from and a screen never knows which bus carries its image."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "companion"

#: What each layer must not import (``companion.X``). The daemon, the commands, the game
#: bundles and the web front join the layers and may import any of them.
FORBIDDEN = {
    "i18n": {"games", "table", "hardware", "vision", "screens", "daemon", "history", "commands",
             "web", "bundles", "voice"},
    "games": {"table", "hardware", "vision", "screens", "daemon", "history", "commands", "web",
              "bundles", "voice"},
    "table": {"hardware", "vision", "screens", "daemon", "history", "commands", "web", "bundles",
              "voice"},
    "screens": {"hardware", "vision", "table", "daemon", "history", "commands", "web", "voice"},
    "hardware": {"games", "table", "vision", "screens", "daemon", "history", "commands", "web",
                 "bundles", "i18n", "voice"},
    "vision": {"table", "hardware", "screens", "daemon", "history", "commands", "web", "voice"},
    "history": {"hardware", "vision", "screens", "daemon", "web", "voice"},
    "voice": {"table", "hardware", "vision", "screens", "daemon", "history", "commands", "web"},
}


def imported_layers(path: Path) -> dict[str, int]:
    """``{layer: first line}`` of every ``companion.<layer>`` the module imports."""
    found: dict[str, int] = {}
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
        elif isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        else:
            continue
        for name in names:
            parts = name.split(".")
            if parts[0] == "companion" and len(parts) > 1:
                found.setdefault(parts[1], node.lineno)
    return found


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_a_layer_imports_only_the_layers_below_it(layer):
    leaks = [f"{path.relative_to(PACKAGE.parent)}:{line} imports companion.{other}"
             for path in sorted((PACKAGE / layer).rglob("*.py"))
             for other, line in imported_layers(path).items() if other in FORBIDDEN[layer]]
    assert leaks == []


@pytest.mark.parametrize("rules", sorted(PACKAGE.glob("bundles/*/rules")),
                         ids=lambda path: path.parent.name)
def test_a_games_rules_are_of_the_games_layer(rules):
    """A game's engine and rules modules, in its own folder, import what an engine may (the
    shared ``Game`` base, words, errors) and their own rules package, nothing else."""
    own = f"companion.bundles.{rules.parent.name}.rules"
    leaks = []
    for path in sorted(rules.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            module = (node.module if isinstance(node, ast.ImportFrom) and node.level == 0
                      else None)
            names = ([module] if module else [] if not isinstance(node, ast.Import)
                     else [alias.name for alias in node.names])
            for name in names:
                parts = name.split(".")
                if parts[0] != "companion" or len(parts) < 2 or name.startswith(own):
                    continue
                if parts[1] in FORBIDDEN["games"]:
                    leaks.append(f"{path.relative_to(PACKAGE.parent)}:{node.lineno} imports "
                                 f"{name}")
    assert leaks == []
    assert (rules / "engine.py").is_file()


def test_the_check_sees_a_leak(tmp_path):
    leak = tmp_path / "leak.py"
    leak.write_text("def f():\n    from companion.daemon.config import load_config\n")
    assert imported_layers(leak) == {"daemon": 2}
