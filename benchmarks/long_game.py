"""A long evening: a 6,000-event Tricky game fed to the daemon, with the web part and 12
pages connected and without it, CPU per event and bytes per page early and late in the game.

Run:  python benchmarks/long_game.py [--rounds N] [--runs N]
Goals (issue 43): the CPU per event of the last 1,000 events at most 1.2x that of the first
1,000, with and without the web part; with it at most 1.3x without it; the bytes a page
receives per event do not grow with the game.

- The game: Tricky's simulator, 4 seats, ``rounds_per_player`` 50 (6,177 events), written as
  a table log. The daemon runs in a process of its own (this script with ``--serve``), built
  as ``companion run --sim --feed LOG`` builds it (simulated screens, the store), and takes
  the log's events one at a time, each stored before the next, as ``--feed`` gives them.
- CPU: the daemon process's CPU time (every thread: the loop, the screens, the web server)
  when each event is stored; per event, the mean over the first and the last 1,000 events.
- Pages: 4 seat pages (``/s/TOKEN/ws``) and 8 table pages (``/ws``), WebSocket clients in this
  process, connected before the first event; each message counted against the event count
  the page shows once it has taken it (``companion.web.delta.PageState``).
- Baseline, same run: the same daemon without the web part; and replaying the same log
  (``TableSession.apply`` alone), which is flat whatever the length of the game.
- Each daemon is fed the game ``--runs`` times (2), in turn; each figure is the lowest of its
  runs (the one least disturbed by other work on a shared machine).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve()
SEATS, TABLE_PAGES, WINDOW = 4, 8, 1000


def write_log(path: Path, rounds: int) -> int:
    from companion.bundles.tricky.rules.sim import random_game

    header, events = random_game(0, SEATS, rounds_per_player=rounds)
    path.write_text("".join(json.dumps(line) + "\n" for line in [header, *events]))
    return len(events)


# --- the daemon's process ----------------------------------------------------------------

def serve(mode: str, db: str, log: str) -> None:
    """The daemon fed ``log`` once stdin says go (``web``: with the web part on a free port);
    prints the process's CPU time after each event stored, then waits for stdin to close."""
    from companion.daemon.config import load_config
    from companion.daemon.daemon import Daemon
    from companion.daemon.displays import PanelScreen
    from companion.daemon.feed import feed_session
    from companion.daemon.items import FedEvent, Stop
    from companion.table import TableStore, read_log

    config = load_config(None)
    header, events = read_log(log)
    with TableStore(db) as store:
        stored_game, _ = feed_session(store, header, events)
        parts, web = [], None
        if mode == "web":
            from companion.web.part import WebPart

            web = WebPart("127.0.0.1", 0, db)
            parts.append(web)
        pinmap = config.pinmap()
        screens = [PanelScreen(wiring.name, pinmap, simulate=True) for wiring in pinmap.screens]
        daemon = Daemon(store, screens=screens, parts=parts,
                        watchers=[web.watch] if web is not None else [])
        daemon.use_stored_game(stored_game)

        def feed() -> None:
            daemon.ready.wait()
            print("ready", flush=True)
            sys.stdin.readline()  # go
            cpu = []
            for line, event in events:
                fed = FedEvent(line, event)
                daemon.submit(fed)
                fed.done.wait()
                cpu.append(time.process_time())
            print("cpu", json.dumps(cpu), flush=True)
            sys.stdin.read()
            daemon.submit(Stop("benchmark over"))

        threading.Thread(target=feed, daemon=True).start()
        daemon.run()


def start(mode: str, db: str, log: str) -> subprocess.Popen:
    process = subprocess.Popen([sys.executable, str(HERE), "--serve", mode, db, log],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert process.stdout is not None
    assert process.stdout.readline().strip() == "ready"
    return process


def fed_cpu(process: subprocess.Popen) -> list[float]:
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write("go\n")
    process.stdin.flush()
    word, cpu = process.stdout.readline().split(" ", 1)
    assert word == "cpu"
    return json.loads(cpu)


def finish(process: subprocess.Popen) -> None:
    assert process.stdin is not None
    process.stdin.close()
    process.wait(timeout=60)


# --- the pages ---------------------------------------------------------------------------

async def pages(db: str, process: subprocess.Popen, events: int
                ) -> tuple[list[float], list[list[int]]]:
    """12 pages open while the daemon is fed; its CPU times, and per page the bytes it got
    for each event count (index: the events its page shows after the message)."""
    import aiohttp

    from companion.commands.seats import seat_links
    from companion.web.delta import PageState

    deadline = time.monotonic() + 60
    while (links := try_links(db, seat_links)) is None:
        if time.monotonic() > deadline:
            raise RuntimeError("no seat links")
        await asyncio.sleep(0.05)
    base = links[0].split("/s/")[0]
    urls = [link + "/ws" for link in links] + [base + "/ws"] * TABLE_PAGES
    received = [[0] * (events + 1) for _ in urls]
    shown = [0] * len(urls)
    done = asyncio.Event()

    async def reader(ws: aiohttp.ClientWebSocketResponse, index: int) -> None:
        page = PageState()
        async for message in ws:
            state = page.take(json.loads(message.data))
            shown[index] = state.get("events", shown[index])
            received[index][shown[index]] += len(message.data.encode())
            if all(count >= events for count in shown):
                done.set()

    async with aiohttp.ClientSession() as client:
        sockets = [await client.ws_connect(url.replace("http", "ws", 1)) for url in urls]
        readers = [asyncio.ensure_future(reader(ws, n)) for n, ws in enumerate(sockets)]
        while not all(any(page) for page in received):  # each has its whole channel
            await asyncio.sleep(0.01)
        cpu = await asyncio.to_thread(fed_cpu, process)
        await asyncio.wait_for(done.wait(), 120)
        for ws in sockets:
            await ws.close()
        for task in readers:
            task.cancel()
    return cpu, received


def try_links(db: str, seat_links) -> list[str] | None:  # noqa: ANN001
    try:
        return [str(link["url"]) for link in seat_links(db)]
    except Exception:  # noqa: BLE001 - the daemon makes them at its first redraw
        return None


# --- figures -----------------------------------------------------------------------------

def per_event_ms(cpu: list[float]) -> tuple[float, float]:
    """Mean CPU per event over the first and the last WINDOW events, in ms."""
    first = (cpu[WINDOW - 1] - cpu[0]) / (WINDOW - 1)
    last = (cpu[-1] - cpu[-WINDOW]) / (WINDOW - 1)
    return first * 1000, last * 1000


def replay_us(log: Path) -> tuple[float, float]:
    """Replaying the log through a table session: µs per event, first and last WINDOW."""
    from companion.table import read_log
    from companion.table.session import TableSession

    header, events = read_log(log)
    session = TableSession(header)
    times = []
    for _, event in events:
        session.apply(event)
        times.append(time.process_time())
    return ((times[WINDOW - 1] - times[0]) / (WINDOW - 1) * 1e6,
            (times[-1] - times[-WINDOW]) / (WINDOW - 1) * 1e6)


def bytes_per_event(received: list[list[int]], events: int) -> tuple[float, float]:
    """Bytes per event per page over the first and the last WINDOW events (the whole
    channels a page gets on connecting are not counted: event 0)."""
    first = sum(sum(page[1:WINDOW + 1]) for page in received) / WINDOW / len(received)
    last = sum(sum(page[events - WINDOW + 1:]) for page in received) / WINDOW / len(received)
    return first, last


def lowest(runs: list[tuple[float, float]]) -> tuple[float, float]:
    """The lowest first-window and last-window figures of several runs."""
    return min(run[0] for run in runs), min(run[1] for run in runs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=50,
                        help="Tricky's rounds_per_player (50: 6,177 events)")
    parser.add_argument("--runs", type=int, default=2, help="runs of each daemon (lowest kept)")
    parser.add_argument("--serve", nargs=3, metavar=("MODE", "DB", "LOG"),
                        help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(*args.serve)
        return
    print(f"command: python benchmarks/long_game.py --rounds {args.rounds} --runs {args.runs}")
    plain_runs, web_runs, sent_runs, replays = [], [], [], []
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        log = folder / "tricky.jsonl"
        events = write_log(log, args.rounds)
        for run in range(args.runs):
            plain = start("plain", str(folder / f"plain{run}.db"), str(log))
            plain_runs.append(per_event_ms(fed_cpu(plain)))
            finish(plain)
            db = str(folder / f"web{run}.db")
            served = start("web", db, str(log))
            cpu, received = asyncio.run(pages(db, served, events))
            finish(served)
            web_runs.append(per_event_ms(cpu))
            sent_runs.append(bytes_per_event(received, events))
            replays.append(replay_us(log))
    plain_first, plain_last = lowest(plain_runs)
    web_first, web_last = lowest(web_runs)
    sent_first, sent_last = lowest(sent_runs)
    replay = lowest(replays)
    print(f"game: tricky, {SEATS} seats, {events} events; pages: {SEATS} seat + {TABLE_PAGES} "
          f"table; first and last {WINDOW} events")
    print(f"CPU per event, with the web part and 12 pages  first {web_first:6.2f} ms   last "
          f"{web_last:6.2f} ms   last/first {web_last / web_first:4.2f}x   (goal <= 1.2x)")
    print(f"CPU per event, without the web part            first {plain_first:6.2f} ms   last "
          f"{plain_last:6.2f} ms   last/first {plain_last / plain_first:4.2f}x   (goal <= 1.2x)")
    print(f"with the web part over without it, last {WINDOW}   {web_last / plain_last:4.2f}x   "
          f"(first {WINDOW}: {web_first / plain_first:4.2f}x; goal <= 1.3x)")
    print(f"bytes per event per page                      first {sent_first:8.0f}   last "
          f"{sent_last:8.0f}   last/first {sent_last / sent_first:4.2f}x   (goal: no growth)")
    print(f"  baseline: replay of the same log, µs/event   first {replay[0]:6.1f}      last "
          f"{replay[1]:6.1f}      last/first {replay[1] / replay[0]:4.2f}x")


if __name__ == "__main__":
    main()
