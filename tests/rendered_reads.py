"""One photo of a rendered set (``companion.vision.standins``) and its deck enrolled, kept
for the tests that read it with a rule and without it."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

import numpy as np

from companion.vision.enrol import enrol_images
from companion.vision.faces import FaceIndex
from companion.vision.library import CardLibrary
from companion.vision.recognize import Recognizer
from companion.vision.standins import RenderedPhoto, RenderedSet


@cache
def rendered(make: Callable[..., RenderedSet], seed: int, photo: int
             ) -> tuple[CardLibrary, RenderedPhoto]:
    """The deck as ``make`` enrols it with this seed, and its photo ``photo``."""
    made = make(np.random.default_rng(seed), photos=photo + 1)
    return enrol_images(made.enrol).library, made.photos[photo]


def read_at(make: Callable[..., RenderedSet], seed: int, photo: int, card: str) -> list[str]:
    """The cards read whose centre lies in ``card``'s box in that photo."""
    library, shot = rendered(make, seed, photo)
    x0, y0, x1, y1 = next(c.box for c in shot.cards if c.item_id == card)
    read = Recognizer(library, piles=False).recognize(shot.image)
    return sorted(d.item_id for d in read
                  if x0 <= d.corners[:, 0].mean() <= x1 and y0 <= d.corners[:, 1].mean() <= y1)


def first_shortlist_only(monkeypatch) -> None:
    """A close call lined up is scored again on its first shortlist and the faces most alike
    only, not also on those the print lined up shortlists itself (``FaceIndex.scores``'
    ``besides``), as before that was so: a counterfactual half built then shows its
    invention again."""
    scores = FaceIndex.scores

    def only_those(self, *args, besides=(), **kwargs):
        return (scores(self, *args, only=list(besides), **kwargs) if besides
                else scores(self, *args, **kwargs))

    monkeypatch.setattr(FaceIndex, "scores", only_those)
