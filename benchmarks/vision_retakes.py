"""The real sets as other cameras would have taken them: each real photo set read as taken
and after each retake (``companion.vision.optics.retake``: a warm or cool cast, dim light
with noise, heavy JPEG, soft focus, overexposure, a washed-out picture, a small sensor),
the figures side by side. A reading that holds only on the photos as taken is fitted to
their camera; this is the nearest to other people's tables that the dev sets can give.

Run: python benchmarks/vision_retakes.py [--set DIR]... [--retake KIND]... [--verbose]

Each photo is read at most 1280 px wide (as ``benchmarks/vision.py --real`` gives its first
figure), one core, no pile search; the baseline is the same set as taken, in the same run.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import shlex  # noqa: E402
import sys  # noqa: E402
from pathlib import Path  # noqa: E402

import cv2  # noqa: E402
import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from vision import DEV_SETS, READ_WIDTH, at_width, enrol_folder, read_truth, run  # noqa: E402

from companion.vision.optics import RETAKES, retake  # noqa: E402
from companion.vision.recognize import Recognizer  # noqa: E402
from companion.vision.scoring import CardTruth, Tally  # noqa: E402
from companion.vision.sources import read_image  # noqa: E402


def read_set(folder: Path, kinds: list[str]) -> dict[str, Tally]:
    """The set's figures as taken (``""``) and after each retake in ``kinds``."""
    library, _ = enrol_folder(folder / "enroll")
    truth = read_truth(folder / "truth.json")
    recognizer = Recognizer(library, piles=False)
    library.prepare()
    photos = []
    for name in sorted(truth):
        image = read_image(folder / "scenes" / name)
        scale = min(1.0, READ_WIDTH / image.shape[1])
        cards = [CardTruth(c.item_id, c.box, c.covered) for c in truth[name]]
        photos.append((name, at_width(image, READ_WIDTH) if scale < 1.0 else image, scale,
                       cards))
    figures = {}
    for kind in ["", *kinds]:
        tally = Tally()
        for name, image, scale, cards in photos:
            frame = retake(image, kind) if kind else image
            _, found = run(recognizer, [frame])
            tally.add(name, cards, found[0], scale * frame.shape[1] / image.shape[1])
        figures[kind] = tally
    return figures


def line(label: str, tally: Tally, taken: Tally | None) -> str:
    covered = f" covered {tally.covered_read}/{tally.covered}" if tally.covered else ""
    apart = "" if taken is None else f"  {tally.share - taken.share:+6.1f} points"
    return (f"  {label:<14} read {tally.read}/{tally.cards} ({tally.share:5.1f} %){covered}"
            f"  invented {tally.invented}{apart}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", action="append", default=[], metavar="DIR",
                        help="a real set (default: every set in ../shared/vision-dev)")
    parser.add_argument("--retake", action="append", default=[], choices=RETAKES,
                        help="this retake only (repeat for several; default: all)")
    parser.add_argument("--verbose", action="store_true",
                        help="name the cards missed and invented after each retake")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    print("command: " + " ".join(shlex.quote(a) for a in [sys.executable] + sys.argv))
    print(f"OpenCV {cv2.__version__}, numpy {np.__version__}")
    sets = [Path(s) for s in args.set] or sorted(
        p for p in DEV_SETS.iterdir() if (p / "truth.json").is_file())
    worst: dict[str, float] = {}
    for folder in sets:
        figures = read_set(folder, args.retake or list(RETAKES))
        taken = figures.pop("")
        print(f"set {folder.name}")
        print(line("as taken", taken, None))
        for kind, tally in figures.items():
            print(line(kind, tally, taken))
            worst[kind] = min(worst.get(kind, 0.0), tally.share - taken.share)
            if args.verbose and (tally.missed or tally.wrong):
                print(f"    missed: {' '.join(tally.missed) or '-'}")
                print(f"    invented: {' '.join(tally.wrong) or '-'}")
    print("worst set per retake: " + ", ".join(f"{k} {v:+.1f}" for k, v in worst.items()))


if __name__ == "__main__":
    main()
