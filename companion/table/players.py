"""Players who persist across games: who sat in which seat, renames and merges.

A session's header keeps the names as they were at the table (the table log is never
rewritten). Beside it the store keeps a ``players`` row per person and a ``seats`` row per
seat of every session pointing at it. A rename changes a player's name; a merge points one
player at another (a typo'd name becomes its person): both change only these two tables.

>>> from companion.table.store import TableStore
>>> from companion.table.log import Header
>>> store = TableStore(":memory:")
>>> _ = store.new_session(Header("traps", ("Ann", "Bobb"), seed=1))
>>> _ = store.new_session(Header("traps", ("Ann", "Bob"), seed=2))
>>> merge(store.db, "Bobb", "Bob"); [(p.name, p.games, p.aliases) for p in players(store.db)]
[('Ann', 2, []), ('Bob', 2, ['Bobb'])]
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass

from companion.errors import CompanionError
from companion.i18n import pgettext

SCHEMA = """
CREATE TABLE IF NOT EXISTS players (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    merged_into INTEGER REFERENCES players(id)
);
CREATE TABLE IF NOT EXISTS seats (
    session_id INTEGER NOT NULL REFERENCES sessions(id),
    seat INTEGER NOT NULL,
    player_id INTEGER NOT NULL REFERENCES players(id),
    PRIMARY KEY (session_id, seat)
);
"""
#: Longest player name: it has to fit a 128-pixel screen line beside a score.
MAX_NAME = 16


class PlayerError(CompanionError):
    """A rename or merge that cannot be done (unknown name, name taken, same table)."""


@dataclass(frozen=True)
class PlayerInfo:
    name: str
    games: int
    last_played: str  # ISO time of the newest session, "" if none
    aliases: list[str]  # names merged into this player


def has_tables(db: sqlite3.Connection) -> bool:
    """Whether the store has the players tables (a store from before them has not)."""
    row = db.execute("SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' "
                     "AND name IN ('players', 'seats')").fetchone()
    return row[0] == 2


def _row_by_name(db: sqlite3.Connection, name: str) -> int | None:
    row = db.execute("SELECT id FROM players WHERE name = ?", (name,)).fetchone()
    return row[0] if row else None


def link_seats(db: sqlite3.Connection, session_id: int, names: Sequence[str]) -> None:
    """Point each seat of a new session at its player (made on first sight of a name).

    Called inside the transaction that stores the session.
    """
    for seat, name in enumerate(names):
        player = _row_by_name(db, name)
        if player is None:
            player = int(db.execute("INSERT INTO players (name) VALUES (?)",
                                    (name,)).lastrowid or 0)
        db.execute("INSERT OR REPLACE INTO seats (session_id, seat, player_id) VALUES (?, ?, ?)",
                   (session_id, seat, player))


def backfill(db: sqlite3.Connection) -> None:
    """Players and seats for every session stored before the store kept them."""
    done = {row[0] for row in db.execute("SELECT DISTINCT session_id FROM seats")}
    for session_id, header in db.execute("SELECT id, header FROM sessions").fetchall():
        if session_id in done:
            continue
        try:
            seats = json.loads(header)["seats"]
        except (ValueError, KeyError, TypeError):
            continue  # an unreadable header: `companion check` reports it
        if isinstance(seats, list) and all(isinstance(name, str) for name in seats):
            link_seats(db, session_id, seats)


def _people(db: sqlite3.Connection) -> dict[int, tuple[int, str]]:
    """Every players row -> (the player it stands for now, that player's name)."""
    rows = {pid: (name, into) for pid, name, into in
            db.execute("SELECT id, name, merged_into FROM players")}
    people = {}
    for pid in rows:
        seen, current = {pid}, pid
        while rows[current][1] is not None and rows[current][1] not in seen:
            current = rows[current][1]
            seen.add(current)
        people[pid] = (current, rows[current][0])
    return people


def seat_players(db: sqlite3.Connection) -> dict[int, dict[int, tuple[int, str]]]:
    """session -> seat -> (player id, player's name now), for every linked seat."""
    people = _people(db)
    seats: dict[int, dict[int, tuple[int, str]]] = {}
    for session_id, seat, player in db.execute("SELECT session_id, seat, player_id FROM seats"):
        seats.setdefault(session_id, {})[seat] = people[player]
    return seats


def find(db: sqlite3.Connection, name: str, what: str = "player") -> tuple[int, str]:
    """The player a name stands for (exact, else the only one equal ignoring case)."""
    people = _people(db)
    rows = dict(db.execute("SELECT name, id FROM players"))
    if name in rows:
        return people[rows[name]]
    folded = {people[pid] for row_name, pid in rows.items() if row_name.casefold() ==
              name.casefold()}
    if len(folded) == 1:
        return folded.pop()
    known = sorted({person[1] for person in people.values()})
    raise PlayerError(f"{what}: no player named {name!r} (players: "
                      f"{', '.join(known) or 'none yet'})")


def check_name(name: str, what: str = "name") -> str:
    """A new player name, stripped; PlayerError naming the field if it cannot be one."""
    stripped = name.strip()
    if not stripped:
        raise PlayerError(f"{what}: a player name cannot be empty")
    if len(stripped) > MAX_NAME:
        raise PlayerError(f"{what}: at most {MAX_NAME} characters, got {len(stripped)}")
    if any(not character.isprintable() for character in stripped):
        raise PlayerError(f"{what}: a name holds printable characters only")
    return stripped


#: Besides letters and digits, what a name typed at the table may hold.
NAME_MARKS = " -'._&"
#: The screens' font draws the Latin letters (Basic Latin to Latin Extended-B) and no others.
LATIN_END = 0x250


def check_seat_name(name: str) -> str:
    """A name a seat gives itself (its page), spaces trimmed: ``check_name``'s rules, and only
    letters the screens can draw, digits, single spaces and ``- ' . _ &``. The refusal is in
    the language being drawn (the seat page's) and names the field."""
    stripped = " ".join(name.split()) if name.isprintable() else name.strip()
    if not stripped:
        raise PlayerError(pgettext("web", "name: a player name cannot be empty"))
    if len(stripped) > MAX_NAME:
        raise PlayerError(pgettext("web", "name: at most {limit} characters, got {n}").format(
            limit=MAX_NAME, n=len(stripped)))
    for character in stripped:
        if not (character in NAME_MARKS or character.isdigit()
                or (character.isalpha() and ord(character) < LATIN_END)):
            raise PlayerError(pgettext("web", "name: letters, digits, spaces and - ' . _ & "
                                              "only, not {character}").format(
                character=repr(character)))
    return stripped


def name_taken(names: Sequence[str], seat: int, name: str) -> None:
    """PlayerError if another seat of ``names`` has ``name`` (in any case)."""
    for other, taken in enumerate(names):
        if other != seat and taken.casefold() == name.casefold():
            raise PlayerError(pgettext("web", "name: {name} sits at seat {n} already").format(
                name=repr(taken), n=other + 1))


def session_names(db: sqlite3.Connection, session_id: int, names: Sequence[str]
                  ) -> tuple[str, ...]:
    """The names of a session's seats now (``names``: its header's, for a seat not linked):
    a seat's own choice, a rename or a merge of its player."""
    people = _people(db)
    linked = dict(db.execute("SELECT seat, player_id FROM seats WHERE session_id = ?",
                             (session_id,)).fetchall())
    return tuple(people[linked[seat]][1] if seat in linked else name
                 for seat, name in enumerate(names))


def name_seat(db: sqlite3.Connection, session_id: int, seat: int, name: str,
              names: Sequence[str]) -> str:
    """Seat ``seat`` of the session is the player called ``name`` (made on first sight, as a
    header's names are); the other seats keep theirs. ``names``: the header's. Returns the
    name as kept. Called inside a transaction."""
    name = check_seat_name(name)
    now = session_names(db, session_id, names)
    if not 0 <= seat < len(now):
        raise PlayerError(f"seat: seats are 0 to {len(now) - 1}")
    name_taken(now, seat, name)
    player = _row_by_name(db, name)
    if player is None:
        player = int(db.execute("INSERT INTO players (name) VALUES (?)", (name,)).lastrowid or 0)
    db.execute("INSERT OR REPLACE INTO seats (session_id, seat, player_id) VALUES (?, ?, ?)",
               (session_id, seat, player))
    return name


def rename(db: sqlite3.Connection, old: str, new: str) -> str:
    """Give a player a new name; the old one is free again. Returns the new name."""
    player, before = find(db, old, "OLD")
    new = check_name(new, "NEW")
    holder = _row_by_name(db, new)
    if holder is not None and holder != player:
        raise PlayerError(f"NEW: {new!r} is another player's name already: "
                          f"`companion players merge {before} {new}` makes them one")
    db.execute("UPDATE players SET name = ? WHERE id = ?", (new, player))
    return new


def merge(db: sqlite3.Connection, source: str, target: str) -> None:
    """``source``'s games become ``target``'s; ``source`` stays a name that means target."""
    gone, gone_name = find(db, source, "NAME")
    kept, kept_name = find(db, target, "INTO")
    if gone == kept:
        raise PlayerError(f"INTO: {source!r} and {target!r} are one player already")
    for table in seat_players(db).values():
        ids = [player for player, _ in table.values()]
        if gone in ids and kept in ids:
            raise PlayerError(f"NAME: {gone_name} and {kept_name} sat at the same game: "
                              "they are two people")
    db.execute("UPDATE players SET merged_into = ? WHERE id = ? OR merged_into = ?",
               (kept, gone, gone))


def players(db: sqlite3.Connection) -> list[PlayerInfo]:
    """Every player (merged names folded in), the most recently seen first."""
    people = _people(db)
    # When a game began (its result knows, from its events' times), else when it was stored.
    has_results = db.execute("SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND "
                             "name = 'results'").fetchone()[0]
    began = ("COALESCE(json_extract(r.body, '$.started'), s.created) FROM sessions s LEFT JOIN "
             "results r ON r.session_id = s.id" if has_results else "s.created FROM sessions s")
    created = dict(db.execute(f"SELECT s.id, {began}"))
    games: dict[int, set[int]] = {}
    last: dict[int, str] = {}
    for session_id, seat_table in seat_players(db).items():
        for player, _ in seat_table.values():
            games.setdefault(player, set()).add(session_id)
            last[player] = max(last.get(player, ""), created.get(session_id, ""))
    aliases: dict[int, list[str]] = {}
    for pid, (player, name) in people.items():
        row_name = db.execute("SELECT name FROM players WHERE id = ?", (pid,)).fetchone()[0]
        if pid != player and row_name != name:
            aliases.setdefault(player, []).append(row_name)
    found = {player: name for player, name in people.values()}
    infos = [PlayerInfo(name, len(games.get(pid, ())), last.get(pid, ""),
                        sorted(aliases.get(pid, []))) for pid, name in found.items()]
    infos.sort(key=lambda info: info.name.casefold())
    return sorted(infos, key=lambda info: info.last_played, reverse=True)
