"""The league and game charts legible at a glance (issue 44): a panel per game, whole numbers
on the x axis, each line named at its end (no legend over the lines, no two names on top of
each other), colours that do not repeat among twelve lines, every title whole.

The charts are drawn by the command line as a user draws them (a process of its own); their
properties are read off the matplotlib figure the command writes (``plots.league_figure``,
``plots.game_figure``). The test also refreshes the charts shown in the docs."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from built_in import GAMES as BUILT_IN
from league_store import PEOPLE, build

from companion.games import registry
from companion.games.registry import engine
from companion.history import plots
from companion.history.league import league
from companion.history.records import Play, load_plays
from companion.table import TableStore

pytest.importorskip("matplotlib")
from matplotlib.text import Text  # noqa: E402 - only with the plot extra

IMAGES = Path(__file__).resolve().parents[1] / "docs" / "images"


def companion(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "companion.cli", *args],
                          capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def league_db(tmp_path_factory):
    """40 finished games of the four games among 6 people, a typo merged, one renamed."""
    path = str(tmp_path_factory.mktemp("plots") / "table.db")
    build(path)
    for change in (("merge", "Bobb", "Bob"), ("rename", "Cy", "Cyrus")):
        done = companion("players", *change, "--db", path)
        assert done.returncode == 0, done.stderr
    return path


def lines_of(axes):
    return [line for line in axes.get_lines() if not line.get_label().startswith("_")]


def shown_texts(figure) -> list[Text]:
    """Every text drawn: the titles, the axis labels, the tick labels in view, the names."""
    texts = list(figure.texts)  # the suptitle among them
    for axes in figure.axes:
        texts += [axes.title, axes.xaxis.label, axes.yaxis.label, *axes.texts]
        for axis, (low, high) in ((axes.xaxis, axes.get_xlim()), (axes.yaxis, axes.get_ylim())):
            texts += [label for tick, label in zip(axis.get_ticklocs(), axis.get_ticklabels(),
                                                   strict=True) if low <= tick <= high]
    return texts


def check_legible(figure, titles: list[str]) -> None:
    """The properties a person reading the chart relies on."""
    renderer = figure.canvas.get_renderer()
    assert [axes.get_title() for axes in figure.axes] == titles
    canvas = figure.bbox
    for text in shown_texts(figure):
        if text.get_visible() and text.get_text():
            box = text.get_window_extent(renderer)
            assert canvas.x0 - 1 <= box.x0 and box.x1 <= canvas.x1 + 1, text.get_text()
            assert canvas.y0 - 1 <= box.y0 and box.y1 <= canvas.y1 + 1, text.get_text()
    for axes in figure.axes:
        low, high = axes.get_xlim()
        ticks = [tick for tick in axes.get_xticks() if low <= tick <= high]
        assert ticks and all(float(tick).is_integer() for tick in ticks), ticks
        assert axes.get_legend() is None
        lines = lines_of(axes)
        colours = [line.get_color() for line in lines]
        assert len(set(colours)) == len(colours)  # no colour twice in a panel
        names = {text.get_text(): text for text in axes.texts}
        boxes = []
        for line in lines:
            label = names[line.get_label()]  # each line named ...
            xs, ys = line.get_data()
            assert tuple(label.xy) == (xs[-1], ys[-1])  # ... at its end
            assert label.get_color() == line.get_color()
            box = label.get_window_extent(renderer)
            assert box.x1 <= axes.bbox.x1 + 1  # inside its panel, not cut by its top
            assert axes.bbox.y0 <= box.y0 and box.y1 < axes.bbox.y1, label.get_text()
            boxes.append(box)
        for i, box in enumerate(boxes):
            for other in boxes[i + 1:]:
                assert not box.overlaps(other), "two names on top of each other"


def test_the_league_chart_has_a_panel_per_game_named_lines_and_whole_titles(league_db, tmp_path):
    svg = tmp_path / "league.svg"
    drawn = companion("league", "--db", league_db, "--plot", str(svg))
    assert drawn.returncode == 0, drawn.stderr
    text = svg.read_text()
    assert len(re.findall(r'<g id="axes_\d+"', text)) == len(BUILT_IN)  # a panel per game
    assert 'id="legend_' not in text
    for game in BUILT_IN:
        assert engine(game).title in text
    with TableStore(league_db, read_only=True) as store:
        history = league(load_plays(store)).history
    figure = plots.league_figure(history, {game: engine(game).title for game in history})
    check_legible(figure, [engine(game).title for game in sorted(history)])
    colour = {}
    for axes in figure.axes:  # a person keeps their colour from panel to panel
        for line in lines_of(axes):
            assert colour.setdefault(line.get_label(), line.get_color()) == line.get_color()
    assert set(colour) == set(PEOPLE) - {"Bobb", "Cy"} | {"Cyrus"}


def test_twelve_players_get_twelve_colours_and_their_names_do_not_collide():
    """Twelve players of one game whose ratings end close together."""
    names = [f"Player {n}" for n in range(1, 13)]
    history = {"tricky": {name: [(s, 0.1 * n + s) for s in range(1, 4 + n % 3)]
                          for n, name in enumerate(names)}}
    figure = plots.league_figure(history, {game: engine(game).title for game in history})
    check_legible(figure, ["Tricky Dungeon"])
    assert len({line.get_color() for line in lines_of(figure.axes[0])}) == 12


def test_a_game_chart_names_tied_players_apart_on_whole_rounds():
    play = Play(7, "tricky", "2026-01-02T20:00:00+00:00", None, ["Ann", "Bob", "Cy"],
                ["Ann", "Bob", "Cy"], True, [5, 5, 2], [0, 1],
                track=[[2, 1, 0], [3, 3, 1], [5, 5, 2]])
    figure = plots.game_figure(play, engine(play.game).title, registry.get(play.game).step)
    check_legible(figure, ["Tricky Dungeon, session 7"])
    assert [tick for tick in figure.axes[0].get_xticks() if 0 <= tick <= 3] == [0, 1, 2, 3]


def test_a_rumble_chart_counts_adventures_with_whole_scores_and_a_tie_at_the_top():
    """Rumble's steps are adventures; its gold is whole (no 2.5 ... 17.5 on the axis); Ann
    and Cy tie at the top and both names stay inside the panel."""
    play = Play(2, "rumble", "2026-01-02T20:00:00+00:00", None, ["Ann", "Bob", "Cy"],
                ["Ann", "Bob", "Cy"], True, [19, 13, 19], [0, 2],
                track=[[3, 1, 8], [10, 5, 9], [19, 13, 19]])
    figure = plots.game_figure(play, engine(play.game).title, registry.get(play.game).step)
    check_legible(figure, ["Rumble in the Dungeon, session 2"])
    axes = figure.axes[0]
    assert axes.get_xlabel() == "after adventure"
    low, high = axes.get_ylim()
    ticks = [tick for tick in axes.get_yticks() if low <= tick <= high]
    assert ticks and all(float(tick).is_integer() for tick in ticks), ticks


def test_a_league_of_one_game_each_counts_games_in_whole_numbers():
    """One game played of each: the x axis says 1, not 0.72 ... 1.28."""
    history = {"deathtrap": {"Ann": [(1, 2.0)], "Bob": [(1, -3.3)]},
               "rumble": {"Ann": [(2, 1.1)], "Cy": [(2, 1.1)]}}
    figure = plots.league_figure(history, {game: engine(game).title for game in history})
    check_legible(figure, ["Deathtrap Dungeon: The Card Game", "Rumble in the Dungeon"])
    for axes in figure.axes:
        low, high = axes.get_xlim()
        assert [tick for tick in axes.get_xticks() if low <= tick <= high] == [1]


def test_the_league_text_names_the_traps_not_their_ids(league_db):
    """`companion league`: Traps' XP per trap by the traps' names ("Fire Jets 15", as the
    screens name them), never their ids ("fire-jets 15")."""
    done = companion("league", "--db", league_db)
    assert done.returncode == 0, done.stderr
    traps = done.stdout.split("Traps: ")[1].split("\n\n")[0]
    assert "Buzz Saw" in traps and "The Cage" in traps, traps
    assert not re.search(r"\b[a-z]+-[a-z-]+ \d", traps), traps


def test_the_charts_of_the_docs_are_drawn_by_the_command(league_db):
    """docs/images/league.png (every game), league-tricky.png and tricky-game.png: what
    `companion league --plot` and `companion history --plot` write."""
    for argv, name in ((["league"], "league.png"),
                       (["league", "--game", "tricky"], "league-tricky.png"),
                       (["history", "--game", "tricky"], "tricky-game.png")):
        drawn = companion(*argv, "--db", league_db, "--plot", str(IMAGES / name))
        assert drawn.returncode == 0, drawn.stderr
        assert (IMAGES / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
