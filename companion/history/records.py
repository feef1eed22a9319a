"""Every stored game as people remember it: when, how long, who sat where, scores, winners.

A finished game is read from its stored result (``companion.table.results``); a store from
before results, or a result an older companion left stale, is replayed in memory instead, so
history reads any store, read-only. Seats show the players' names as they are now (after
renames and merges); a store from before players knows only the names at the table.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from typing import Any

from companion.errors import CompanionError
from companion.table import players as player_table
from companion.table import results
from companion.table.faults import StoreDamaged, guard
from companion.table.store import TableStore


@dataclass
class Play:
    """One stored game. ``players`` are stable ids (a name in a store without players)."""

    session: int
    game: str
    started: str
    ended: str | None
    seats: list[str]
    players: list[Any]
    finished: bool
    totals: list[int]
    winners: list[int]
    figures: dict[str, list[Any]] = field(default_factory=dict)
    track: list[list[int]] = field(default_factory=list)
    #: when the session was stored (``sessions.created``)
    created: str | None = None

    @property
    def timed(self) -> bool:
        """Whether the table log kept times: a game of a log without them begins and ends,
        in its result, the moment it was stored (``companion import``)."""
        return not (self.started == self.created and self.ended in (None, self.created))

    @property
    def minutes(self) -> int | None:
        """Length of play in whole minutes, None when the table log kept no times."""
        begun, ended = results.parse_time(self.started), results.parse_time(self.ended or "")
        if not self.timed or begun is None or ended is None or ended < begun:
            return None
        return round((ended - begun).total_seconds() / 60)

    @property
    def played_at(self) -> datetime:
        """When the game was played (its first event's time, else when it was stored)."""
        return results.parse_time(self.started) or datetime.min.replace(tzinfo=UTC)

    @property
    def placings(self) -> list[int]:
        """Place per seat, 1 for the best total; equal totals share a place (1, 2, 2, 4)."""
        return [1 + sum(other > total for other in self.totals) for total in self.totals]

    def winner_names(self) -> list[str]:
        return [self.seats[seat] for seat in self.winners]


def _replayed(store: TableStore, session_id: int, created: str) -> dict[str, Any] | None:
    """A session's result worked out again in memory; None when it no longer replays."""
    try:
        stored = store.open_session(session_id)
    except CompanionError:
        return None
    game = stored.game
    body = results.summary(game, stored.session.events, created)
    if not game.finished:
        body.update(winners=[], figures={}, track=[])
    return body


def load_plays(store: TableStore, finished_only: bool = True) -> list[Play]:
    """The stored games, oldest first by when they were played, not by when they were
    stored: a game imported later but played earlier comes first (unfinished ones too
    unless ``finished_only``)."""
    keeps = store.keeps_players
    with guard(store.path):
        if keeps:
            rows = store.db.execute(
                "SELECT s.id, s.header, s.created, s.finished, r.body, r.version, r.last_seq, "
                "(SELECT MAX(seq) FROM events e WHERE e.session_id = s.id) "
                "FROM sessions s LEFT JOIN results r ON r.session_id = s.id ORDER BY s.id"
            ).fetchall()
            seated = player_table.seat_players(store.db)
        else:
            rows = [(*row, None, None, None, None) for row in store.db.execute(
                "SELECT id, header, created, finished FROM sessions ORDER BY id")]
            seated = {}
    plays = []
    for session_id, header_text, created, finished, body, version, last_seq, seq in rows:
        if finished_only and not finished:
            continue
        try:
            header = store.read_header(session_id, header_text)
        except StoreDamaged:
            continue  # as a game that does not replay: `companion check` names it
        if body is not None and version == results.VERSION and last_seq == seq:
            result = json.loads(body)
        else:
            result = _replayed(store, session_id, created)
            if result is None:
                continue  # `companion check` names what is wrong with it
        table = seated.get(session_id, {})
        seats = [table.get(seat, (name, name))[1] for seat, name in enumerate(header.seats)]
        ids = [table.get(seat, (name, name))[0] for seat, name in enumerate(header.seats)]
        plays.append(Play(session_id, header.game, result["started"], result["ended"], seats,
                          ids, bool(finished), result["totals"], result["winners"],
                          result["figures"], result["track"], created))
    return sorted(plays, key=lambda play: (play.played_at, play.session))


def parse_since(text: str | None) -> date | None:
    """``--since``'s date; CompanionError naming the option when it is not one."""
    if text is None:
        return None
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise CompanionError(f"--since: not a date (YYYY-MM-DD), got {text!r}") from None


def played_on(play: Play) -> date | None:
    moment = results.parse_time(play.started)
    return moment.date() if moment else None


def select(plays: Iterable[Play], *, game: str | None = None, since: date | None = None,
           player: Any = None) -> list[Play]:
    """The plays of one game, on or after a day, with one player (by id), in order."""
    chosen = []
    for play in plays:
        day = played_on(play)
        if game is not None and play.game != game:
            continue
        if since is not None and (day is None or day < since):
            continue
        if player is not None and player not in play.players:
            continue
        chosen.append(play)
    return chosen


def find_player(store: TableStore, plays: list[Play], name: str) -> Any:
    """The id of ``--player NAME`` (a current name, a merged name, or a name at the table)."""
    if store.keeps_players:
        with guard(store.path):
            return player_table.find(store.db, name, "--player")[0]
    names = sorted({seat for play in plays for seat in play.seats})
    matches = [seat for seat in names if seat.casefold() == name.casefold()]
    if name in names or len(matches) == 1:
        return name if name in names else matches[0]
    raise player_table.PlayerError(f"--player: no player named {name!r} (players: "
                                   f"{', '.join(names) or 'none yet'})")
