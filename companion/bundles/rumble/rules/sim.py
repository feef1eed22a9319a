"""Random complete, legal Rumble in the Dungeon games, for property tests, benchmarks and demos.

The simulated table sometimes names the first player, sometimes hands out physical secret
tokens instead of letting the companion deal, and plays random legal actions with a taste
for fights and for carrying the chest towards the entry, so that escapes happen too.

>>> header, events = random_game(3, 4)
>>> header["game"], header["seats"]
('rumble', ['Ann', 'Bob', 'Cy', 'Dee'])
"""

from __future__ import annotations

import random
from typing import Any

from companion.bundles.rumble.rules.engine import PLAY, REVEAL, Rumble
from companion.games.sim import seat_names


def _distances(game: Rumble, goal: str) -> dict[str, int]:
    distance, frontier = {goal: 0}, [goal]
    while frontier:
        room = frontier.pop(0)
        for neighbour in game.doors[room]:
            if neighbour not in distance:
                distance[neighbour] = distance[room] + 1
                frontier.append(neighbour)
    return distance


def _choose(game: Rumble, table: random.Random, to_entry: dict[str, int]) -> dict[str, Any]:
    actions = game.legal_actions(game.turn if game.turn is not None else 0)
    escapes = [a for a in actions if a["type"] == "escape"]
    fights = [a for a in actions if a["type"] == "fight"]
    closer = [a for a in actions if a.get("chest")
              and to_entry[a["to"]] < to_entry[game.positions[a["character"]]]]
    if escapes and table.random() < 0.5:
        return table.choice(escapes)
    if fights and table.random() < 0.6:
        return table.choice(fights)
    if closer and table.random() < 0.3:
        return table.choice(closer)
    return table.choice(actions)


def _tokens(game: Rumble, table: random.Random) -> list[list[str]]:
    drawn = table.sample(game.options["characters"], 2 * len(game.seats))
    return [drawn[2 * seat:2 * seat + 2] for seat in range(len(game.seats))]


def random_game(seed: int, seats: int,
                **options: Any) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A table-log header and the events of one complete random legal game."""
    table = random.Random(seed)
    header = {"game": "rumble", "seats": seat_names(seats), "seed": seed,
              "options": options}
    game = Rumble(header["seats"], seed, options)
    to_entry = _distances(game, game.options["map"]["entry"])
    events: list[dict[str, Any]] = []

    def play(event: dict[str, Any]) -> None:
        game.apply(event)
        events.append(event)

    if table.random() < 0.5:
        play({"type": "start", "seat": table.randrange(seats)})
    while not game.finished:
        tokens = _tokens(game, table)
        # Physical tokens: all told up front when the companion would deal, else some of them.
        told_share = 0.3 if game.options["deal_secrets"] else 0.5
        told_all = table.random() < told_share
        for seat in range(seats):
            if told_all or (not game.options["deal_secrets"] and table.random() < told_share):
                play({"type": "secrets", "seat": seat, "characters": tokens[seat]})
        adventure = game.adventure
        while game.phase == PLAY and game.adventure == adventure:
            play(_choose(game, table, to_entry))
        if game.phase == REVEAL:
            for seat in table.sample(game.waiting_for(), len(game.waiting_for())):
                play({"type": "secrets", "seat": seat, "characters": tokens[seat]})
    return header, events
