"""``companion vision``: enroll, recognize, calibrate, markers, art (CONTRACT.md section 2)."""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

from companion.errors import CompanionError
from companion.vision.art import GAMES, draw_face, game_items
from companion.vision.enrol import contact_sheet, enrol_images
from companion.vision.library import CardLibrary
from companion.vision.recognize import Recognizer
from companion.vision.sheet import marker_sheet
from companion.vision.sources import IMAGE_SUFFIXES, read_image, read_image_scaled
from companion.vision.table import TableLayout
from companion.vision.watch import TableWatcher


class VisionError(CompanionError):
    """A vision command that cannot do what it was asked."""


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    vision = subparsers.add_parser(
        "vision", help="the overhead camera: enrol cards, recognise them, calibrate",
        description="Recognise the table's own cards and tiles with the overhead camera.")
    commands = vision.add_subparsers(dest="vision_command", metavar="COMMAND", required=True)

    enroll = commands.add_parser(
        "enroll", help="build a card library from photos",
        description="Every image file in the folder is one card or tile photographed alone; "
                    "its file name without extension is its id. A photo with no card, or "
                    "with the card cut by its edge, is skipped and named; a contact sheet "
                    "of what was enrolled is written beside the library.")
    enroll.add_argument("images", metavar="IMAGES_DIR")
    enroll.add_argument("--out", metavar="LIBRARY", required=True, help="library file (.npz)")
    enroll.add_argument("--sheet", metavar="PNG",
                        help="contact sheet of the enrolled faces (default: LIBRARY.sheet.png)")
    enroll.set_defaults(func=run_enroll)

    recognize = commands.add_parser(
        "recognize", help="find enrolled cards and tiles in images",
        description="Find every enrolled card or tile in each image. A card that is not "
                    "clearly one of the enrolled ones is left out, not guessed.")
    recognize.add_argument("--library", metavar="LIBRARY", required=True)
    recognize.add_argument("images", metavar="IMAGE", nargs="+")
    recognize.add_argument("--json", action="store_true", help="print a JSON array")
    recognize.set_defaults(func=run_recognize)

    calibrate = commands.add_parser(
        "calibrate", help="draw what the camera sees: markers, zones, detections",
        description="Write an image of a camera frame with the corner markers, the table "
                    "outline, the seat zones and the recognised cards drawn on it.")
    source = calibrate.add_mutually_exclusive_group(required=True)
    source.add_argument("--image", metavar="IMAGE", help="a photo from the camera")
    source.add_argument("--camera", metavar="N|picamera",
                        help="grab one frame: of USB camera N (V4L2), or with 'picamera' a "
                             "still of the Pi's CSI camera (Picamera2)")
    calibrate.add_argument("--library", metavar="LIBRARY", help="also draw recognised cards")
    calibrate.add_argument("--out", metavar="PNG", required=True)
    calibrate.add_argument("--seats", type=int, default=4)
    calibrate.add_argument("--width-mm", type=float, default=800.0,
                           help="distance between the left and right marker centres")
    calibrate.add_argument("--height-mm", type=float, default=560.0,
                           help="distance between the top and bottom marker centres")
    calibrate.set_defaults(func=run_calibrate)

    markers = commands.add_parser(
        "markers", help="write the printable ArUco marker sheet (A4)",
        description="Corner markers 0-3 for the table, 10-21 for the Rumble characters, "
                    "30 for the chest. Print at 100%.")  # not %-formatted
    markers.add_argument("--out", metavar="PNG", required=True)
    markers.add_argument("--dpi", type=int, default=300)
    markers.set_defaults(func=run_markers)

    art = commands.add_parser(
        "art", help="write the demo art set of a game (one image per card or tile)",
        description="Procedurally drawn faces for every card or tile id of a game, for the "
                    "demo and for trying the camera without the real cards.")
    art.add_argument("game", choices=GAMES)
    art.add_argument("--out", metavar="DIR", required=True)
    art.set_defaults(func=run_art)


def _progress(done: int, total: int, name: str) -> None:
    """A progress bar, drawn only on a terminal."""
    if not sys.stderr.isatty():
        return
    width = 30
    filled = width * done // max(total, 1)
    sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} {name[:30]:30}")
    if done == total:
        sys.stderr.write("\n")
    sys.stderr.flush()


def run_enroll(args: argparse.Namespace) -> int:
    folder = Path(args.images)
    if not folder.is_dir():
        raise VisionError(f"{folder}: not a folder")
    files = sorted(p for p in folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
    if not files:
        raise VisionError(f"{folder}: no image files ({', '.join(IMAGE_SUFFIXES)})")
    out = Path(args.out)
    sheet_path = Path(args.sheet) if args.sheet else out.with_suffix(".sheet.png")
    result = enrol_images([(path.stem, lambda path=path: read_image(path)) for path in files],
                          lambda done, name: _progress(done, len(files), name))
    for _, reason in result.skipped:
        print(f"skipped {reason}", file=sys.stderr)
    if len(result.library) == 0:
        raise VisionError(f"{folder}: no card could be enrolled; nothing written")
    result.library.save(out)
    if not cv2.imwrite(str(sheet_path), contact_sheet(result.library)):
        raise VisionError(f"{sheet_path}: cannot write the contact sheet")
    skipped = f", skipped {len(result.skipped)}" if result.skipped else ""
    print(f"enrolled {len(result.library)} cards into {out}{skipped}; "
          f"check every crop in {sheet_path}")
    return 0


def run_recognize(args: argparse.Namespace) -> int:
    recognizer = Recognizer(CardLibrary.load(args.library))
    results = []
    for path in args.images:
        image, scale = read_image_scaled(path)
        found = [replace(d, corners=d.corners / scale) for d in recognizer.recognize(image)]
        results.append({"image": path, "found": [d.as_json() for d in found]})
    if args.json:
        print(json.dumps(results))
    else:
        for result in results:
            names = ", ".join(f"{f['id']} ({f['confidence']:.2f})" for f in result["found"])
            print(f"{result['image']}: {names or 'nothing recognised'}")
    return 0


def run_calibrate(args: argparse.Namespace) -> int:
    if args.image:
        frame = read_image(args.image)
    else:
        frame = grab(args.camera)
    layout = TableLayout(args.width_mm, args.height_mm, seats=args.seats)
    library = CardLibrary.load(args.library) if args.library else CardLibrary()
    watcher = TableWatcher(library, layout)
    sighting = watcher.see(frame)
    out = draw_calibration(frame, watcher, sighting)
    if not cv2.imwrite(args.out, out):
        raise VisionError(f"{args.out}: cannot write the image")
    view = watcher.rectifier.last_view
    markers = 0 if view is None else view.markers_seen
    cards = (f"{len(sighting.detections)} cards" if args.library else
             "cards not looked for (give --library LIBRARY to see them named)")
    print(f"{args.out}: {markers} of 4 corner markers, {cards}")
    return 0


def grab(camera: str) -> np.ndarray:
    """One frame: a still of the Pi's CSI camera ('picamera'), or of V4L2 camera N."""
    if camera == "picamera":
        from companion.vision.sources import CameraError, Picamera2Source

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
        raise VisionError(f"--camera {camera}: give a camera number (USB) or 'picamera'")
    capture = cv2.VideoCapture(int(camera))
    ok, frame = capture.read()
    capture.release()
    if not ok:
        raise VisionError(f"camera {camera}: no frame (the Pi's CSI camera: --camera picamera)")
    return frame


def draw_calibration(frame: np.ndarray, watcher: TableWatcher, sighting) -> np.ndarray:
    """The frame with corner markers, table outline, seat zones, centre and detections."""
    out = frame.copy()
    sightings = watcher.finder.find(frame)
    middle = np.float32([frame.shape[1] / 2, frame.shape[0] / 2])
    for marker in sightings:
        # Outline and label beside the marker, away from the middle of the picture: the
        # marker itself stays as printed (and still reads in this picture).
        centre = marker.centre
        grown = centre + (marker.corners - centre) * 1.6
        cv2.polylines(out, [grown.astype(np.int32)], True, (0, 0, 255), 2)
        away = centre - middle
        away = away / (float(np.linalg.norm(away)) + 1e-6)
        reach = 1.2 * float(np.linalg.norm(marker.corners[0] - marker.corners[2]))
        x, y = (centre + away * reach).astype(int)
        _label(out, f"marker {marker.marker_id}", (int(x) - 40, int(y)), (0, 0, 255))
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
        _label(out, "centre", (int(top_left[0]) + 6, int(top_left[1]) + 22), (255, 255, 0))
        for seat in range(layout.seats):
            x, y = view.to_image(np.float32([layout.seat_position(seat)]))[0]
            cv2.circle(out, (int(x), int(y)), 8, (255, 0, 255), -1)
            cv2.putText(out, f"seat {seat + 1}", (int(x) + 10, int(y)), cv2.FONT_HERSHEY_SIMPLEX,
                        0.6, (255, 0, 255), 2)
    for detection in sighting.detections:
        cv2.polylines(out, [detection.corners.astype(np.int32)], True, (0, 255, 0), 2)
        x, y = detection.centre
        cv2.putText(out, detection.item_id, (int(x) - 20, int(y)), cv2.FONT_HERSHEY_SIMPLEX,
                    0.5, (0, 255, 0), 2)
    return out


def _label(image: np.ndarray, text: str, at: tuple[int, int],
           colour: tuple[int, int, int]) -> None:
    """Text on a dark band, readable on any table."""
    (w, h), base = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, 0.6, 2)
    x, y = at
    cv2.rectangle(image, (x - 3, y - h - 4), (x + w + 3, y + base + 2), (0, 0, 0), -1)
    cv2.putText(image, text, (x, y), cv2.FONT_HERSHEY_SIMPLEX, 0.6, colour, 2, cv2.LINE_AA)


def run_markers(args: argparse.Namespace) -> int:
    if not 72 <= args.dpi <= 1200:
        raise VisionError(f"--dpi {args.dpi}: choose 72 to 1200")
    if not cv2.imwrite(args.out, marker_sheet(args.dpi)):
        raise VisionError(f"{args.out}: cannot write the image")
    print(f"{args.out}: A4 marker sheet at {args.dpi} dpi")
    return 0


def run_art(args: argparse.Namespace) -> int:
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    items = game_items(args.game)
    for item in items:
        cv2.imwrite(str(out / f"{item.item_id}.png"), draw_face(item))
    print(f"{out}: {len(items)} {args.game} faces")
    return 0
