"""Readings scored against where the cards truly lie: read, missed, covered, invented, and
which card was read as which.

A reading counts for the card of its id whose box (the card's part in view) holds the
reading's centre; anything else is *invented*, and an invented reading whose centre lies on
a card of another id not read is that card *confused* with the id read. The same rule as the
real sets' benchmark (``benchmarks/vision.py --real``), so rendered and real figures compare.

>>> from types import SimpleNamespace as Seen
>>> tally = Tally()
>>> cards = [CardTruth("7clubs", (0, 0, 100, 140)), CardTruth("8clubs", (200, 0, 300, 140))]
>>> got = [Seen(item_id="7clubs", centre=np.array([50.0, 70.0])),
...        Seen(item_id="7clubs", centre=np.array([250.0, 70.0]))]
>>> tally.add("photo", cards, got)
['7clubs', '7clubs']
>>> tally.read, tally.invented, dict(tally.confused)
(1, 1, {('8clubs', '7clubs'): 1})
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np


class CardReading(Protocol):
    """What a reading needs to be scored (a ``Detection`` is one)."""

    item_id: str

    @property
    def centre(self) -> np.ndarray: ...


@dataclass(frozen=True)
class CardTruth:
    """A card in a picture: its id, the box (x0, y0, x1, y1) of its part in view where
    known, and whether it is partly covered (under 90 % of it in view)."""

    item_id: str
    box: tuple[float, float, float, float] | None = None
    covered: bool = False

    def holds(self, point: Sequence[float]) -> bool:
        if self.box is None:
            return True
        x0, y0, x1, y1 = self.box
        return x0 <= point[0] <= x1 and y0 <= point[1] <= y1


@dataclass
class Tally:
    """Figures over a set of pictures."""

    cards: int = 0
    read: int = 0
    covered: int = 0
    covered_read: int = 0
    invented: int = 0
    missed: list[str] = field(default_factory=list)
    wrong: list[str] = field(default_factory=list)
    #: (the card lying there, the id it was read as): how often.
    confused: Counter[tuple[str, str]] = field(default_factory=Counter)

    @property
    def share(self) -> float:
        """Cards read, in per cent."""
        return 100.0 * self.read / max(self.cards, 1)

    @property
    def covered_share(self) -> float:
        return 100.0 * self.covered_read / max(self.covered, 1)

    def add(self, name: str, cards: Sequence[CardTruth], readings: Sequence[CardReading],
            scale: float = 1.0) -> list[str | None]:
        """Score one picture's readings (their centres divided by ``scale`` to reach the
        truth's pixels); per card, the id it was read as (its own when read) or None."""
        outcome: list[str | None] = [None] * len(cards)
        wrong = []
        for reading in readings:
            centre = np.asarray(reading.centre, float) / scale
            match = [i for i, c in enumerate(cards) if outcome[i] is None
                     and c.item_id == reading.item_id and c.holds(centre)]
            if match:
                outcome[match[0]] = reading.item_id
            else:
                wrong.append((reading.item_id, centre))
        for item_id, centre in wrong:
            self.invented += 1
            self.wrong.append(f"{name}:{item_id}@{centre[0]:.0f},{centre[1]:.0f}")
            under = [i for i, c in enumerate(cards) if outcome[i] is None
                     and c.box is not None and c.holds(centre)]
            if under:
                # The smallest box holding it: the card on top where boxes overlap.
                i = min(under, key=lambda k: _area(cards[k].box))
                outcome[i] = item_id
                self.confused[(cards[i].item_id, item_id)] += 1
        for card, got in zip(cards, outcome, strict=True):
            self.cards += 1
            self.covered += card.covered
            right = got == card.item_id
            self.read += right
            self.covered_read += card.covered and right
            if not right:
                self.missed.append(f"{name}:{card.item_id}{'(covered)' if card.covered else ''}")
        return outcome


def _area(box: tuple[float, float, float, float] | None) -> float:
    return 0.0 if box is None else (box[2] - box[0]) * (box[3] - box[1])
