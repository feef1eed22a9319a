"""The figures of the budget benchmarks, measured and written to docs/figures.md.

Run:  python benchmarks/report.py [--quick] [--skip NAME,...] [--only NAME,...] [--list]
      [--out FILE]

Each benchmark runs as a process of its own, one after the other (each compares itself
with a baseline measured in the same run, so none shares the machine with another); its
headline figures are read from what it prints. docs/figures.md then holds, per benchmark,
the command, how long it took, each figure beside its baseline and its goal, and all it
printed. The README points there instead of typing figures that drift.

- ``--quick``: each benchmark's own quick mode where it has one (a check that they run;
  the figures are less steady, and the page says it was a quick run).
- ``--skip``/``--only``: leave some out, or run only some (``--list`` names them). Every
  rendered vision set in full (about 12 minutes) is not in the default run: it runs when
  named in ``--only``. The real photo sets run when ../shared/vision-dev is there.

Exit 1 if a benchmark failed or a figure could not be read from its output (the page is
written all the same, and says which).
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import shlex
import subprocess
import sys
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "docs" / "figures.md"
NUMBER = r"[\d,]+(?:\.\d+)?"


@dataclass(frozen=True)
class Figure:
    """One figure: ``value`` and ``baseline`` are (regex, template) read from the output,
    the template filled with the regex's named groups; ``every`` joins every match of the
    value (one per game, say) instead of the first. A goal read from the output is the
    value regex's ``goal`` group; else ``goal`` as written here."""

    what: str
    value: tuple[str, str]
    baseline: tuple[str, str] | str | None = None
    goal: str = ""
    every: bool = False


@dataclass(frozen=True)
class Benchmark:
    """``script`` run with ``full`` (its arguments in the report), or with ``quick`` in
    ``--quick`` (None: the same as ``full``)."""

    name: str
    script: str
    full: tuple[str, ...]
    measures: str
    figures: tuple[Figure, ...]
    quick: tuple[str, ...] | None = None
    default: bool = True
    timeout: float = 1800.0
    notes: tuple[str, ...] = ()
    #: A folder the benchmark reads (data not in the repository): without it, not run.
    needs: Path | None = None

    def args(self, quick: bool) -> list[str]:
        chosen = self.quick if quick and self.quick is not None else self.full
        return [f"benchmarks/{self.script}", *chosen]

    def shown(self, quick: bool) -> str:
        return shlex.join(["python", *self.args(quick)])


def n(name: str) -> str:
    """A named number in a regex."""
    return f"(?P<{name}>{NUMBER})"


BENCHMARKS = (
    Benchmark(
        "startup", "startup.py", (),
        "`companion --help` CPU time beside `python -c pass` (issue 43)",
        (Figure("`companion --help`, CPU time",
                (rf"companion --help\s+CPU\s+{n('ms')} ms\s+{n('x')}x", "{ms} ms ({x}x)"),
                (rf"baseline: python -c pass\s+CPU\s+{n('ms')} ms", "`python -c pass` {ms} ms"),
                "at most 3x the baseline"),),
        quick=("--runs", "5")),
    Benchmark(
        "cli", "cli.py", (),
        "start-up of the light commands: wall and CPU time, peak memory",
        tuple(Figure(f"`{command}`: wall, CPU, peak memory",
                     (rf"^{re.escape(command)}\s+{n('wall')}\s+{n('cpu')}\s+{n('mb')}$",
                      "{wall} s, {cpu} s CPU, {mb} MB"),
                     (rf"^baseline: python -c pass\s+{n('wall')}\s+{n('cpu')}\s+{n('mb')}$",
                      "`python -c pass` {cpu} s CPU, {mb} MB"))
              for command in ("companion --help", "companion rules tricky",
                              "companion replay LOG", "companion sessions --db DB"))
        + (Figure("`import cv2`, for comparison",
                  (rf"^baseline: python -c 'import cv2'\s+{n('wall')}\s+{n('cpu')}\s+{n('mb')}$",
                   "{cpu} s CPU, {mb} MB")),),
        quick=("--runs", "2")),
    Benchmark(
        "table_log", "table_log.py", (),
        "the table store: durable appends/s (fsync per event), replay events/s",
        (Figure("durable appends (fsync per event)",
                (rf"durable appends, table store.*:\s+{n('n')}/s", "{n}/s"),
                (rf"baseline: bare SQLite insert\+commit, same settings:\s+{n('n')}/s",
                 "bare SQLite insert+commit {n}/s")),
         Figure("replay", (rf"replay (?P<game>\w+)\s*:\s+{n('n')}/s events", "{game} {n}/s"),
                every=True)),
        quick=("--events", "200", "--games", "5")),
    Benchmark(
        "engines", "engines.py", (),
        "replay µs/event and one undo after 100 / 1,000 / 10,000 events; random games",
        (Figure("replay, µs per event (events in the log)",
                (rf"^\s+(?P<game>[a-z]+)\s+{n('events')}\s+{n('us')}\s+{n('force')}\s+"
                 rf"{n('undo')}\s+{n('ratio')}$", "{game} {us} ({events})"),
                None, "flat from 100 to 10,000 events", every=True),
         Figure("one undo, over one event's replay",
                (rf"^\s+(?P<game>[a-z]+)\s+{n('events')}\s+{n('us')}\s+{n('force')}\s+"
                 rf"{n('undo')}\s+{n('ratio')}$", "{game} {ratio}x ({events})"),
                None, "at most 5x", every=True),
         Figure("random games, actions/s",
                (rf"^\s+(?P<game>deathtrap|rumble|traps|tricky)\s+\d+\s+{n('games')}\s+"
                 rf"{n('actions')}$", "{game} {actions}"),
                (rf"^\s+bridge\s+\d+\s+{n('games')}\s+{n('actions')}",
                 "RLCard bridge {actions}/s"), every=True)),
        quick=("--quick",)),
    Benchmark(
        "input_latency", "input_latency.py", (),
        "encoder edge -> image handed to luma (host CPU), I2C bytes per update",
        (Figure("detent -> image handed to luma",
                (rf"^ours\s+p50\s+{n('p50')} ms\s+p99\s+{n('p99')} ms\s+I2C\s+{n('b')}",
                 "p50 {p50} ms, p99 {p99} ms; {b} I2C bytes per update"),
                (rf"^baseline\s+p50\s+{n('p50')} ms\s+p99\s+{n('p99')} ms\s+I2C\s+{n('b')}",
                 "every screen redrawn in full: p50 {p50} ms, p99 {p99} ms; {b} bytes")),),
        quick=("--detents", "500")),
    Benchmark(
        "daemon", "daemon.py", (),
        "READY, idle CPU, the camera watching a still table (CPU, memory), dial detent -> "
        "bytes on the I2C bus",
        (Figure("start-up to READY",
                (rf"start-up to READY\s+{n('s')} s\s+\(baseline python -c pass: {n('b')} s; "
                 r"target (?P<goal>[^)]+)\)", "{s} s"),
                (rf"start-up to READY\s+{n('s')} s\s+\(baseline python -c pass: {n('b')} s",
                 "`python -c pass` {b} s")),
         Figure("READY with every part on (camera, screens, hub)",
                (rf"READY, every part on\s+{n('s')} s\s+\({n('cpu')} s of CPU by then;.*?"
                 r"target (?P<goal>[^)]+)\)", "{s} s, {cpu} s of CPU"),
                (rf"READY, every part on.*?baseline python -c pass: {n('b')} s",
                 "`python -c pass` {b} s")),
         Figure("idle CPU",
                (rf"idle CPU\s+{n('v')} %.*?target (?P<goal>[^)]+)\)", "{v} % of a core"),
                (rf"idle CPU.*?baseline idle 4 Hz loop: {n('b')} %", "a 4 Hz loop {b} %")),
         Figure("watching a still table at 4 fps, beyond the source's own reading",
                (rf"CPU beyond the source's own reading.*?every part on:\s+{n('f')} % of a "
                 rf"core with.*?; {n('p')} % with Picamera2's lores stream.*?"
                 r"\(target (?P<goal>[^)]+)\)$",
                 "{f} % of a core (frames watched downscaled), {p} % (Picamera2's lores)"),
                (rf"CPU beyond the source's own reading.*?baseline the source alone: "
                 rf"{n('fs')} %.*?baseline the source alone: {n('ps')} %",
                 "the source's own reading alone: {fs} % (frames), {ps} % (lores)")),
         Figure("watching a still table (4 fps, 2 once resting), every part on",
                (rf"watching a still table.*?every part on\s+{n('v')} % of a core at "
                 rf"{n('fps')} fps.*?4 fps throughout: {n('four')} %.*?target (?P<goal>[^)]+)\)",
                 "{v} % of a core ({four} % at 4 fps throughout)"),
                (rf"watching a still table.*?every frame read in full: {n('b')} %",
                 "every frame read in full: {b} %")),
         Figure("resident memory with the camera",
                (rf"RSS with the camera\s+{n('v')} MB.*?target (?P<goal>[^)]+)\)", "{v} MB"),
                (rf"RSS with the camera.*?baseline python \+ cv2: {n('b')} MB",
                 "python + cv2 {b} MB")),
         Figure("dial detent -> bus bytes, the loop's CPU",
                (rf"detent -> bus bytes, loop CPU: p50\s+{n('p50')} ms, p99\s+{n('p99')} ms.*?"
                 r"target (?P<goal>[^)]+)\)", "p50 {p50} ms, p99 {p99} ms"),
                (rf"detent -> bus bytes, loop CPU:.*?every update: p50\s+{n('p50')} ms, "
                 rf"p99\s+{n('p99')} ms", "every screen drawn: p50 {p50} ms, p99 {p99} ms")),
         Figure("dial detent -> bus bytes, wall time",
                (rf"detent -> bus bytes, wall: p50\s+{n('p50')} ms, p99\s+{n('p99')} ms.*?"
                 r"target (?P<goal>[^)]+)\)", "p50 {p50} ms, p99 {p99} ms"),
                (rf"detent -> bus bytes, wall:.*?every update: p50\s+{n('p50')} ms, "
                 rf"p99\s+{n('p99')} ms", "every screen drawn: p50 {p50} ms, p99 {p99} ms"))),
        quick=("--quick",),
        notes=("On a Pi: a Pi 4 core is about 3x slower than one here, a Zero 2 W's 4-8x "
               "([docs/pi.md](pi.md)).",)),
    Benchmark(
        "memory", "memory.py", (),
        "the service with every part on (camera, screens, inputs, hub, web, voice) through a "
        "long fed game: peak resident memory",
        (Figure("peak resident memory, every part on, through a long game",
                (rf"peak resident memory, every part on, through a {n('events')}-event game: "
                 rf"{n('v')} MB \(the most through its second half {n('late')} MB.*?"
                 r"goal (?P<goal>[^)]+)\)",
                 "{v} MB over {events} events ({late} MB through the second half)"),
                (rf"peak resident memory.*?no part on: {n('b')} MB; python \+ cv2: {n('c')} MB",
                 "the same game with no part on {b} MB; python + cv2 {c} MB")),
         Figure("each part's share of the peak (a short game with every part on, less with "
                "that part off)",
                (rf"each part's share of the peak \(a {n('events')}-event game.*?every part on: "
                 rf"{n('every')} MB\): (?P<shares>[^\n]+)", "{shares}"),
                (rf"each part's share of the peak \(a {n('events')}-event game.*?every part on: "
                 rf"{n('every')} MB\)", "every part on: {every} MB ({events} events)")),
         Figure("at the end of the long game, every part on: anonymous and file-backed",
                (rf"at the end, every part on: {n('anon')} MB anonymous.*?{n('file')} MB of "
                 r"files", "{anon} MB anonymous, {file} MB of files"),
                (rf"resident memory at READY.*?at the end {n('end')} MB \(",
                 "{end} MB resident at the end"))),
        quick=("--quick",)),
    Benchmark(
        "web", "web.py", (),
        "8 seat pages and 4 table pages connected while 1,000 events are sent",
        (Figure("event -> page updated",
                (rf"event -> page updated\s+p50\s+{n('p50')} ms\s+p99\s+{n('p99')} ms\s+"
                 r"\(goal (?P<goal>[^)]+)\)", "p50 {p50} ms, p99 {p99} ms"),
                (rf"baseline: event -> stored, without the web part\s+p50\s+{n('p50')} ms\s+"
                 rf"p99\s+{n('p99')} ms", "event -> stored without the web part: p50 {p50} ms, "
                 "p99 {p99} ms")),
         Figure("updates lost",
                (rf"updates lost\s+{n('lost')} of {n('of')}\s+\(goal (?P<goal>[^)]+)\)",
                 "{lost} of {of}")),
         Figure("resident memory with 12 pages",
                (rf"resident memory\s+{n('v')} MB with the web part.*?\+{n('more')} MB\s+"
                 r"\(goal (?P<goal>[^)]+)\)", "{v} MB (+{more} MB)"),
                (rf"resident memory.*?{n('b')} MB without", "{b} MB without the web part")),
         Figure("idle CPU with 12 pages open",
                (rf"idle CPU\s+{n('v')} % of a core with 12 pages open.*?\(goal (?P<goal>[^)]+)\)",
                 "{v} % of a core"),
                (rf"idle CPU\s+{NUMBER} % of a core with 12 pages open,\s+{n('b')} % without",
                 "{b} % without the web part"))),
        quick=("--events", "200", "--idle", "3")),
    Benchmark(
        "long_game", "long_game.py", (),
        "a 6,177-event Tricky game fed to the daemon, with the web part and 12 pages and "
        "without it: CPU per event and bytes per page, first vs last 1,000 events (issue 43)",
        (Figure("CPU per event with the web part and 12 pages, first -> last 1,000",
                (rf"with the web part and 12 pages\s+first\s+{n('f')} ms\s+last\s+{n('l')} ms"
                 rf"\s+last/first\s+{n('x')}x\s+\(goal (?P<goal>[^)]+)\)",
                 "{f} -> {l} ms ({x}x)"),
                (rf"replay of the same log, µs/event\s+first\s+{n('f')}\s+last\s+{n('l')}\s+"
                 rf"last/first\s+{n('x')}x", "replay {f} -> {l} µs ({x}x)")),
         Figure("CPU per event without the web part, first -> last 1,000",
                (rf"without the web part\s+first\s+{n('f')} ms\s+last\s+{n('l')} ms"
                 rf"\s+last/first\s+{n('x')}x\s+\(goal (?P<goal>[^)]+)\)",
                 "{f} -> {l} ms ({x}x)"),
                (rf"replay of the same log, µs/event\s+first\s+{n('f')}\s+last\s+{n('l')}\s+"
                 rf"last/first\s+{n('x')}x", "replay {f} -> {l} µs ({x}x)")),
         Figure("with the web part over without it, last 1,000 events",
                (rf"with the web part over without it, last 1000\s+{n('x')}x\s+\(first 1000: "
                 rf"{n('f')}x; goal (?P<goal>[^)]+)\)", "{x}x (first 1,000: {f}x)")),
         Figure("bytes per event per page, first -> last 1,000",
                (rf"bytes per event per page\s+first\s+{n('f')}\s+last\s+{n('l')}\s+"
                 rf"last/first\s+{n('x')}x\s+\(goal: (?P<goal>[^)]+)\)", "{f} -> {l} ({x}x)"))),
        quick=("--rounds", "10", "--runs", "1")),
    Benchmark(
        "web_languages", "web_languages.py", (),
        "the web part's Snapshot.build per event, seats in French at an English table",
        (Figure("seats in French, table in English: mean build",
                (rf"^(?P<game>\w+)\s+seats in French, table in English\s+\d+ builds: mean\s+"
                 rf"{n('mean')} ms", "{game} {mean} ms"),
                (rf"^(?P<game>\w+)\s+seats in the table's language \(baseline\)\s+\d+ builds: "
                 rf"mean\s+{n('mean')} ms", "{game} {mean} ms in the table's language"),
                every=True),)),
    Benchmark(
        "hub", "hub.py", (),
        "the serial hub's link through a pty: events/s, heartbeat round trip",
        (Figure("events/s (acknowledged, exactly once)",
                (rf"events/s\s+hub \(acknowledged, exactly once\)\s+{n('n')}", "{n}/s"),
                (rf"events/s\s+baseline \(bare frames, no acks\)\s+{n('n')}",
                 "bare frames, no acks: {n}/s")),
         Figure("round trip (PING -> PONG)",
                (rf"round trip\s+hub \(PING -> PONG\)\s+median\s+{n('m')} ms\s+p99\s+{n('p')} ms",
                 "median {m} ms, p99 {p} ms"),
                (rf"round trip\s+baseline \(echo thread\)\s+median\s+{n('m')} ms\s+p99\s+"
                 rf"{n('p')} ms", "echo thread: median {m} ms, p99 {p} ms"))),
        quick=("--quick",)),
    Benchmark(
        "voice", "voice.py", (),
        "an announcement queued -> espeak-ng starting to say it",
        (Figure("queued -> synthesis started",
                (rf"speaker\s+p50\s+{n('p50')} ms\s+p99\s+{n('p99')} ms",
                 "p50 {p50} ms, p99 {p99} ms"),
                (rf"baseline\s+p50\s+{n('p50')} ms\s+p99\s+{n('p99')} ms",
                 "a bare thread hand-over: p50 {p50} ms, p99 {p99} ms")),),
        quick=("--count", "50")),
    Benchmark(
        "camera_pictures", "camera_pictures.py", (),
        "the camera's pictures kept as evidence: CPU per settled scene, store growth",
        (Figure("CPU per settled scene, the whole picture",
                (rf"whole picture\s+p50\s+{n('p50')} ms\s+p99\s+{n('p99')} ms",
                 "p50 {p50} ms, p99 {p99} ms"),
                (rf"baseline: a frame read in full\s+p50\s+{n('p50')} ms\s+p99\s+{n('p99')} ms",
                 "a frame read in full: p50 {p50} ms, p99 {p99} ms")),
         Figure("JPEG encodes while the table is still",
                (rf"still table: .*?: {n('n')} JPEG encodes \(goal (?P<goal>[^)]+)\)",
                 "{n} in 60 frames")),
         Figure("store growth per picture",
                (rf"growth per picture\s+{n('kb')} KB \(goal (?P<goal>[^)]+)\)", "{kb} KB"),
                (rf"store:\s+{n('kb')} KB the table log alone", "the table log alone {kb} KB"))),
        quick=("--quick",)),
    Benchmark(
        "league", "league.py", (),
        "`companion league` over a store of 10,000 finished games",
        (Figure("`companion league`, a new process",
                (rf"companion league \(new process, imports included\):\s+{n('s')} s", "{s} s"),
                (rf"bare SQLite scan of every result \+ JSON decode:\s+{n('s')} s",
                 "a bare SQLite scan + JSON decode {s} s")),
         Figure("`companion league`, in process",
                (rf"companion league \(in process\):\s+{n('s')} s", "{s} s"))),
        quick=("--games", "1000")),
    Benchmark(
        "faults", "faults.py", (),
        "a bad night: SIGKILLs of a fed daemon, line noise and replugs on the hub link, "
        "host stalls; what was lost",
        (Figure("lost", (r"^(?P<what>nothing lost|LOST OR WRONG: \d+) \((?P<s>\d+) s\)",
                         "{what} ({s} s)"), None, "nothing lost"),
         Figure("kills", (r"^kills:\s+(?P<line>.*)$", "{line}")),
         Figure("hub", (r"^hub:\s+(?P<line>.*)$", "{line}")),
         Figure("stalls", (r"^stalls:\s+(?P<line>.*)$", "{line}"))),
        quick=("--kills", "5", "--noise", "100000", "--replugs", "10", "--stalls", "1",
               "--events", "300", "--forged", "20"),
        notes=("What each promise means and the tests that keep it: "
               "[docs/reliability.md](reliability.md).",)),
    Benchmark(
        "vision_frames", "vision.py", ("--only", "frames", "--frames", "20"),
        "rectify + detect + identify per frame on one core: 8 demo cards per rendered frame",
        (Figure("per frame, CPU on one core, and cards read",
                (rf"^(?P<set>\d+x\d+(?: \([^)]*\))?):\n\s+companion\s+median\s+{n('med')} ms\s+"
                 rf"p95\s+{n('p95')} ms\s+top-1 (?P<top>\d+/\d+)",
                 "{set}: median {med} ms, p95 {p95} ms, {top} read"),
                (rf"^(?P<set>\d+x\d+(?: \([^)]*\))?):\n.*\n(?:.*cards at least.*\n)?\s+baseline "
                 rf"\(SIFT \+ RANSAC only\)\s+median\s+{n('med')} ms\s+p95\s+{n('p95')} ms\s+"
                 r"top-1 (?P<top>\d+/\d+)", "{set}: SIFT + RANSAC median {med} ms, {top} read"),
                every=True),),
        quick=("--only", "frames", "--frames", "5"),
        notes=("The rendered sets in full (piles, look-alike photos) and the real photos are "
               "not in the default run: see below.",)),
    Benchmark(
        "vision", "vision.py", (),
        "every rendered set: 60 frames per size, 100 piles, 500 look-alike cards in "
        "rendered phone photos (about 12 minutes here)",
        (), default=False),
    Benchmark(
        "vision_real", "vision.py",
        ("--real", "--separate", "Cards_1.jpg,Cards_2.jpg,Cards_3.jpg,Cards_4.jpg,Cards_5.jpg"),
        "the real photo sets in ../shared/vision-dev: cards read, invented, CPU per photo on "
        "one core, the slowest photo beside SIFT's own detectAndCompute on it",
        (Figure("sets", (r"^set (?P<set>\S+): (?P<n>\d+) enrolled .*?; (?P<photos>\d+) photos, "
                         r"(?P<cards>\d+) cards", "{set}: {photos} photos, {cards} cards"),
                every=True),
         Figure("cards read, invented, CPU per photo",
                (r"^\s+(?P<size>full size \(\d+x\d+\)|\d+ px wide \(\d+x\d+\))\s+read "
                 r"(?P<read>\d+/\d+)(?:\s+covered (?P<cov>\d+/\d+))?\s+invented (?P<inv>\d+)\s+"
                 rf"median\s+{n('med')} ms",
                 "{size}: {read} read, {inv} invented, median {med} ms"),
                (rf"slowest (?P<photo>\S+) {n('ms')} ms = {n('x')}x SIFT detectAndCompute on it "
                 rf"\({n('sift')} ms\)", "slowest {photo} {ms} ms = {x}x SIFT's {sift} ms"),
                "none invented", every=True),
         Figure("covered cards read (cards at least partly under others)",
                (r"^\s+(?P<size>full size \(\d+x\d+\)|\d+ px wide \(\d+x\d+\))\s+read "
                 r"(?P<read>\d+/\d+)\s+covered (?P<cov>\d+/\d+)",
                 "{size}: {cov} covered read"), every=True),
         Figure("photos of separate cards, CPU per photo",
                (rf"separate cards median\s+{n('med')} ms", "median {med} ms"),
                goal="<= 50 ms at 1280 px", every=True)),
        quick=("--real", "--set", "../shared/vision-dev/standard-deck"),
        needs=ROOT.parent / "shared" / "vision-dev"),
)

BY_NAME = {benchmark.name: benchmark for benchmark in BENCHMARKS}


@dataclass
class Run:
    benchmark: Benchmark
    quick: bool
    seconds: float = 0.0
    code: int | None = None
    output: str = ""
    rows: list[tuple[str, str, str, str]] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)


def filled(pattern: str, template: str, output: str, every: bool) -> tuple[str, str]:
    """(text, goal) of a figure read from ``output``; ('', '') if it is not there."""
    flags = re.MULTILINE | re.DOTALL if ".*?" in pattern else re.MULTILINE
    matches = list(re.finditer(pattern, output, flags))
    if not matches:
        return "", ""
    chosen = matches if every else matches[:1]
    text = "; ".join(template.format(**match.groupdict()) for match in chosen)
    return text, (chosen[0].groupdict().get("goal") or "")


def read_figures(run: Run) -> None:
    for figure in run.benchmark.figures:
        value, goal = filled(*figure.value, run.output, figure.every)
        if not value:
            run.missing.append(figure.what)
            value = "not in its output"
        if isinstance(figure.baseline, tuple):
            baseline, _ = filled(*figure.baseline, run.output, figure.every)
            baseline = baseline or "not measured in this run"
        else:
            baseline = figure.baseline or ""
        run.rows.append((figure.what, value, baseline, goal or figure.goal))


def run_one(benchmark: Benchmark, quick: bool) -> Run:
    run = Run(benchmark, quick)
    started = time.monotonic()
    print(f"report: {benchmark.shown(quick)} ...", file=sys.stderr, flush=True)
    try:
        done = subprocess.run([sys.executable, *benchmark.args(quick)], cwd=ROOT,
                              capture_output=True, text=True, timeout=benchmark.timeout)
        run.code, run.output = done.returncode, done.stdout + done.stderr
    except subprocess.TimeoutExpired as expired:
        run.output = (expired.stdout or b"").decode(errors="replace") if isinstance(
            expired.stdout, bytes) else (expired.stdout or "")
        run.output += f"\n(stopped after {benchmark.timeout:.0f} s)"
    run.seconds = time.monotonic() - started
    read_figures(run)
    print(f"report: {benchmark.name}: {run.seconds:.0f} s, exit {run.code}"
          + (f"; not read: {', '.join(run.missing)}" if run.missing else ""),
          file=sys.stderr, flush=True)
    return run


def cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def duration(seconds: float) -> str:
    minutes, rest = divmod(round(seconds), 60)
    return f"{minutes} min {rest} s" if minutes else f"{rest} s"


def commit() -> str:
    def git(*args: str) -> str:
        done = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True)
        return done.stdout.strip() if done.returncode == 0 else ""

    head = git("rev-parse", "--short", "HEAD") or "unknown"
    changed = git("status", "--porcelain", "--untracked-files=no")
    return head + (" (with changes not committed)" if changed else "")


def page(runs: list[Run], command: str, seconds: float, left_out: list[Benchmark],
         load: tuple[float, float]) -> str:
    quick = any(run.quick for run in runs)
    whole = not quick and all(benchmark.default is False for benchmark in left_out)
    if whole:
        took = (f"The full report (every benchmark of the default run, each in full) took "
                f"**{duration(seconds)}** here.")
    else:
        took = (f"This run took **{duration(seconds)}**"
                + (" in quick mode (each benchmark's own quick mode: fewer runs, figures less "
                   "steady)" if quick else "")
                + "; the full report (`python benchmarks/report.py`) runs every benchmark of "
                "the default run in full, and takes longer.")
    lines = [
        "# Figures",
        "",
        "<!-- Written by benchmarks/report.py: run it again rather than edit this page. -->",
        "",
        f"Measured by `{command}` on {datetime.now(UTC):%Y-%m-%d} at commit {commit()}, on "
        f"the development machine ({os.cpu_count()} cores, {platform.machine()}, Python "
        f"{platform.python_version()}; load average {load[0]:.1f} before, {load[1]:.1f} "
        "after). Each benchmark prints its figures beside a baseline measured in the same "
        "run; this page copies them. Figures of a machine shared with other work move from "
        "run to run; the baselines move with them.",
        "",
        took + " `--quick` runs each benchmark's own quick mode (a few minutes); `--skip "
        "NAME,...` and `--only NAME,...` leave some out (`--list` names them).",
        "",
        "| benchmark | figure | measured | baseline, same run | goal |",
        "| --- | --- | --- | --- | --- |",
    ]
    for run in runs:
        anchor = f"[{run.benchmark.name}](#{run.benchmark.name})"
        for what, value, baseline, goal in run.rows:
            lines.append(f"| {anchor} | {cell(what)} | {cell(value)} | {cell(baseline)} | "
                         f"{cell(goal)} |")
        if run.code != 0:
            lines.append(f"| {anchor} | **failed** (exit {run.code}) | | | |")
    for run in runs:
        benchmark = run.benchmark
        lines += ["", f"## {benchmark.name}", "",
                  f"{benchmark.measures}. Command: `{benchmark.shown(run.quick)}` "
                  f"({duration(run.seconds)}"
                  + (f", exit {run.code}" if run.code != 0 else "") + ")."]
        lines += [f"{note}" for note in benchmark.notes]
        if run.missing:
            lines.append(f"Not read from its output: {', '.join(run.missing)} (the "
                         "report's patterns need updating).")
        lines += ["", "```", run.output.rstrip(), "```"]
    if left_out:
        lines += ["", "## Not in this run", ""]
        lines += [f"- `{benchmark.shown(False)}`: {benchmark.measures}"
                  + (f" (not run: no {benchmark.needs} here)" if benchmark.needs is not None
                     and not benchmark.needs.is_dir() else "" if benchmark.default else
                     " (not in the default run; `python benchmarks/report.py --only "
                     f"{benchmark.name}`)")
                  for benchmark in left_out]
    lines += ["- `python benchmarks/versions.py --enroll DIR --scenes DIR CHECKOUT...`: the "
              "same real photos read by several checkouts in turn, to compare a change's speed "
              "([docs/vision.md](vision.md))", ""]
    return "\n".join(lines)


def names(text: str) -> list[str]:
    chosen = [name.strip() for name in text.split(",") if name.strip()]
    unknown = [name for name in chosen if name not in BY_NAME]
    if unknown:
        raise argparse.ArgumentTypeError(f"no benchmark {', '.join(unknown)} "
                                         f"(there are: {', '.join(BY_NAME)})")
    return chosen


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="each benchmark's quick mode (a check; figures less steady)")
    parser.add_argument("--skip", type=names, default=[], metavar="NAME,...",
                        help="leave these out")
    parser.add_argument("--only", type=names, default=[], metavar="NAME,...",
                        help="run only these (the ones not run by default too)")
    parser.add_argument("--out", type=Path, default=OUT, help="the page (default docs/figures.md)")
    parser.add_argument("--list", action="store_true", help="name the benchmarks and stop")
    args = parser.parse_args()
    if args.list:
        for benchmark in BENCHMARKS:
            default = "" if benchmark.default else "  (only with --only)"
            print(f"{benchmark.name:16} {benchmark.shown(False)}{default}")
        return 0
    chosen = [b for b in BENCHMARKS if (b.name in args.only if args.only else b.default)
              and b.name not in args.skip]
    left_out = [b for b in BENCHMARKS if b not in chosen]
    command = shlex.join(["python", "benchmarks/report.py", *sys.argv[1:]])
    load_before = os.getloadavg()[0]
    started = time.monotonic()
    missing_data = [b for b in chosen if b.needs is not None and not b.needs.is_dir()]
    chosen = [b for b in chosen if b not in missing_data]
    left_out = [b for b in BENCHMARKS if b not in chosen]
    runs = [run_one(benchmark, args.quick) for benchmark in chosen]
    seconds = time.monotonic() - started
    args.out.write_text(page(runs, command, seconds, left_out,
                             (load_before, os.getloadavg()[0])))
    failed = [run.benchmark.name for run in runs if run.code != 0 or run.missing]
    print(f"report: wrote {args.out} in {duration(seconds)}"
          + (f"; look at: {', '.join(failed)}" if failed else ""), file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
