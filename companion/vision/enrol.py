"""Enrolling a folder of photos: every card that can be cut out, the rest named and skipped,
a contact sheet to check the crops at a glance and, when asked, the deck's self-check
(``selfcheck.py``: its own faces read back from trial scenes), marked on the sheet.

>>> from companion.vision.art import ArtItem, draw_face
>>> faces = {"orc": draw_face(ArtItem("orc", "Orc", "2", (60, 140, 60), "card")),
...          "blank": np.zeros((400, 300, 3), np.uint8)}
>>> result = enrol_images([(name, lambda image=image: image) for name, image in faces.items()])
>>> result.library.ids, [item for item, _ in result.skipped]
(['orc'], ['blank'])
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

import cv2
import numpy as np

from companion.errors import CompanionError
from companion.vision.library import CardInPhoto, CardLibrary, face_of, look_at
from companion.vision.selfcheck import SelfCheck, examine

#: A card touching the photo's edge whose shape differs from the others' by more than this
#: share was cut by the edge: its face would be part of a card. Up to it, it is a tight crop
#: (a sliver of table left on one side, a sliver of card trimmed off another: a few per cent
#: each), whose print reads as the card's: skipping it loses the card for good, and its
#: look-alikes are then read in its place.
CUT_TOLERANCE = 0.08
#: An image that may be a card alone is one if shaped like the deck's cards within this
#: (log) share: crops of one deck differ by a few per cent; a photo of a bare table is 4:3.
DECK_SHAPE = 0.04
#: The contact sheet's colour (BGR) for a card the self-check found wanting.
MARK = (30, 30, 220)


@dataclass
class Enrolment:
    """The library enrolled, each photo skipped with the reason, and the deck's self-check
    (None unless asked for)."""

    library: CardLibrary = field(default_factory=CardLibrary)
    skipped: list[tuple[str, str]] = field(default_factory=list)
    check: SelfCheck | None = None


def enrol_images(photos: Iterable[tuple[str, Callable[[], np.ndarray]]],
                 progress: Callable[[int, str], None] | None = None,
                 check: bool = False) -> Enrolment:
    """Enrol each (id, load) in turn; one photo that fails never stops the rest. ``load``
    reads the image (a CompanionError from it skips that photo, naming why). ``check``:
    then the deck examines itself (``selfcheck.examine``, seconds for a deck of 52).

    An image that may be the card alone (a light rim, print inside) is a tight crop or a
    photo: the deck tells, since its cards share one shape. One that also holds a
    card-shaped outline is read the way (whole, or the outline) whose shape is nearer the
    shape of the cards the other images show plainly; one without is the card if shaped
    like them (a bare light table is not)."""
    result = Enrolment()
    touching: list[str] = []
    open_to_deck: list[tuple[str, CardInPhoto]] = []

    def enrol(item_id: str, in_photo: CardInPhoto, whole: bool) -> None:
        try:
            face, edge = face_of(item_id, in_photo, whole)
        except CompanionError as exc:
            result.skipped.append((item_id, str(exc)))
            return
        result.library.add_face(item_id, face)
        if edge:
            touching.append(item_id)

    plain: list[float] = []
    for done, (item_id, load) in enumerate(photos, start=1):
        try:
            in_photo = look_at(item_id, load())
        except CompanionError as exc:
            result.skipped.append((item_id, str(exc)))
        else:
            if in_photo.plain is None:
                open_to_deck.append((item_id, in_photo))
            else:
                if in_photo.plain or in_photo.outline is not None:
                    plain.append(in_photo.aspect(in_photo.plain))
                enrol(item_id, in_photo, in_photo.plain)
        if progress is not None:
            progress(done, item_id)
    deck = _deck_shape(plain, [in_photo for _, in_photo in open_to_deck])
    for item_id, in_photo in open_to_deck:
        if in_photo.outline is not None:
            whole = in_photo.surely_alone if deck is None else bool(
                abs(np.log(in_photo.aspect(True) / deck))
                < abs(np.log(in_photo.aspect(False) / deck)))
        else:
            whole = deck is not None and abs(np.log(in_photo.aspect(True) / deck)) < DECK_SHAPE
        enrol(item_id, in_photo, whole)
    _drop_cut_cards(result, touching)
    if check and len(result.library):
        result.check = examine(result.library)
    return result


def _deck_shape(plain: list[float], open_to_deck: list[CardInPhoto]) -> float | None:
    """The deck's long side over short: the median of the cards shown plainly; else, for a
    deck of crops none of which is plainly a card alone (dim, tinted), the shape most of
    them share, if three or more do; else None."""
    if plain:
        return float(np.median(plain))
    crops = [in_photo.aspect(True) for in_photo in open_to_deck if in_photo.outline is None]
    if len(crops) < 3:
        return None
    shape = float(np.median(crops))
    alike = sum(abs(np.log(a / shape)) < DECK_SHAPE for a in crops)
    return shape if alike * 2 > len(crops) else None


def _drop_cut_cards(result: Enrolment, touching: list[str]) -> None:
    """Cards touching the photo's edge that are not shaped like the cards clear of it."""
    library = result.library
    clear = [library.aspect(n) for n, i in enumerate(library.ids) if i not in touching]
    if not clear or not touching:
        return
    typical = float(np.median(clear))
    for item_id in touching:
        aspect = library.aspect(library.ids.index(item_id))
        # Only cards of the others' kind can be judged (a square tile among cards cannot).
        if abs(aspect / typical - 1) > 0.25 or abs(aspect / typical - 1) <= CUT_TOLERANCE:
            continue
        library.remove(item_id)
        result.skipped.append((item_id, f"{item_id}: the card is cut by the photo's edge "
                                        "(photograph it again with a margin all round)"))


def contact_sheet(library: CardLibrary, columns: int = 8, cell: tuple[int, int] = (140, 220),
                  marks: Mapping[str, str] | None = None) -> np.ndarray:
    """Every enrolled face, small, on grey with its id right under it: is every crop the
    whole card? (A white card's edge shows against the grey; a crop that is a shape printed
    on the card shows as that shape.) A card in ``marks`` (what the self-check found: not
    read, not told apart from another) is framed in red with the mark under its id."""
    w, h = cell
    marks = marks or {}
    label = 36 if marks else 20
    rows = max(1, -(-len(library) // columns))
    sheet = np.full((rows * (h + label), columns * w, 3), 255, np.uint8)
    for n, (item_id, face) in enumerate(zip(library.ids, library.faces, strict=True)):
        left, top = (n % columns) * w, (n // columns) * (h + label)
        cv2.rectangle(sheet, (left + 2, top + 2), (left + w - 3, top + h - 3), (160, 160, 160),
                      cv2.FILLED)
        fh, fw = face.shape[:2]
        scale = min((w - 12) / fw, (h - 12) / fh)
        small = cv2.resize(face, (max(1, round(fw * scale)), max(1, round(fh * scale))),
                           interpolation=cv2.INTER_AREA)
        x = left + (w - small.shape[1]) // 2
        y = top + (h - small.shape[0]) // 2
        sheet[y:y + small.shape[0], x:x + small.shape[1]] = small
        cv2.putText(sheet, item_id[:16], (left + 6, top + h + 14),
                    cv2.FONT_HERSHEY_SIMPLEX, 0.45, (0, 0, 0), 1, cv2.LINE_AA)
        if item_id in marks:
            cv2.rectangle(sheet, (left + 3, top + 3), (left + w - 4, top + h - 4), MARK, 3)
            cv2.putText(sheet, marks[item_id][:20], (left + 6, top + h + 30),
                        cv2.FONT_HERSHEY_SIMPLEX, 0.42, MARK, 1, cv2.LINE_AA)
    return sheet
