"""Rumble in the Dungeon: the rules engine (``engine.py``) and its rules modules: pure Python,
no I/O. They import only ``companion.games`` (the shared ``Game`` base), ``companion.i18n``
and ``companion.errors`` (tests/test_layers.py)."""
