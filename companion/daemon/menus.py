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

Given ``again`` (the same steps made afresh), a dialogue can show its menu in another
language than the one it was asked in (a seat's web page in its own): ``menu_in`` asks the
steps again inside ``using(lang)`` and chooses the same values again.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass
from typing import Any

from companion.i18n import current, using

#: Lines of menu choices that fit under the title on a 128x64 screen.
VISIBLE = 4


@dataclass
class Menu:
    """A title and (label, value) choices; ``cursor`` is the highlighted choice. ``seat``: the
    menu holds that seat's secret, so it is drawn on its screen instead of the table's."""

    title: str
    choices: Sequence[tuple[str, Any]]
    cursor: int = 0
    seat: int | None = None

    def lines(self) -> list[str]:
        """The title, then the choices around the cursor, the chosen one marked with '>'."""
        first = min(max(0, self.cursor - VISIBLE + 1), max(0, len(self.choices) - VISIBLE))
        visible = self.choices[first:first + VISIBLE]
        return [self.title] + [("> " if first + i == self.cursor else "  ") + label
                               for i, (label, _) in enumerate(visible)]

    def index_of(self, value: Any) -> int | None:
        """The choice whose value is ``value`` (the same object, or an equal one of its type)."""
        for index, (_label, offered) in enumerate(self.choices):
            if offered is value or (type(offered) is type(value) and offered == value):
                return index
        return None


Steps = Generator[Menu, Any, Any]


class Dialogue:
    """Drives a generator of menus; ``choose`` returns (finished, result). ``again`` makes
    the same steps afresh (``menu_in``)."""

    def __init__(self, steps: Steps, again: Callable[[], Steps] | None = None) -> None:
        self.steps = steps
        self.again = again
        self.chosen: list[Any] = []  # the values chosen so far, in order
        self.lang = current()  # the language of the menu shown
        self.menu: Menu = next(steps)
        self._copies: dict[str, tuple[int, Menu]] = {}  # lang -> (chosen so far, its menu)

    def turn(self, detents: int) -> None:
        """Move the cursor, wrapping round (an encoder has no end stop)."""
        self.menu.cursor = (self.menu.cursor + detents) % len(self.menu.choices)

    def choose(self) -> tuple[bool, Any]:
        value = self.menu.choices[self.menu.cursor][1]
        self.chosen.append(value)
        self.lang = current()
        try:
            self.menu = self.steps.send(value)
        except StopIteration as stop:
            return True, stop.value
        return False, None

    def menu_in(self, lang: str) -> Menu:
        """The menu shown, in ``lang``: the steps asked again in it with the same values
        chosen, the cursor on the same choice. Without ``again``, the menu as it is."""
        if self.again is None or lang == self.lang:
            return self.menu
        kept = self._copies.get(lang)
        if kept is None or kept[0] != len(self.chosen):
            try:
                with using(lang):
                    steps = self.again()
                    menu = next(steps)
                    for value in self.chosen:
                        menu = steps.send(value)
            except StopIteration:  # steps that do not ask the same again: as they are
                return self.menu
            kept = self._copies[lang] = (len(self.chosen), menu)
        menu = kept[1]
        index = menu.index_of(self.menu.choices[self.menu.cursor][1])
        menu.cursor = self.menu.cursor if index is None else index
        return menu
