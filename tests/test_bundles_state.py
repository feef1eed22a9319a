"""A game's rules modules import one way: the engine imports its helpers, and no helper
imports the engine back (not even behind TYPE_CHECKING). A helper takes the state it reads
as the game's state protocol (``rules/state.py``), which the engine must have whole."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest
from built_in import GAMES

from companion.games.registry import engine

BUNDLES = Path(__file__).resolve().parent.parent / "companion" / "bundles"
STATES = {"traps": "TrapsState", "deathtrap": "DeathtrapState", "tricky": "TrickyState",
          "rumble": "RumbleState"}


def own_imports(path: Path, package: str) -> set[str]:
    """The modules of ``package`` that the module at ``path`` imports, anywhere in it."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module, *(f"{node.module}.{alias.name}" for alias in node.names)]
        elif isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        else:
            continue
        found |= {name for name in names if name.startswith(f"{package}.")}
    return found


@pytest.mark.parametrize("game", GAMES)
def test_no_module_the_engine_imports_imports_the_engine_back(game):
    package = f"companion.bundles.{game}.rules"
    modules = {path.stem: path for path in (BUNDLES / game / "rules").glob("*.py")}
    reached, todo = set(), [f"{package}.engine"]
    while todo:
        name = todo.pop()
        stem = name.removeprefix(f"{package}.").split(".")[0]
        if stem in reached or stem not in modules:
            continue
        reached.add(stem)
        todo += own_imports(modules[stem], package)
    helpers = reached - {"engine"}
    assert helpers, game
    engine_module = f"{package}.engine"
    back = [stem for stem in sorted(helpers)
            if any(name == engine_module or name.startswith(f"{engine_module}.")
                   for name in own_imports(modules[stem], package))]
    assert back == []


@pytest.mark.parametrize("game", GAMES)
def test_the_engine_has_every_member_of_its_state_protocol(game):
    protocol = getattr(importlib.import_module(f"companion.bundles.{game}.rules.state"),
                       STATES[game])
    members = set(protocol.__annotations__) | {
        name for name in vars(protocol) if not name.startswith("_")}
    cls = engine(game)
    table = cls(["Ann", "Bob", "Cy", "Dee"][:max(cls.min_seats, 3)], seed=1)
    assert sorted(name for name in members if not hasattr(table, name)) == []
