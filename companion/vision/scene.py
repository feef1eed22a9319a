"""What lies on the table, in table millimetres: the link between pixels and events."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

import numpy as np

from companion.vision.layout import TableLayout
from companion.vision.markers import FoundMarker
from companion.vision.recognize import Detection
from companion.vision.table_view import TableView


@dataclass(frozen=True)
class Piece:
    """A recognised card or tile: its id, where it lies (mm) and whose zone that is."""

    item_id: str
    centre_mm: tuple[float, float]
    zone: int | None  # a seat, or None for the centre
    #: The outline on the table (mm, the face's own corner order), when it was seen.
    corners_mm: tuple[tuple[float, float], ...] = field(default=(), compare=False)


@dataclass(frozen=True)
class TableScene:
    """Cards and tiles, and the markers of the pieces (marker id -> table mm), of one frame."""

    pieces: tuple[Piece, ...]
    markers: tuple[tuple[int, tuple[float, float]], ...] = ()

    def key(self) -> frozenset:
        """What must stay the same for the scene to count as still: ids by zone, markers by
        the 20 mm cell they stand in (a nudge within a cell is not a move)."""
        counts = Counter((p.item_id, p.zone) for p in self.pieces)
        cards = {(item, zone, n) for (item, zone), k in counts.items() for n in range(k)}
        cells = {("marker", m, round(x / 20), round(y / 20)) for m, (x, y) in self.markers}
        return frozenset(cards | cells)


def table_scene(detections: list[Detection], found: list[FoundMarker],
                view: TableView, layout: TableLayout) -> TableScene:
    """Detections and the pieces' markers found in a frame, placed on the table.
    Only the cards on the play area are pieces (``TableLayout.holds``): one held beyond its
    outline is no one's play, and the pieces are the detections on it, in their order."""
    pieces = []
    if detections:
        centres = view.to_table(np.array([d.centre for d in detections]))
        for detection, (x, y) in zip(detections, centres, strict=True):
            point = (float(x), float(y))
            if not layout.holds(point):
                continue
            outline = tuple((float(a), float(b)) for a, b in view.to_table(detection.corners))
            pieces.append(Piece(detection.item_id, point, layout.zone_of(point), outline))
    markers = []
    if found:
        centres = view.to_table(np.array([s.centre for s in found]))
        markers = [(s.marker_id, (float(x), float(y)))
                   for s, (x, y) in zip(found, centres, strict=True)]
    return TableScene(tuple(pieces), tuple(sorted(markers)))
