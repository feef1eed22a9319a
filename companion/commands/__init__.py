"""The command-line commands of README.md, Commands, one module per command group.

Each module has ``add_parser(subparsers)``, which registers its commands and sets
``func`` on each parser to a callable ``(args) -> int`` (the exit code).

Building the parser runs no command: a command module imports at its top only what its
parser needs (argparse, this module, ``companion.paths``, ``companion.arguments``), and
each ``run_*`` function imports its own needs when it runs; a list that only a registry
knows (the games) is read when argparse needs it (``companion.arguments.later``).
``companion --help`` therefore loads no game, store, camera or web server (issue 43;
tests/test_cli_lazy.py, benchmarks/startup.py).
"""

from __future__ import annotations

import argparse

from companion.paths import default_db


def game_names() -> tuple[str, ...]:
    """Every game's name, sorted (the registry's list, loaded when first asked for)."""
    from companion.games import registry

    return registry.names()


def db_option(parser: argparse.ArgumentParser) -> None:
    """``--db FILE``: the table store a command reads or writes (default: ``default_db()``)."""
    parser.add_argument("--db", metavar="FILE", help=f"the table store (default: {default_db()})")
