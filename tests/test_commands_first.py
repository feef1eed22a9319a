"""The commands a new user tries first: ``companion rules GAME`` says how the game is played
and what the companion does before its options; no help text shows a doubled '%'."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

import pytest
from built_in import GAMES as BUILT_IN
from helpers import run

from companion.cli import build_parser


@pytest.mark.parametrize("game", BUILT_IN)
def test_rules_says_how_the_game_is_played_and_what_the_companion_does_first(capsys, game):
    code, out, _ = run(capsys, "rules", game)
    assert code == 0
    played = out.index("How it is played:")
    does = out.index("What the companion does:")
    options = out.index("Options, with their defaults")
    assert played < does < options
    summary = out[played:options]
    assert len(summary.split()) > 60  # sentences, not a heading
    assert all(len(line) <= 90 for line in summary.splitlines())
    code, out, _ = run(capsys, "rules", game, "--json")
    shown = json.loads(out)
    assert shown["played"] and shown["companion"] and shown["options"]


@pytest.mark.parametrize("game", BUILT_IN)
def test_rules_options_are_wrapped_to_the_terminal_every_word_kept(capsys, game):
    """Each option's meaning is wrapped as the summary is (at most 90 columns), not one line
    of 151; wrapped, it says every word it says in --json."""
    code, out, _ = run(capsys, "rules", game)
    options = out[out.index("Options, with their defaults"):]
    assert code == 0 and all(len(line) <= 90 for line in options.splitlines()), options
    code, raw, _ = run(capsys, "rules", game, "--json")  # the words, unwrapped
    for option in json.loads(raw)["options"].values():
        assert " ".join(option["help"].split()) in " ".join(options.split())


def every_parser(monkeypatch) -> list[argparse.ArgumentParser]:
    """The command line's parser and every command's, through argparse's public interface:
    each ``add_subparsers`` call is recorded as the parser is built."""
    groups = []
    add_subparsers = argparse.ArgumentParser.add_subparsers

    def recorded(self, **kwargs):
        group = add_subparsers(self, **kwargs)
        groups.append(group)
        return group

    monkeypatch.setattr(argparse.ArgumentParser, "add_subparsers", recorded)
    root = build_parser()
    return [root, *(child for group in groups for child in group.choices.values())]


def test_no_help_text_prints_a_doubled_percent_sign(monkeypatch):
    helps = [parser.format_help() for parser in every_parser(monkeypatch)]
    assert len(helps) > 20
    assert not [text.splitlines()[0] for text in helps if "%%" in text]


def test_vision_markers_help_says_print_at_100_percent():
    done = subprocess.run([sys.executable, "-m", "companion.cli", "vision", "markers", "--help"],
                          capture_output=True, text=True)
    assert done.returncode == 0
    text = " ".join(done.stdout.split())
    assert "Print at 100%." in text and "%%" not in text
