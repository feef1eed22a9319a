"""Real photos read by several checkouts of the project in turn: speed compared fairly on a
machine whose speed drifts from minute to minute.

Run: python benchmarks/versions.py --enroll DIR --scenes DIR CHECKOUT [CHECKOUT ...]
     [--photos Cards_1.jpg,Cards_2.jpg] [--width 1280] [--rounds 8]

Each checkout (a directory holding a version of the project, such as a ``git worktree``)
reads the photos in its own process, with its own ``benchmarks/vision.py`` (rectify +
detect + identify, CPU time on one core). The photos are handed out one at a time, each to
every checkout in turn (the order reversed every other round), so a slow minute slows them
all alike. Per checkout: the median over the photos of each photo's least time, and the
median of its medians; and whether the checkouts read the same cards.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import json  # noqa: E402
import shlex  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
from pathlib import Path  # noqa: E402


def worker(checkout: Path, enroll: Path, scenes: Path, width: int) -> None:
    """Reads the photos named on stdin, one per line; answers [ms, ids] per line."""
    sys.path[:0] = [str(checkout), str(checkout / "benchmarks")]
    import vision  # the checkout's own benchmark  # noqa: PLC0415

    library, _ = vision.enrol_folder(enroll)
    library.prepare()
    recognizer = vision.Recognizer(library)
    frames = {}
    print("ready", flush=True)
    for line in sys.stdin:
        name = line.strip()
        if name not in frames:
            frames[name] = vision.at_width(vision.read_image(scenes / name), width)
            vision.run(recognizer, [frames[name]])  # first read: caches warmed
        times, found = vision.run(recognizer, [frames[name]])
        print(json.dumps([times[0], sorted(d.item_id for d in found[0])]), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--enroll", type=Path, required=True, help="folder of card photos")
    parser.add_argument("--scenes", type=Path, required=True, help="folder of table photos")
    parser.add_argument("--photos", type=lambda v: v.split(","),
                        help="comma-separated photos to read (default: all in --scenes)")
    parser.add_argument("--width", type=int, default=1280, help="read at this width (px)")
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--worker", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("checkouts", type=Path, nargs="*")
    args = parser.parse_args()
    if args.worker:
        worker(args.worker, args.enroll.resolve(), args.scenes.resolve(), args.width)
        return
    if not args.checkouts:
        parser.error("name at least one checkout")
    print("command:", shlex.join([sys.executable, *sys.argv]))
    photos = args.photos or sorted(p.name for p in args.scenes.iterdir() if p.is_file())
    workers = [subprocess.Popen(
        [sys.executable, __file__, "--worker", str(c.resolve()), "--enroll", str(args.enroll),
         "--scenes", str(args.scenes), "--width", str(args.width)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True) for c in args.checkouts]
    for w in workers:
        if w.stdout.readline().strip() != "ready":
            sys.exit("a checkout's worker did not start")
    times: dict[tuple[int, str], list[float]] = {}
    reads: dict[tuple[int, str], list[str]] = {}
    for round_ in range(args.rounds):
        for photo in photos:
            order = list(range(len(workers)))
            for k in order[::-1] if round_ % 2 else order:
                workers[k].stdin.write(photo + "\n")
                workers[k].stdin.flush()
                ms, ids = json.loads(workers[k].stdout.readline())
                times.setdefault((k, photo), []).append(ms)
                reads[(k, photo)] = ids
    for w in workers:
        w.stdin.close()
        w.wait()
    print(f"{len(photos)} photos at {args.width} px, {args.rounds} rounds, CPU ms per photo:")
    for k, checkout in enumerate(args.checkouts):
        least = [min(times[(k, p)]) for p in photos]
        usual = [statistics.median(times[(k, p)]) for p in photos]
        each = " ".join(f"{t:.1f}" for t in least)
        print(f"  {str(checkout):<28} median of least {statistics.median(least):6.1f}"
              f"   median of medians {statistics.median(usual):6.1f}   ({each})")
    differ = [p for p in photos if any(reads[(k, p)] != reads[(0, p)]
                                       for k in range(len(workers)))]
    print("  the same cards read by every checkout" if not differ
          else f"  cards read differ on: {', '.join(differ)}")


if __name__ == "__main__":
    main()
