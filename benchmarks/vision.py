"""Vision speed and accuracy: rectify + detect + identify per frame, on one core.

Run: python benchmarks/vision.py [--frames N] [--seed S]
     python benchmarks/vision.py --only sets [--compare] [--stand-in NAME]...
     python benchmarks/vision.py --real [--set DIR]... [--separate PHOTOS] [--copies]

Synthetic mode renders 8 demo cards (tricky and deathtrap art, 49 faces enrolled) per frame
over random tables, tilts, lighting gradients, glare, blur and noise, at 640x480 and
1280x720, plus a set with cards touching and overlapping. The stand-ins (``--only sets``,
companion/vision/standins.py) render each real dev set's kind of deck, enrolment, table,
camera and layout; ``--compare`` reads the real set each stands for in the same run and prints
the two figures side by side. Real mode reads each set (a folder
with enroll/, one image per card named by its id, scenes/ and truth.json; by default every
set in ../shared/vision-dev): truth.json is {"photo.jpg": ["red-3", ...]} or, with boxes of
the cards' visible parts and covered flags, {"photo.jpg": {"cards": [{"id", "box",
"covered"}]}}; it prints cards read, covered cards read, invented, median/p95 ms, and the
slowest photo against OpenCV SIFT's detectAndCompute on the same photo.

Per frame: the corner markers are found and the table homography made (rectify), cards are
found and identified (detect + identify). Baseline, measured in the same run on the same
frames: the feature matcher alone (SIFT + RANSAC on every blob, no template fast path).
Memory: peak of Python and numpy allocations while recognising (tracemalloc; OpenCV's own
C++ buffers are not traced) and the process's peak resident size.
"""

from __future__ import annotations

import os

# One core, as asked: OpenCV's and BLAS's thread pools both.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import json  # noqa: E402
import resource  # noqa: E402
import shlex  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
import tracemalloc  # noqa: E402
from collections import Counter  # noqa: E402
from dataclasses import dataclass, field, replace  # noqa: E402
from pathlib import Path  # noqa: E402

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from companion.commands.game_art import (
    demo_library,  # noqa: E402
    game_items,  # noqa: E402
)
from companion.daemon.camera import pile_cards  # noqa: E402
from companion.vision.art import face_items  # noqa: E402
from companion.vision.deck import draw_standard_face, standard_deck  # noqa: E402
from companion.vision.enrol import enrol_images  # noqa: E402
from companion.vision.library import CardLibrary  # noqa: E402
from companion.vision.markers import MarkerFinder  # noqa: E402
from companion.vision.photo import enrolment_photo  # noqa: E402
from companion.vision.recognize import Recognizer  # noqa: E402
from companion.vision.scoring import CardTruth  # noqa: E402
from companion.vision.scoring import Tally as Figures  # noqa: E402
from companion.vision.sources import IMAGE_SUFFIXES, read_image  # noqa: E402
from companion.vision.standins import ANY_POKER_DECK, OTHER_KINDS, STAND_INS  # noqa: E402
from companion.vision.synthetic import SceneRenderer, pile_plays  # noqa: E402
from companion.vision.table_view import Rectifier  # noqa: E402


def run(recognizer: Recognizer, frames: list[np.ndarray]) -> tuple[list[float], list[list]]:
    """Milliseconds per frame and the ids found, for rectify + detect + identify."""
    finder = MarkerFinder(half_first=True)  # as `vision recognize` reads a photo
    rectifier = Rectifier(finder=finder)
    times, found = [], []
    for frame in frames:
        # CPU time of this thread: the work one core does, whatever else the machine runs.
        start = time.thread_time()
        markers = finder.find(frame)
        rectifier.locate(frame, markers)
        detections = recognizer.recognize(frame, markers)
        times.append((time.thread_time() - start) * 1000)
        found.append(detections)
    return times, found


def accuracy_synthetic(scenes, found) -> tuple[int, int, int, int, int]:
    """(cards, found right, invented, cards at least half in view, of those found right)."""
    total = right = invented = half_seen = half_right = 0
    for scene, detections in zip(scenes, found, strict=True):
        free = list(range(len(scene.truth)))
        for d in detections:
            match = [i for i in free if scene.truth[i].item_id == d.item_id
                     and np.linalg.norm(scene.truth[i].corners.mean(axis=0) - d.centre)
                     < 0.3 * min(np.ptp(scene.truth[i].corners, axis=0))]
            if match:
                free.remove(match[0])
                right += 1
                half_right += scene.truth[match[0]].visible >= 0.5
            else:
                invented += 1
        total += len(scene.truth)
        half_seen += sum(t.visible >= 0.5 for t in scene.truth)
    return total, right, invented, half_seen, half_right


def accuracy_by_ids(truth: list[list[str]], found) -> tuple[int, int, int]:
    total = right = invented = 0
    for ids, detections in zip(truth, found, strict=True):
        want, got = Counter(ids), Counter(d.item_id for d in detections)
        right += sum((want & got).values())
        invented += sum((got - want).values())
        total += len(ids)
    return total, right, invented


def peak_traced_mb(recognizer: Recognizer, frames: list[np.ndarray]) -> float:
    tracemalloc.start()
    tracemalloc.reset_peak()
    run(recognizer, frames[:10])
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak / 2**20


def report(label: str, times: list[float], counts: tuple[int, ...]) -> None:
    total, right, invented = counts[:3]
    median, p95 = np.median(times), np.percentile(times, 95)
    print(f"  {label:<34} median {median:6.1f} ms   p95 {p95:6.1f} ms"
          f"   top-1 {right}/{total} = {100 * right / max(total, 1):5.1f} %   invented {invented}")
    if len(counts) == 5 and counts[3] < total:
        half_seen, half_right = counts[3:]
        print(f"  {'':<34} cards at least half in view: {half_right}/{half_seen}"
              f" = {100 * half_right / max(half_seen, 1):5.1f} %")


def synthetic(args: argparse.Namespace) -> None:
    if args.only == "piles":
        return piles(args)
    if args.only == "photos":
        return photos(args)
    if args.only == "sets":
        return stand_ins(args)
    library = demo_library("tricky", "deathtrap")
    library.prepare()
    items = game_items("tricky") + game_items("deathtrap")
    # As the daemon runs it: copies are looked for under the cards of the games played in
    # piles (Deathtrap), not under Tricky's.
    fast = Recognizer(library, piles=pile_cards())
    baseline = Recognizer(library, use_templates=False)
    print(f"table frames: {len(library)} enrolled faces (demo art); {args.frames} frames per "
          f"set, 8 cards each, seed {args.seed}; copies looked for under Deathtrap cards only")
    sets = [((640, 480), {}), ((1280, 720), {}),
            ((1280, 720), {"overlaps": 2, "touching": 1})]
    for size, spoil in sets:
        rng = np.random.default_rng(args.seed)
        renderer = SceneRenderer(size=size)
        scenes = [renderer.random_scene(rng, items, cards=8, **spoil) for _ in range(args.frames)]
        frames = [s.image for s in scenes]
        name = f"{size[0]}x{size[1]}" + (" (2 overlapping, 1 touching)" if spoil else "")
        print(f"{name}:")
        times, found = run(fast, frames)
        report("companion", times, accuracy_synthetic(scenes, found))
        times, found = run(baseline, frames)
        report("baseline (SIFT + RANSAC only)", times, accuracy_synthetic(scenes, found))
        print(f"  peak traced memory while recognising: {peak_traced_mb(fast, frames):.1f} MB")
    if args.only is None:
        piles(args)
        photos(args)
        stand_ins(args)


def piles(args: argparse.Namespace) -> None:
    library = demo_library("deathtrap")
    library.prepare()
    plays = list(pile_plays(game_items("deathtrap"), args.piles, args.seed))
    print(f"piles: {len(plays)} rendered plays of 2-5 identical Deathtrap cards (fan, row or "
          f"loose) beside 3 other cards, 1280x720, seed {args.seed}")
    for label, recognizer in (("companion", Recognizer(library)),
                              ("without the pile search", Recognizer(library, piles=False))):
        times, found = run(recognizer, [scene.image for scene, _, _ in plays])
        exact = invented = 0
        styles: Counter = Counter()
        for (scene, item_id, copies), detections in zip(plays, found, strict=True):
            counted = sum(d.item_id == item_id for d in detections)
            exact += counted == copies
            want = Counter(t.item_id for t in scene.truth)
            invented += sum((Counter(d.item_id for d in detections) - want).values())
            styles[copies] += counted == copies
        print(f"  {label:<34} median {np.median(times):6.1f} ms   p95 "
              f"{np.percentile(times, 95):6.1f} ms   piles counted exactly {exact}/{len(plays)}"
              f" = {100 * exact / len(plays):5.1f} %   invented {invented}")


def photos(args: argparse.Namespace) -> None:
    """Scenes like the real dev set: a look-alike 52-card deck enrolled from imperfect phone
    photos (a photo whose card is cut by its edge is taken again, as a person would), then
    phone photos of 4-7 cards on cloth, felt or wood, in perspective, vignetted, shadowed,
    JPEG-compressed; no markers."""
    rng = np.random.default_rng(args.seed)
    deck = standard_deck()
    faces = {item.item_id: draw_standard_face(item) for item in deck}
    start = time.perf_counter()
    result = enrol_images([(i, lambda f=f: enrolment_photo(f, rng).image)
                           for i, f in faces.items()])
    retakes = [i for i, _ in result.skipped]
    again = enrol_images([(i, lambda f=faces[i]: enrolment_photo(f, rng, cut=False).image)
                          for i in retakes])
    library = result.library
    for item_id, face in zip(again.library.ids, again.library.faces, strict=True):
        library.add_face(item_id, face)
    library.prepare()
    print(f"photo-like scenes: {len(library)} of 52 look-alike cards enrolled from rendered "
          f"phone photos in {time.perf_counter() - start:.0f} s ({len(retakes)} cut by the "
          f"edge, skipped and taken again); seed {args.seed}")
    renderer = SceneRenderer(size=(1280, 960))
    scenes, total = [], 0
    while total < args.photo_cards:
        scene = renderer.photo_scene(rng, deck)
        scenes.append(scene)
        total += len(scene.truth)
    recognizer = Recognizer(library)
    times, found = run(recognizer, [s.image for s in scenes])
    want = [[t.item_id for t in s.truth] for s in scenes]
    report(f"1280x960, {len(scenes)} photos", times, accuracy_by_ids(want, found))
    beside_real(args, "standard-deck")


def beside_real(args: argparse.Namespace, name: str) -> None:
    """With ``--compare``: the real set a rendered set stands for, read in this run."""
    folder = DEV_SETS / name
    if args.compare and (folder / "truth.json").is_file():
        print(f"  {'real ' + name:<34} {figure_text(real_figures(folder))}")


def enrol_folder(folder: Path) -> tuple[CardLibrary, list[str]]:
    """A library of every photo in a folder that shows a card, and the reasons for the rest."""
    paths = sorted(p for p in folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
    result = enrol_images([(p.stem, lambda p=p: read_image(p)) for p in paths])
    return result.library, [f"{item}: {reason}" for item, reason in result.skipped]


def at_width(frame: np.ndarray, width: int) -> np.ndarray:
    scale = width / frame.shape[1]
    return cv2.resize(frame, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)


@dataclass
class TruthCard:
    """A card in a real photo: its id, and where given the box of its visible part (in the
    photo's own pixels) and whether it is partly covered."""

    item_id: str
    box: tuple[float, float, float, float] | None = None
    covered: bool = False


def read_truth(path: Path) -> dict[str, list[TruthCard]]:
    """Either format: ``{"photo": ["id", ...]}`` or ``{"photo": {"cards": [{"id", "box",
    "covered"}]}}``."""
    truth = {}
    for name, record in json.loads(path.read_text()).items():
        if isinstance(record, dict):
            truth[name] = [TruthCard(c["id"], tuple(c["box"]), bool(c.get("covered")))
                           for c in record["cards"]]
        else:
            truth[name] = [TruthCard(item_id) for item_id in record]
    return truth


@dataclass
class Tally:
    cards: int = 0
    read: int = 0
    covered: int = 0
    covered_read: int = 0
    invented: int = 0
    missed: list[str] = field(default_factory=list)
    wrong: list[str] = field(default_factory=list)


def score_photo(tally: Tally, name: str, cards: list[TruthCard], detections, scale: float
                ) -> None:
    """A reading counts for the truth card of its id whose box holds the reading's centre
    (ids alone where the truth gives no boxes); anything else is invented."""
    free = list(range(len(cards)))
    for d in detections:
        cx, cy = (d.centre / scale).tolist()
        match = [i for i in free if cards[i].item_id == d.item_id and (
            cards[i].box is None or (cards[i].box[0] <= cx <= cards[i].box[2]
                                     and cards[i].box[1] <= cy <= cards[i].box[3]))]
        if match:
            free.remove(match[0])
        else:
            tally.invented += 1
            tally.wrong.append(f"{name}:{d.item_id}@{cx:.0f},{cy:.0f}")
    tally.cards += len(cards)
    tally.read += len(cards) - len(free)
    tally.covered += sum(c.covered for c in cards)
    tally.covered_read += sum(c.covered for i, c in enumerate(cards) if i not in free)
    tally.missed += [f"{name}:{cards[i].item_id}{'(covered)' if cards[i].covered else ''}"
                     for i in free]


def sift_ms(frame: np.ndarray) -> float:
    """OpenCV SIFT's own ``detectAndCompute`` on the whole photo (grey), least of three."""
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    sift = cv2.SIFT_create()
    best = float("inf")
    for _ in range(3):
        start = time.thread_time()
        sift.detectAndCompute(grey, None)
        best = min(best, (time.thread_time() - start) * 1000)
    return best


def real_set(folder: Path, separate: set[str], verbose: bool, piles: bool = False) -> None:
    """One real set: ``enroll/`` (one image per card, file name = id), ``scenes/`` and
    ``truth.json``. ``piles``: look for copies under every card, as for the cards of a game
    played in piles (the daemon does it for Deathtrap's only); else the cards are read as
    for any other game."""
    start = time.perf_counter()
    library, skipped = enrol_folder(folder / "enroll")
    enrol_s = time.perf_counter() - start
    truth = read_truth(folder / "truth.json")
    names = sorted(truth)
    photos = [read_image(folder / "scenes" / name) for name in names]
    print(f"set {folder.name}: {len(library)} enrolled from {folder / 'enroll'} in "
          f"{enrol_s:.1f} s ({len(skipped)} skipped{': ' if skipped else ''}"
          f"{'; '.join(skipped)}); {len(photos)} photos, {sum(map(len, truth.values()))} cards; "
          f"{'copies looked for under every card' if piles else 'no pile search'}")
    recognizer = Recognizer(library, piles=piles)
    library.prepare()  # derive the library's matching data once, as the daemon does at start
    sizes = [("full size", 1.0)]
    if photos[0].shape[1] > 1280:
        sizes.insert(0, ("1280 px wide", 1280 / photos[0].shape[1]))
    for label, scale in sizes:
        frames = [at_width(p, 1280) if scale != 1.0 else p for p in photos]
        times, found = run(recognizer, frames)
        # Each photo read three times, its least CPU time kept (the steadiest figure).
        times = [min(t) for t in zip(times, *(run(recognizer, frames)[0] for _ in range(2)),
                                     strict=True)]
        tally = Tally()
        for name, detections in zip(names, found, strict=True):
            score_photo(tally, name, truth[name], detections, scale)
        size = "x".join(str(v) for v in frames[0].shape[1::-1])
        covered = (f"   covered {tally.covered_read}/{tally.covered}" if tally.covered else "")
        print(f"  {label + ' (' + size + ')':<26} read {tally.read}/{tally.cards}{covered}"
              f"   invented {tally.invented}   median {np.median(times):6.1f} ms"
              f"   p95 {np.percentile(times, 95):6.1f} ms")
        slowest = int(np.argmax(times))
        sift = sift_ms(frames[slowest])
        print(f"  {'':<26} slowest {names[slowest]} {times[slowest]:.0f} ms = "
              f"{times[slowest] / sift:.2f}x SIFT detectAndCompute on it ({sift:.0f} ms)")
        chosen = [(n, t) for n, t in zip(names, times, strict=True) if n in separate]
        if chosen:
            each = ", ".join(f"{n} {t:.0f}" for n, t in chosen)
            print(f"  {'':<26} separate cards median "
                  f"{np.median([t for _, t in chosen]):6.1f} ms ({each})")
        if tally.missed or tally.wrong:
            print(f"  {'':<26} missed: {' '.join(tally.missed) or '-'}")
            print(f"  {'':<26} invented: {' '.join(tally.wrong) or '-'}")
        if verbose:
            for name, detections in zip(names, found, strict=True):
                got = sorted(f"{d.item_id}({d.confidence:.2f},{d.method[0]})"
                             for d in detections)
                print(f"    {name}: {' '.join(got)}")


DEV_SETS = Path(__file__).resolve().parent.parent.parent / "shared" / "vision-dev"
#: Real sets are read at most this wide, as ``--real`` gives its first figure.
READ_WIDTH = 1280


def read_figures(library: CardLibrary, photos: list[tuple[str, np.ndarray, list[CardTruth]]]
                 ) -> tuple[Figures, list[float]]:
    """Cards read in each photo (at most ``READ_WIDTH`` wide, no pile search, as the real
    sets are read), scored against its truth; and the CPU ms per photo."""
    recognizer = Recognizer(library, piles=False)
    library.prepare()
    frames, scales = [], []
    for _, image, _ in photos:
        scale = min(1.0, READ_WIDTH / image.shape[1])
        frames.append(at_width(image, READ_WIDTH) if scale < 1.0 else image)
        scales.append(scale)
    times, found = run(recognizer, frames)
    figures = Figures()
    for (name, _, cards), detections, scale in zip(photos, found, scales, strict=True):
        figures.add(name, cards, detections, scale)
    return figures, times


def real_figures(folder: Path) -> Figures:
    """A real set read once at ``READ_WIDTH``: the figure a stand-in is set beside."""
    library, _ = enrol_folder(folder / "enroll")
    truth = read_truth(folder / "truth.json")
    photos = [(name, read_image(folder / "scenes" / name),
               [CardTruth(c.item_id, c.box, c.covered) for c in truth[name]])
              for name in sorted(truth)]
    return read_figures(library, photos)[0]


def figure_text(figures: Figures) -> str:
    covered = (f" (covered {figures.covered_read}/{figures.covered} = "
               f"{figures.covered_share:.0f} %)" if figures.covered else "")
    return (f"{figures.read}/{figures.cards} = {figures.share:5.1f} %{covered}, "
            f"{figures.invented} invented")


def stand_ins(args: argparse.Namespace) -> None:
    """Each real set's rendered stand-in; with ``--compare``, the real set beside it; with
    ``--seeds N``, drawn N times (seeds from ``--seed`` on) and summed."""
    made = {**STAND_INS, **OTHER_KINDS}
    names = args.stand_in or list(made)
    seeds = list(range(args.seed, args.seed + args.seeds))
    given: dict[str, object] = {}  # the stand-ins' own deck, unless --art names another
    if args.art:
        library, _ = enrol_folder(DEV_SETS / args.art / "enroll")
        given["deck"] = face_items(list(zip(library.ids, library.faces, strict=True)))
        names = [n for n in names if n in ANY_POKER_DECK]
        print(f"the poker stand-ins drawn with {args.art}'s real faces ({len(library)} enrolled "
              "from its photos), not our drawn ones")
    print(f"stand-ins for the real sets, seed{'s' if len(seeds) > 1 else ''} "
          f"{seeds[0]}{f'-{seeds[-1]}' if len(seeds) > 1 else ''}"
          f"{'; the real set read in the same run beside each' if args.compare else ''}")
    for name in names:
        figures, times = Figures(), []
        for seed in seeds:
            start = time.perf_counter()
            rendered = made[name](np.random.default_rng(seed), **given)
            result = enrol_images(rendered.enrol)
            drawn = time.perf_counter() - start
            by_id = rendered.by_id  # scored as the real set it stands for is, here or not
            drawn_figures, drawn_times = read_figures(result.library, [
                (p.name, p.image, [replace(c, box=None) for c in p.cards] if by_id
                 else p.cards) for p in rendered.photos])
            size = "x".join(str(v) for v in rendered.photos[0].image.shape[1::-1])
            if seed == seeds[0]:
                print(f"  {name} ({rendered.about}; {len(result.library)} enrolled, "
                      f"{len(result.skipped)} skipped; {len(rendered.photos)} photos {size}, "
                      f"drawn and enrolled in {drawn:.0f} s)")
            if len(seeds) > 1:
                print(f"    seed {seed:<3d}  {figure_text(drawn_figures)}")
            if args.verbose:
                print(f"      missed: {' '.join(drawn_figures.missed) or '-'}")
                print(f"      invented: {' '.join(drawn_figures.wrong) or '-'}")
            figures = summed(figures, drawn_figures)
            times += drawn_times
        print(f"    rendered  {figure_text(figures)}   median {np.median(times):6.1f} ms"
              + ("   (scored by id, as its real set)" if by_id else ""))
        folder = DEV_SETS / name
        if args.compare and (folder / "truth.json").is_file():
            real = real_figures(folder)
            print(f"    real      {figure_text(real)}")
            print(f"    apart     {figures.share - real.share:+5.1f} points"
                  + (f" (covered {figures.covered_share - real.covered_share:+.0f})"
                     if real.covered and figures.covered else ""))
        elif args.compare and name in OTHER_KINDS:
            print("    real      none among the dev sets (a held-back set's kind)")
        elif args.compare:
            print(f"    real      not here ({folder})")


def summed(one: Figures, other: Figures) -> Figures:
    """Two tallies' figures as one (the cards missed and invented named in both)."""
    return Figures(one.cards + other.cards, one.read + other.read,
                   one.covered + other.covered, one.covered_read + other.covered_read,
                   one.invented + other.invented, one.missed + other.missed,
                   one.wrong + other.wrong, one.confused + other.confused)


def real(args: argparse.Namespace) -> None:
    sets = [Path(s) for s in args.set] or sorted(
        p for p in DEV_SETS.iterdir() if (p / "truth.json").is_file())
    for folder in sets:
        real_set(folder, args.separate, args.verbose, args.copies)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=60)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--piles", type=int, default=100,
                        help="rendered plays with a pile of identical cards (default 100)")
    parser.add_argument("--photo-cards", type=int, default=500,
                        help="cards in the photo-like synthetic set (default 500)")
    parser.add_argument("--only", choices=("frames", "piles", "photos", "sets"),
                        help="one rendered set only (default: all of them); sets: the "
                             "stand-ins for the real sets")
    parser.add_argument("--stand-in", action="append", default=[],
                        choices=list({**STAND_INS, **OTHER_KINDS}),
                        help="with --only sets: this stand-in (or rendered set of another "
                             "kind) only; repeat for several")
    parser.add_argument("--seeds", type=int, default=1, metavar="N",
                        help="stand-ins: drawn with N seeds from --seed on, each printed and "
                             "all summed (a rule that reads one seed alone is fitted to it)")
    parser.add_argument("--art", metavar="SET",
                        help="stand-ins: the poker ones only, their cards drawn with the faces "
                             "of this real set's deck (enrolled from ../shared/vision-dev/SET/"
                             "enroll) in place of our drawn art")
    parser.add_argument("--compare", action="store_true",
                        help="stand-ins: read the real set each stands for (../shared/"
                             "vision-dev) in the same run and print it beside")
    parser.add_argument("--real", action="store_true",
                        help="the real photo sets (--set, default: every set in "
                        "../shared/vision-dev) instead of the rendered ones")
    parser.add_argument("--set", action="append", default=[], metavar="DIR",
                        help="a real set: DIR/enroll (one image per card, file name = id), "
                        "DIR/scenes, DIR/truth.json; repeat for several")
    parser.add_argument("--verbose", action="store_true", help="print what each photo gave")
    parser.add_argument("--copies", action="store_true",
                        help="real sets: look for copies under every card, as the daemon "
                             "does under the cards of a game played in piles (Deathtrap's)")
    parser.add_argument("--separate", type=lambda v: set(v.split(",")), default=set(),
                        metavar="NAMES", help="comma-separated photos of separate cards (no card "
                        "touching another): their median is printed too")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    print("command: " + " ".join(shlex.quote(a) for a in [sys.executable] + sys.argv))
    print(f"OpenCV {cv2.__version__}, {cv2.getNumThreads()} thread, numpy {np.__version__}")
    if args.real or args.set:
        real(args)
    else:
        synthetic(args)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"process peak resident size: {peak:.0f} MB (includes all frames held in memory)")


if __name__ == "__main__":
    main()
