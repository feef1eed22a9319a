"""``companion demo [GAME] [--quick]``: a whole game of each game through the whole pipeline
(``--quick``: a short one, e.g. one round: the bundle's ``Demo.quick``).

A random legal game (the games' own simulators) is played at a simulated table: cards and
marked pieces are rendered into camera pictures and read by the vision pipeline, a game's
own dial flow is turned detent by detent, buttons are tapped, the rest is entered with the dial; the
daemon's loop checks and stores every event and draws every screen. At the end the score
table is printed, the log is exported and replayed (the two must agree), and the screens are
written as PNG files and an animated GIF.
"""

from __future__ import annotations

import importlib
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PIL import Image, ImageDraw

from companion.daemon.daemon import Daemon
from companion.daemon.displays import MemoryScreen, label
from companion.daemon.items import Stop
from companion.daemon.player import Check, PlayerReach, TablePlayer
from companion.daemon.ui import TABLE
from companion.errors import CompanionError
from companion.games import registry
from companion.hardware.events import InputEvent
from companion.table import Header, TableSession, TableStore
from companion.table.pictures import seqs

if TYPE_CHECKING:  # types only: the camera's pipeline is loaded when the demo runs it
    import numpy as np

    from companion.daemon.stage import InlineVision

#: Called after each event played: (events played, events in the game).
Progress = Callable[[int, int], None]
#: The camera's sightings below this confidence go through the confirm step.
CONFIRM_BELOW = 0.6
#: Frames of the GIF at most (a long game is sampled evenly), and each frame's time.
GIF_FRAMES, GIF_MS = 240, 180
SCALE = 2
#: The screens' PNG files: each of a screen's pixels as a square of this many.
PNG_SCALE = 4


class DirectReach(PlayerReach):
    """The daemon runs in the caller's thread: every input is handled at once."""

    def __init__(self, daemon: Daemon, eyes: InlineVision) -> None:
        self.daemon = daemon
        self.eyes = eyes
        self.pictures = 0
        self.last_picture: np.ndarray | None = None

    def _give(self, *items: object) -> None:
        for item in items:
            self.daemon.handle(item)
            self.daemon.display.refresh()

    def tap(self, control: str, until: Check) -> None:
        self._give(InputEvent("press", control, 0, "demo"), InputEvent("release", control, 0,
                                                                         "demo"))

    def hold(self, control: str, until: Check) -> None:
        self._give(InputEvent("press", control, 0, "demo"), InputEvent("hold", control, 1, "demo"),
                   InputEvent("release", control, 0, "demo"))

    def turn(self, detents: int, until: Check) -> None:
        step = 1 if detents > 0 else -1
        self._give(*[InputEvent("dial", "encoder:0", step, "demo") for _ in range(abs(detents))])

    def show(self, picture: np.ndarray, until: Check) -> None:
        self.pictures += 1
        self.last_picture = picture
        self._give(*self.eyes.watch(picture))


@dataclass
class DemoResult:
    game: str
    seats: list[str]
    totals: list[int]
    rounds: list[list[int]]
    winners: list[int]
    moves: int  # the simulated game's events, played at the table
    routes: dict[str, int]
    pictures: int  # the camera pictures the table was seen in
    seconds: float
    #: Events stored, as ``companion sessions`` and ``import`` count them: the moves, and an
    #: undo and the move again for each camera misread put right.
    stored: int = 0
    #: Camera pictures kept with the events they made (``export --pictures`` writes them).
    kept: int = 0
    files: list[Path] = field(default_factory=list)
    #: The refusal the table screen showed when the game ended (None: its result).
    ended_on_refusal: str | None = None


def check_requirements() -> None:
    """Fail clearly, before anything starts, if a part the demo needs is missing."""
    for module, package in (("cv2", "opencv-python-headless"), ("PIL", "pillow"),
                            ("luma.core", "luma.core")):
        try:
            importlib.import_module(module)
        except ImportError:
            raise CompanionError(f"the demo needs {package}: pip install -e . from the "
                                 f"repository installs it") from None


def prepare_out(out: Path) -> None:
    """Make the ``--out`` folder and prove it takes files, before a game is played."""
    try:
        out.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=out):
            pass  # even root cannot write on a read-only mount: this finds out
    except FileExistsError:
        raise CompanionError(f"--out {out}: not a folder") from None
    except OSError as error:
        raise CompanionError(f"--out {out}: cannot write there ({error.strerror})") from None


def play_demo(game: str, out: Path, seed: int = 1, quick: bool = False,
              progress: Progress | None = None, seats: int | None = None) -> DemoResult:
    """Play one whole game (``quick``: a short one) through the pipeline; write its log,
    screens and GIF into ``out``; ``progress`` hears of each event played. ``seats``: at
    another number of seats than the demo's own (the benchmarks)."""
    from companion.daemon.stage import InlineVision, Stage

    if game not in registry.demo_games():
        raise CompanionError(f"unknown game {game!r} (games: {', '.join(registry.demo_games())})")
    started = time.perf_counter()
    bundle = registry.get(game)
    assert bundle.demo is not None
    demo_seats, options = bundle.demo.settings(quick)
    seats = seats or demo_seats
    header_json, events = bundle.random_game(seed, seats, **options)
    header = Header.from_json(header_json)
    out.mkdir(parents=True, exist_ok=True)
    db = out / f"{game}.db"
    for path in (db, Path(f"{db}-wal"), Path(f"{db}-shm")):
        path.unlink(missing_ok=True)
    names = ["table"] + [f"seat:{seat}" for seat in range(seats)]
    screens = [MemoryScreen(name) for name in names]
    with TableStore(db) as store:
        daemon = Daemon(store, screens=screens, confirm_below=CONFIRM_BELOW, watching=True)
        daemon.supervisor.start_all(time.monotonic())
        # The demo's game is dealt from the simulator's seed, so it starts from its header.
        daemon.use_stored_game(store.new_session(header))
        daemon.display.refresh()
        stage = Stage(game, seats, seed)
        hands = DirectReach(daemon, InlineVision(game, stage.layout))
        player = TablePlayer(daemon, hands, stage)
        frames = [tiled(screens, header.seats)]
        for played, event in enumerate(events, start=1):
            player.play(event)
            frames.append(tiled(screens, header.seats))
            if progress is not None:
                progress(played, len(events))
        refusal = daemon.display.seat_error(TABLE)
        daemon.handle(Stop("end of the demo"))
        daemon.supervisor.stop_all()
        assert daemon.stored_game is not None
        lines = daemon.stored_game.export_lines()
        kept = len(seqs(store.db, daemon.stored_game.id))
    log = out / f"{game}.jsonl"
    log.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    result = replayed(log)
    files = [log, *write_images(out, game, screens, frames, hands.last_picture)]
    return DemoResult(game, list(header.seats), result["totals"], result["rounds"],
                      result["winners"], len(events), player.routes, hands.pictures,
                      time.perf_counter() - started, len(lines) - 1, kept, files, refusal)


def replayed(log: Path) -> dict[str, Any]:
    """``companion replay`` of the exported log: the demo's score comes from it."""
    from companion.table import read_log

    header, events = read_log(log)
    session = TableSession(header)
    for _, event in events:
        session.apply(event)
    return session.result()


def tiled(screens: list[MemoryScreen], seats: tuple[str, ...]) -> Image.Image:
    """Every screen's latest image side by side, labelled, scaled up to be seen."""
    width, height, label = 128 * SCALE, 64 * SCALE, 14
    columns = 3
    rows = (len(screens) + columns - 1) // columns
    sheet = Image.new("L", (columns * (width + 8) + 8, rows * (height + label + 8) + 8), 40)
    pen = ImageDraw.Draw(sheet)
    for index, screen in enumerate(screens):
        x = 8 + (index % columns) * (width + 8)
        y = 8 + (index // columns) * (height + label + 8)
        name = screen.name if screen.name == "table" else seats[int(screen.name[5:])]
        pen.text((x, y), name, fill=230)
        image = screen.images[-1] if screen.images else Image.new("1", (128, 64))
        sheet.paste(image.convert("L").resize((width, height), Image.NEAREST), (x, y + label))
    return sheet


def write_images(out: Path, game: str, screens: list[MemoryScreen], frames: list[Image.Image],
                 picture: np.ndarray | None) -> list[Path]:
    written = []
    for screen in screens:
        if screen.images:
            # seat:0 is written as seat1: files are named as people count seats.
            path = out / f"{game}-{label(screen.name).replace(' ', '')}.png"
            image = screen.images[-1]
            # Each pixel of the screen as a square of PNG_SCALE pixels: a 128x64 file is a
            # speck in any viewer.
            image.resize((image.width * PNG_SCALE, image.height * PNG_SCALE),
                         Image.NEAREST).save(path)
            written.append(path)
    step = max(1, len(frames) // GIF_FRAMES)
    frames_kept = frames[::step] + ([frames[-1]] if (len(frames) - 1) % step else [])
    gif = out / f"{game}.gif"
    frames_kept[0].save(gif, save_all=True, append_images=frames_kept[1:], duration=GIF_MS,
                        loop=0)
    written.append(gif)
    if picture is not None:
        camera = out / f"{game}-camera.png"
        Image.fromarray(picture[:, :, ::-1]).save(camera)
        written.append(camera)
    return written


def score_table(result: DemoResult) -> str:
    """The score table as the demo prints it."""
    width = max(len(name) for name in result.seats)
    head = f"  {'seat':<{width}} {'total':>6}" + "".join(
        f" {'r' + str(i + 1):>4}" for i in range(len(result.rounds)))
    # Counted as the other commands count them: events as `companion sessions` (every line
    # of the log, an undo too), pictures as `companion export --pictures` writes them.
    fixed = (result.stored - result.moves) // 2
    lines = [f"{result.game}: {result.stored} events stored in {result.seconds:.1f} s "
             f"({result.moves} moves" + (f", {fixed} camera misreads each undone and entered "
                                         "again" if fixed else "") +
             f"); camera: {result.kept} pictures kept of {result.pictures} taken", head]
    for seat, name in enumerate(result.seats):
        cells = "".join(f" {scores[seat]:>4}" for scores in result.rounds)
        lines.append(f"  {name:<{width}} {result.totals[seat]:>6}{cells}")
    lines.append("  winners: " + ", ".join(result.seats[s] for s in result.winners))
    lines.append("  events in by: " + ", ".join(f"{route} {count}"
                                               for route, count in sorted(result.routes.items())))
    return "\n".join(lines)
