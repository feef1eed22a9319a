"""The marked play area: its size in millimetres, its seats' zones and its centre.

Table coordinates: x to the right, y towards seat 0, in millimetres, with the centres of
corner markers 0, 1, 2, 3 at (0, 0), (width, 0), (width, height), (0, height). Seats sit
clockwise around the edge starting from seat 0 at the middle of the bottom edge; each owns the
wedge of table nearest to it, and the central rectangle is the shared centre.

Plain geometry, without OpenCV: the config is checked against it when the camera is off too.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from companion.errors import ConfigError

if TYPE_CHECKING:
    import numpy as np

#: The ArUco ids of the table's corner markers, clockwise from top-left as seen by the camera
#: mounted over seat 0's far side.
CORNER_IDS = (0, 1, 2, 3)


@dataclass(frozen=True)
class TableLayout:
    """Size of the marked table area, its seats and its centre.

    >>> layout = TableLayout(seats=4)
    >>> layout.zone_of((400, 540)), layout.zone_of((400, 280))
    (0, None)
    """

    width_mm: float = 800.0
    height_mm: float = 560.0
    marker_mm: float = 40.0
    seats: int = 4
    #: Fraction of the width and height that the centre rectangle spans.
    centre_fraction: float = 0.4

    def __post_init__(self) -> None:
        if not (self.width_mm > 0 and self.height_mm > 0):
            raise ConfigError("vision: table width_mm and height_mm must be positive")
        if not 0 < self.marker_mm < min(self.width_mm, self.height_mm) / 4:
            raise ConfigError("vision: marker_mm must be positive and small beside the table")
        if not 1 <= self.seats <= 8:
            raise ConfigError(f"vision: seats must be 1..8, not {self.seats}")
        if not 0 < self.centre_fraction < 1:
            raise ConfigError("vision: centre_fraction must be between 0 and 1")

    @property
    def centre_mm(self) -> tuple[float, float]:
        return self.width_mm / 2, self.height_mm / 2

    def seat_angle(self, seat: int) -> float:
        """Direction of a seat from the centre, radians; y points down, so growing is clockwise."""
        return math.pi / 2 + 2 * math.pi * seat / self.seats

    def seat_position(self, seat: int) -> tuple[float, float]:
        """Where a seat's wedge meets the table edge."""
        cx, cy = self.centre_mm
        angle = self.seat_angle(seat)
        dx, dy = math.cos(angle), math.sin(angle)
        # Walk from the centre to the rectangle's border along the seat's direction.
        reach = min(cx / abs(dx) if abs(dx) > 1e-9 else math.inf,
                    cy / abs(dy) if abs(dy) > 1e-9 else math.inf)
        return cx + dx * reach, cy + dy * reach

    def holds(self, point: tuple[float, float]) -> bool:
        """Is a table point on the play area, within the outline through the corner markers'
        centres? (A card held beyond it, e.g. a hand over the table's edge, is not played.)"""
        return 0 <= point[0] <= self.width_mm and 0 <= point[1] <= self.height_mm

    def in_centre(self, point: tuple[float, float]) -> bool:
        cx, cy = self.centre_mm
        return (abs(point[0] - cx) <= self.width_mm * self.centre_fraction / 2
                and abs(point[1] - cy) <= self.height_mm * self.centre_fraction / 2)

    def zone_of(self, point: tuple[float, float]) -> int | None:
        """The seat whose zone holds a table point, or None for the centre."""
        if self.in_centre(point):
            return None
        cx, cy = self.centre_mm
        # Normalise by the table's proportions so wedges split a long table fairly.
        angle = math.atan2((point[1] - cy) / self.height_mm, (point[0] - cx) / self.width_mm)
        step = 2 * math.pi / self.seats
        return round(((angle - math.pi / 2) % (2 * math.pi)) / step) % self.seats

    def marker_corners_mm(self, marker_id: int) -> np.ndarray:
        """The four corners of a corner marker in table mm, in ArUco corner order (numpy is
        loaded here: only the camera asks)."""
        import numpy as np

        x, y = [(0, 0), (self.width_mm, 0), (self.width_mm, self.height_mm),
                (0, self.height_mm)][CORNER_IDS.index(marker_id)]
        h = self.marker_mm / 2
        return np.array([[x - h, y - h], [x + h, y - h], [x + h, y + h], [x - h, y + h]],
                        np.float32)
