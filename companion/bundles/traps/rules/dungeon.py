"""Trap placement on a dungeon grid: the trap pool and where trap squares may go.

The ``dungeon`` option is a grid of squares, ``"."`` for a floor square and ``"#"`` for
none, with the grid cell ``[row, column]`` of each trap square::

    {"map": ["#######",
             "#.....#",
             "###.###"],
     "traps": {"T1": [1, 1]}}

Distances count squares walked, diagonal steps included (Mage Knight 3D Dungeons lets
figures move diagonally). A dead-end hallway is a one-square-wide corridor that ends in a
dead end; its entrance is the square where it opens onto the rest of the dungeon.

>>> dungeon = check_dungeon({"map": ["...", "...", "#.#", "#.#"], "traps": {"T1": [0, 0]}})
>>> floor_squares(dungeon)
8
>>> dead_end_hallways(dungeon["map"])
[([(3, 1), (2, 1)], (1, 1))]
"""

from __future__ import annotations

from collections import deque
from typing import Any

Cell = tuple[int, int]
FLOOR = "."
SOLID = "#"


def check_dungeon(value: Any) -> dict[str, Any] | None:
    """Check a ``dungeon`` option (or null); raise ValueError saying which part is wrong."""
    if value is None:
        return None
    if not isinstance(value, dict) or set(value) != {"map", "traps"}:
        raise ValueError('must be null or an object {"map": [rows], "traps": {square: [r, c]}}')
    rows = value["map"]
    if not isinstance(rows, list) or not rows or not all(isinstance(r, str) for r in rows):
        raise ValueError("'map' must be a non-empty list of text rows")
    for number, row in enumerate(rows):
        bad = set(row) - {FLOOR, SOLID}
        if bad:
            raise ValueError(f"'map' row {number} holds {''.join(sorted(bad))!r}: "
                             f"use '{FLOOR}' for a floor square and '{SOLID}' for none")
    traps = value["traps"]
    if not isinstance(traps, dict):
        raise ValueError("'traps' must be an object: square id -> [row, column]")
    located: dict[str, list[int]] = {}
    for square, cell in traps.items():
        if (not isinstance(cell, list) or len(cell) != 2
                or not all(isinstance(n, int) and not isinstance(n, bool) for n in cell)):
            raise ValueError(f"trap square {square!r} must be at [row, column], got {cell!r}")
        row, column = cell
        if not (0 <= row < len(rows) and 0 <= column < len(rows[row])
                and rows[row][column] == FLOOR):
            raise ValueError(f"trap square {square!r} at {cell} is not a floor square of the map")
        located[square] = [row, column]
    return {"map": list(rows), "traps": located}


def floor_squares(dungeon: dict[str, Any]) -> int:
    """How many squares the dungeon is built from."""
    return sum(row.count(FLOOR) for row in dungeon["map"])


def _is_floor(rows: list[str], cell: Cell) -> bool:
    row, column = cell
    return 0 <= row < len(rows) and 0 <= column < len(rows[row]) and rows[row][column] == FLOOR


def _orthogonal(rows: list[str], cell: Cell) -> list[Cell]:
    row, column = cell
    around = [(row - 1, column), (row + 1, column), (row, column - 1), (row, column + 1)]
    return [near for near in around if _is_floor(rows, near)]


def walking_distances(rows: list[str], start: Cell) -> dict[Cell, int]:
    """Squares walked from ``start`` to every reachable floor square (diagonal steps count 1)."""
    distances = {start: 0}
    queue = deque([start])
    while queue:
        row, column = queue.popleft()
        for d_row in (-1, 0, 1):
            for d_column in (-1, 0, 1):
                near = (row + d_row, column + d_column)
                if near not in distances and _is_floor(rows, near):
                    distances[near] = distances[(row, column)] + 1
                    queue.append(near)
    return distances


def dead_end_hallways(rows: list[str]) -> list[tuple[list[Cell], Cell | None]]:
    """Each dead-end hallway: its squares from the dead end out, and its entrance (or None).

    The entrance is the first square past the corridor (a junction or a room). A corridor
    that never opens onto anything has no entrance.
    """
    hallways = []
    for row_number, row in enumerate(rows):
        for column, square in enumerate(row):
            cell = (row_number, column)
            if square != FLOOR or len(_orthogonal(rows, cell)) != 1 or any(
                    cell in hallway for hallway, _ in hallways):
                continue
            hallway, previous, current = [cell], cell, _orthogonal(rows, cell)[0]
            while len(_orthogonal(rows, current)) == 2:
                hallway.append(current)
                previous, current = current, next(
                    near for near in _orthogonal(rows, current) if near != previous)
            if len(_orthogonal(rows, current)) == 1:
                # Both ends are dead ends: the whole corridor is the hallway.
                hallways.append(([*hallway, current], None))
            else:
                hallways.append((hallway, current))
    return hallways


def placement_problems(dungeon: dict[str, Any], squares: list[str], seats: int,
                       squares_per_trap: int, spacing: int, dead_end_distance: int
                       ) -> list[str]:
    """Every broken placement rule, as ``"rule: message"`` lines (empty when all is well)."""
    problems = []
    located = dungeon["traps"]
    unplaced = [square for square in squares if square not in located]
    if unplaced:
        problems.append(f"trap-location: {', '.join(unplaced)} not located on the map")
    strangers = [square for square in located if square not in squares]
    if strangers:
        problems.append(f"trap-location: {', '.join(strangers)} not among the trap squares")
    per_player = floor_squares(dungeon) // squares_per_trap
    if len(squares) > per_player * seats:
        problems.append(
            f"trap-pool: {len(squares)} traps, but a dungeon of {floor_squares(dungeon)} "
            f"squares allows {per_player} per player ({per_player * seats} for {seats})")
    rows = dungeon["map"]
    placed = [(square, tuple(located[square])) for square in squares if square in located]
    for index, (square, cell) in enumerate(placed):
        distances = walking_distances(rows, cell)
        for other, other_cell in placed[index + 1:]:
            apart = distances.get(other_cell)
            if apart is not None and apart < spacing:
                problems.append(f"trap-spacing: {square} and {other} are {apart} squares "
                                f"apart (at least {spacing})")
    for hallway, entrance in dead_end_hallways(rows):
        from_entrance = walking_distances(rows, entrance) if entrance else {}
        for square, cell in placed:
            if cell in hallway:
                problems.append(f"dead-end: {square} is in a dead-end hallway")
            elif from_entrance.get(cell, dead_end_distance) < dead_end_distance:
                problems.append(
                    f"dead-end: {square} is {from_entrance[cell]} squares from the entrance "
                    f"of a dead-end hallway at {list(entrance)} (at least {dead_end_distance})")
    return problems
