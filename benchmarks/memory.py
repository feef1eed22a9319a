"""Memory benchmark: the service with every part on, through a long game, and its peak
resident memory beside baselines measured in the same run.

Run:  python benchmarks/memory.py [--quick]
Goal: <= 100 MB resident (peak) through a long game with every part on.

The daemon is built as `companion run --config FILE` builds it (the same functions of
``companion.commands.run``, from a config with every part enabled), in a process of its
own with systemd/companion.service's allocator settings; its hardware is what the tests use:
gpiozero's mock pins for the inputs, a fake hub on a pseudo-terminal, luma's dummy device for
each screen (``[screens] enabled = false``: drawn in memory), the camera on a folder of
1280x720 JPEG frames of a still table (decoded at 4 fps as a files source is), the web pages
served on a free port, the voice through espeak-ng if installed. A long Tricky game (about
6,000 events; --quick: about 1,200) is fed as `--feed` feeds a log, each event stored before
the next, while every part runs. Peak: the kernel's high-water mark of the process
(VmHWM), read as the feed ends; also the most of a sample every 0.25 s through the second
half of the game (past the start, where the card library is prepared). Baselines: the same
service fed the same game with no part on (as `companion run --sim --feed` without web),
and `python -c "import cv2"`. Also printed, to see what holds the memory and what grows:
the resident memory at READY and at the end of both runs; how much of it at the end is
anonymous (RssAnon) and how much files (RssFile); what holds it at the end with every part
on, by mapping (/proc/self/smaps: the heap and anonymous mappings, each package's shared
libraries, the card library file, the other files); and each part's share of the peak: the
peak of the short game (about 1,200 events) with every part on, less its peak with that
part off.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve()
sys.path.insert(0, str(HERE.parent))  # the daemon benchmark's helpers, imported where used:
# the measured process (``--serve``) imports none of them (numpy), only what the service does

#: Frames in the camera's folder: 4 fps for five minutes, hard links to three pictures.
FRAMES = 1200
#: The parts whose share of the peak is measured (each left off in turn).
PARTS = ("camera", "web", "inputs", "hub", "voice")


def status_mb(field: str, pid: str | int = "self") -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(f"{field}:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError(f"no {field}")


def resident_by_holder(pid: str | int = "self") -> dict[str, float]:
    """The process's resident memory (MB) by what holds it, from /proc/PID/smaps: the heap
    and anonymous mappings (Python's objects, numpy's arrays, the libraries' buffers), the
    card library file read in place, each package's shared libraries, the rest of the files
    (Python's and the system's libraries)."""
    held: dict[str, float] = {}
    holder = ""
    for line in Path(f"/proc/{pid}/smaps").read_text().splitlines():
        fields = line.split()
        if "-" in fields[0] and not fields[0].endswith(":"):
            holder = mapping_holder(fields[5] if len(fields) > 5 else "")
        elif fields[0] == "Rss:":
            held[holder] = held.get(holder, 0.0) + int(fields[1]) / 1024
    return dict(sorted(held.items(), key=lambda item: -item[1]))


def mapping_holder(path: str) -> str:
    if not path or path.startswith("[heap]") or path.startswith("[anon"):
        return "heap and anonymous"
    if path.endswith(".npz"):
        return "card library file"
    if "site-packages/" in path:
        package = path.split("site-packages/", 1)[1].split("/", 1)[0]
        package = package.removesuffix(".libs").split(".")[0].split("-")[0]
        return "cv2" if package.startswith("opencv") else package
    return "other files" if path.startswith("/") else path


def long_game(path: Path, rounds: int) -> int:
    """A random Tricky game of ``rounds`` rounds per player, written as a table log."""
    from companion.bundles.tricky.rules.sim import random_game
    from companion.table.log import dump_event

    header, events = random_game(0, 4, rounds_per_player=rounds)
    path.write_text("\n".join([json.dumps(header), *map(dump_event, events)]) + "\n")
    return len(events)


def camera_folder(folder: Path, cache: Path) -> Path:
    """A folder of JPEG frames of a still table, each picture under many names."""
    import cv2
    import numpy as np
    from daemon import render_still_table

    render_still_table(cache / "still-table.npy")
    frames = folder / "frames"
    frames.mkdir()
    pictures = []
    for n, image in enumerate(np.load(cache / "still-table.npy")):
        pictures.append(frames / f"picture-{n}.jpg")
        cv2.imwrite(str(pictures[-1]), image, [cv2.IMWRITE_JPEG_QUALITY, 90])
    for n in range(FRAMES):
        os.link(pictures[n % len(pictures)], frames / f"{n:05d}.jpg")
    for picture in pictures:
        picture.unlink()
    return frames


def free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def every_part_config(folder: Path, frames: Path, hub: Path, off: str = "") -> Path:
    """The config with every part on, but ``off`` (one of PARTS)."""
    config = folder / f"every-part{'-but-' + off if off else ''}.toml"
    on = {part: str(part != off).lower() for part in PARTS}
    config.write_text(
        f'[table]\ngame = "tricky"\n'
        f'[inputs]\nenabled = {on["inputs"]}\npin_factory = "mock"\n'
        f'[screens]\nenabled = false\n'
        f'[hub]\nenabled = {on["hub"]}\nport = "{hub}"\n'
        f'[camera]\nenabled = {on["camera"]}\nsource = "files"\nfiles = "{frames}"\n'
        f'fps = 4.0\n'
        f'[web]\nenabled = {on["web"]}\nlisten = "127.0.0.1"\nport = {free_port()}\n'
        f'[voice]\nenabled = {on["voice"]}\n'
        f'[daemon]\nlog_level = "warning"\n')
    return config


def serve(config_path: str, db: str, log: str) -> None:
    """(In its own process) the daemon as `companion run --config` builds it, with the log
    fed as --feed feeds it but every configured part kept running; prints its resident
    memory (peak, and at the end) as JSON once the feed is over."""
    from companion.commands import run as commands
    from companion.daemon.config import load_config
    from companion.daemon.daemon import Daemon
    from companion.daemon.feed import feed_session
    from companion.daemon.sources import FeedSource
    from companion.i18n.choice import LanguageChoice
    from companion.table import TableStore, read_log

    config = load_config(config_path)
    commands.setup_logging(config.daemon.log_level)
    with TableStore(db) as store:
        parts = commands.parts(config, False, Path(db).parent)
        header, events = read_log(log)
        stored_game, done = feed_session(store, header, events)
        parts.append(FeedSource(events[done:], config.daemon.retry_seconds))
        count = len(events)
        del events  # as `companion run --feed` lets them go
        web = commands.web_part(config, argparse.Namespace(web=None, sim=False, feed=None), db)
        if web is not None:
            parts.append(web)
        daemon = Daemon(store, screens=commands.screens(config, False), parts=parts,
                        watchers=[] if web is None else [web.watch],
                        language=LanguageChoice(Path(db), config.table.language),
                        voice=commands.speaker(config),
                        confirm_below=config.vision.confirm_below,
                        retry_seconds=config.daemon.retry_seconds,
                        peek_timeout_s=config.pinmap().peek_timeout_s,
                        watching=False, geometry=config.vision.geometry())
        daemon.use_stored_game(stored_game)
        commands.stop_on_signals(daemon)
        samples: list[float] = []
        threading.Thread(target=sample_rss, args=(daemon, samples), daemon=True).start()
        code = daemon.run()
    late = samples[len(samples) // 2:] or [status_mb("VmRSS")]
    print(json.dumps({"code": code, "peak_mb": status_mb("VmHWM"), "late_mb": max(late),
                      "ready_mb": samples[0] if samples else status_mb("VmRSS"),
                      "end_mb": status_mb("VmRSS"), "events": count,
                      "anon_mb": status_mb("RssAnon"), "file_mb": status_mb("RssFile"),
                      "held": resident_by_holder()}), flush=True)
    os._exit(0)  # the camera thread may be inside OpenCV: no interpreter shutdown under it


def sample_rss(daemon: Any, samples: list[float]) -> None:
    """The resident memory every 0.25 s once the daemon is READY."""
    daemon.ready.wait()
    while True:
        samples.append(status_mb("VmRSS"))
        time.sleep(0.25)


def run_served(config: Path, db: Path, log: Path) -> dict:
    from daemon import UNIT_ENVIRONMENT

    env = {**os.environ, **UNIT_ENVIRONMENT}
    started = time.perf_counter()
    done = subprocess.run([sys.executable, str(HERE), "--serve", str(config), str(db),
                           str(log)], env=env, capture_output=True, text=True, timeout=1800)
    if done.returncode != 0 or not done.stdout.strip():
        raise SystemExit(f"the daemon failed:\n{done.stderr[-3000:]}")
    result = json.loads(done.stdout.strip().splitlines()[-1])
    result["seconds"] = time.perf_counter() - started
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="a shorter game (~1,200 events)")
    parser.add_argument("--serve", nargs=3, metavar=("CONFIG", "DB", "LOG"),
                        help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(*args.serve)
        return
    from companion.daemon.camera import library_for
    from companion.games import registry
    from companion.hardware.hubfake import FakeHub

    print("command: python benchmarks/memory.py" + (" --quick" if args.quick else ""))
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        log = folder / "long-game.jsonl"
        events = long_game(log, 10 if args.quick else 50)
        frames = camera_folder(folder, folder)
        # Enrolled once and kept beside the store, as the service's first start leaves it.
        library_for(registry.card_games(), "", folder)
        short = folder / "short-game.jsonl"
        short_events = long_game(short, 10)
        with FakeHub(folder / "hub").plug():
            config = every_part_config(folder, frames, folder / "hub")
            ours = run_served(config, folder / "every-part.db", log)
            # Each part's share: the short game with every part on, then with it off.
            every = run_served(config, folder / "short.db", short)["peak_mb"]
            shares = {part: every - run_served(every_part_config(folder, frames, folder / "hub",
                                                                 part),
                                               folder / f"short-{part}.db", short)["peak_mb"]
                      for part in PARTS}
        bare_config = folder / "no-part.toml"
        bare_config.write_text('[daemon]\nlog_level = "warning"\n')
        bare = run_served(bare_config, folder / "no-part.db", log)
        shutil.rmtree(frames)
    probe = subprocess.Popen([sys.executable, "-c", "import cv2, time; time.sleep(30)"])
    time.sleep(2.0)
    from daemon import rss_mb

    cv2_mb = rss_mb(probe.pid)
    probe.kill()
    probe.wait()
    print(f"peak resident memory, every part on, through a {events:,}-event game: "
          f"{ours['peak_mb']:.1f} MB (the most through its second half {ours['late_mb']:.1f} "
          f"MB, at its end {ours['end_mb']:.1f} MB; fed in {ours['seconds']:.0f} s; camera, "
          f"screens, inputs, hub, web, voice)  "
          f"(baseline, the same game with no part on: {bare['peak_mb']:.1f} MB; python + cv2: "
          f"{cv2_mb:.1f} MB; goal <= 100 MB)")
    print(f"resident memory at READY {ours['ready_mb']:.1f} MB, at the end {ours['end_mb']:.1f} "
          f"MB (the same game with no part on: {bare['ready_mb']:.1f} MB at READY, "
          f"{bare['end_mb']:.1f} MB at the end)")
    print(f"each part's share of the peak (a {short_events:,}-event game with every part "
          f"on, less with that part off; every part on: {every:.1f} MB): " + ", ".join(
              f"{part} {mb:.1f} MB" for part, mb in sorted(shares.items(), key=lambda s: -s[1])))
    print(f"at the end, every part on: {ours['anon_mb']:.1f} MB anonymous (the heap, Python's "
          f"objects, buffers: what the Pi must keep in memory), {ours['file_mb']:.1f} MB of "
          f"files (libraries' code and data, the card library: pages the kernel may drop and "
          f"read again)")
    print("held at the end, every part on: " + ", ".join(
        f"{holder} {mb:.1f} MB" for holder, mb in ours["held"].items() if mb >= 0.5))
    print(f"espeak-ng {'installed' if shutil.which('espeak-ng') else 'not installed: voice off'}")


if __name__ == "__main__":
    main()
