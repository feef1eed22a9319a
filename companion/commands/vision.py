"""``companion vision``: enroll, recognize, calibrate, markers, art (docs/architecture.md).

OpenCV and numpy are imported by the commands that run, not when the command line is
built: ``companion --help`` and the commands that never see a picture stay light.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from companion.arguments import later
from companion.errors import CompanionError

if TYPE_CHECKING:
    from companion.vision.enrol_camera import NamedDeck


class VisionError(CompanionError):
    """A vision command that cannot do what it was asked."""


#: A picture with a side shorter than this (pixels) can show no card: recognition gives
#: nothing for it rather than scale it to nothing, and calibration refuses it.
SMALLEST_SIDE = 16


def _too_small(image) -> bool:
    return min(image.shape[:2]) < SMALLEST_SIDE


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    vision = subparsers.add_parser(
        "vision", help="the overhead camera: enrol cards, recognise them, calibrate",
        description="Recognise the table's own cards and tiles with the overhead camera.")
    commands = vision.add_subparsers(dest="vision_command", metavar="COMMAND", required=True)

    _add_enroll(commands)

    recognize = commands.add_parser(
        "recognize", help="find enrolled cards and tiles in images",
        description="Find every enrolled card or tile in each image. A card that is not "
                    "clearly one of the enrolled ones is left out, not guessed.")
    recognize.add_argument("--library", metavar="LIBRARY", required=True)
    recognize.add_argument("images", metavar="IMAGE", nargs="+")
    recognize.add_argument("--json", action="store_true", help="print a JSON array")
    recognize.set_defaults(func=run_recognize)

    samples = commands.add_parser(
        "samples", help="list the samples corrections taught a library, or drop one",
        description="A correction on the controls page keeps the card's crop as a sample of "
                    "the card named, beside the library (LIBRARY.samples.npz). List them, "
                    "draw them, or drop a bad one: a running daemon reads the file again.")
    samples.add_argument("--library", metavar="LIBRARY", required=True)
    samples.add_argument("--drop", type=int, metavar="N", help="forget sample N (as listed)")
    samples.add_argument("--sheet", metavar="PNG", help="draw every sample, numbered")
    samples.set_defaults(func=run_samples)

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
        description="Corner markers 0-3 for the table, then the markers the games' pieces "
                    "wear, each labelled. Print at 100%.")  # not %-formatted
    markers.add_argument("--out", metavar="PNG", required=True)
    markers.add_argument("--dpi", type=int, default=300)
    markers.set_defaults(func=run_markers)

    art = commands.add_parser(
        "art", help="write the demo art set of a game (one image per card or tile)",
        description="Procedurally drawn faces for every card or tile id of a game, for the "
                    "demo and for trying the camera without the real cards.")
    later(art.add_argument("game"), choices=_art_games)
    art.add_argument("--out", metavar="DIR", required=True)
    art.set_defaults(func=run_art)


def _add_enroll(commands: argparse._SubParsersAction) -> None:
    """``vision enroll``: from photos, or with the camera at the table."""
    enroll = commands.add_parser(
        "enroll", help="build a card library from photos, or with the camera at the table",
        description="Every image file in the folder is one card or tile photographed alone; "
                    "its file name without extension is its id. A photo with no card, or "
                    "with the card cut by its edge, is skipped and named; a contact sheet "
                    "of what was enrolled is written beside the library. With --camera (or "
                    "--frames) instead of a folder, the deck of --game is enrolled at the "
                    "table: lay each card it names on the play area, one at a time; the "
                    "library is written once every card is in, its other faces kept. Then "
                    "the deck examines itself: its faces are read back from rendered trial "
                    "scenes, and the cards it cannot read or tell apart are named and marked "
                    "on the sheet.")
    enroll.add_argument("images", metavar="IMAGES_DIR", nargs="?")
    enroll.add_argument("--out", metavar="LIBRARY", required=True, help="library file (.npz)")
    enroll.add_argument("--sheet", metavar="PNG",
                        help="contact sheet of the enrolled faces (default: LIBRARY.sheet.png)")
    enroll.add_argument("--no-check", action="store_true",
                        help="skip the self-check (seconds here, up to a minute on a Pi)")
    enroll.add_argument("--camera", metavar="N|picamera",
                        help="enrol at the table: USB camera N (V4L2), or 'picamera' (the Pi's "
                             "CSI camera), watching the play area through its corner markers")
    enroll.add_argument("--frames", metavar="DIR",
                        help="enrol at the table from a folder of the camera's frames, read in "
                             "name order (as [camera] source = \"files\")")
    later(enroll.add_argument("--game", metavar="GAME",
                              help="with --camera or --frames: the game whose deck is "
                                   "enrolled (%(choices)s)"), choices=_card_games)
    enroll.add_argument("--width-mm", type=float, default=800.0,
                        help="with --camera: distance between the left and right marker "
                             "centres")
    enroll.add_argument("--height-mm", type=float, default=560.0,
                        help="with --camera: distance between the top and bottom marker "
                             "centres")
    enroll.set_defaults(func=run_enroll)


def _card_games() -> list[str]:
    from companion.games import registry

    return list(registry.card_games())


def _art_games() -> list[str]:
    from companion.games import registry

    return registry.art_games()


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
    import cv2

    from companion.vision.enrol import contact_sheet, enrol_images
    from companion.vision.selfcheck import examine
    from companion.vision.sources import IMAGE_SUFFIXES, read_image

    live = args.camera is not None or args.frames is not None
    if args.images is not None and live:
        raise VisionError("give IMAGES_DIR (photos) or --camera / --frames (at the table), "
                          "not both")
    if args.camera is not None and args.frames is not None:
        raise VisionError("--camera and --frames: give one of them")
    if live:
        return run_table_enroll(args)
    if args.images is None:
        raise VisionError("IMAGES_DIR: give a folder of photos, or --camera to enrol at the "
                          "table")
    if args.game is not None:
        raise VisionError("--game: only with --camera or --frames (a photo's file name is "
                          "its card's id)")
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
    check = None
    if not args.no_check:
        if sys.stderr.isatty():
            sys.stderr.write("self-check: reading the deck back from trial scenes...\n")
        check = examine(result.library)
    sheet = contact_sheet(result.library, marks=check.marks() if check else None)
    if not cv2.imwrite(str(sheet_path), sheet):
        raise VisionError(f"{sheet_path}: cannot write the contact sheet")
    skipped = f", skipped {len(result.skipped)}" if result.skipped else ""
    print(f"enrolled {len(result.library)} cards into {out}{skipped}; "
          f"check every crop in {sheet_path}")
    if check is not None:
        print("\n".join(check.lines()))
    return 0


def deck_of(game: str) -> NamedDeck:
    """The cards of ``game`` (its bundle's, with its default options) and their names; an
    error naming the games whose cards the camera reads if ``game`` is none of them."""
    from companion.games import registry
    from companion.vision.enrol_camera import EnrolStopped, NamedDeck

    readable = [b.name for b in registry.games()
                if b.camera is not None and not b.camera.markers_only]
    if game not in readable:
        raise EnrolStopped(f"--game {game}: the camera reads the cards of "
                           f"{', '.join(readable)} only")
    bundle = registry.get(game)
    engine = bundle.engine
    table = engine([f"Seat {n + 1}" for n in range(engine.min_seats)], 0, {})
    cards = bundle.cards(table)
    printed = bundle.names(table)
    # A name as printed, else the id read as words ("red-lotus": "Red Lotus", as the pages).
    return NamedDeck(game, cards, {card: printed.get(card) or card.replace("-", " ").title()
                              for card in cards})


def run_table_enroll(args: argparse.Namespace) -> int:
    """``enroll --camera`` / ``--frames``: the deck of ``--game`` laid card by card."""
    import cv2

    from companion.vision.enrol import contact_sheet
    from companion.vision.enrol_camera import enrol_at_table, frames_from
    from companion.vision.layout import TableLayout
    from companion.vision.library import CardLibrary
    from companion.vision.selfcheck import examine

    if args.game is None:
        raise VisionError("--game: which game's deck to enrol at the table")
    out = Path(args.out)
    if not out.parent.is_dir():
        raise VisionError(f"--out {out}: no such folder")
    base = CardLibrary.load(out) if out.exists() else CardLibrary()  # read before watching
    deck = deck_of(args.game)
    layout = TableLayout(args.width_mm, args.height_mm)
    source = frames_from(args.camera, args.frames)
    source.open()  # a camera that cannot be opened is said before anything is laid
    enrolment = enrol_at_table(deck, source, layout, lambda line: print(line, flush=True))
    library = enrolment.library(base)
    library.save(out)
    sheet_path = Path(args.sheet) if args.sheet else out.with_suffix(".sheet.png")
    mine = enrolment.library(CardLibrary())
    check = None if args.no_check else examine(mine)
    sheet = contact_sheet(mine, marks=check.marks() if check else None)
    if not cv2.imwrite(str(sheet_path), sheet):
        raise VisionError(f"{sheet_path}: cannot write the contact sheet")
    print(f"enrolled the {len(deck.cards)} cards of {deck.game} into {out}; check every crop "
          f"in {sheet_path}")
    if check is not None:
        print("\n".join(check.lines()))
    return 0


def run_recognize(args: argparse.Namespace) -> int:
    from dataclasses import replace

    from companion.vision.library import CardLibrary, load_samples, samples_path
    from companion.vision.recognize import Recognizer
    from companion.vision.sources import read_image_scaled

    library = CardLibrary.load(args.library)
    load_samples(library, samples_path(args.library))
    recognizer = Recognizer(library)
    results = []
    for path in args.images:
        image, scale = read_image_scaled(path)
        found = [] if _too_small(image) else [
            replace(d, corners=d.corners / scale) for d in recognizer.recognize(image)]
        results.append({"image": path, "found": [d.as_json() for d in found]})
    if args.json:
        print(json.dumps(results))
    else:
        for result in results:
            names = ", ".join(f"{f['id']} ({f['confidence']:.2f})" for f in result["found"])
            print(f"{result['image']}: {names or 'nothing recognised'}")
    return 0


def run_samples(args: argparse.Namespace) -> int:
    import cv2

    from companion.errors import OptionError
    from companion.vision.enrol import contact_sheet
    from companion.vision.library import CardLibrary, load_samples, samples_path, save_samples

    library = CardLibrary.load(args.library)
    path = samples_path(args.library)
    load_samples(library, path)
    if args.drop is not None:
        if not 1 <= args.drop <= len(library.samples):
            raise OptionError(f"--drop: no sample {args.drop} (there are "
                             f"{len(library.samples)})")
        item_id, _ = library.samples[args.drop - 1]
        library.drop_sample(args.drop - 1)
        save_samples(library, path)
        print(f"dropped sample {args.drop} ({item_id}); {len(library.samples)} left in {path}")
        return 0
    if not library.samples:
        print(f"no samples taught ({path})")
    for number, (item_id, _) in enumerate(library.samples, start=1):
        print(f"{number}: {item_id}")
    if args.sheet:
        taught = CardLibrary()
        for number, (item_id, face) in enumerate(library.samples, start=1):
            taught.ids.append(f"{number} {item_id}")
            taught.faces.append(face)
        if not cv2.imwrite(args.sheet, contact_sheet(taught)):
            raise OptionError(f"--sheet: cannot write {args.sheet}")
    return 0


def run_calibrate(args: argparse.Namespace) -> int:
    import cv2

    from companion.vision.calibration import draw_calibration, grab
    from companion.vision.layout import TableLayout
    from companion.vision.library import CardLibrary
    from companion.vision.sources import read_image
    from companion.vision.watch import TableWatcher

    frame = read_image(args.image) if args.image else grab(args.camera)
    if _too_small(frame):
        height, width = frame.shape[:2]
        raise VisionError(f"{args.image or 'the camera'}: {width} x {height} pixels is too "
                          f"small a picture of the table (at least {SMALLEST_SIDE} a side)")
    layout = TableLayout(args.width_mm, args.height_mm, seats=args.seats)
    library = CardLibrary.load(args.library) if args.library else CardLibrary()
    watcher = TableWatcher(library, layout)
    frame_reading = watcher.see(frame)
    out = draw_calibration(frame, watcher, frame_reading)
    if not cv2.imwrite(args.out, out):
        raise VisionError(f"{args.out}: cannot write the image")
    view = watcher.rectifier.last_view
    markers = 0 if view is None else view.markers_found
    cards = (f"{len(frame_reading.detections)} cards" if args.library else
             "cards not looked for (give --library LIBRARY to see them named)")
    print(f"{args.out}: {markers} of 4 corner markers, {cards}")
    return 0


def run_markers(args: argparse.Namespace) -> int:
    import cv2

    from companion.games import registry
    from companion.vision.sheet import marker_sheet

    if not 72 <= args.dpi <= 1200:
        raise VisionError(f"--dpi {args.dpi}: choose 72 to 1200")
    if not cv2.imwrite(args.out, marker_sheet(args.dpi, pieces=registry.piece_markers())):
        raise VisionError(f"{args.out}: cannot write the image")
    print(f"{args.out}: A4 marker sheet at {args.dpi} dpi")
    return 0


def run_art(args: argparse.Namespace) -> int:
    import cv2

    from companion.games import registry
    from companion.vision.art import draw_face

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    items = registry.get(args.game).art_items()
    for item in items:
        cv2.imwrite(str(out / f"{item.item_id}.png"), draw_face(item))
    print(f"{out}: {len(items)} {args.game} faces")
    return 0
