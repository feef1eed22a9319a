"""One name, one meaning: no class name is defined twice in ``companion/`` (a reader who
meets ``Score`` or ``Step`` knows which one it is), and the daemon's modules that were named
unlike what they hold are named after it."""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "companion"


def class_names(folder: Path) -> dict[str, list[str]]:
    """Every class name defined in the modules under ``folder`` (at any depth), with where."""
    found: dict[str, list[str]] = defaultdict(list)
    for path in sorted(folder.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                found[node.name].append(f"{path.relative_to(folder)}:{node.lineno}")
    return found


def defined_twice(folder: Path) -> dict[str, list[str]]:
    return {name: where for name, where in class_names(folder).items() if len(where) > 1}


def test_no_class_name_is_defined_twice():
    assert defined_twice(PACKAGE) == {}


def test_the_check_sees_a_class_defined_twice(tmp_path):
    (tmp_path / "a.py").write_text("class Step:\n    pass\n")
    (tmp_path / "b.py").write_text("def f():\n    class Step:\n        pass\n")
    assert defined_twice(tmp_path) == {"Step": ["a.py:1", "b.py:2"]}


def test_the_daemon_modules_are_named_after_what_they_hold():
    held = {"table_display.py": "TableDisplay", "open_dialogue.py": "OpenDialogue",
            "recorder.py": "Recorder", "vocabulary.py": "Vocabulary"}
    for module, name in held.items():
        source = (PACKAGE / "daemon" / module).read_text(encoding="utf-8")
        assert f"class {name}" in source, module
