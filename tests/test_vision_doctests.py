"""The examples in the vision modules' docstrings run as written."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["art", "deals", "deck", "edges", "enrol", "events", "ground", "layout", "library",
           "markers", "optics", "photo", "piles", "placing", "prints", "recognize", "scoring",
           "selfcheck", "setdeck", "settle", "sheet", "sources", "standins", "suits", "surfaces",
           "synthetic", "twins", "watch"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(f"companion.vision.{name}")
    failed, tried = doctest.testmod(module, verbose=False)
    assert tried > 0 and failed == 0
