"""Table rectification: the four corner markers give a top-down view in millimetres (the
table's coordinates and zones: ``companion.vision.layout``)."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from companion.vision.layout import CORNER_IDS, TableLayout
from companion.vision.markers import FoundMarker, MarkerFinder


@dataclass(frozen=True)
class TableView:
    """Where the table is in one camera image: homographies both ways."""

    image_to_table: np.ndarray
    table_to_image: np.ndarray
    markers_found: int

    def to_table(self, points: np.ndarray) -> np.ndarray:
        """Image pixels (N, 2) to table millimetres (N, 2)."""
        pts = np.asarray(points, np.float32).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(pts, self.image_to_table).reshape(-1, 2)

    def to_image(self, points: np.ndarray) -> np.ndarray:
        """Table millimetres (N, 2) to image pixels (N, 2)."""
        pts = np.asarray(points, np.float32).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(pts, self.table_to_image).reshape(-1, 2)


class Rectifier:
    """Finds the corner markers and maps the image to table millimetres.

    Three of the four markers are enough (each gives four corners), so a hand resting on one
    corner does not lose the table; with fewer, the last view found is kept, since the camera
    is fixed over the table.
    """

    def __init__(self, layout: TableLayout | None = None,
                 finder: MarkerFinder | None = None) -> None:
        self.layout = layout or TableLayout()
        self.finder = finder or MarkerFinder()
        self.last_view: TableView | None = None

    def locate(self, image: np.ndarray,
               found: list[FoundMarker] | None = None) -> TableView | None:
        """The table in this image, or the last one seen if too few markers show (else None)."""
        if found is None:
            found = self.finder.find(image)
        corners = {s.marker_id: s for s in found if s.marker_id in CORNER_IDS}
        if len(corners) < 3:
            return self.last_view
        src = np.concatenate([corners[i].corners for i in sorted(corners)])
        dst = np.concatenate([self.layout.marker_corners_mm(i) for i in sorted(corners)])
        to_table, _ = cv2.findHomography(src, dst, 0)
        if to_table is None:
            return self.last_view
        self.last_view = TableView(to_table, np.linalg.inv(to_table), len(corners))
        return self.last_view

    def top_down(self, image: np.ndarray, view: TableView, px_per_mm: float = 1.0) -> np.ndarray:
        """The table seen from straight above, ``px_per_mm`` pixels per millimetre."""
        scale = np.diag([px_per_mm, px_per_mm, 1.0])
        size = (round(self.layout.width_mm * px_per_mm), round(self.layout.height_mm * px_per_mm))
        return cv2.warpPerspective(image, scale @ view.image_to_table, size)
