"""``companion``: the command line (README.md, Commands).

A user error (bad file, illegal event, bad option, broken config) prints one clear
message to stderr and exits 2, with no traceback; with ``--json`` it is printed as
``{"error": {"line": N, "message": "..."}}`` on stdout instead.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from collections.abc import Sequence

from companion import __version__
from companion.errors import CompanionError, LogError
from companion.terminal import escaped

#: Modules that register commands; each has ``add_parser(subparsers)``.
COMMAND_MODULES = (
    "companion.commands.log",
    "companion.commands.check",
    "companion.commands.history",
    "companion.commands.vision",
    "companion.commands.run",
    "companion.commands.doctor",
    "companion.commands.voice",
    "companion.commands.service",
    "companion.commands.seats",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="companion",
        description="Dungeon Table Companion: referee, secret keeper and scorekeeper "
                    "for physical dungeon games.")
    parser.add_argument("--version", action="version", version=f"companion {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for module_name in COMMAND_MODULES:
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if not exc.name or not module_name.startswith(exc.name):
                raise
            continue  # a command group not part of this build
        module.add_parser(subparsers)
    return parser


def report_error(error: CompanionError, as_json: bool) -> int:
    """Print a user error as README.md, Commands, says, return exit code 2."""
    if as_json:
        line = error.line if isinstance(error, LogError) else None
        message = error.message if isinstance(error, LogError) else str(error)
        print(json.dumps({"error": {"line": line, "message": message}}))
    else:
        print(f"companion: {escaped(str(error))}", file=sys.stderr)
    return 2


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except CompanionError as error:
        return report_error(error, getattr(args, "json", False))
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
