"""Lazy commands (issue 43): the command line is built without importing what a command
runs, and each command imports its own needs when it runs. ``companion --help`` loads no
game, store, camera, plotting, web server or QR encoder; ``companion run`` without web pages
loads no web server, and with them no ``ssl`` (plain HTTP on the LAN); without the camera it
loads no OpenCV nor numpy (the table's size is checked without them); the QR encoder is
loaded only where a code is drawn. What they cost to start: benchmarks/startup.py. Each
probe runs in a process of its own and reads its ``sys.modules``."""

from __future__ import annotations

import doctest
import json
import subprocess
import sys
from pathlib import Path

import pytest

import companion.arguments
from companion.cli import main

LOG = Path(__file__).parent / "logs" / "tricky" / "standard-4.jsonl"

#: Runs the command line in process, then names which of the modules asked about it loaded
#: (a None entry is an import refused, not a module loaded).
PROBE = """
import json, sys
from companion.cli import main
asked = json.loads(sys.argv.pop(1))
try:
    code = main(sys.argv[1:])
except SystemExit as exit:
    code = exit.code
loaded = sorted(name for name in asked if sys.modules.get(name) is not None)
print(json.dumps({"code": code, "loaded": loaded}), file=sys.stderr)
"""

#: What no command needs to be listed, nor its options read.
NOT_FOR_THE_PARSER = (
    "cv2", "numpy", "matplotlib", "PIL", "luma", "aiohttp", "segno", "ssl", "asyncio",
    "sqlite3", "http.client", "urllib.request", "email", "importlib.metadata", "dataclasses",
    "logging", "companion.games", "companion.bundles", "companion.table",
    "companion.daemon.config", "companion.daemon.daemon", "companion.web.tokens",
)
#: A web server and what only a web server or a QR code needs.
WEB = ("aiohttp", "segno", "ssl", "http.client", "urllib.request", "companion.web.server",
       "companion.web.part")


def loaded(asked: tuple[str, ...], *argv: str) -> list[str]:
    done = subprocess.run([sys.executable, "-c", PROBE, json.dumps(asked), *argv],
                          capture_output=True, text=True, timeout=120)
    result = json.loads(done.stderr.strip().splitlines()[-1])
    assert result["code"] in (0, None), (argv, done.stderr)
    return result["loaded"]


@pytest.mark.parametrize("argv", [("--help",), ("seats", "--help"), ("install-service", "--help")],
                         ids=" ".join)
def test_the_parser_loads_nothing_a_command_runs(argv):
    assert loaded(NOT_FOR_THE_PARSER, *argv) == []


def test_run_fed_without_web_pages_or_camera_loads_no_web_server_ssl_or_opencv(tmp_path):
    db = tmp_path / "table.db"
    config = tmp_path / "companion.toml"  # the table's size checked, as every start checks it
    config.write_text("[vision]\ntable_width_mm = 900\ntable_height_mm = 600\n")
    assert loaded(WEB + ("cv2", "numpy"), "run", "--sim", "--feed", str(LOG), "--db", str(db),
                  "--config", str(config)) == []
    exported = subprocess.run([sys.executable, "-m", "companion.cli", "export", "--db", str(db)],
                              capture_output=True, text=True, timeout=120)
    assert exported.stdout.splitlines() == LOG.read_text().splitlines()


def test_run_fed_with_web_pages_loads_no_ssl_nor_opencv(tmp_path):
    import socket

    with socket.socket() as sock:  # a free port for the pages
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    db = tmp_path / "table.db"
    # Nor OpenCV: the pages' camera channel lists the game's cards by name, drawing none.
    assert loaded(("ssl", "_ssl", "cv2", "numpy", "companion.web.server"), "run", "--sim",
                  "--feed", str(LOG), "--db", str(db), "--web", f"127.0.0.1:{port}"
                  ) == ["companion.web.server"]


@pytest.fixture
def linked_store(tmp_path) -> str:
    """A store with an unfinished game whose seats have links, as the daemon makes them."""
    from companion.table import Header, TableStore
    from companion.web.tokens import TokenBook

    path = tmp_path / "table.db"
    with TableStore(path) as store:
        session = store.new_session(Header("tricky", ("Ann", "Bob", "Cy"), 4)).id
    book = TokenBook(str(path))
    book.set_url("http://192.0.2.7:8080")
    book.serve(session, 3)
    book.close()
    return str(path)


def test_the_qr_encoder_is_loaded_only_where_a_code_is_drawn(linked_store):
    assert loaded(("segno",), "seats", "--db", linked_store, "--no-qr") == []
    assert loaded(("segno",), "seats", "--db", linked_store, "--json") == []
    assert loaded(("segno",), "seats", "--db", linked_store, "--qr") == ["segno"]
    drawn = subprocess.run([sys.executable, "-m", "companion.cli", "seats", "--db", linked_store,
                            "--qr"], capture_output=True, text=True, timeout=120)
    assert drawn.returncode == 0 and "seat 1: Ann" in drawn.stdout
    assert "\u2588" in drawn.stdout or "\u2580" in drawn.stdout  # the codes, in blocks


def help_of(capsys, *argv: str) -> str:
    with pytest.raises(SystemExit) as exit:
        main([*argv, "--help"])
    assert exit.value.code == 0
    return " ".join(capsys.readouterr().out.split())


def test_the_lists_the_parser_shows_are_still_the_registry_s(capsys):
    from companion.games import registry
    from companion.i18n import LANGUAGES

    games = ", ".join(registry.names())
    assert f"GAME {games}" in help_of(capsys, "rules")
    assert f"only this game ({games})" in help_of(capsys, "history")
    assert f"{', '.join(registry.demo_games())} (default: all of them)" in help_of(capsys, "demo")
    assert "{" + ",".join(registry.art_games()) + "}" in help_of(capsys, "vision", "art")
    assert f"the language ({', '.join(LANGUAGES)};" in help_of(capsys, "voice")


@pytest.mark.parametrize("argv", [("demo", "chess"), ("vision", "art", "chess", "--out", "x")],
                         ids=" ".join)
def test_a_game_not_offered_is_refused_as_before(capsys, argv):
    with pytest.raises(SystemExit) as exit:
        main(list(argv))
    assert exit.value.code == 2
    assert "invalid choice: 'chess' (choose from '" in capsys.readouterr().err


def test_a_demo_game_given_is_taken(monkeypatch):
    from companion.commands import run as commands

    seen = []
    monkeypatch.setattr(commands, "run_demo", lambda args: seen.append(args.game) or 0)
    assert main(["demo", "rumble"]) == 0 and seen == ["rumble"]


def test_the_later_lists_say_what_they_do():
    failed, tried = doctest.testmod(companion.arguments, verbose=False)
    assert tried and not failed
