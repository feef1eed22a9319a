"""The daemon's commands: ``companion run`` (on a Pi, or ``--sim`` anywhere)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from companion.arguments import later
from companion.errors import CompanionError, ConfigError
from companion.paths import default_db

if TYPE_CHECKING:  # each command loads what it runs: the parser loads none of it
    from companion.daemon.config import Config
    from companion.daemon.daemon import Daemon
    from companion.daemon.displays import Screen, TerminalBoard
    from companion.daemon.library import TableLibrary
    from companion.daemon.parts import Part
    from companion.voice.speaker import Speaker
    from companion.web.part import WebPart


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    run = subparsers.add_parser(
        "run", help="run the table companion (on a Pi, or --sim on any computer)",
        description="Run the daemon: controls and camera become table-log events, the rules "
                    "engine checks them, the screens show the views. Resumes the unfinished "
                    "session, else offers a new game on the table screen.")
    run.add_argument("--config", metavar="FILE", help="the TOML config (companion.example.toml)")
    run.add_argument("--sim", action="store_true",
                     help="simulated hardware: keyboard for the dial and buttons, screens in "
                          "the terminal")
    run.add_argument("--db", metavar="FILE", help=f"the table store (default: {default_db()})")
    run.add_argument("--feed", metavar="LOG",
                     help="with --sim: take the events of this table log as if they came from "
                          "the table, each stored before the next; exit 0 when it is consumed")
    run.add_argument("--web", metavar="ADDR:PORT",
                     help="serve the table page and the seats' pages there (e.g. 0.0.0.0:8080; "
                          "also [web] in the config; docs/web.md)")
    run.set_defaults(func=run_daemon)

    demo = subparsers.add_parser(
        "demo", help="play a whole game of each game through the whole pipeline",
        description="Play a whole random game (of GAME, or of each game) through "
                    "the whole pipeline: rendered camera pictures, card recognition, the rules "
                    "engine, the screens. Says how far each game has got while it runs, then "
                    "prints its score table; writes the screens as PNG files and an animated "
                    "GIF, and the table log, into --out. --quick plays short games instead.")
    later(demo.add_argument("game", metavar="GAME", nargs="?",
                            help="%(choices)s (default: all of them)"), choices=_demo_games)
    demo.add_argument("--out", metavar="DIR", default="demo-out",
                      help="where the images and logs go (default: ./demo-out)")
    demo.add_argument("--seed", metavar="N", type=int, default=1,
                      help="seed of the random games (default: 1)")
    later(demo.add_argument("--quick", action="store_true", help="short games: %(quick)s"),
          quick=_quick_words)
    demo.set_defaults(func=run_demo)


def _demo_games() -> list[str]:
    from companion.games import registry

    return registry.demo_games()


def _quick_words() -> list[str]:
    """What ``--quick`` plays of each demo game that it shortens, in the demo's order."""
    from companion.games import registry

    demos = [registry.get(name).demo for name in registry.demo_games()]
    return [demo.quick_words for demo in demos if demo is not None and demo.quick_words]


def setup_logging(level: str, board: TerminalBoard | None = None) -> None:
    """Log lines on stdout, which journald keeps under systemd (under the board in --sim)."""
    import logging

    from companion.daemon.displays import BoardLog
    from companion.daemon.logline import OneLine

    handler: logging.Handler = BoardLog(board) if board else logging.StreamHandler(sys.stdout)
    handler.setFormatter(OneLine("companion: %(message)s"))  # one line each, escaped
    logger = logging.getLogger("companion")
    logger.handlers[:] = [handler]
    logger.setLevel(level.upper())
    logger.propagate = False



def speaker(config: Config) -> Speaker | None:
    """The voice, if ``[voice] enabled``; without espeak-ng installed the table plays on
    silent (and the log says what to install)."""
    import logging

    from companion.voice import speaker as voice

    if not config.voice.enabled:
        return None
    if not voice.available():
        logging.getLogger("companion.daemon").warning(
            "[voice] enabled, but espeak-ng is not installed: sudo apt install espeak-ng")
        return None
    return voice.Speaker(speed=config.voice.speed)


def screens(config: Config, sim: bool, board: TerminalBoard | None = None) -> list[Screen]:
    """The table screen and a screen per seat, as wired in the pin map."""
    from companion.daemon.displays import PanelScreen, TerminalScreen

    pinmap = config.pinmap()
    names = [wiring.name for wiring in pinmap.screens]
    if board is not None:
        return [TerminalScreen(name, board) for name in names]
    if sim or not config.screens.enabled:
        return [PanelScreen(name, pinmap, simulate=True) for name in names]
    return [PanelScreen(name, pinmap) for name in names]


def parts(config: Config, sim: bool, cache: Path | None = None,
          board: TerminalBoard | None = None, library: TableLibrary | None = None
          ) -> list[Part]:
    """The input parts: the keyboard in --sim (stdin, a terminal or a pipe of keys), else the
    GPIO controls if enabled; the serial hub if enabled (a fake hub's pty works in --sim);
    the camera if enabled (``library``: the table's card library it reads)."""
    from companion.daemon.sources import KEY_HELP, GpioControls, HubLink, Keyboard, pin_factory

    found: list[Part] = []
    if sim:
        if sys.stdin.isatty():
            print(KEY_HELP)
        found.append(Keyboard(board_keys={"\t": board.cycle} if board else None,
                              held=board.attend if board else None))
    elif config.inputs.enabled:
        found.append(GpioControls(config.pinmap(), pin_factory(config.inputs.pin_factory)))
    if config.hub.enabled:
        found.append(HubLink(config.hub.port, config.hub.baud))
    if config.camera.enabled:
        found.append(camera(config, cache, library))
    return found


def table_library(config: Config, state: Path) -> TableLibrary | None:
    """The card library the camera reads and a deck enrolled at the table is written to
    (``[vision] library``, else ``cards.npz`` in ``state``); None without a camera."""
    from companion.daemon.library import TableLibrary, library_path
    from companion.games import registry

    path = library_path(config.vision.library, state)
    if not config.camera.enabled or path is None:
        return None
    return TableLibrary(path, bool(config.vision.library), registry.card_games(), state)


def camera(config: Config, cache: Path | None = None,
           library: TableLibrary | None = None) -> Part:
    """The camera through the vision pipeline (OpenCV is loaded only when it is enabled);
    ``cache``: the folder where the demo card library is kept once enrolled (the store's);
    ``library``: the table's card library (None: the config's file, else the demo art)."""
    from companion.daemon.camera import Camera, Still, library_for, open_camera, pile_cards
    from companion.games import registry
    from companion.vision.watch import TableWatcher

    def make_watcher(still: Still | None) -> TableWatcher:  # in the camera's thread, at READY
        library_read = library.load() if library is not None else \
            library_for(registry.card_games(), config.vision.library, cache)
        # The markers the games' pieces wear are read too; card games' readers ignore them.
        return TableWatcher(library_read, config.vision.geometry().table(),
                            settle_seconds=config.vision.settle_seconds,
                            tokens=tuple(registry.piece_markers()), still=still,
                            piles=pile_cards())

    cam = config.camera
    return Camera(open_camera(cam.source, cam.device, cam.files, cam.loop), None, cam.fps,
                  make_watcher=make_watcher, library=library)


def run_daemon(args: argparse.Namespace) -> int:
    import logging

    from companion.daemon.config import load_config
    from companion.daemon.daemon import Daemon
    from companion.daemon.displays import TerminalBoard
    from companion.daemon.feed import feed_session
    from companion.daemon.sources import KEY_HELP, FeedSource
    from companion.daemon.storelock import hold_store
    from companion.i18n.choice import LanguageChoice
    from companion.table import TableStore, read_log

    config = load_config(args.config)  # checked whole before anything starts
    if args.feed and not args.sim:
        raise ConfigError("--feed needs --sim (a fed log stands in for the table's hardware)")
    if args.web:
        parse_address(args.web)  # refused before the store is touched
    # In --sim on a terminal every screen is drawn in place, the log lines under them.
    board = TerminalBoard(footer=KEY_HELP) if args.sim and sys.stdout.isatty() else None
    setup_logging(config.daemon.log_level, board)
    db = Path(args.db or config.table.db or default_db())
    # The lock first: a second daemon is refused before it touches the store, and the store
    # is closed before the lock is let go.
    with hold_store(db), TableStore(db) as store:
        cards = table_library(config, db.parent)
        daemon_parts = parts(config, args.sim, db.parent, board, cards)
        stored_game = None
        if args.feed:
            header, events = read_log(args.feed)
            stored_game, done = feed_session(store, header, events)
            logging.getLogger("companion.daemon").info(
                "feeding %s into session %d: %d of %d events already stored",
                args.feed, stored_game.id, done, len(events))
            daemon_parts = [FeedSource(events[done:], config.daemon.retry_seconds)]
            del events  # the feed holds what is left to give, each event until it is stored
        web = web_part(config, args, str(db))
        if web is not None:
            daemon_parts = [*daemon_parts, web]
        watchers = [] if web is None else [web.watch]
        if board is not None:
            watchers.append(board.watch)  # the acting seat's screen, in text
        daemon = Daemon(store, screens=screens(config, args.sim, board),
                        parts=daemon_parts, watchers=watchers,
                        default_game=config.table.game,
                        default_seats=config.table.seats, options=config.options,
                        language=LanguageChoice(db, config.table.language),
                        voice=speaker(config),
                        confirm_below=config.vision.confirm_below,
                        retry_seconds=config.daemon.retry_seconds,
                        peek_timeout_s=config.pinmap().peek_timeout_s,
                        watching=config.camera.enabled and not args.feed,
                        geometry=config.vision.geometry(), library=cards)
        if stored_game is not None:
            daemon.use_stored_game(stored_game)
        else:
            daemon.resume_or_offer()  # before any part starts: an unreadable store stops here
        stop_on_signals(daemon)
        try:
            return daemon.run()
        finally:
            if board is not None:
                board.close()


def web_part(config: Config, args: argparse.Namespace, db: str) -> WebPart | None:
    """The web pages, if ``--web`` or ``[web] enabled`` asks for them; with ``--sim`` (not
    fed) the simulator page too, on this machine only unless asked otherwise (port 8080, or
    any free one if it is taken). aiohttp is loaded only when pages are served."""
    from_config = config.web.enabled or args.web
    if not from_config and not (args.sim and not args.feed):
        return None
    without_tls()
    from companion.web.part import WebPart

    if not from_config:
        return WebPart("127.0.0.1", 8080, db, sim=True, any_port=True)
    listen, port = config.web.listen, config.web.port
    if args.web:
        listen, port = parse_address(args.web)
    return WebPart(listen, port, db, sim=args.sim)


def without_tls() -> None:
    """Keep ``ssl`` out of the service: the pages are plain HTTP on the table's LAN, and
    ``ssl`` maps libssl and libcrypto (about 5 MB resident) only because aiohttp, http.client
    and urllib.request import it if they can. A None entry in ``sys.modules`` is Python's
    documented way to refuse an import (the import system's module cache); they then work
    as on a Python built without TLS. Left alone if something has imported ``ssl`` already."""
    sys.modules.setdefault("ssl", None)  # type: ignore[arg-type]


def parse_address(text: str) -> tuple[str, int]:
    """``ADDR:PORT`` (``[v6]:PORT``, or ``:PORT`` for every address) of ``--web``."""
    from companion.daemon.config import address_problem

    host, colon, port = text.rpartition(":")
    host = host.strip("[]")
    if not colon or not port.isdigit() or not 1 <= int(port) <= 65535:
        raise ConfigError(f"--web {text}: give ADDR:PORT, e.g. 0.0.0.0:8080")
    if problem := address_problem(host):
        raise ConfigError(f"--web {text}: the address {problem}")
    return host or "0.0.0.0", int(port)


def stop_on_signals(daemon: Daemon) -> None:
    """SIGTERM (systemd stop) and SIGINT (Ctrl-C) finish the loop cleanly.

    The handler runs between two lines of the main thread, which may hold any lock at that
    moment: it only puts on the daemon's SimpleQueue, whose put takes no lock a get holds.
    """
    import signal

    from companion.daemon.items import Stop

    def handler(number: int, _frame: Any) -> None:
        daemon.submit(Stop(signal.Signals(number).name))

    signal.signal(signal.SIGTERM, handler)
    signal.signal(signal.SIGINT, handler)


class ProgressLine:
    """How far a demo game has got, on ``stream``: one line rewritten in place on a terminal,
    else a line at each quarter (a log file gets four lines, not hundreds).

    >>> import io
    >>> stream = io.StringIO()
    >>> line = ProgressLine("rumble", stream)
    >>> for n in range(1, 9):
    ...     line(n, 8)
    >>> print(stream.getvalue(), end="")
    rumble: 2/8 moves (25%)
    rumble: 4/8 moves (50%)
    rumble: 6/8 moves (75%)
    rumble: 8/8 moves (100%)
    """

    def __init__(self, game: str, stream: TextIO) -> None:
        self.game, self.stream = game, stream
        self.live = stream.isatty()
        self.quarter = 0

    def __call__(self, played: int, total: int) -> None:
        # Moves of the game, not events stored: a misread put right stores three for one.
        text = f"{self.game}: {played}/{total} moves ({played * 100 // total}%)"
        if self.live:
            end = "\n" if played == total else ""
            self.stream.write(f"\r\x1b[K{text}{end}")
        elif played * 4 >= total * (self.quarter + 1):
            self.quarter = played * 4 // total
            self.stream.write(text + "\n")
        else:
            return
        self.stream.flush()


def run_demo(args: argparse.Namespace) -> int:
    from companion.daemon.demo import check_requirements, play_demo, prepare_out, score_table
    from companion.games import registry

    check_requirements()
    out = Path(args.out)
    prepare_out(out)
    for game in [args.game] if args.game else registry.demo_games():
        try:
            result = play_demo(game, out, args.seed, quick=args.quick,
                               progress=ProgressLine(game, sys.stderr))
        except OSError as error:  # the folder filled up or went away meanwhile
            raise CompanionError(f"--out {out}: cannot write {error.filename or 'there'} "
                              f"({error.strerror})") from None
        print(score_table(result))
        print("  wrote: " + ", ".join(str(path) for path in result.files))
        print()
    return 0
