"""Menus on the table screen, driven by one encoder and its push switch.

A multi-step dialogue (pick a game, enter a move by hand) is written as a generator that
yields ``Menu`` objects and receives the value chosen in each; ``Dialogue`` drives it with
the encoder: a detent moves the cursor, a press chooses, a long press leaves.

>>> def ask():
...     colour = yield Menu("Colour", [("red", "red"), ("blue", "blue")])
...     return colour
>>> dialogue = Dialogue(ask())
>>> dialogue.turn(+1)
>>> dialogue.choose()
(True, 'blue')
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from dataclasses import dataclass
from typing import Any

#: Lines of menu entries that fit under the title on a 128x64 screen.
VISIBLE = 4


@dataclass
class Menu:
    """A title and (label, value) entries; ``cursor`` is the highlighted entry. ``seat``: the
    menu holds that seat's secret, so it is drawn on its screen instead of the table's."""

    title: str
    entries: Sequence[tuple[str, Any]]
    cursor: int = 0
    seat: int | None = None

    def lines(self) -> list[str]:
        """The title, then the entries around the cursor, the chosen one marked with '>'."""
        first = min(max(0, self.cursor - VISIBLE + 1), max(0, len(self.entries) - VISIBLE))
        shown = self.entries[first:first + VISIBLE]
        return [self.title] + [("> " if first + i == self.cursor else "  ") + label
                               for i, (label, _) in enumerate(shown)]


Steps = Generator[Menu, Any, Any]


class Dialogue:
    """Drives a generator of menus; ``choose`` returns (finished, result)."""

    def __init__(self, steps: Steps) -> None:
        self.steps = steps
        self.menu: Menu = next(steps)

    def turn(self, detents: int) -> None:
        """Move the cursor, wrapping round (an encoder has no end stop)."""
        self.menu.cursor = (self.menu.cursor + detents) % len(self.menu.entries)

    def choose(self) -> tuple[bool, Any]:
        value = self.menu.entries[self.menu.cursor][1]
        try:
            self.menu = self.steps.send(value)
        except StopIteration as stop:
            return True, stop.value
        return False, None

    def title_and_lines(self) -> tuple[str, tuple[str, ...]]:
        lines = self.menu.lines()
        return lines[0], tuple(lines[1:])
