"""The examples in the docstrings of the store, the log reader and the terminal escaping run
as written."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["companion.table.faults", "companion.table.store", "companion.table.log",
           "companion.table.check", "companion.table.session", "companion.terminal",
           "companion.daemon.dialogues", "companion.table.players", "companion.table.results",
           "companion.table.pictures"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    failed, tried = doctest.testmod(importlib.import_module(name), verbose=False)
    assert tried > 0 and failed == 0
