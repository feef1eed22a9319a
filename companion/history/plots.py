"""Charts of a finished game (the score after each round) and of the league (the rating
after each game), as PNG or SVG files, legible at a glance:

- one panel per game (a rating in one game says nothing of another's);
- whole-number steps on the x axis (games played, rounds), never 1.2 or 1.4;
- each line named at its end, in its own colour, the names pushed apart so none covers
  another; no legend over the lines;
- twelve colours that differ, each with its own marker: up to twelve lines in a panel never
  share a colour (beyond twelve, a colour comes back with a dashed line);
- the titles fit the picture (the layout makes room for them, and for the names).

``game_figure`` and ``league_figure`` give the matplotlib figure laid out as it is written
(what the tests look at); ``plot_game`` and ``plot_league`` write it.

matplotlib is imported only here, and only when a chart is drawn: it is the optional extra
``plot`` (`pip install -e ".[plot]"`), and without it the other commands work as before.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.errors import CompanionError
from companion.history.records import Play

FORMATS = (".png", ".svg")
#: matplotlib's ten "tab" colours, then black and a dark red: twelve that differ.
PALETTE = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2",
           "#7f7f7f", "#bcbd22", "#17becf", "#000000", "#8b0000")
MARKERS = ("o", "s", "^", "D", "v", "P", "X", "<", ">", "p", "h", "*")
WIDTH = 8.0  # inches, at 100 dpi: 800 pixels
PANEL_HEIGHT = 3.2
GAP = 1.0  # pixels between two names at line ends
MARGIN = 3.0  # pixels at least between the highest name and the top of its panel


@dataclass(frozen=True)
class Series:
    """One line: its name (shown at its end) and its points."""

    name: str
    xs: list[int]
    ys: list[float]


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


def style(index: int) -> dict[str, Any]:
    """The colour, marker and line style of the ``index``-th line of a panel."""
    lap = index // len(PALETTE)
    return {"color": PALETTE[index % len(PALETTE)], "marker": MARKERS[index % len(MARKERS)],
            "linestyle": "-" if lap % 2 == 0 else "--"}


def _figure(panels: int) -> tuple[Any, list[Any]]:
    plt = _pyplot()
    figure, axes = plt.subplots(panels, 1, squeeze=False, layout="constrained", dpi=100,
                                figsize=(WIDTH, 0.6 + PANEL_HEIGHT * panels))
    return figure, [row[0] for row in axes]


def _draw_panel(axes: Any, series: Sequence[Series], colours: Mapping[str, int]) -> None:
    """The lines of one panel, each named at its end; whole numbers on the x axis."""
    for line in series:
        axes.plot(line.xs, line.ys, markersize=4, linewidth=1.6, label=line.name,
                  **style(colours[line.name]))
        axes.annotate(line.name, xy=(line.xs[-1], line.ys[-1]), xytext=(6, 0),
                      textcoords="offset points", va="center", fontsize="small",
                      color=style(colours[line.name])["color"], annotation_clip=False)
    last = max((line.xs[-1] for line in series), default=1)
    first = min((line.xs[0] for line in series), default=0)
    axes.set_xlim(first - 0.3, last + 0.3)
    whole_ticks(axes.xaxis, first, last)
    axes.grid(alpha=0.3)


def whole_ticks(axis: Any, first: float, last: float) -> None:
    """Ticks at whole numbers only, never 0.72 or 2.5: each one over a short span (matplotlib's
    integer locator falls back to fractions over a span under 1, e.g. one game), else as many
    as read well."""
    from matplotlib.ticker import FixedLocator, MaxNLocator

    low, high = math.floor(first), math.ceil(last)
    if high - low <= 12:
        axis.set_major_locator(FixedLocator(range(low, high + 1)))
    else:
        axis.set_major_locator(MaxNLocator(integer=True))


def _overlap(a: Any, b: Any) -> bool:
    return a.x0 < b.x1 and b.x0 < a.x1 and a.y0 < b.y1 and b.y0 < a.y1


def make_room(axes: Any, renderer: Any) -> None:
    """Widen the x axis to the right until every name at a line end fits in the panel."""
    left, right = axes.get_xlim()
    width = axes.bbox.width
    wanted = right
    for text in axes.texts:
        anchor = text.xy[0]
        beyond = text.get_window_extent(renderer).x1 - axes.transData.transform((anchor, 0))[0]
        if 0 < beyond < width:
            wanted = max(wanted, left + (anchor - left) * width / (width - beyond - 2))
    axes.set_xlim(left, wanted)


def spread_names(figure: Any) -> None:
    """Make room for the names at the line ends, then push them apart, upwards, so that
    none covers another; a name pushed past the top of its panel gets room there too."""
    figure.canvas.draw()  # lays the figure out: the names' boxes are where they will be
    renderer = figure.canvas.get_renderer()
    for axes in figure.axes:
        make_room(axes, renderer)
    for _attempt in range(4):  # the room made above moves the lines: push apart again
        figure.canvas.draw()
        over = [_push_apart(axes, renderer, figure.dpi) for axes in figure.axes]
        if not any(over):
            return
        for axes, pixels in zip(figure.axes, over, strict=True):
            if pixels:
                bottom, top = axes.get_ylim()
                axes.set_ylim(bottom, top + (pixels + GAP) * (top - bottom) / axes.bbox.height)


def _push_apart(axes: Any, renderer: Any, dpi: float) -> float:
    """Lift the names of ``axes`` so that none covers another (from where each line ends);
    the pixels the highest then reaches past the top of the panel (0: none)."""
    points_per_pixel = 72.0 / dpi
    for text in axes.texts:
        text.xyann = (text.xyann[0], 0)  # back to its line's end
    names = sorted(axes.texts, key=lambda text: text.get_window_extent(renderer).y0)
    placed: list[Any] = []
    for text in names:
        box = text.get_window_extent(renderer)
        lift = 0.0
        for other in sorted(placed, key=lambda done: done.y0):
            moved = box.translated(0, lift)
            if _overlap(moved, other):
                lift = other.y1 + GAP - box.y0
        if lift:
            x, y = text.xyann
            text.xyann = (x, y + lift * points_per_pixel)
        placed.append(box.translated(0, lift))
    highest = max((box.y1 for box in placed), default=axes.bbox.y1 - MARGIN)
    return max(0.0, highest + MARGIN - axes.bbox.y1)


def _save(figure: Any, target: Path) -> None:
    plt = _pyplot()
    try:
        metadata = {"Date": None} if target.suffix.lower() == ".svg" else {}
        figure.savefig(target, metadata=metadata)
    except OSError as error:
        raise CompanionError(f"--plot: cannot write {str(target)!r} ({error.strerror})") from None
    finally:
        plt.close(figure)


def colour_order(names: Sequence[str]) -> dict[str, int]:
    """Each name's place in the palette, in the order given."""
    return {name: index for index, name in enumerate(dict.fromkeys(names))}


def game_figure(play: Play, title: str, step: str = "round") -> Any:
    """One line per player: their total after each step of its track (a round, or what the
    game's bundle calls a step: its ``step``, e.g. a disarm); ``title``: the game's."""
    figure, (axes,) = _figure(1)
    steps = list(range(len(play.track) + 1))
    series = [Series(name, steps, [0] + [totals[seat] for totals in play.track])
              for seat, name in enumerate(play.seats)]
    _draw_panel(axes, series, colour_order(play.seats))
    scores = [y for line in series for y in line.ys]
    whole_ticks(axes.yaxis, min(scores), max(scores))  # scores are whole: no 2.5
    axes.set_xlabel(f"after {step}")
    axes.set_ylabel("total")
    axes.set_title(f"{title}, session {play.session}")
    spread_names(figure)
    return figure


def league_figure(history: Mapping[str, Mapping[str, Sequence[tuple[int, float]]]],
                  titles: Mapping[str, str]) -> Any:
    """A panel per game (named by its ``titles``); in each, a line per player: their rating
    after each game of it they played. A player keeps one colour in every panel while there
    are colours enough."""
    games = sorted(history)
    figure, panels = _figure(max(1, len(games)))
    everyone = sorted({name for game in games for name in history[game]})
    shared = colour_order(everyone) if len(everyone) <= len(PALETTE) else None
    for axes, game in zip(panels, games, strict=False):
        players = sorted(history[game])
        series = [Series(name, list(range(1, len(history[game][name]) + 1)),
                         [rating for _, rating in history[game][name]]) for name in players]
        _draw_panel(axes, series, shared or colour_order(players))
        axes.set_title(titles[game])
        axes.set_xlabel(f"games of {titles[game]} played")
        axes.set_ylabel("rating")
    figure.suptitle("League: each player's rating after each game (openskill, mu - 3 sigma)")
    spread_names(figure)
    return figure


def plot_game(play: Play, target: Path, title: str, step: str = "round") -> None:
    _save(game_figure(play, title, step), target)


def plot_league(history: Mapping[str, Mapping[str, Sequence[tuple[int, float]]]],
                target: Path, titles: Mapping[str, str]) -> None:
    _save(league_figure(history, titles), target)
