"""The picture a settled scene was read from: the play area seen from above, cropped to the
table outline the corner markers give, as one small JPEG, with every reading on it.

A reading is a card the recognizer named (its outline, its name, how sure it was and the
faces it looked most like) or an outline it found but could not name (left out, never
guessed). Outlines are kept in table millimetres; the picture is ``PICTURE_WIDTH`` pixels
wide, so ``px_per_mm`` turns one into the other. Anything outside the outline through the
markers' centres (a hand of cards held over the table's edge) is not in the picture.

One JPEG encode per settled scene: the camera part calls ``take`` once a scene has settled,
never while the table is still (docs/camera.md, "The camera's view").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from companion.vision.detection import Detection, intersect, near, touches
from companion.vision.finder import TableBackground
from companion.vision.layout import TableLayout
from companion.vision.library import NOT_A_CARD
from companion.vision.quads import Blob, order_corners, uncovered
from companion.vision.recognize import Recognizer
from companion.vision.table_view import TableView
from companion.vision.watch import TableWatcher

#: The picture's width in pixels (its height follows the table's proportions: 640 x 448 for
#: the default 800 x 560 mm table).
PICTURE_WIDTH = 640
#: JPEG quality of a picture; one over ``MOST_BYTES`` is encoded again at ``LOW_QUALITY``.
QUALITY = 75
LOW_QUALITY = 45
#: The bound on a picture's size (bytes).
MOST_BYTES = 48 * 1024
#: How many of the recognizer's nearest faces a reading keeps (best first).
NEAREST = 6
#: An outline left out is kept if its area is this share of a card read's (median) or more,
#: and at most the inverse; with no card read, between these areas (mm^2).
AREA_SHARE = 0.5
CARD_AREA_MM2 = (2500.0, 16000.0)


@dataclass(frozen=True)
class Reading:
    """One reading of a scene: ``item_id`` None is an outline found and not named.

    ``outline``: table mm, the face's own corner order for a card read. ``piece``: the index
    of the scene's piece it is (the detections' order), None for an outline left out.
    """

    item_id: str | None
    outline: tuple[tuple[float, float], ...]
    confidence: float
    nearest: tuple[str, ...]
    piece: int | None

    @property
    def centre_mm(self) -> tuple[float, float]:
        points = np.array(self.outline, np.float64)
        return float(points[:, 0].mean()), float(points[:, 1].mean())

    def as_json(self) -> dict:
        return {"id": self.item_id,
                "outline": [[round(x, 1), round(y, 1)] for x, y in self.outline],
                "confidence": round(self.confidence, 3), "nearest": list(self.nearest),
                "piece": self.piece}

    @classmethod
    def from_json(cls, data: dict) -> Reading:
        return cls(data["id"], tuple((float(x), float(y)) for x, y in data["outline"]),
                   float(data["confidence"]), tuple(data["nearest"]), data["piece"])


@dataclass(frozen=True)
class Picture:
    """The JPEG of the play area, its size, and the readings drawn on it."""

    jpeg: bytes
    width: int
    height: int
    px_per_mm: float
    readings: tuple[Reading, ...]

    def in_pixels(self, outline: Sequence[tuple[float, float]]) -> list[list[float]]:
        return [[round(x * self.px_per_mm, 1), round(y * self.px_per_mm, 1)] for x, y in outline]


def top_down(frame: np.ndarray, view: TableView, layout: TableLayout,
             width: int = PICTURE_WIDTH) -> tuple[np.ndarray, float]:
    """The table seen from above, cropped to the outline through the markers' centres:
    ``width`` pixels wide, and its pixels per millimetre."""
    scale = width / layout.width_mm
    size = (width, max(1, round(layout.height_mm * scale)))
    to_picture = np.diag([scale, scale, 1.0]) @ view.image_to_table
    return cv2.warpPerspective(frame, to_picture, size, flags=cv2.INTER_AREA), scale


def encode(image: np.ndarray) -> bytes:
    """One JPEG of at most ``MOST_BYTES`` (a busy picture: once more, at a lower quality)."""
    for quality in (QUALITY, LOW_QUALITY):
        ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality,
                                                cv2.IMWRITE_JPEG_OPTIMIZE, 1])
        if ok and (len(data) <= MOST_BYTES or quality == LOW_QUALITY):
            return data.tobytes()
    raise ValueError("the picture could not be encoded")


def nearest_faces(recognizer: Recognizer, frame: np.ndarray, quad: np.ndarray) -> tuple[str, ...]:
    """The enrolled faces the quad looks most like, best first (each id once)."""
    library = recognizer.library
    scores = library.index.scores(frame, quad.astype(np.float32))
    ids = dict.fromkeys(library.card_of(score.face_number) for score in scores)
    ids.pop(NOT_A_CARD, None)
    return tuple(ids)[:NEAREST]


def inside(layout: TableLayout, point: tuple[float, float]) -> bool:
    """Within the table outline and clear of the corner markers."""
    x, y = point
    if not (0 <= x <= layout.width_mm and 0 <= y <= layout.height_mm):
        return False
    reach = layout.marker_mm * 1.5
    return all(np.hypot(x - cx, y - cy) > reach for cx, cy in
               ((0, 0), (layout.width_mm, 0), (layout.width_mm, layout.height_mm),
                (0, layout.height_mm)))


def area_mm2(outline: np.ndarray) -> float:
    return float(cv2.contourArea(outline.astype(np.float32)))


def left_out(frame: np.ndarray, view: TableView, layout: TableLayout,
             detections: Sequence[Detection], recognizer: Recognizer,
             background: TableBackground | None) -> list[np.ndarray]:
    """Card-shaped outlines the card finder sees on the table where no card was read (image
    pixels): cards the recognizer left out."""
    read = [view.to_table(d.corners) for d in detections]
    areas = [area_mm2(outline) for outline in read]
    low, high = ((AREA_SHARE * float(np.median(areas)), float(np.median(areas)) / AREA_SHARE)
                 if areas else CARD_AREA_MM2)
    kept: list[np.ndarray] = []
    found = recognizer.finder.find(frame, background)
    quads = list(found.quads)
    if detections:  # cards lying against a card read: what the cards read leave of them
        quads += [q for blob in found.blobs for q in leftovers(blob, detections)]
    for quad in quads:
        outline = view.to_table(quad)
        centre = (float(outline[:, 0].mean()), float(outline[:, 1].mean()))
        if (not inside(layout, centre) or not low <= area_mm2(outline) <= high
                or not recognizer.fits_a_face(quad)):
            continue
        if any(intersect(d.corners, quad, 0.2) or near(quad, d.corners) for d in detections):
            continue
        if any(near(quad, k) or intersect(k, quad, 0.2) for k in kept):
            continue
        kept.append(order_corners(quad))
    return kept


def leftovers(blob: Blob, detections: Sequence[Detection]) -> list[np.ndarray]:
    """The card-sized parts of a blob (cards lying against each other) that the cards read
    leave uncovered, each as the smallest turned rectangle round it (image pixels)."""
    cards = [d.corners for d in detections if touches(d.corners, blob)]
    if not cards:
        return []
    left = uncovered(blob, cards, least=AREA_SHARE)
    if left is None:
        return []
    x, y = blob.box[:2]
    contours, _ = cv2.findContours(left, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    return [cv2.boxPoints(cv2.minAreaRect(c)).astype(np.float32) + np.float32([x - 1, y - 1])
            for c in contours]


def take(frame: np.ndarray, view: TableView, layout: TableLayout,
         detections: Sequence[Detection], recognizer: Recognizer,
         background: TableBackground | None = None) -> Picture:
    """The picture of a settled scene and its readings (``detections``: the frame's; those on
    the play area are the scene's pieces, in their order: ``scene.table_scene``)."""
    image, scale = top_down(frame, view, layout)
    readings: list[Reading] = []
    pieces = 0
    for detection in detections:
        centre = view.to_table(detection.centre.reshape(1, 2))[0]
        if not layout.holds((float(centre[0]), float(centre[1]))):
            continue  # beyond the play area (a hand held over the edge): not in the picture
        outline = view.to_table(detection.corners)
        readings.append(Reading(detection.item_id, _points(outline), detection.confidence,
                                nearest_faces(recognizer, frame, detection.corners), pieces))
        pieces += 1
    for quad in left_out(frame, view, layout, detections, recognizer, background):
        readings.append(Reading(None, _points(view.to_table(quad)), 0.0,
                                nearest_faces(recognizer, frame, quad), None))
    return Picture(encode(image), image.shape[1], image.shape[0], scale, tuple(readings))


def crop(picture: Picture, outlines: Sequence[Sequence[tuple[float, float]]],
         margin_mm: float = 15.0) -> bytes:
    """A JPEG of the part of the picture round ``outlines`` (table mm): what a seat's phone
    is shown of its own unsure reading, and nothing else of the table."""
    image = cv2.imdecode(np.frombuffer(picture.jpeg, np.uint8), cv2.IMREAD_COLOR)
    points = np.array([p for outline in outlines for p in outline], np.float64)
    s = picture.px_per_mm
    x0, y0 = ((points.min(axis=0) - margin_mm) * s).astype(int)
    x1, y1 = ((points.max(axis=0) + margin_mm) * s).astype(int)
    x0, y0 = max(0, x0), max(0, y0)
    x1, y1 = min(image.shape[1], max(x1, x0 + 1)), min(image.shape[0], max(y1, y0 + 1))
    ok, data = cv2.imencode(".jpg", image[y0:y1, x0:x1], [cv2.IMWRITE_JPEG_QUALITY, QUALITY])
    if not ok:
        raise ValueError("the crop could not be encoded")
    return data.tobytes()


def _points(outline: np.ndarray) -> tuple[tuple[float, float], ...]:
    return tuple((float(x), float(y)) for x, y in outline)


def settled(watcher: TableWatcher, frame: np.ndarray) -> Picture | None:
    """The picture of the scene ``watcher`` has just settled on, from ``frame`` (None if
    the table's outline was never found)."""
    view, frame_reading = watcher.rectifier.last_view, watcher.last
    if view is None or frame_reading is None:
        return None
    return take(frame, view, watcher.rectifier.layout, frame_reading.detections, watcher.recognizer,
                watcher.background)
