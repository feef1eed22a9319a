"""The firmware's encoder decoding and debouncing: scripted edges under MicroPython and
CPython, and properties over random turns and bounces (CPython, Hypothesis)."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

FIRMWARE = Path(__file__).resolve().parent.parent / "firmware"
MICROPYTHON = Path(sys.executable).parent / "micropython"
INTERPRETERS = [pytest.param(sys.executable, id="cpython"),
                pytest.param(str(MICROPYTHON), id="micropython")]


def firmware_module(name: str) -> ModuleType:
    """A firmware module loaded from its file, under a name that clashes with nothing."""
    spec = importlib.util.spec_from_file_location(f"firmware_{name}", FIRMWARE / f"{name}.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


quadrature = firmware_module("quadrature")
debounce = firmware_module("debounce")

# The quadrature cycle clockwise from rest (both pins high).
CYCLE = ((1, 1), (0, 1), (0, 0), (1, 0))


def run_check(interpreter: str, script: str) -> str:
    result = subprocess.run([interpreter, str(FIRMWARE / "tests" / script)],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


@pytest.mark.parametrize("interpreter", INTERPRETERS)
def test_scripted_edges_pass_under_both_interpreters(interpreter: str) -> None:
    assert run_check(interpreter, "check_logic.py") == "ok 14"


@pytest.mark.parametrize("interpreter", INTERPRETERS)
def test_main_loop_serves_simulated_pins_to_the_host_under_both(interpreter: str) -> None:
    assert run_check(interpreter, "check_loop.py") == "ok 4"


def test_main_py_builds_the_hub_from_config_pins_under_micropython() -> None:
    # main.py imports MicroPython's own modules, so it runs under MicroPython only.
    assert run_check(str(MICROPYTHON), "check_main.py") == "ok 2"


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from([-1, 1]), max_size=200), st.data())
def test_any_walk_back_to_rest_counts_its_net_detents(steps: list[int], data) -> None:
    """Quarter steps either way, with bounces, ending at rest: detents = net quarters / 4."""
    dial = quadrature.Quadrature()
    position = 0
    for step in steps:
        position += step
        dial.update(*CYCLE[position % 4])
    # Come back to rest the short way.
    while position % 4:
        position += 1 if position % 4 >= 2 else -1
        dial.update(*CYCLE[position % 4])
    assert dial.take() == position // 4
    assert dial.skipped == 0


@settings(max_examples=200, deadline=None)
@given(st.integers(-30, 30), st.lists(st.integers(0, 2), min_size=1, max_size=8))
def test_fast_turn_with_missed_edges_loses_no_detent(detents: int, skips: list[int]) -> None:
    """Turning steadily one way, missing one state now and then, still counts every detent.

    The first edge is never missed: a skipped state is read as continuing the last direction.
    """
    dial = quadrature.Quadrature()
    direction = 1 if detents >= 0 else -1
    position = 0
    skip = 0
    while position != 4 * detents:
        stride = 2 if skip and skips[skip % len(skips)] == 2 else 1
        if abs(4 * detents - position) < stride:
            stride = 1
        skip += 1
        position += stride * direction
        dial.update(*CYCLE[position % 4])
    assert dial.take() == detents


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 1), st.integers(1, 9)), max_size=40))
def test_bounces_shorter_than_settle_time_never_press(spikes: list[tuple[int, int]]) -> None:
    button = debounce.Debouncer(pressed=0, settle_ms=10)
    now = 0
    for level, duration in spikes:
        for _ in range(duration):
            assert button.update(level, now) is None
            now += 1
        assert button.update(1, now) is None
        now += 1


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(1, 2000), min_size=1, max_size=20))
def test_presses_and_releases_alternate_and_hold_comes_once(durations: list[int]) -> None:
    button = debounce.Debouncer(pressed=0, settle_ms=10, hold_ms=800)
    now = 0
    kinds = []
    for index, duration in enumerate(durations):
        level = index % 2
        for _ in range(duration):
            event = button.update(level, now)
            if event:
                kinds.append(event[0])
            now += 1
    edges = [kind for kind in kinds if kind != "hold"]
    assert edges == ["press", "release"] * (len(edges) // 2) + ["press"] * (len(edges) % 2)
    assert kinds.count("hold") <= kinds.count("press")
