"""The camera's pictures kept as evidence: CPU per settled scene, and store growth per game.

Run:  python benchmarks/camera_pictures.py [--seed N] [--seats 4] [--quick]
Goals: one JPEG encode per settled scene and none while the table is still; at most 50 KB
of store per picture (docs/camera.md, "The camera's view").

- The demo's Tricky game (``companion demo tricky``, here at 4 seats), whole, played through
  the rendered camera, the vision pipeline, the rules and the store (``play_demo``).
- CPU per settled scene (the thread's own CPU time): the JPEG encode alone, and the whole
  picture (the table warped from above, the readings' nearest faces and the outlines left
  out, the encode). Baseline, in the same run: reading a frame in full (markers,
  rectification, recognition: ``TableWatcher.see``), which every settled scene costs anyway.
- Still table: a picture shown again for 60 frames; JPEG encodes counted.
- Store growth: the store's file after the game (vacuumed), beside the same store with the
  pictures' table dropped (vacuumed): the baseline, the table log alone.
"""

from __future__ import annotations

import argparse
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.daemon import demo
from companion.vision import evidence
from companion.vision.watch import TableWatcher

STILL_FRAMES = 60


def timed(into: list[float], function: Callable[..., Any]) -> Callable[..., Any]:
    """``function``, its thread CPU time per call appended to ``into`` (milliseconds)."""

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        start = time.thread_time()
        try:
            return function(*args, **kwargs)
        finally:
            into.append((time.thread_time() - start) * 1000)

    return wrapper


def p(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))] if ordered else 0.0


def figures(values: list[float]) -> str:
    return f"p50 {p(values, 0.5):6.2f} ms  p99 {p(values, 0.99):6.2f} ms  mean " \
           f"{statistics.fmean(values) if values else 0.0:6.2f} ms"


def vacuumed_size(path: Path, drop: bool) -> int:
    """The store's size once vacuumed (``drop``: without the pictures' table)."""
    copy = path.with_name(path.stem + ("-events-only" if drop else "-whole") + ".db")
    shutil.copyfile(path, copy)
    db = sqlite3.connect(copy)
    try:
        db.execute("PRAGMA journal_mode = DELETE")  # every page in the file itself
        if drop:
            db.execute("DROP TABLE IF EXISTS camera_pictures")
            db.commit()
        db.execute("VACUUM")
    finally:
        db.close()
    return copy.stat().st_size


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--quick", action="store_true", help="one round per player")
    args = parser.parse_args(argv)
    print("command: python benchmarks/camera_pictures.py --seed "
          f"{args.seed} --seats {args.seats}{' --quick' if args.quick else ''}")
    encodes: list[float] = []
    pictures: list[float] = []
    reads: list[float] = []
    evidence.encode = timed(encodes, evidence.encode)
    evidence.take = timed(pictures, evidence.take)
    TableWatcher.see = timed(reads, TableWatcher.see)  # type: ignore[method-assign]
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder)
        result = demo.play_demo("tricky", out, args.seed, quick=args.quick, seats=args.seats)
        scenes, encoded = len(pictures), len(encodes)
        db = out / "tricky.db"
        with sqlite3.connect(db) as store:
            events = store.execute("SELECT COUNT(*) FROM events").fetchone()[0]
            kept, jpeg_bytes, largest = store.execute(
                "SELECT COUNT(*), SUM(LENGTH(jpeg)), MAX(LENGTH(jpeg)) FROM camera_pictures"
            ).fetchone()
            with_readings = store.execute(
                "SELECT SUM(LENGTH(jpeg) + LENGTH(readings)) FROM camera_pictures").fetchone()[0]
        whole, events_only = vacuumed_size(db, False), vacuumed_size(db, True)
        still = still_table(out)
    by_camera = result.routes.get("camera", 0)
    print(f"tricky, {args.seats} seats, whole game through the camera: {events} events stored "
          f"({by_camera} by the camera), {result.pictures} pictures shown to the camera")
    print(f"pictures kept: {kept} (one per event the camera made; events in by "
          f"{', '.join(f'{k} {v}' for k, v in sorted(result.routes.items()))})")
    print(f"settled scenes: {scenes}, JPEG encodes: {encoded} (a busy picture is "
          f"encoded again at a lower quality: {encoded - scenes})")
    print(f"CPU per settled scene   JPEG encode        {figures(encodes)}")
    print(f"                        whole picture      {figures(pictures)}")
    print(f"  baseline: a frame read in full     {figures(reads)}")
    print(f"still table: {STILL_FRAMES} frames of an unchanged table: {still} JPEG encodes "
          "(goal 0)")
    growth = (whole - events_only) / max(kept, 1) / 1024
    print(f"store: {events_only / 1024:8.1f} KB the table log alone (baseline), "
          f"{whole / 1024:8.1f} KB with the pictures")
    print(f"growth per picture {growth:5.1f} KB (goal <= 50 KB); JPEG mean "
          f"{jpeg_bytes / max(kept, 1) / 1024:5.1f} KB, largest {largest / 1024:5.1f} KB; "
          f"with its readings {with_readings / max(kept, 1) / 1024:5.1f} KB")
    return 0 if growth <= 50 else 1


def still_table(out: Path) -> int:
    """JPEG encodes made while the camera watches a table that does not change."""
    from companion.daemon.stage import InlineVision, Stage

    stage = Stage("tricky", 4, 1)
    eyes = InlineVision("tricky", stage.layout)
    picture = stage.play(1, ["red-3", "blue-5"])
    eyes.watch(picture)  # settles: one picture
    count = []
    evidence.encode = timed(count, evidence.encode)
    for _ in range(STILL_FRAMES // 3):
        eyes.watch(picture)  # three frames each, as every picture is shown
    return len(count)


if __name__ == "__main__":
    sys.exit(main())
