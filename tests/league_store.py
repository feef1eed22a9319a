"""A store of 40 finished games of the four games among 6 players, for the history tests.

Each game is a simulator's random game with the seats given people's names and every event
stamped with a time, one game a day; ``LOGS`` keeps the table logs as stored, so that tests
work their figures out from the logs rather than from the code under test.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from typing import Any

from companion.bundles.deathtrap.rules import sim as deathtrap_sim
from companion.bundles.rumble.rules import sim as rumble_sim
from companion.bundles.traps.rules import sim as traps_sim
from companion.bundles.tricky.rules import sim as tricky_sim
from companion.table import Header, TableStore

#: "Bobb" is a typo of Bob's (merged later), "Cy" is renamed "Cyrus".
PEOPLE = ("Ann", "Bob", "Bobb", "Cy", "Dee", "Eve", "Fay")
SIMULATORS = ((deathtrap_sim, 4), (tricky_sim, 3), (rumble_sim, 4), (traps_sim, 3))


def stamped(events: list[dict[str, Any]], day: int) -> list[dict[str, Any]]:
    """Events six seconds apart from 20:00 on the ``day``-th day from 1 January 2026."""
    start = datetime(2026, 1, 1, 20, tzinfo=UTC) + timedelta(days=day)
    return [{**event, "t": (start + timedelta(seconds=6 * n)).isoformat()}
            for n, event in enumerate(events)]


def seat_people(rnd: random.Random, count: int) -> list[str]:
    """Distinct people; Bob and his typo never sit at one table (they are one person)."""
    while True:
        people = rnd.sample(PEOPLE, count)
        if not {"Bob", "Bobb"} <= set(people):
            return people


def build(path: Any, games: int = 40) -> list[tuple[int, dict[str, Any], list[dict]]]:
    """Store ``games`` finished games; the (session, header, events) of each, oldest first."""
    rnd = random.Random(18)
    logs = []
    with TableStore(path) as store:
        for number in range(games):
            simulator, seats = SIMULATORS[number % len(SIMULATORS)]
            header, events = simulator.random_game(number, seats)
            header = {**header, "seats": seat_people(rnd, seats)}
            events = stamped(events, number)
            stored = store.new_session(Header.from_json(header), events)
            assert stored.game.finished
            logs.append((stored.id, header, events))
    return logs
