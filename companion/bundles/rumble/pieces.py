"""Rumble's pieces as the camera finds them: the ArUco marker each character and the chest
wear, and where the room tiles lie on the table (the config's ``[vision]`` keys).

>>> character_marker(0), CHEST_ID
(10, 30)
>>> markers()[10], markers()[CHEST_ID]
('10: Knight', '30: chest')
>>> RoomTiles().origin_mm
(100.0, 60.0)
"""

from __future__ import annotations

from dataclasses import dataclass, field

from companion.bundles.rumble.rules.data import CHARACTERS_FILE, GAME_FOLDER
from companion.games.data import shipped_data

#: The i-th character of the game's character list wears marker 10 + i.
CHARACTER_BASE_ID = 10
CHARACTER_COUNT = 12
#: The treasure chest.
CHEST_ID = 30


def character_marker(index: int) -> int:
    """Marker id worn by the index-th character (0-based)."""
    if not 0 <= index < CHARACTER_COUNT:
        raise ValueError(f"character index {index} outside 0..{CHARACTER_COUNT - 1}")
    return CHARACTER_BASE_ID + index


def _sheet_names() -> list[str]:
    """The shipped characters' names, in marker order (numbered if the file is damaged)."""
    try:
        characters = shipped_data(GAME_FOLDER, CHARACTERS_FILE)
        return [c["name"] for c in characters["characters"]][:CHARACTER_COUNT]
    except (FileNotFoundError, KeyError, ValueError):
        return [f"character {i + 1}" for i in range(CHARACTER_COUNT)]


def markers() -> dict[int, str]:
    """Every marker of the game's pieces, id -> its label on the printed marker sheet."""
    found = {character_marker(i): f"{character_marker(i)}: {name}"
             for i, name in enumerate(_sheet_names())}
    found[CHEST_ID] = f"{CHEST_ID}: chest"
    return found


@dataclass(frozen=True)
class RoomTiles:
    """The room tiles as laid on the table: rows of ``room_columns`` tiles, each
    ``room_tile_mm`` square, the first one's corner at (``rooms_x_mm``, ``rooms_y_mm``) from
    the top-left marker. The defaults match the marker sheet's instructions
    (hardware/markers.md) and the default 3 x 4 map."""

    room_columns: int = field(default=4, metadata={"range": (1, 12)})
    rooms_x_mm: float = field(default=100.0, metadata={"range": (0, 5000)})
    rooms_y_mm: float = field(default=60.0, metadata={"range": (0, 5000)})
    room_tile_mm: float = field(default=100.0, metadata={"range": (20, 1000)})

    @property
    def origin_mm(self) -> tuple[float, float]:
        return self.rooms_x_mm, self.rooms_y_mm
