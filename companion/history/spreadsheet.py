"""Finished games as CSV for a spreadsheet: one row per player per game."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable

from companion.history.records import Play

#: A cell starting with one of these is a formula to a spreadsheet: a name must stay a name.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
COLUMNS = ("session", "game", "date", "minutes", "seat", "player", "score", "place", "winner")


def _text(name: str) -> str:
    return "'" + name if name.startswith(FORMULA_STARTS) else name


def rows(plays: Iterable[Play]) -> str:
    """The CSV text, a header row first; times in UTC ISO form as stored; seats counted
    from 1 (a spreadsheet is read by people)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS)
    for play in plays:
        placings, minutes = play.placings, play.minutes
        for seat, name in enumerate(play.seats):
            length = "" if minutes is None else minutes
            writer.writerow([play.session, play.game, play.started, length, seat + 1,
                             _text(name),
                             play.totals[seat], placings[seat], int(seat in play.winners)])
    return out.getvalue()
