"""History and the league as text for a terminal. Names are escaped (``terminal.escaped``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from companion.games.base import Game
from companion.history.league import League
from companion.history.records import Play
from companion.places import ordinal
from companion.terminal import escaped


def when(play: Play) -> str:
    """"2026-01-03 20:15  18 min" (as stored, UTC) and the length of play: "length
    unknown" when the table log kept no times."""
    stamp = play.started[:16].replace("T", " ")
    return stamp + (f"  {play.minutes} min" if play.minutes is not None else "  length unknown")


def score_line(play: Play) -> str:
    """Seats in placing order: "Ann 12 (1st, won)  Bob 9 (2nd)"."""
    placings = play.placings
    order = sorted(range(len(play.seats)), key=lambda seat: (placings[seat], seat))
    parts = []
    for seat in order:
        mark = ", won" if seat in play.winners else ""
        place = f" ({ordinal(placings[seat])}{mark})" if play.finished else ""
        parts.append(f"{escaped(play.seats[seat])} {play.totals[seat]}{place}")
    return "  ".join(parts)


def history_text(plays: Sequence[Play]) -> str:
    if not plays:
        return "no finished games"
    lines = []
    for play in plays:
        lines.append(f"#{play.session:<4} {when(play)}  {play.game}")
        lines.append(f"      {score_line(play)}")
    return "\n".join(lines)


def league_text(table: League, engines: Mapping[str, type[Game]]) -> str:
    """The standings, then each game's figures in its words (``engines``: each game's
    engine, by name, as the caller has them)."""
    if not table.standings:
        return "no finished games"
    games = sorted({game for s in table.standings for game in s.ratings})
    width = max(len(escaped(s.name)) for s in table.standings)
    head = (f"{'player':<{width}}  games  wins  win rate  avg place" +
            "".join(f"  {game:>9}" for game in games))
    lines = [head]
    for standing in table.standings:
        row = standing.to_json()
        ratings = "".join(f"  {standing.ratings[g]['rating']:>9.2f}" if g in standing.ratings
                          else f"  {'-':>9}" for g in games)
        lines.append(f"{escaped(standing.name):<{width}}  {row['games']:>5}  {row['wins']:>4}  "
                     f"{row['win_rate']:>8.0%}  {row['average_placing']:>9.2f}{ratings}")
    lines.append("(ratings: openskill, mu - 3 sigma, per game)")
    for game in games:
        players = [s for s in table.standings if game in s.figures]
        if not players:
            continue
        lines.append("")
        lines.append(engines[game].FIGURES_TITLE)
        for standing in players:
            lines.append(f"  {escaped(standing.name):<{width}}  "
                         f"{escaped(engines[game].figures_in_words(standing.figures[game]))}")
    return "\n".join(lines)
