"""The table log commands: ``replay``, ``export``, ``import``, ``sessions``, ``rules``."""

from __future__ import annotations

import argparse
import json
import sys
import textwrap
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.arguments import later
from companion.commands import db_option, game_names
from companion.counts import counted, noun
from companion.errors import CompanionError, LogError, OptionError
from companion.terminal import escaped, json_escaped

if TYPE_CHECKING:  # the engines and the store are loaded by the commands that use them
    from companion.games.base import Game
    from companion.table.store import TableStore


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    replay = subparsers.add_parser(
        "replay", help="apply a table log and print the state and scores",
        description="Apply a table log (JSON Lines) and print the state. An illegal event stops "
                    "the replay at its line (exit 2); the state as of the line before is printed.")
    replay.add_argument("log", metavar="LOG", help="the table log (.jsonl)")
    replay.add_argument("--json", action="store_true", help="print one JSON object")
    whose = replay.add_mutually_exclusive_group()
    whose.add_argument("--seat", type=int, metavar="N", help="show seat N's view (0-based)")
    whose.add_argument("--referee", action="store_true", help="show everything, secrets too")
    replay.set_defaults(func=run_replay)

    export = subparsers.add_parser(
        "export", help="write a stored session as a table log (or for BG Stats, a spreadsheet)",
        description="Write a stored session as a table log on stdout (default: the most recent). "
                    "--bgstats writes a finished game as a BG Stats play file (default: the "
                    "most recent finished one); --csv writes finished games for a spreadsheet, "
                    "one row per player per game (default: all of them).")
    export.add_argument("session", metavar="SESSION", nargs="?", type=int, help="session id")
    db_option(export)
    kind = export.add_mutually_exclusive_group()
    kind.add_argument("--bgstats", action="store_true", help="a BG Stats play file (JSON)")
    kind.add_argument("--csv", action="store_true", help="CSV: one row per player per game")
    export.add_argument("--pictures", metavar="DIR",
                        help="also write the camera's picture of each camera event into DIR "
                             "(SEQ.jpg and its readings SEQ.json; the log is unchanged)")
    export.set_defaults(func=run_export)

    load = subparsers.add_parser(
        "import", help="store a table log as a new session",
        description="Check a table log line by line and store it as a new session.")
    load.add_argument("log", metavar="LOG", help="the table log (.jsonl)")
    db_option(load)
    load.set_defaults(func=run_import)

    sessions = subparsers.add_parser("sessions", help="list the stored sessions")
    db_option(sessions)
    sessions.add_argument("--json", action="store_true", help="print a JSON array")
    sessions.set_defaults(func=run_sessions)

    rules = subparsers.add_parser(
        "rules", help="how a game is played, what the companion does, and its options",
        description="How the game is played and what the companion does for it, in short; "
                    "then its named options (docs/rulings.md): name, default, meaning.")
    later(rules.add_argument("game", metavar="GAME", help="%(games)s"), games=game_names)
    rules.add_argument("--json", action="store_true", help="print one JSON object")
    rules.set_defaults(func=run_rules)


# --- replay ------------------------------------------------------------------------------

def replay_log(path: str, seat: int | None = None, referee: bool = False
               ) -> tuple[dict[str, Any], LogError | None, Game]:
    """The replay result and the error that stopped it, if any (header errors are raised)."""
    from companion.table.log import read_log
    from companion.table.session import TableSession

    header, events = read_log(path)
    try:
        session = TableSession(header)
    except CompanionError as exc:
        raise LogError(1, f"header: {exc}") from None
    if seat is not None and not 0 <= seat < len(header.seats):
        raise OptionError(f"--seat {seat}: seats are 0 to {len(header.seats) - 1}")
    error = None
    for number, event in events:
        try:
            session.apply(event)
        except CompanionError as exc:
            error = LogError(number, str(exc))
            break
    return session.result(seat, referee), error, session.game


def run_replay(args: argparse.Namespace) -> int:
    result, error, game = replay_log(args.log, args.seat, args.referee)
    if args.json:
        if error is not None:
            result["error"] = {"line": error.line, "message": error.message}
        print(json_escaped(result))
    else:
        print(render_result(result, game))
        if error is not None:
            print(f"companion: {escaped(str(error))}", file=sys.stderr)
    return 2 if error else 0


def render_result(result: dict[str, Any], game: Game) -> str:
    """A replay result for a person: a score table (seats counted from 1, as people count
    them), the winners, then the state in words.

    The words are the game's own (``state_in_words``) and read only the public view's keys;
    with --seat or --referee, the keys the public view lacks follow as JSON.
    Seat names are shown escaped: a name is the players' text, not terminal commands.
    """
    public = game.view(None)
    words = game.state_in_words(result["state"])
    private = {key: value for key, value in result["state"].items()
               if key not in public or value != public[key]}
    seats = [escaped(name) for name in result["seats"]]
    totals, rounds = result["totals"], result["rounds"]
    width = max(len(name) for name in seats)
    status = "finished" if result["finished"] else "in progress"
    lines = [f"{result['game']}: {len(seats)} seats, {status}"]
    head = f"  {'seat':<{width + 3}} {'total':>6}" + "".join(
        f" {'r' + str(i + 1):>4}" for i in range(len(rounds)))
    lines.append(head)
    for index, name in enumerate(seats):
        cells = "".join(f" {r[index]:>4}" for r in rounds)
        lines.append(f"  {index + 1:<2} {name:<{width}} {totals[index]:>6}{cells}")
    if result["winners"]:
        lines.append("winners: " + ", ".join(seats[s] for s in result["winners"]))
    lines.append("state:")
    lines.extend(f"  {escaped(line)}" for line in words)
    if private:  # --seat or --referee: what the public words leave out, as the engine has it
        lines.append("private:")
        lines.append(json_escaped(private, indent=2))
    return "\n".join(lines)


# --- store commands ----------------------------------------------------------------------

def run_export(args: argparse.Namespace) -> int:
    from companion.table.store import open_store

    if (args.bgstats or args.csv) and args.pictures:
        raise OptionError("--pictures: the camera's pictures go with the table log only, "
                          "not with --bgstats or --csv")
    if args.bgstats or args.csv:
        from companion.commands.exports import run_play_export  # the table log needs none of it

        return run_play_export(args)
    from companion.table.faults import StoreDamaged
    from companion.table.log import dump_event

    # A damaged store's sound sessions can still be exported (`companion check` lists them):
    # the session is written whole, then the damage is said, exit 2.
    with open_store(args.db, read_only=True, damaged_ok=True) as store:
        session_id = args.session if args.session is not None else store.latest()
        if session_id is None:
            raise CompanionError(f"no sessions in {store.path}")
        header, events = store.load(session_id)
        if args.pictures:
            export_pictures(store, session_id, Path(args.pictures))
        damage = store.damage
    sys.stdout.write("".join(dump_event(obj) + "\n" for obj in [header.to_json(), *events]))
    if damage:
        sys.stdout.flush()
        raise StoreDamaged(f"the table store {store.path} is damaged ({damage}): session "
                           f"{session_id} was read whole and written; `companion check --db "
                           f"{store.path}` says which other sessions can still be exported")
    return 0


def export_pictures(store: TableStore, session_id: int, folder: Path) -> None:
    """The camera's pictures of a session's events into ``folder`` (said on stderr)."""
    from companion.table.pictures import pictures, write_folder

    if folder.exists() and not folder.is_dir():
        raise OptionError(f"--pictures {folder}: not a folder")
    found = pictures(store.db, session_id)
    try:
        write_folder(found, folder)
    except OSError as error:
        raise OptionError(f"--pictures {folder}: cannot write there "
                          f"({error.strerror or error})") from None
    print(f"wrote {len(found)} camera pictures of session {session_id} into {escaped(str(folder))}",
          file=sys.stderr)


def run_import(args: argparse.Namespace) -> int:
    from companion.table.log import read_log
    from companion.table.session import TableSession
    from companion.table.store import open_store

    header, events = read_log(args.log)
    try:
        session = TableSession(header)
    except CompanionError as exc:
        raise LogError(1, f"header: {exc}") from None
    for number, event in events:
        try:
            session.apply(event)
        except CompanionError as exc:
            raise LogError(number, str(exc)) from None
    with open_store(args.db) as store:
        stored = store.add_session(session)
        print(f"stored as session {stored.id} in {escaped(store.path)} "
              f"({counted(len(session.events), 'event')})")
    return 0


def run_sessions(args: argparse.Namespace) -> int:
    from companion.history.records import load_plays
    from companion.history.tables import score_line
    from companion.table.store import open_store

    with open_store(args.db, read_only=True) as store:
        infos = store.sessions()
        plays = {play.session: play for play in load_plays(store, finished_only=False)}
    if args.json:
        listed = []
        for i in infos:
            play = plays.get(i.id)
            listed.append({"id": i.id, "game": i.header.game, "seats": list(i.header.seats),
                           "created": i.created, "finished": i.finished, "events": i.events,
                           "totals": play.totals if play else None,
                           "winners": play.winner_names() if play else []})
        print(json_escaped(listed))
        return 0
    for info in infos:
        status = "finished" if info.finished else "UNFINISHED"
        play = plays.get(info.id)
        scores = score_line(play) if play else escaped(", ".join(info.header.seats))
        began = play.started if play else info.created
        print(f"{info.id:>4}  {began[:16].replace('T', ' ')}  {info.header.game:<9} "
              f"{status:<10} {info.events:>5} {noun(info.events, 'event'):<6}  {scores}")
    return 0


# --- rules -------------------------------------------------------------------------------

def run_rules(args: argparse.Namespace) -> int:
    from companion.games.registry import engine

    game = engine(args.game)
    options = {o.name: {"default": o.default, "help": o.help} for o in game.OPTIONS}
    if args.json:
        print(json.dumps({"game": game.name, "title": game.title, "played": game.PLAYED,
                          "companion": game.COMPANION, "options": options},
                         ensure_ascii=False))
        return 0
    print(f"{game.title} ({game.name})")
    for heading, text in (("How it is played", game.PLAYED),
                          ("What the companion does", game.COMPANION)):
        if text:
            print(f"\n{heading}:")
            print(textwrap.fill(text, width=88, initial_indent="  ", subsequent_indent="  "))
    print("\nOptions, with their defaults (set them in the header's options or the config):")
    for name, option in options.items():
        default = json.dumps(option["default"], ensure_ascii=False)
        if len(default) > 40:
            default = default[:37] + "..."
        print(f"  {name} = {default}")
        # Never inside a word: a file name or an id stays whole to be copied.
        print(textwrap.fill(option["help"], width=88, initial_indent="      ",
                            subsequent_indent="      ", break_on_hyphens=False,
                            break_long_words=False))
    return 0
