"""The command-line commands of README.md, Commands, one module per command group.

Each module has ``add_parser(subparsers)``, which registers its commands and sets
``func`` on each parser to a callable ``(args) -> int`` (the exit code).
"""
