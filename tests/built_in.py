"""The games this project ships: its own distribution's ``companion.games`` entry points
(pyproject.toml), whatever other game is installed beside it."""

from __future__ import annotations

from importlib.metadata import distribution

GAMES = tuple(sorted(point.name for point in distribution("dungeon-table-companion").entry_points
                     if point.group == "companion.games"))
