"""A printable sheet of the table's ArUco markers (A4, at a given resolution).

>>> sheet = marker_sheet(dpi=100)
>>> sheet.shape
(1169, 827)
"""

from __future__ import annotations

import logging
from collections.abc import Mapping

import cv2
import numpy as np

from companion.vision.layout import CORNER_IDS
from companion.vision.markers import marker_image

A4_MM = (210.0, 297.0)
CORNER_NAMES = ("top-left", "top-right", "bottom-right", "bottom-left")
#: The pieces' markers: rows of four from 160 mm down, as many rows as fit above the ruler.
PIECE_COLUMNS, PIECE_ROWS = 4, 4

log = logging.getLogger(__name__)


def marker_sheet(dpi: int = 300, corner_mm: float = 40.0, token_mm: float = 20.0,
                 pieces: Mapping[int, str] | None = None) -> np.ndarray:
    """Corner markers (``corner_mm`` wide) and the markers the games' pieces wear
    (``token_mm``): ``pieces``, id -> its label, as the games' bundles give them."""
    px = dpi / 25.4
    w, h = round(A4_MM[0] * px), round(A4_MM[1] * px)
    sheet = np.full((h, w), 255, np.uint8)

    def place(marker_id: int, size_mm: float, x_mm: float, y_mm: float, label: str) -> None:
        side = round(size_mm * px)
        x, y = round(x_mm * px), round(y_mm * px)
        sheet[y:y + side, x:x + side] = marker_image(marker_id, side)
        cv2.putText(sheet, label, (x, y + side + round(4 * px)), cv2.FONT_HERSHEY_SIMPLEX,
                    0.09 * px, 0, max(1, round(0.2 * px)), cv2.LINE_AA)

    cv2.putText(sheet, "Dungeon Table Companion markers - print at 100%, do not scale",
                (round(15 * px), round(12 * px)), cv2.FONT_HERSHEY_SIMPLEX, 0.1 * px, 0,
                max(1, round(0.2 * px)), cv2.LINE_AA)
    for n, (marker_id, name) in enumerate(zip(CORNER_IDS, CORNER_NAMES, strict=True)):
        place(marker_id, corner_mm, 20 + (n % 2) * 95, 25 + (n // 2) * 65,
              f"{marker_id}: table {name}, this side up")
    worn = sorted((pieces or {}).items())
    if len(worn) > PIECE_COLUMNS * PIECE_ROWS:
        log.warning("the marker sheet holds %d of the games' %d piece markers",
                    PIECE_COLUMNS * PIECE_ROWS, len(worn))
    for i, (marker_id, label) in enumerate(worn[:PIECE_COLUMNS * PIECE_ROWS]):
        place(marker_id, token_mm, 20 + (i % PIECE_COLUMNS) * 45,
              160 + (i // PIECE_COLUMNS) * 35, label)
    # A 50 mm ruler: check it after printing, the markers' size matters.
    y = round(280 * px)
    cv2.line(sheet, (round(120 * px), y), (round(170 * px), y), 0, max(1, round(0.4 * px)))
    cv2.putText(sheet, "50 mm", (round(135 * px), y - round(2 * px)), cv2.FONT_HERSHEY_SIMPLEX,
                0.09 * px, 0, max(1, round(0.2 * px)), cv2.LINE_AA)
    return sheet
