"""The examples in the language and voice modules' docstrings run as written."""

import doctest
import importlib

import pytest

from companion.i18n import DEFAULT, use

MODULES = ["companion.i18n", "companion.i18n.choice", "companion.i18n.names",
           "companion.voice.announce", "companion.voice.speaker", "companion.screens.canvas",
           "companion.screens.common"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    use(DEFAULT)
    failed, tried = doctest.testmod(importlib.import_module(name), verbose=False)
    assert tried and not failed
