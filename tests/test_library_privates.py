"""Only public APIs of luma and gpiozero: no ``._name`` of theirs is read, set or overridden
anywhere in the companion, so a new release of either cannot break us silently."""

from __future__ import annotations

import ast
import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LIBRARIES = ("luma", "gpiozero")


def library_privates() -> set[str]:
    """Every ``_name`` (not ``__dunder__``) the libraries define or use on their objects."""
    names: set[str] = set()
    for library in LIBRARIES:
        folder = Path(importlib.util.find_spec(library).submodule_search_locations[0])
        for path in folder.rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Attribute):
                    names.add(node.attr)
                elif isinstance(node, ast.FunctionDef):
                    names.add(node.name)
    return {name for name in names if name.startswith("_") and not name.endswith("__")}


def library_names(tree: ast.Module) -> set[str]:
    """The local names a module binds to luma or gpiozero (modules and classes)."""
    bound = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] in LIBRARIES:
            bound.update(alias.asname or alias.name for alias in node.names)
        elif isinstance(node, ast.Import):
            bound.update((alias.asname or alias.name).split(".")[0] for alias in node.names
                         if alias.name.split(".")[0] in LIBRARIES)
    return bound


def offences(path: Path, privates: set[str]) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    ours = library_names(tree)
    found = []
    for cls in [node for node in ast.walk(tree) if isinstance(node, ast.ClassDef)]:
        bases = {ast.unparse(base).split(".")[0] for base in cls.bases}
        if bases & ours:  # a subclass of theirs: its private names are theirs too
            found += [f"{path.name}:{node.lineno} {cls.name}.{node.name} overrides theirs"
                      for node in ast.walk(cls)
                      if isinstance(node, ast.FunctionDef) and node.name in privates]
            found += [f"{path.name}:{node.lineno} self.{node.attr}" for node in ast.walk(cls)
                      if isinstance(node, ast.Attribute) and node.attr in privates]
    for node in ast.walk(tree):
        # obj._name on anything but our own self/cls: a library object's private attribute.
        if (isinstance(node, ast.Attribute) and node.attr in privates
                and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"))):
            found.append(f"{path.name}:{node.lineno} {ast.unparse(node)}")
    return found


def test_the_check_sees_a_private_attribute_when_there_is_one(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("from gpiozero import RotaryEncoder\n"
                   "class Dial(RotaryEncoder):\n"
                   "    def _a_changed(self, ticks, state):\n"
                   "        pass\n"
                   "def column(device):\n"
                   "    return device._colstart\n")
    assert len(offences(bad, library_privates())) == 2


def test_no_private_attribute_of_luma_or_gpiozero_is_touched():
    privates = library_privates()
    assert {"_colstart", "_page_address_offset", "_a_changed"} <= privates
    # Every module: a luma device or a gpiozero pin travels far from where it was imported.
    found = [offence for path in sorted((ROOT / "companion").rglob("*.py"))
             for offence in offences(path, privates)]
    assert found == []
