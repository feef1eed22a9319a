"""A BG Stats play file: one finished game as the app imports it (its JSON play file).

The file has four lists that refer to each other by small integer ids: ``players``,
``locations``, ``games`` and ``plays``; each play's ``playerScores`` names its players by
``playerRefId`` and its game by ``gameRefId``. Uuids are derived from names (players,
games) and from the game's own header (the play), so importing the same game twice, or two
games with the same people, gives the app the same objects again instead of duplicates.
Scores are strings in BG Stats (score sheets hold things like "12+3").
"""

from __future__ import annotations

import uuid
from datetime import UTC
from typing import Any

from companion.history.records import Play
from companion.table import results

ABOUT = ("This is a play file that Board Game Stats can read, written by Dungeon Table "
         "Companion. Open it with Board Game Stats (share, export or open in).")
LOCATION = "Dungeon Table Companion"
#: Namespace of the uuids we derive (uuid5 of "companion" in the URL namespace).
NAMESPACE = uuid.uuid5(uuid.NAMESPACE_URL, "dungeon-table-companion")


def _uuid(*parts: object) -> str:
    return str(uuid.uuid5(NAMESPACE, "/".join(map(str, parts)))).upper()


def _stamp(iso: str | None) -> str:
    """BG Stats' "YYYY-MM-DD hh:mm:ss" (UTC), or "" when unknown."""
    moment = results.parse_time(iso or "")
    return moment.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S") if moment else ""


def play_file(play: Play, title: str) -> dict[str, Any]:
    """The play file of one finished game (``title``: its game's). Its uuid comes from the
    session and its start, never from the seed: the seed would let anyone redraw the virtual
    trap dials never revealed."""
    when = _stamp(play.started)
    changed = _stamp(play.ended) or when
    players = [{"id": seat + 1, "uuid": _uuid("player", name), "name": name,
                "isAnonymous": False, "modificationDate": changed, "bggUsername": ""}
               for seat, name in enumerate(play.seats)]
    placings = play.placings
    scores = [{"playerRefId": seat + 1, "score": str(total), "winner": seat in play.winners,
               "newPlayer": False, "startPlayer": False, "seatOrder": seat + 1,
               "rank": placings[seat], "role": ""}
              for seat, total in enumerate(play.totals)]
    return {
        "about": ABOUT,
        "players": players,
        "locations": [{"id": 1, "uuid": _uuid("location", LOCATION), "name": LOCATION,
                       "modificationDate": changed}],
        "games": [{"id": 1, "uuid": _uuid("game", play.game), "name": title,
                   "modificationDate": changed, "cooperative": False, "highestWins": True,
                   "noPoints": False, "usesTeams": False, "bggName": title, "bggId": 0,
                   "bggYear": 0}],
        "plays": [{"uuid": _uuid("play", play.game, play.session, play.started),
                   "modificationDate": changed, "entryDate": changed, "playDate": when,
                   "durationMin": play.minutes or 0, "ignored": False, "manualWinner": False,
                   "rounds": len(play.track), "locationRefId": 1, "gameRefId": 1,
                   "board": "", "scoringSetting": 0, "usesTeams": False,
                   "comments": f"Dungeon Table Companion session {play.session}",
                   "playerScores": scores}],
    }
