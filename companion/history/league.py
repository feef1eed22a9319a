"""The league table: per player, games, wins, win rate, average placing, a skill rating per
game, and each game's figures summed over the games played.

The rating is openskill's Plackett-Luce model (a Bayesian rating for results of many
players, ties included), one per game: a player's skill at one game says nothing of another.
Games are rated oldest first. The rating shown is openskill's ordinal, mu - 3 sigma: a
cautious estimate that rises as a player wins and as the model grows sure of them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.errors import CompanionError
from companion.history.records import Play


@dataclass
class Standing:
    name: str
    games: int = 0
    wins: int = 0
    placings: int = 0  # sum of places, for the average
    ratings: dict[str, dict[str, float]] = field(default_factory=dict)
    figures: dict[str, dict[str, Any]] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "games": self.games,
            "wins": self.wins,
            "win_rate": round(self.wins / self.games, 4) if self.games else 0.0,
            "average_placing": round(self.placings / self.games, 4) if self.games else None,
            "ratings": self.ratings,
            "figures": self.figures,
        }


def add_up(total: Any, more: Any) -> Any:
    """Figures summed: numbers add, lists add item by item, objects key by key."""
    if total is None:
        return more
    if isinstance(more, dict):
        merged = dict(total)
        for key, value in more.items():
            merged[key] = add_up(merged.get(key), value)
        return merged
    if isinstance(more, list):
        return [add_up(a, b) for a, b in zip(total, more, strict=True)]
    return total + more


@dataclass
class League:
    standings: list[Standing]
    #: per game, per player name: (session, ordinal) after each game they played
    history: dict[str, dict[str, list[tuple[int, float]]]]

    def to_json(self) -> dict[str, Any]:
        return {"players": [standing.to_json() for standing in self.standings]}


def _rate(plays: Sequence[Play], names: dict[Any, str]
          ) -> tuple[dict[str, dict[Any, Any]], dict[str, dict[str, list[tuple[int, float]]]]]:
    """Each player's rating per game after every game, oldest game first."""
    try:
        from openskill.models import PlackettLuce  # only the league needs it
    except ModuleNotFoundError:
        raise CompanionError("the league needs openskill: pip install -e . again") from None

    model = PlackettLuce()
    ratings: dict[str, dict[Any, Any]] = {}
    history: dict[str, dict[str, list[tuple[int, float]]]] = {}
    for play in plays:
        table = ratings.setdefault(play.game, {})
        if len(set(play.players)) != len(play.players):
            continue  # one person in two seats (a merge of a clash): no rating from it
        teams = [[table.get(player) or model.rating()] for player in play.players]
        rated = model.rate(teams, ranks=play.placings)
        for player, (rating,) in zip(play.players, rated, strict=True):
            table[player] = rating
            history.setdefault(play.game, {}).setdefault(names[player], []).append(
                (play.session, round(rating.ordinal(), 4)))
    return ratings, history


def league(plays: Sequence[Play]) -> League:
    """The standings over ``plays`` (finished games, oldest first), best rated first."""
    names: dict[Any, str] = {}
    standings: dict[Any, Standing] = {}
    for play in plays:
        placings = play.placings
        counted: set[Any] = set()
        for seat, player in enumerate(play.players):
            names[player] = play.seats[seat]
            standing = standings.setdefault(player, Standing(play.seats[seat]))
            if player not in counted:  # one person in two seats (a merge) plays one game
                counted.add(player)
                standing.games += 1
                standing.wins += any(play.players[w] == player for w in play.winners)
                standing.placings += min(placings[s] for s, p in enumerate(play.players)
                                         if p == player)
            mine = {key: values[seat] for key, values in play.figures.items()}
            if mine:
                standing.figures[play.game] = add_up(standing.figures.get(play.game), mine)
    ratings, history = _rate(plays, names)
    for game, table in ratings.items():
        for player, rating in table.items():
            standings[player].ratings[game] = {"rating": round(rating.ordinal(), 4),
                                               "mu": round(rating.mu, 4),
                                               "sigma": round(rating.sigma, 4)}
    ordered = sorted(standings.values(), key=lambda s: s.name.casefold())
    games = {play.game for play in plays}
    if len(games) == 1:  # one game: its rating ranks the table
        (game,) = games
        # A player whose only games were not rated (one person in two seats) ranks last.
        ordered.sort(key=lambda s: -s.ratings.get(game, {}).get("rating", float("-inf")))
    else:  # ratings of different games do not add up: wins rank the table
        ordered.sort(key=lambda s: (-s.wins, -s.wins / s.games))
    return League(ordered, history)
