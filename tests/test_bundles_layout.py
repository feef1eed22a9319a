"""One game, one place: no module outside a game's own bundle (and its engine modules) names a
game, and no test reads a private attribute of the daemon or the table's controls."""

import ast
import doctest
import importlib
import re
from pathlib import Path

import pytest

from companion.games import registry

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "companion"


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the string constants that are docstrings (their doctests may name games)."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                found.add(id(body[0].value))
    return found


def game_names_in(source: str, games: set[str]) -> list[tuple[int, str]]:
    """Where ``source`` names one of ``games`` in its code (a string equal to the name)."""
    tree = ast.parse(source)
    docstrings = _docstrings(tree)
    return [(node.lineno, node.value) for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str)
            and node.value in games and id(node) not in docstrings]


def owners(path: Path, games: set[str]) -> set[str]:
    """The games whose knowledge ``path`` may hold: its bundle's, or its engine modules'
    (``companion/games/__init__.py`` is the engines' index: it lists them all)."""
    parts = path.relative_to(PACKAGE).parts
    if parts[0] == "bundles" and len(parts) > 2:
        return {parts[1]}
    if parts == ("games", "__init__.py"):
        return games
    if parts[0] == "games":
        return {parts[-1].removesuffix(".py").split("_")[0]}
    return set()


def test_no_module_outside_a_games_bundle_names_the_game():
    games = set(registry.names())
    assert {"traps", "deathtrap", "tricky", "rumble"} <= games
    found = [f"{path.relative_to(ROOT)}:{line}: {name!r}"
             for path in sorted(PACKAGE.rglob("*.py"))
             for line, name in game_names_in(path.read_text(encoding="utf-8"),
                                             games - owners(path, games))]
    assert found == []


def test_the_check_sees_a_comparison_and_spares_a_doctest():
    source = '"""A doctest may say "rumble"."""\n\nif name == "rumble":\n    pass\n'
    assert game_names_in(source, {"rumble"}) == [(3, "rumble")]


#: What tests may not reach into: the daemon's and the table controls' private parts, and
#: the attributes they had before the daemon had a public surface.
PRIVATE = re.compile(r"\b(daemon|ui|table_ui|router|presenter|asking)\._[a-z]"
                     r"|(?<!companion\.)\bdaemon\.(dialogue|purpose|unsure|reader|ui)\b"
                     r"|\bdial\.(step|square|action|clicks|dice|die)\b")


def test_no_test_reads_a_private_attribute_of_the_daemon_or_the_ui():
    found = [f"{path.name}:{number}: {line.strip()}"
             for path in sorted(Path(__file__).parent.glob("*.py"))
             if path.name != Path(__file__).name
             for number, line in enumerate(path.read_text().splitlines(), start=1)
             if PRIVATE.search(line)]
    assert found == []


@pytest.mark.parametrize("name", ["companion.games.spec", "companion.bundles.traps.dial",
                                  "companion.daemon.vocabulary", "companion.daemon.recorder",
                                  "companion.places", "companion.bundles.tricky.camera",
                                  "companion.bundles.rumble.camera", "companion.games.registry"])
def test_docstring_examples(name):
    failed, tried = doctest.testmod(importlib.import_module(name), verbose=False)
    assert tried > 0 and failed == 0
