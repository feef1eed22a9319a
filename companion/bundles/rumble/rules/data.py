"""Rumble in the Dungeon components: the map (rooms and doors) and the characters.

Both are *assumed* (docs/rulings.md) and ship as ``data/rumble-map.json`` and
``data/rumble-characters.json`` in the game's folder; a table replaces them with the header options
``map`` and ``characters``.

>>> dungeon = check_map(default_map())
>>> dungeon["entry"], dungeon["treasure"], len(dungeon["rooms"])
('A1', 'C4', 12)
>>> doors_of(dungeon)["A1"]
['A2', 'B1']
"""

from __future__ import annotations

from typing import Any

from companion.games.data import shipped_data

GAME_FOLDER = "companion.bundles.rumble"
MAP_FILE = "rumble-map.json"
CHARACTERS_FILE = "rumble-characters.json"
MAP_KEYS = ("rooms", "doors", "entry", "treasure", "start")


def _load(path: str) -> dict[str, Any]:
    return shipped_data(GAME_FOLDER, path)


def default_map() -> dict[str, Any]:
    """The shipped (assumed) 3 x 4 grid, as the ``map`` option takes it."""
    return check_map(_load(MAP_FILE)["map"])


def default_characters() -> list[str]:
    """The shipped (assumed) character ids, as the ``characters`` option takes them."""
    characters = _load(CHARACTERS_FILE)["characters"]
    return check_characters([character["id"] for character in characters])


def character_names() -> dict[str, str]:
    """Display names of the shipped characters, by id (other ids show as they are)."""
    characters = _load(CHARACTERS_FILE)["characters"]
    return {character["id"]: character["name"] for character in characters}


def _room_name(value: Any, what: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"{what} must be a non-empty room name, got {value!r}")
    return value


def check_map(value: Any) -> dict[str, Any]:
    """Check a ``map`` option; raise ValueError saying which part is wrong."""
    if not isinstance(value, dict):
        raise ValueError('must be an object {"rooms", "doors", "entry", "treasure", "start"}')
    for key in value:
        if key not in MAP_KEYS:
            raise ValueError(f"unknown key '{key}' (a map has {', '.join(MAP_KEYS)})")
    for key in ("rooms", "doors", "entry", "treasure"):
        if key not in value:
            raise ValueError(f"missing key '{key}'")
    rooms = value["rooms"]
    if not isinstance(rooms, list) or len(rooms) < 2:
        raise ValueError("'rooms' must be a list of at least 2 room names")
    for room in rooms:
        _room_name(room, "each of 'rooms'")
    if len(set(rooms)) != len(rooms):
        raise ValueError("'rooms' must not name a room twice")
    known = set(rooms)

    def known_room(room: Any, what: str) -> str:
        if _room_name(room, what) not in known:
            raise ValueError(f"{what} names '{room}', which is not in 'rooms'")
        return room

    doors = value["doors"]
    if not isinstance(doors, list):
        raise ValueError("'doors' must be a list of [ROOM, ROOM] pairs")
    seen: set[frozenset[str]] = set()
    for door in doors:
        if not isinstance(door, list) or len(door) != 2:
            raise ValueError(f"each door must be a pair [ROOM, ROOM], got {door!r}")
        a, b = (known_room(room, "a door") for room in door)
        if a == b:
            raise ValueError(f"a door must join two different rooms, got [{a!r}, {b!r}]")
        if frozenset(door) in seen:
            raise ValueError(f"the door between '{a}' and '{b}' is listed twice")
        seen.add(frozenset(door))
    entry_room = known_room(value["entry"], "'entry'")
    treasure = known_room(value["treasure"], "'treasure'")
    if entry_room == treasure:
        raise ValueError("'entry' and 'treasure' must be different rooms")
    checked: dict[str, Any] = {"rooms": list(rooms), "doors": [list(d) for d in doors],
                               "entry": entry_room, "treasure": treasure}
    _check_connected(checked)
    if "start" in value:
        start = value["start"]
        if not isinstance(start, dict):
            raise ValueError("'start' must be an object {CHARACTER: ROOM, ...}")
        for character, room in start.items():
            known_room(room, f"'start' for '{character}'")
        checked["start"] = dict(start)
    return checked


def doors_of(dungeon: dict[str, Any]) -> dict[str, list[str]]:
    """For every room, the rooms a door leads to, in the order the doors are listed."""
    neighbours: dict[str, list[str]] = {room: [] for room in dungeon["rooms"]}
    for a, b in dungeon["doors"]:
        neighbours[a].append(b)
        neighbours[b].append(a)
    return neighbours


def _check_connected(dungeon: dict[str, Any]) -> None:
    # A dungeon in pieces would strand characters where no action is possible.
    neighbours = doors_of(dungeon)
    reached = {dungeon["entry"]}
    frontier = [dungeon["entry"]]
    while frontier:
        for room in neighbours[frontier.pop()]:
            if room not in reached:
                reached.add(room)
                frontier.append(room)
    cut_off = [room for room in dungeon["rooms"] if room not in reached]
    if cut_off:
        raise ValueError(f"no doors lead from the entry to {', '.join(cut_off)}")


def check_characters(value: Any) -> list[str]:
    """Check a ``characters`` option: distinct non-empty ids."""
    if not isinstance(value, list) or len(value) < 2:
        raise ValueError("must be a list of character ids (12 in the box)")
    for character in value:
        if not isinstance(character, str) or not character.strip():
            raise ValueError(f"each character must be a non-empty id, got {character!r}")
    if len(set(value)) != len(value):
        twice = next(c for c in value if value.count(c) > 1)
        raise ValueError(f"'{twice}' is listed twice")
    return list(value)


def start_placement(dungeon: dict[str, Any], characters: list[str]) -> dict[str, str]:
    """Each character's start room; raise ValueError if the map and characters disagree."""
    if "start" not in dungeon:
        if len(dungeon["rooms"]) < len(characters):
            raise ValueError(f"without 'start', each character starts in a room of its own: "
                             f"{len(characters)} characters need {len(characters)} rooms, "
                             f"the map has {len(dungeon['rooms'])}")
        return dict(zip(characters, dungeon["rooms"], strict=False))
    start = dungeon["start"]
    missing = [c for c in characters if c not in start]
    unknown = [c for c in start if c not in characters]
    if missing:
        raise ValueError(f"'start' gives no room for {', '.join(missing)}")
    if unknown:
        raise ValueError(f"'start' places {', '.join(unknown)}, not in option 'characters'")
    return {character: start[character] for character in characters}
