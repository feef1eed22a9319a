"""Charts of a finished game (the score after each round) and of the league (the rating
after each game), as PNG or SVG files.

matplotlib is imported only here, and only when a chart is drawn: it is the optional extra
``plot`` (`pip install -e ".[plot]"`), and without it the other commands work as before.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from companion import bundles
from companion.errors import CompanionError
from companion.games import engine
from companion.history.records import Play

FORMATS = (".png", ".svg")


def check_path(path: str) -> Path:
    """``--plot FILE``: a .png or .svg in a folder that exists; CompanionError if not."""
    target = Path(path)
    if target.suffix.lower() not in FORMATS:
        raise CompanionError(f"--plot: {path!r} must end in .png or .svg")
    if not target.parent.is_dir():
        raise CompanionError(f"--plot: no folder {str(target.parent)!r} to write {path!r} in")
    return target


def _pyplot() -> Any:
    try:
        import matplotlib
    except ModuleNotFoundError:
        raise CompanionError("--plot needs matplotlib: pip install 'dungeon-table-companion"
                             "[plot]'") from None
    matplotlib.use("Agg")  # files only, never a window
    matplotlib.rcParams["svg.fonttype"] = "none"  # SVG text stays text (small, searchable)
    matplotlib.rcParams["svg.hashsalt"] = "companion"  # the same chart, the same file
    import matplotlib.pyplot as plt

    return plt


def _save(figure: Any, axes: Any, target: Path) -> None:
    axes.grid(alpha=0.3)
    axes.legend(loc="best", fontsize="small")
    figure.tight_layout()
    try:
        metadata = {"Date": None} if target.suffix.lower() == ".svg" else {}
        figure.savefig(target, metadata=metadata)
    except OSError as error:
        raise CompanionError(f"--plot: cannot write {str(target)!r} ({error.strerror})") from None
    finally:
        figure.clear()


def plot_game(play: Play, target: Path) -> None:
    """One line per player: their total after each step of its track (a round; Traps: a
    disarm: the bundle's ``step``)."""
    plt = _pyplot()
    figure, axes = plt.subplots(figsize=(7, 4), dpi=100)
    steps = list(range(len(play.track) + 1))
    for seat, name in enumerate(play.seats):
        axes.plot(steps, [0] + [totals[seat] for totals in play.track], marker="o", label=name)
    step = bundles.get(play.game).step
    axes.set_xlabel(f"after {step}")
    axes.set_ylabel("total")
    axes.set_title(f"{engine(play.game).title}, session {play.session}")
    axes.set_xticks(steps)
    _save(figure, axes, target)
    plt.close(figure)


def plot_league(history: Mapping[str, Mapping[str, Sequence[tuple[int, float]]]],
                target: Path) -> None:
    """One line per player and game: the rating after each game they played."""
    plt = _pyplot()
    figure, axes = plt.subplots(figsize=(7, 4), dpi=100)
    several = len(history) > 1
    for game, players in sorted(history.items()):
        for name, points in sorted(players.items()):
            label = f"{name} ({game})" if several else name
            axes.plot(range(1, len(points) + 1), [rating for _, rating in points],
                      marker=".", label=label)
    axes.set_xlabel("games played")
    axes.set_ylabel("rating (openskill ordinal)")
    axes.set_title("League: " + ", ".join(engine(game).title for game in sorted(history)))
    _save(figure, axes, target)
    plt.close(figure)
