"""Dungeon Table Companion: a Raspberry Pi referee and scorekeeper for four dungeon games."""

__version__ = "0.1.0"
