"""After the game: ``players``, ``history`` and ``league`` (README.md, After the game)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.arguments import later
from companion.commands import db_option, game_names
from companion.errors import CompanionError
from companion.paths import default_db
from companion.terminal import escaped, json_escaped

if TYPE_CHECKING:  # the store and the records are loaded by the commands that run
    from companion.history.records import Play
    from companion.table.players import PlayerInfo
    from companion.table.store import TableStore


def _filters(parser: argparse.ArgumentParser) -> None:
    later(parser.add_argument("--game", metavar="GAME", help="only this game (%(games)s)"),
          games=game_names)
    parser.add_argument("--since", metavar="DATE", help="only games begun on or after this "
                                                        "day (YYYY-MM-DD, UTC)")
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.add_argument("--plot", metavar="FILE", help="also draw a chart (.png or .svg)")


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    people = subparsers.add_parser(
        "players", help="list the players; rename one, or merge two into one",
        description="List the players of the stored games. A player is one person across "
                    "games; a rename or a merge changes no table log.")
    db_option(people)
    people.add_argument("--json", action="store_true", help="print a JSON array")
    actions = people.add_subparsers(dest="action", metavar="ACTION")
    rename = actions.add_parser("rename", help="give a player a new name")
    rename.add_argument("old", metavar="OLD", help="the player's name now")
    rename.add_argument("new", metavar="NEW", help="the new name")
    db_option(rename)
    merge = actions.add_parser("merge", help="NAME's games become INTO's (a typo'd name)")
    merge.add_argument("name", metavar="NAME", help="the name that goes")
    merge.add_argument("into", metavar="INTO", help="the player who stays")
    db_option(merge)
    people.set_defaults(func=run_players)

    history = subparsers.add_parser(
        "history", help="finished games: date, length, seats, scores, winners",
        description="Finished games, newest first by when they were played: date, length of "
                    "play ('length unknown' for a log without times), players, placings, scores "
                    "and winners. --plot draws the score after each round of the newest game "
                    "listed (or of --session N).")
    db_option(history)
    history.add_argument("--player", metavar="NAME", help="only games this player played")
    history.add_argument("--session", metavar="N", type=int, help="only this session")
    _filters(history)
    history.set_defaults(func=run_history)

    table = subparsers.add_parser(
        "league", help="the league table: games, wins, placings, ratings, figures",
        description="Per player: games, wins (a shared win counts for each winner), win rate, "
                    "average placing, an openskill rating per game, and each game's figures. "
                    "--plot draws the ratings after each game.")
    db_option(table)
    _filters(table)
    table.set_defaults(func=run_league)


def _read_store(path: str | None) -> TableStore:
    from companion.table.store import open_store

    return open_store(path, read_only=True)


# --- players -------------------------------------------------------------------------------

def run_players(args: argparse.Namespace) -> int:
    if args.action is None:
        return _list_players(args)
    from companion.table import players as player_table
    from companion.table.faults import guard
    from companion.table.store import open_store

    path = Path(args.db) if args.db else default_db()
    if not path.exists():
        raise CompanionError(f"--db: no table store at {path}")
    with open_store(str(path)) as store:
        if not store.keeps_players:
            raise CompanionError(f"the table store {path} cannot take players now (is the "
                                 "disk full?)")
        with guard(store.path), store.transaction():
            if args.action == "rename":
                new = player_table.rename(store.db, args.old, args.new)
                message = f"renamed {escaped(args.old)} to {escaped(new)}"
            else:
                player_table.merge(store.db, args.name, args.into)
                message = f"merged {escaped(args.name)} into {escaped(args.into)}"
    print(message)
    return 0


def _list_players(args: argparse.Namespace) -> int:
    from companion.history.records import load_plays
    from companion.table import players as player_table
    from companion.table.faults import guard

    with _read_store(args.db) as store:
        if store.keeps_players:
            with guard(store.path):
                found = player_table.players(store.db)
        else:  # a store from before players: the names at the table are the players
            found = _players_from_names(load_plays(store, finished_only=False))
    if args.json:
        print(json_escaped([{"name": p.name, "games": p.games, "last_played": p.last_played,
                           "aliases": p.aliases} for p in found]))
        return 0
    if not found:
        print("no players yet")
    for info in found:
        aka = f"  (also {', '.join(map(escaped, info.aliases))})" if info.aliases else ""
        print(f"{escaped(info.name):<16} {info.games:>4} games  last {info.last_played[:10]}{aka}")
    return 0


def _players_from_names(plays: list[Play]) -> list[PlayerInfo]:
    from companion.table.players import PlayerInfo

    games: dict[str, list[str]] = {}
    for play in plays:
        for name in play.seats:
            games.setdefault(name, []).append(play.started)
    infos = [PlayerInfo(name, len(times), max(times), [])
             for name, times in sorted(games.items())]
    return sorted(infos, key=lambda info: info.last_played, reverse=True)


# --- history -------------------------------------------------------------------------------

def history_json(play: Play) -> dict[str, Any]:
    """One finished game as `history --json` prints it (README.md, Commands, then more)."""
    return {"session": play.session, "game": play.game, "date": play.started,
            "seats": play.seats, "totals": play.totals, "winners": play.winner_names(),
            "ended": play.ended, "minutes": play.minutes, "placings": play.placings,
            "rounds": len(play.track), "figures": play.figures}


def check_game(name: str | None) -> str | None:
    """``--game``: one of the games there are (the registry's), or None."""
    from companion.games import registry

    if name is not None and name not in registry.names():
        raise CompanionError(f"--game: unknown game {name!r} (games: "
                             f"{', '.join(registry.names())})")
    return name


def engines_of(plays: list[Play]) -> dict[str, Any]:
    """The engine of each game among ``plays``, by name: what history says of a game is its
    engine's (its title, its figures in words), handed to it."""
    from companion.games.registry import engine

    return {play.game: engine(play.game) for play in plays}


def chosen_plays(store: TableStore, args: argparse.Namespace) -> list[Play]:
    """The finished games the filters of ``args`` leave, oldest first (by when played)."""
    from companion.history.records import find_player, load_plays, parse_since, select

    game = check_game(args.game)
    since = parse_since(args.since)
    plays = load_plays(store)
    player = None
    if getattr(args, "player", None) is not None:
        player = find_player(store, plays, args.player)
    plays = select(plays, game=game, since=since, player=player)
    session = getattr(args, "session", None)
    if session is not None:
        plays = [play for play in plays if play.session == session]
        if not plays:
            raise CompanionError(f"--session: no finished game {session} among these "
                                 "(`companion sessions` lists them all)")
    return plays


def run_history(args: argparse.Namespace) -> int:
    from companion.history import plots, tables

    target = plots.check_path(args.plot) if args.plot else None
    with _read_store(args.db) as store:
        plays = chosen_plays(store, args)
    if target is not None:
        if not plays:
            raise CompanionError("--plot: no finished game to draw")
        from companion.games import registry

        newest = registry.get(plays[-1].game)
        plots.plot_game(plays[-1], target, newest.engine.title, newest.step)
    newest_first = plays[::-1]
    if args.json:
        print(json_escaped([history_json(play) for play in newest_first]))
    else:
        print(tables.history_text(newest_first))
    return 0


# --- league --------------------------------------------------------------------------------

def run_league(args: argparse.Namespace) -> int:
    from companion.history import plots, tables
    from companion.history.league import league

    target = plots.check_path(args.plot) if args.plot else None
    with _read_store(args.db) as store:
        plays = chosen_plays(store, args)
    standings = league(plays)
    if target is not None:
        if not plays:
            raise CompanionError("--plot: no finished game to rate")
        titles = {game: engine.title for game, engine in engines_of(plays).items()}
        plots.plot_league(standings.history, target, titles)
    if args.json:
        print(json_escaped(standings.to_json()))
    else:
        print(tables.league_text(standings, engines_of(plays)))
    return 0
