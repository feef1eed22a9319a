"""Words that mean one thing (issue 55, the glossary of ``docs/architecture.md``): the names
retired for saying two things do not come back.

- In ``companion/vision/`` a face of a card library is counted by its face number
  (``face_number``, ``face_numbers``, ``CardLibrary.all_faces``, ``CardLibrary.card_of``):
  no identifier says ``entry`` there, the word of a manual entry and of an entry point.
- Elsewhere ``entry`` is a game's manual-entry module only: a table log's lines are events
  (``TableSession.events``, undos included), a menu's lines are choices (``Menu.choices``).
- The camera's watcher takes a glimpse with ``TableWatcher.watch``: nothing is named
  ``glance``.
- What the camera proposes is a proposal (``Router.on_proposal``, ``store_proposal``); cards
  lying over a quad are ``on_top`` (``FaceIndex.scores`` as ``FaceIndex.align``): no
  identifier in ``companion/`` is made of ``seen`` and more (``on_seen``, ``frames_seen``),
  and no parameter of ``companion/vision/faces.py`` is named ``seen``. A plain local set
  named ``seen``, to skip what a loop met already, is Python's idiom and stays.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "companion"


def identifiers(tree: ast.AST, deep: bool = True) -> Iterator[tuple[str, int]]:
    """Every name the code gives or uses: variables, attributes, parameters, keywords,
    functions, classes and imported names, with their lines (``deep=False``: the name of
    ``tree`` itself only)."""
    for node in ast.walk(tree) if deep else [tree]:
        if isinstance(node, ast.Name):
            yield node.id, node.lineno
        elif isinstance(node, ast.Attribute):
            yield node.attr, node.lineno
        elif isinstance(node, ast.arg) or (isinstance(node, ast.keyword) and node.arg):
            yield node.arg, node.lineno
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            yield node.name, node.lineno
        elif isinstance(node, ast.alias):
            yield (node.asname or node.name).split(".")[-1], node.lineno


def parameters(tree: ast.AST) -> Iterator[tuple[str, int]]:
    """Every parameter of every function and lambda, with its line."""
    for node in ast.walk(tree):
        if isinstance(node, ast.arg):
            yield node.arg, node.lineno


def offenders(paths: list[Path], names, wrong) -> list[str]:
    """``path:line name`` for each name ``names`` finds in ``paths`` that ``wrong`` refuses."""
    found = []
    for path in paths:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        where = path.relative_to(PACKAGE.parent) if path.is_relative_to(PACKAGE) else path.name
        found += [f"{where}:{line} {name}"
                  for name, line in names(tree) if wrong(name)]
    return found


def entry_but_keywords(paths: list[Path]) -> list[str]:
    """``path:line`` of each ``entry`` or ``entries`` in ``paths`` but a call's keyword."""
    found = []
    for path in paths:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        found += [f"{path.name}:{node.lineno}" for node in ast.walk(tree)
                  if not isinstance(node, ast.keyword) and any(
                      name in ("entry", "entries") for name, _ in identifiers(node, deep=False))]
    return found


def modules(folder: Path) -> list[Path]:
    found = sorted(folder.rglob("*.py"))
    assert found, f"no module under {folder}"  # an empty folder must not pass
    return found


def says_entry(name: str) -> bool:
    return re.search(r"(^|_)entr(y|ies)($|_)", name.lower()) is not None


def seen_and_more(name: str) -> bool:
    return name != "seen" and re.search(r"(^|_)seen($|_)", name) is not None


def test_vision_says_face_number_not_entry():
    paths = modules(PACKAGE / "vision")
    assert len(paths) > 20
    assert offenders(paths, identifiers, says_entry) == []


def test_entry_is_a_manual_entry_only():
    """Outside the vision package too, ``entry`` is a game's manual-entry module (imported by
    its bundle's ``__init__.py``) and nothing else: a table log's lines are events
    (``TableSession.events``), a menu's lines choices (``Menu.choices``). The keyword
    ``entry=`` fills the ``{entry}`` of a translated message (the rumble map's entry room)."""
    paths = [path for path in modules(PACKAGE)
             if not (path.name == "__init__.py" and path.parent.parent.name == "bundles")]
    assert len(paths) > 100
    assert entry_but_keywords(paths) == []


def test_nothing_is_named_glance():
    paths = modules(PACKAGE)
    assert len(paths) > 100
    assert offenders(paths, identifiers, lambda name: "glance" in name.lower()) == []


def test_look_is_a_kept_picture_never_a_way_to_feed_frames():
    """``Look``/``Looks`` are the settled pictures kept for the controls page; what takes a
    frame in watches it (``TableWatcher.watch_frame``, ``InlineVision.watch``)."""
    paths = modules(PACKAGE)
    assert len(paths) > 100
    functions = [node.name for path in paths
                 for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
                 if isinstance(node, ast.FunctionDef)]
    assert "watch_frame" in functions and "look" not in functions


def test_no_name_is_made_of_seen_and_more():
    assert offenders(modules(PACKAGE), identifiers, seen_and_more) == []


def test_faces_take_the_cards_on_top_not_seen():
    faces = PACKAGE / "vision" / "faces.py"
    assert offenders([faces], parameters, lambda name: name == "seen") == []
    scores = next(node for node in ast.walk(ast.parse(faces.read_text(encoding="utf-8")))
                  if isinstance(node, ast.FunctionDef) and node.name == "scores")
    assert "on_top" in [arg.arg for arg in scores.args.args]


def test_the_words_named_here_exist():
    """The new names are where the glossary says (a rename undone fails here too)."""
    sources = {path: path.read_text(encoding="utf-8") for path in (
        PACKAGE / "vision" / "library.py", PACKAGE / "vision" / "watch.py",
        PACKAGE / "daemon" / "routing.py", PACKAGE / "table" / "session.py",
        PACKAGE / "daemon" / "menus.py")}
    library, watch, routing, session, menus = sources.values()
    assert "def all_faces(" in library and "def card_of(self, face_number" in library
    assert "def watch(self, glimpse" in watch
    assert "def on_proposal(" in routing and "def store_proposal(" in routing
    assert "self.events: list" in session and "choices: Sequence" in menus


def test_the_checks_see_what_they_refuse(tmp_path):
    planted = tmp_path / "planted.py"
    planted.write_text("def align(entry, seen):\n    watcher.glance(entry)\n"
                       "    frames_seen = [e for e in entries]\n    seen = set()\n")
    found = offenders([planted], identifiers, says_entry)
    assert len(found) == 3 and found[0].endswith("planted.py:1 entry")
    assert [line.split()[-1] for line in offenders(
        [planted], identifiers, lambda name: "glance" in name)] == ["glance"]
    assert [line.split()[-1] for line in offenders(
        [planted], identifiers, seen_and_more)] == ["frames_seen"]
    assert [line.split()[-1] for line in offenders(
        [planted], parameters, lambda name: name == "seen")] == ["seen"]
    assert entry_but_keywords([planted]) == ["planted.py:1", "planted.py:2", "planted.py:3"]
    (tmp_path / "keyword.py").write_text('_("the entry {entry}").format(entry=room)\n')
    assert entry_but_keywords([tmp_path / "keyword.py"]) == []
