"""A broken plug-in cannot stop the companion (issue 53): games declared by installed
distributions that raise on import, call ``sys.exit(3)``, have a ``name`` that raises, or
declare a built-in game's name and fail, or break the contract of a game (a part missing, a
wrong type), are each said in one line naming the game and its distribution (and the part)
and left out; every command and the daemon run on.

The plug-ins are real distributions as ``importlib.metadata`` finds them: a ``.dist-info``
folder with ``entry_points.txt`` on ``PYTHONPATH``, in front of the installed companion (the
commands run outside the checkout, whose egg-info would come first)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

LOGS = Path(__file__).parent / "logs"
#: name -> (distribution, module source, the words its line must hold)
PLUGINS = {
    "broken": ("broken-game", "raise RuntimeError('boom at import')\n",
               "RuntimeError: boom at import"),
    "exiting": ("exiting-game", "import sys\nsys.exit(3)\n", "SystemExit: 3"),
    "nameless": ("nameless-game",
                 "class Bundle:\n"
                 "    @property\n"
                 "    def name(self):\n"
                 "        raise ValueError('no name today')\n"
                 "BUNDLE = Bundle()\n",
                 "ValueError: no name today"),
    # Declares a built-in game's name (and is found first, being first on the path): left
    # out, the built-in game played.
    "tricky": ("tricky-remake", "def broken(:\n", "SyntaxError"),
    # Break the contract of a game (companion.games.spec): a part missing, a wrong type.
    "partless": ("partless-game",
                 "from companion.bundles.tricky.rules.engine import Tricky\n"
                 "class Bundle:\n"
                 "    name = 'partless'\n"
                 "    engine = Tricky\n"
                 "BUNDLE = Bundle()\n",
                 "its part 'screens' is missing"),
    "mistyped": ("mistyped-game",
                 "from companion.games.lazy import Lazy\n"
                 "from companion.games.spec import Bundle\n"
                 "BUNDLE = Bundle(name='mistyped', engine=int, screens=Lazy('json'))\n",
                 "its part 'engine' is the class int, not type[Game]"),
}


def install(site: Path) -> None:
    for game, (dist, source, _) in PLUGINS.items():
        module = dist.replace("-", "_")
        (site / f"{module}.py").write_text(source)
        info = site / f"{module}-1.0.dist-info"
        info.mkdir()
        (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: 1.0\n")
        (info / "entry_points.txt").write_text(f"[companion.games]\n{game} = {module}:BUNDLE\n")


@pytest.fixture(scope="module")
def plugged(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    site = tmp_path_factory.mktemp("site")
    install(site)
    # In front of the path the tests run with (a checkout's own, where it gives one).
    return {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(site), *filter(None, [os.environ.get("PYTHONPATH")])])}


def companion(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    # Run outside the checkout: its egg-info would be found before the plug-ins.
    return subprocess.run([sys.executable, "-m", "companion.cli", *args], capture_output=True,
                          text=True, timeout=600, env=env, stdin=subprocess.DEVNULL,
                          cwd=Path(env.get("PYTHONPATH", "/").split(os.pathsep)[0]).parent)


def said(stderr: str, game: str) -> list[str]:
    """The lines of ``stderr`` that name the plug-in of ``game``."""
    dist, _, words = PLUGINS[game]
    return [line for line in stderr.splitlines()
            if f"the game {game!r} ({dist} 1.0: " in line and words in line]


def assert_only_said(done: subprocess.CompletedProcess[str], games: list[str]) -> None:
    assert done.returncode == 0, done.stderr[-3000:]
    assert "Traceback" not in done.stderr, done.stderr[-3000:]
    for game in games:
        assert len(said(done.stderr, game)) == 1, (game, done.stderr)
    told = [line for line in done.stderr.splitlines() if line.startswith("companion:")]
    assert len(told) == len(games), done.stderr  # nothing else said (the demo's progress aside)


def test_the_daemon_fed_a_game_runs_on_and_says_each_broken_plugin_once(plugged, tmp_path):
    log = LOGS / "tricky" / "standard-4.jsonl"
    short = tmp_path / "short.jsonl"
    short.write_text("".join(log.read_text().splitlines(keepends=True)[:12]))
    db = str(tmp_path / "table.db")
    done = companion(plugged, "run", "--sim", "--feed", str(short), "--db", db)
    assert_only_said(done, list(PLUGINS))
    exported = companion(plugged, "export", "--db", db)
    assert exported.stdout.splitlines() == short.read_text().splitlines()


def test_the_demo_runs_on(plugged, tmp_path):
    done = companion(plugged, "demo", "--quick", "traps", "--out", str(tmp_path / "out"))
    assert_only_said(done, list(PLUGINS))
    assert done.stdout.startswith("traps: ")


@pytest.mark.parametrize("args", [("rules", "tricky"), ("replay", str(LOGS / "tricky" /
                                                                   "standard-4.jsonl"))],
                         ids=["rules", "replay"])
def test_a_command_of_a_game_some_plugin_also_declares_plays_the_one_that_loads(plugged, args):
    done = companion(plugged, *args)
    assert_only_said(done, ["tricky"])
    assert done.stdout == companion({**os.environ}, *args).stdout  # the built-in game's


@pytest.mark.parametrize("game", ["broken", "exiting", "nameless", "partless", "mistyped"])
def test_asking_for_a_broken_game_is_one_line_and_exit_2(plugged, game):
    done = companion(plugged, "rules", game)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert len(done.stderr.splitlines()) == 1 and said(done.stderr, game), done.stderr
