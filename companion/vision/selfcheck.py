"""After enrolling, the deck examines itself: its own enrolled faces are rendered into trial
scenes (cards lying apart and one partly under another, on a dark cloth and on a light,
low-contrast wood, with glare, colour casts, blur and JPEG) and read back with the
recogniser, so a deck learns which of its cards cannot be read, which it cannot tell apart
(and from which), and how sure a reading must be before the table need not be asked: the
thresholds this deck needs, measured on this deck rather than set by hand for ours.

The trials are bounded: every card lies in ``ROUNDS`` scenes of up to ``PER_SCENE`` cards
(18 scenes for a 52-card deck), read at ``TRIAL_SIZE``.

>>> from companion.vision.art import draw_face
>>> from companion.commands.game_art import game_items
>>> from companion.vision.library import CardLibrary
>>> library = CardLibrary()
>>> for item in game_items("tricky")[:6]:
...     library.add_face(item.item_id, draw_face(item))
>>> check = examine(library)
>>> check.scenes, sorted(check.trials) == sorted(library.ids)
(2, True)
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from companion.vision.art import ArtItem, face_items
from companion.vision.conditions import Conditions
from companion.vision.deals import pair
from companion.vision.detection import Detection
from companion.vision.library import CardLibrary
from companion.vision.placing import Placement, pinhole_view, spread, view_polygon
from companion.vision.recognize import Recognizer
from companion.vision.scoring import CardTruth, Tally
from companion.vision.synthetic import SceneRenderer, truth_of

#: Each card lies in this many trial scenes, each with up to this many cards.
ROUNDS = 2
PER_SCENE = 6
#: The trial frames: a camera's frame with a card about 150 px long.
TRIAL_SIZE = (1024, 768)
#: The tables of the rounds, in turn: a dark cloth, a light oak (a white card on it differs
#: from it little in lightness), a green felt.
TABLES = ("cloth", "oak", "felt")
#: Two faces at least this alike (``likeness``: small, high-passed thumbnails, 0..1) are look-
#: alikes: a card never read lying apart is named with its most alike face. The closest
#: two faces of the real dev decks are 0.81 (two Schnapsen aces) to 0.92 (the 7 and 8 of
#: hearts of the bidly faces) alike.
ALIKE = 0.9
#: Faces this alike are the same picture (two ids enrolled from one card, or a card twice):
#: no reading can tell them apart, whatever the trials gave.
SAME_PICTURE = 0.97
#: A confirmation bar is suggested this far above the surest wrong reading.
CONFIRM_ABOVE = 0.05
#: The long side of a card in the trial scenes (mm); the short side is the face's own share.
CARD_LONG_MM = 88.0


@dataclass
class CardTrials:
    """How one card fared: trials lying apart and partly covered, how often it was read
    each way, the ids it was read as instead, and the confidence of its right readings."""

    apart: int = 0
    apart_read: int = 0
    covered: int = 0
    covered_read: int = 0
    read_as: Counter[str] = field(default_factory=Counter)
    confidence: list[float] = field(default_factory=list)


@dataclass
class SelfCheck:
    """What the trials found."""

    trials: dict[str, CardTrials]
    scenes: int
    seconds: float
    #: How alike every two faces are (``likeness``), in the order of ``trials``.
    faces_alike: np.ndarray
    #: Confidence of every reading that was wrong (another card's id, or none lay there).
    wrong_confidence: list[float] = field(default_factory=list)

    @property
    def alike(self) -> dict[str, tuple[str, float]]:
        """Per card its most alike other face and how alike."""
        ids = list(self.trials)
        if len(ids) < 2:
            return {}
        others = self.faces_alike - 2 * np.eye(len(ids))
        return {card: (ids[int(others[n].argmax())], float(others[n].max()))
                for n, card in enumerate(ids)}

    def confused(self) -> list[tuple[str, str, int]]:
        """(card, the id it was read as, how often), most often first."""
        out = [(card, other, n) for card, t in self.trials.items()
               for other, n in t.read_as.items()]
        return sorted(out, key=lambda c: (-c[2], c[0], c[1]))

    def not_told_apart(self) -> list[tuple[str, str, float]]:
        """Cards read as another, never read lying apart while their face is a look-alike's
        (``ALIKE``), or the same picture as another's (``SAME_PICTURE``): (card, the other,
        how alike), each pair once."""
        seen, out = set(), []
        alike = self.alike
        for card, t in sorted(self.trials.items()):
            other, how = alike.get(card, ("", 0.0))
            if t.read_as:
                other = t.read_as.most_common(1)[0][0]
                how = self.likeness(card, other)
            elif not (how >= SAME_PICTURE or (t.apart and t.apart_read == 0 and how >= ALIKE)):
                continue
            key = frozenset((card, other))
            if key not in seen:
                seen.add(key)
                out.append((card, other, how))
        return out

    def likeness(self, card: str, other: str) -> float:
        ids = list(self.trials)
        if card not in ids or other not in ids:
            return 0.0
        return float(self.faces_alike[ids.index(card), ids.index(other)])

    def not_read(self) -> list[str]:
        """Cards never read lying apart, and not for being like another."""
        apart = {c for pair_ in self.not_told_apart() for c in pair_[:2]}
        return sorted(c for c, t in self.trials.items()
                      if t.apart and t.apart_read == 0 and c not in apart)

    def covered_not_read(self) -> list[str]:
        """Cards read lying apart but never when partly covered."""
        return sorted(c for c, t in self.trials.items()
                      if t.covered and t.covered_read == 0 and t.apart_read)

    def confirm_below(self) -> float | None:
        """A ``[vision] confirm_below`` for this deck: just above its surest wrong reading
        (None: no reading was wrong)."""
        if not self.wrong_confidence:
            return None
        return round(min(1.0, max(self.wrong_confidence) + CONFIRM_ABOVE), 2)

    def marks(self) -> dict[str, str]:
        """What the contact sheet says under a card the trials found wanting."""
        marks: dict[str, str] = {}
        for card, other, _ in self.not_told_apart():
            marks.setdefault(card, f"~ {other}")
            marks.setdefault(other, f"~ {card}")
        for card in self.not_read():
            marks[card] = "not read"
        for card in self.covered_not_read():
            marks.setdefault(card, "not read covered")
        return marks

    def lines(self) -> list[str]:
        """The report, a line each."""
        apart = sum(t.apart for t in self.trials.values())
        apart_read = sum(t.apart_read for t in self.trials.values())
        covered = sum(t.covered for t in self.trials.values())
        covered_read = sum(t.covered_read for t in self.trials.values())
        out = [f"self-check: {len(self.trials)} cards in {self.scenes} trial scenes "
               f"({self.seconds:.1f} s): read {apart_read}/{apart} lying apart, "
               f"{covered_read}/{covered} partly covered"]
        for card, other, how in self.not_told_apart():
            out.append(f"  not told apart: {card} and {other} (faces {how:.2f} alike)")
        for card, other, n in self.confused():
            out.append(f"  read as another card: {card} as {other} ({n} of "
                       f"{self.trials[card].apart + self.trials[card].covered} trials)")
        if self.not_read():
            out.append(f"  not read lying apart: {', '.join(self.not_read())}")
        if self.covered_not_read():
            out.append(f"  not read partly covered: {', '.join(self.covered_not_read())}")
        bar = self.confirm_below()
        if bar is None:
            out.append("  no reading was wrong")
        elif bar < 1.0:
            out.append(f"  wrong readings were up to {max(self.wrong_confidence):.2f} sure: "
                       f"[vision] confirm_below = {bar} asks the table about such")
        else:
            out.append("  a wrong reading was fully sure (a card named above): "
                       "[vision] confirm_below = 1.0 asks the table about every reading")
        return out


def card_items(library: CardLibrary) -> list[ArtItem]:
    """The library's faces as things to lay on a table (``face_items``), the long side
    ``CARD_LONG_MM``."""
    return face_items(list(zip(library.ids, library.faces, strict=True)), CARD_LONG_MM)


def likeness(library: CardLibrary) -> np.ndarray:
    """How alike every two faces are, 0..1: their thumbnails' lightness and colour, less
    their slow slope, correlated, the better of either way up. 1 on the diagonal."""
    rows = []
    for face in library.faces:
        small = cv2.resize(face, (24, 34), interpolation=cv2.INTER_AREA).astype(np.float32)
        lab = cv2.cvtColor(small / 255, cv2.COLOR_BGR2Lab)
        lab -= cv2.GaussianBlur(lab, (0, 0), 6)
        rows.append(lab)
    def unit(v: np.ndarray) -> np.ndarray:
        v = v.ravel() - v.mean()
        return v / max(float(np.linalg.norm(v)), 1e-6)
    upright = np.stack([unit(r) for r in rows])
    turned = np.stack([unit(r[::-1, ::-1]) for r in rows])
    return np.clip(np.maximum(upright @ upright.T, upright @ turned.T), 0, 1)


def _trial(cards: Sequence[ArtItem], rng: np.random.Generator, region: np.ndarray,
           table: Conditions) -> tuple[list[Placement], Conditions]:
    """One trial scene: the last two cards a pair (one 25-45 % under the other), the rest
    lying apart around it; the room's light, the camera's blur, noise and JPEG drawn anew
    on the round's table."""
    placed: list[Placement] = []
    if len(cards) >= 3:
        centre = tuple(float(v) for v in region.mean(axis=0))
        placed = pair(cards[-2], cards[-1], centre, rng, covered=(0.25, 0.45))
        cards = cards[:-2]
    placed += spread(cards, region, rng, placed, gap=1.15)
    cond = replace(Conditions.real(rng), surface=table.surface, table_seed=table.table_seed,
                   noise=float(rng.uniform(1, 3)),
                   specular=float(rng.uniform(0.3, 0.7)) if table.surface == "oak" else 0.0)
    return placed, cond


def examine(library: CardLibrary, seed: int = 0, rounds: int = ROUNDS,
            size: tuple[int, int] = TRIAL_SIZE) -> SelfCheck:
    """Lay every enrolled face into ``rounds`` trial scenes and read them back."""
    start = time.perf_counter()
    items = card_items(library)
    renderer = SceneRenderer(size=size)
    for item_id, face in zip(library.ids, library.faces, strict=True):
        renderer.use_face(item_id, face)
    recognizer = Recognizer(library, piles=False)
    rng = np.random.default_rng(seed)
    trials = {item.item_id: CardTrials() for item in items}
    tally = Tally()
    wrong: list[float] = []
    scenes = 0
    for round_ in range(rounds):
        # A round is one table under one fixed camera, up to 25° off straight down, as the
        # daemon's camera is; the cards and the light change from scene to scene.
        camera = pinhole_view(size, (400.0, 300.0), float(rng.uniform(1.7, 2.1)),
                              float(rng.uniform(0, 25)), float(rng.uniform(0, 360)))
        region = view_polygon(camera, size, inset=0.05)
        table = Conditions(surface=TABLES[round_ % len(TABLES)],
                           table_seed=int(rng.integers(0, 2**31)))
        order = [items[int(i)] for i in rng.permutation(len(items))]
        groups = [order[k:k + PER_SCENE] for k in range(0, len(order), PER_SCENE)]
        for group in groups:
            placed, cond = _trial(group, rng, region, table)
            scene = renderer.render(placed, rng, cond, camera, markers=False)
            cards = truth_of(scene)
            found = recognizer.recognize(scene.image)
            outcome = tally.add(f"trial-{scenes}", cards, found)
            scenes += 1
            _count(trials, cards, outcome, found, wrong)
    return SelfCheck(trials, scenes, time.perf_counter() - start, likeness(library), wrong)


def _count(trials: dict[str, CardTrials], cards: Sequence[CardTruth],
           outcome: Sequence[str | None], found: Sequence[Detection],
           wrong: list[float]) -> None:
    """Each card's trial, read or not or read as another; the confidence of every reading,
    right or wrong."""
    right = {}
    for card, got in zip(cards, outcome, strict=True):
        t = trials[card.item_id]
        if card.covered:
            t.covered += 1
            t.covered_read += got == card.item_id
        else:
            t.apart += 1
            t.apart_read += got == card.item_id
        if got is not None and got != card.item_id:
            t.read_as[got] += 1
        if got == card.item_id:
            right[card.item_id] = card
    for reading in found:
        card = right.get(reading.item_id)
        if card is not None and card.holds(reading.centre):
            trials[reading.item_id].confidence.append(float(reading.confidence))
        else:
            wrong.append(float(reading.confidence))
