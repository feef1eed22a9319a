"""Virtual trap dials: the catalog, the positions of a dial and what a position reads.

A dial is a list of positions, position 0 first, listed counter-clockwise, so ``n`` clicks
from position ``p`` land on ``(p + n) % len(dial)``. A position is ``"start"`` (only
position 0; it reads as X), ``"x"`` (no trap) or a trap reading
``{"trap": "spiked-pit", "disarm": 7 | "4+", "xp": 10}``.

The catalog (``data/traps-catalog.json``, *assumed* values) describes each trap
for the screens and holds the weighted readings from which drawn dials are filled.

>>> catalog = check_catalog(default_catalog())
>>> dial = draw_dial(random.Random(1), catalog, 12)
>>> dial[0], len(dial)
('start', 12)
>>> parse_disarm("6+"), parse_disarm(8)
((6, True), (8, False))
>>> land([ "start", "x", {"trap": "cage", "disarm": 8, "xp": 10}], 0, 5)
2
"""

from __future__ import annotations

import random
from typing import Any

from companion.games.data import shipped_data

GAME_FOLDER = "companion.bundles.traps"
CATALOG_FILE = "traps-catalog.json"

#: The trap ids of docs/table-log.md; the catalog describes each of them.
TRAP_IDS = ("buzz-saw", "cage", "falling-weight", "fire-jets", "jaws-of-doom",
            "monstrous-hand", "noxious-acid-pool", "spiked-pit")

TRAP_KEYS = ("name", "effect", "damage", "triggers_once", "disarm_after_trigger",
             "imprisons", "triggered_disarm", "attack")
READING_KEYS = ("trap", "disarm", "xp")

#: Highest disarm number or XP a reading may carry (no 2d6 roll reaches far beyond 14).
NUMBER_LIMIT = 99


def default_catalog() -> dict[str, Any]:
    """The shipped (assumed) catalog, as the ``catalog`` option takes it."""
    catalog = shipped_data(GAME_FOLDER, CATALOG_FILE)
    return {"traps": catalog["traps"], "readings": catalog["readings"]}


def parse_disarm(value: Any) -> tuple[int, bool]:
    """``(base, variable)`` of a disarm number: ``8`` -> (8, False), ``"6+"`` -> (6, True)."""
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= NUMBER_LIMIT:
        return value, False
    if isinstance(value, str) and value.endswith("+") and value[:-1].isdigit():
        base = int(value[:-1])
        if base <= NUMBER_LIMIT:
            return base, True
    raise ValueError(f"a disarm number is a whole number like 8 or a variable one like \"6+\", "
                     f"got {value!r}")


def check_reading(value: Any, traps: Any, where: str) -> str | dict[str, Any]:
    """Check one dial position other than the start marker; return it normalised."""
    if value == "x":
        return "x"
    if not isinstance(value, dict):
        raise ValueError(f"{where}: a position is \"start\", \"x\" or "
                         f"{{\"trap\", \"disarm\", \"xp\"}}, got {value!r}")
    for key in value:
        if key not in READING_KEYS:
            raise ValueError(f"{where}: unknown key '{key}' (a trap reading has "
                             f"{', '.join(READING_KEYS)})")
    for key in READING_KEYS:
        if key not in value:
            raise ValueError(f"{where}: missing key '{key}'")
    if value["trap"] not in traps:
        raise ValueError(f"{where}: unknown trap {value['trap']!r} "
                         f"(traps: {', '.join(sorted(traps))})")
    try:
        parse_disarm(value["disarm"])
    except ValueError as exc:
        raise ValueError(f"{where}: {exc}") from None
    xp = value["xp"]
    if isinstance(xp, bool) or not isinstance(xp, int) or not 0 <= xp <= NUMBER_LIMIT:
        raise ValueError(f"{where}: xp must be a whole number from 0 to {NUMBER_LIMIT}, "
                         f"got {xp!r}")
    return {"trap": value["trap"], "disarm": value["disarm"], "xp": xp}


def check_dial(value: Any, traps: Any, where: str) -> list[str | dict[str, Any]]:
    """Check a whole dial: position 0 is the start marker, then at least one other position."""
    if not isinstance(value, list) or len(value) < 2:
        raise ValueError(f"{where}: a dial is a list of at least 2 positions, start first")
    if value[0] != "start":
        raise ValueError(f"{where}: position 0 must be \"start\", got {value[0]!r}")
    dial: list[str | dict[str, Any]] = ["start"]
    for index, position in enumerate(value[1:], start=1):
        if position == "start":
            raise ValueError(f"{where}: only position 0 may be \"start\" (position {index})")
        dial.append(check_reading(position, traps, f"{where} position {index}"))
    return dial


def _check_trap(trap_id: str, description: Any) -> dict[str, Any]:
    where = f"trap '{trap_id}'"
    if not isinstance(description, dict):
        raise ValueError(f"{where} must be an object with name, effect and damage")
    for key in description:
        if key not in TRAP_KEYS:
            raise ValueError(f"{where}: unknown key '{key}' (known: {', '.join(TRAP_KEYS)})")
    for key in ("name", "effect"):
        if not isinstance(description.get(key), str) or not description[key].strip():
            raise ValueError(f"{where}: '{key}' must be a non-empty text")
    damage = description.get("damage")
    if damage != "1d6" and (isinstance(damage, bool) or not isinstance(damage, int)
                            or not 0 <= damage <= NUMBER_LIMIT):
        raise ValueError(f"{where}: 'damage' must be clicks (a whole number) or \"1d6\"")
    for key in ("triggers_once", "disarm_after_trigger", "imprisons"):
        if not isinstance(description.get(key, False), bool):
            raise ValueError(f"{where}: '{key}' must be true or false")
    triggered_disarm = description.get("triggered_disarm")
    if triggered_disarm is not None and (
            isinstance(triggered_disarm, bool) or not isinstance(triggered_disarm, int)
            or not 0 <= triggered_disarm <= NUMBER_LIMIT):
        raise ValueError(f"{where}: 'triggered_disarm' must be a whole number")
    attack = description.get("attack")
    if attack is not None and not (isinstance(attack, dict) and all(
            isinstance(attack.get(key), int) for key in ("attack", "defence", "damage"))):
        raise ValueError(f"{where}: 'attack' must be an object with whole numbers attack, "
                         f"defence and damage")
    return {
        "name": description["name"], "effect": description["effect"], "damage": damage,
        "triggers_once": description.get("triggers_once", False),
        "disarm_after_trigger": description.get("disarm_after_trigger", True),
        "imprisons": description.get("imprisons", False),
        "triggered_disarm": triggered_disarm,
        "attack": description.get("attack"),
    }


def check_catalog(value: Any) -> dict[str, Any]:
    """Check a ``catalog`` option; raise ValueError saying which part is wrong."""
    if not isinstance(value, dict) or set(value) - {"traps", "readings", "about"}:
        raise ValueError('must be an object {"traps": {...}, "readings": [...]}')
    traps = value.get("traps")
    if not isinstance(traps, dict):
        raise ValueError("'traps' must be an object: trap id -> description")
    missing = [trap for trap in TRAP_IDS if trap not in traps]
    if missing:
        raise ValueError(f"'traps' lacks {', '.join(missing)}")
    checked = {trap_id: _check_trap(trap_id, description) for trap_id, description in traps.items()}
    if checked["jaws-of-doom"]["attack"] is None:
        raise ValueError("trap 'jaws-of-doom' needs its 'attack' values (a counterattack "
                         "is rolled against its defence)")
    readings = value.get("readings")
    if not isinstance(readings, list) or not readings:
        raise ValueError("'readings' must be a non-empty list of {\"weight\", \"reading\"}")
    pool = []
    for index, item in enumerate(readings):
        where = f"readings[{index}]"
        if not isinstance(item, dict) or set(item) != {"weight", "reading"}:
            raise ValueError(f"{where} must be {{\"weight\": n, \"reading\": ...}}")
        weight = item["weight"]
        if isinstance(weight, bool) or not isinstance(weight, int) or weight < 1:
            raise ValueError(f"{where}: weight must be a whole number of at least 1")
        pool.append({"weight": weight,
                     "reading": check_reading(item["reading"], checked, where)})
    return {"traps": checked, "readings": pool}


def draw_dial(rng: random.Random, catalog: dict[str, Any], clicks: int
              ) -> list[str | dict[str, Any]]:
    """A dial of ``clicks`` positions: the start marker, then readings drawn by weight."""
    pool = catalog["readings"]
    drawn = rng.choices(pool, weights=[item["weight"] for item in pool], k=clicks - 1)
    return ["start", *(dict(item["reading"]) if isinstance(item["reading"], dict)
                       else item["reading"] for item in drawn)]


def land(dial: list[Any], position: int, clicks: int) -> int:
    """The position reached by turning ``clicks`` counter-clockwise from ``position``."""
    return (position + clicks) % len(dial)


def reading_at(dial: list[Any], position: int) -> str | dict[str, Any]:
    """What the dial shows at ``position``: ``"x"`` (the start marker reads as X) or a trap."""
    marked = dial[position]
    return "x" if marked == "start" else marked
