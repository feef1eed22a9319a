"""Hands crossing a synthetic table: an arm reaching in from behind a seat, and how it is
drawn over the frame (it hides what it covers).

Used by companion/vision/synthetic.py (which re-exports ``Hand`` and ``reach_from_seat``)
to draw a play's frames (``play_frames``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from companion.vision.layout import TableLayout

SKIN_TONES = ((120, 160, 215), (90, 125, 180), (60, 85, 125), (150, 185, 230))


@dataclass(frozen=True)
class Hand:
    """An arm reaching from outside the table edge at ``from_mm`` to ``to_mm``."""

    from_mm: tuple[float, float]
    to_mm: tuple[float, float]
    tone: int = 0


def hand_polygons(hand: Hand) -> list[np.ndarray]:
    """Arm, palm and fingers as polygons in table mm."""
    fx, fy = hand.from_mm
    tx, ty = hand.to_mm
    d = np.array([tx - fx, ty - fy], np.float64)
    length = float(np.linalg.norm(d)) or 1.0
    u = d / length
    n = np.array([-u[1], u[0]])
    arm_w = 38.0
    wrist = np.array([tx, ty]) - u * 60
    arm = np.array([np.array([fx, fy]) + n * arm_w, wrist + n * arm_w * 0.8,
                    wrist - n * arm_w * 0.8, np.array([fx, fy]) - n * arm_w])
    angle = math.degrees(math.atan2(u[1], u[0]))
    palm = cv2.ellipse2Poly((int(tx - u[0] * 20), int(ty - u[1] * 20)), (55, 45),
                            int(angle), 0, 360, 12).astype(np.float64)
    polys = [arm, palm]
    for k in (-1.5, -0.5, 0.5, 1.5):
        base = np.array([tx, ty]) + u * 15 + n * k * 20
        tip = base + u * (50 - abs(k) * 10)
        polys.append(np.array([base + n * 8, tip + n * 7, tip - n * 7, base - n * 8]))
    return polys


def draw_hand(frame: np.ndarray, labels: np.ndarray, hand: Hand,
               table_to_image: np.ndarray) -> None:
    polys = [cv2.perspectiveTransform(p.reshape(-1, 1, 2).astype(np.float32),
                                      table_to_image).astype(np.int32)
             for p in hand_polygons(hand)]
    shadow = np.zeros(frame.shape[:2], np.uint8)
    for p in polys:
        cv2.fillPoly(shadow, [p + np.int32([10, 12])], 255)
    frame[shadow > 0] *= 0.6
    skin = np.zeros(frame.shape[:2], np.uint8)
    for p in polys:
        cv2.fillPoly(skin, [p], 255)
    frame[skin > 0] = SKIN_TONES[hand.tone % len(SKIN_TONES)]
    labels[skin > 0] = -1


def outside(layout: TableLayout, edge: tuple[float, float]) -> tuple[float, float]:
    """A point beyond the table edge, behind a seat: where an arm comes from."""
    cx, cy = layout.centre_mm
    dx, dy = edge[0] - cx, edge[1] - cy
    norm = math.hypot(dx, dy) or 1.0
    return edge[0] + dx / norm * 250, edge[1] + dy / norm * 250


def reach_from_seat(layout: TableLayout, seat: int, target_mm: tuple[float, float],
                    progress: float, tone: int = 0) -> Hand:
    """A hand of ``seat`` on its way to ``target_mm``: progress 0 is outside, 1 is there."""
    start = outside(layout, layout.seat_position(seat))
    x = start[0] + (target_mm[0] - start[0]) * progress
    y = start[1] + (target_mm[1] - start[1]) * progress
    return Hand(start, (x, y), tone)
