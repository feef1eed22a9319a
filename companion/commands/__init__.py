"""The command-line commands of README.md, Commands, one module per command group.

Each module has ``add_parser(subparsers)``, which registers its commands and sets
``func`` on each parser to a callable ``(args) -> int`` (the exit code).
"""

from __future__ import annotations

import argparse

from companion.paths import default_db


def db_option(parser: argparse.ArgumentParser) -> None:
    """``--db FILE``: the table store a command reads or writes (default: ``default_db()``)."""
    parser.add_argument("--db", metavar="FILE", help=f"the table store (default: {default_db()})")
