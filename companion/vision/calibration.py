"""The calibration picture: a camera frame with what the vision pipeline sees drawn on it
(``companion vision calibrate``)."""

from __future__ import annotations

import cv2
import numpy as np

from companion.vision.sources import CameraError, Picamera2Source
from companion.vision.watch import FrameReading, TableWatcher


def grab(camera: str) -> np.ndarray:
    """One frame: a still of the Pi's CSI camera ('picamera'), or of V4L2 camera N."""
    if camera == "picamera":
        source = Picamera2Source()
        source.open()  # a CameraError saying what to install if Picamera2 is missing
        try:
            frame = source.still()
        finally:
            source.close()
        if frame is None:
            raise CameraError("the Pi camera gave no still")
        return frame
    if not camera.isdigit():
        raise CameraError(f"--camera {camera}: give a camera number (USB) or 'picamera'")
    capture = cv2.VideoCapture(int(camera))
    ok, frame = capture.read()
    capture.release()
    if not ok:
        raise CameraError(f"camera {camera}: no frame (the Pi's CSI camera: --camera picamera)")
    return frame


def draw_calibration(frame: np.ndarray, watcher: TableWatcher,
                     frame_reading: FrameReading) -> np.ndarray:
    """The frame with corner markers, table outline, seat zones, centre and detections."""
    out = frame.copy()
    found = watcher.finder.find(frame)
    middle = np.float32([frame.shape[1] / 2, frame.shape[0] / 2])
    for marker in found:
        # Outline and label beside the marker, away from the middle of the picture: the
        # marker itself stays as printed (and still reads in this picture).
        centre = marker.centre
        grown = centre + (marker.corners - centre) * 1.6
        cv2.polylines(out, [grown.astype(np.int32)], True, (0, 0, 255), 2)
        away = centre - middle
        away = away / (float(np.linalg.norm(away)) + 1e-6)
        reach = 1.2 * float(np.linalg.norm(marker.corners[0] - marker.corners[2]))
        x, y = (centre + away * reach).astype(int)
        label(out, f"marker {marker.marker_id}", (int(x) - 40, int(y)), (0, 0, 255))
    view = watcher.rectifier.last_view
    layout = watcher.rectifier.layout
    if view is not None:
        w, h = layout.width_mm, layout.height_mm
        outline = view.to_image(np.float32([[0, 0], [w, 0], [w, h], [0, h]]))
        cv2.polylines(out, [outline.astype(np.int32)], True, (0, 255, 255), 2)
        cx, cy = layout.centre_mm
        f = layout.centre_fraction / 2
        centre = view.to_image(np.float32([[cx - w * f, cy - h * f], [cx + w * f, cy - h * f],
                                           [cx + w * f, cy + h * f], [cx - w * f, cy + h * f]]))
        cv2.polylines(out, [centre.astype(np.int32)], True, (255, 255, 0), 2)
        top_left = centre.min(axis=0).astype(int)
        label(out, "centre", (int(top_left[0]) + 6, int(top_left[1]) + 22), (255, 255, 0))
        for seat in range(layout.seats):
            x, y = view.to_image(np.float32([layout.seat_position(seat)]))[0]
            cv2.circle(out, (int(x), int(y)), 8, (255, 0, 255), -1)
            label(out, f"seat {seat + 1}", (int(x) + 10, int(y)), (255, 0, 255))
    for detection in frame_reading.detections:
        cv2.polylines(out, [detection.corners.astype(np.int32)], True, (0, 255, 0), 2)
        x, y = detection.centre
        label(out, detection.item_id, (int(x) - 20, int(y)), (0, 255, 0))
    return out


def label(image: np.ndarray, text: str, at: tuple[int, int],
          colour: tuple[int, int, int]) -> tuple[int, int, int, int]:
    """Text on a dark band, readable on any table, its left end at ``at`` (the baseline) or
    moved in as far as it takes to keep it whole inside the image (a marker at the edge is
    labelled "marker 0", not "arker 0"); the band's box (left, top, right, bottom)."""
    (w, h), base = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, 0.6, 2)
    height, width = image.shape[:2]
    x = min(max(at[0], 5), width - w - 6)  # the band 2 px in from every edge
    y = min(max(at[1], h + 6), height - base - 5)
    box = (x - 3, y - h - 4, x + w + 3, y + base + 2)
    cv2.rectangle(image, box[:2], box[2:], (0, 0, 0), -1)
    cv2.putText(image, text, (x, y), cv2.FONT_HERSHEY_SIMPLEX, 0.6, colour, 2, cv2.LINE_AA)
    return box
