"""Web pages benchmark: 8 seat pages and 4 table pages connected while 1,000 events are sent,
beside the same daemon without the web part, measured in the same run.

Run:  python benchmarks/web.py [--events N] [--idle SECONDS]
Goals on the development machine: event -> page updated p99 <= 100 ms, no update lost, at
most 20 MB of extra resident memory, at most 1 % of a core idle with 12 pages open.

- The daemon runs in a process of its own (this script with ``--serve``), on a store holding
  an 8-seat game of Deathtrap; the pages are WebSocket clients of this process (what the
  browser pages open: ``/ws`` for a table page, ``/s/TOKEN/ws`` for a seat page).
- Latency: each event is sent as its seat's phone sends it (``POST /s/TOKEN/act``), the next
  once every page has shown it; from the send to each page receiving the state that holds it.
  Baseline: the daemon without the web part, each event from its queue to stored (what
  ``--feed`` waits for).
  Lost: an event count some page never received.
- Memory: the daemon's resident memory after the events, with the web part and 12 pages,
  beside the daemon without it that took the same events from a fed log.
- Idle CPU: the daemon's CPU time over a quiet while with the 12 pages open, beside the
  daemon without the web part at rest.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from daemon import cpu_seconds, rss_mb  # benchmarks/daemon.py, beside this script

HERE = Path(__file__).resolve()
SEATS, TABLE_PAGES = 8, 4


def game(events: int) -> tuple[object, list[dict]]:
    from companion.bundles.deathtrap.rules.sim import random_game
    from companion.table import Header

    header, played = random_game(0, SEATS)
    return Header(header["game"], tuple(header["seats"]), header["seed"], {}), played[:events]


# --- the daemon's process ----------------------------------------------------------------

def serve(mode: str, db: str, events: int) -> None:
    """The daemon on ``db``'s unfinished game: with the web part on a free port (``web``), or
    without it, taking the game's events from a fed log (``plain``). Stops when stdin closes."""
    from companion.commands.run import without_tls
    from companion.daemon.daemon import Daemon
    from companion.daemon.items import FedEvent, Stop
    from companion.table import TableStore

    without_tls()  # as `companion run` serves the pages: plain HTTP on the LAN
    with TableStore(db) as store:
        parts, web = [], None
        if mode == "web":
            from companion.web.part import WebPart

            web = WebPart("127.0.0.1", 0, db)
            parts.append(web)
        daemon = Daemon(store, parts=parts, watchers=[] if web is None else [web.watch])

        def until_stdin_closes() -> None:
            sys.stdin.read()
            daemon.submit(Stop("benchmark over"))

        def say_ready() -> None:
            daemon.ready.wait()
            print("ready", flush=True)

        def feed() -> None:  # as --feed does, but staying up after the last event
            daemon.ready.wait()
            took = []
            for line, event in enumerate(game(events)[1], start=2):
                fed = FedEvent(line, event)
                started = time.perf_counter()
                daemon.submit(fed)
                fed.done.wait()
                took.append(time.perf_counter() - started)
            time.sleep(0.5)  # the redraw after the last event
            print("fed", json.dumps(took), flush=True)

        if web is None:
            threading.Thread(target=feed, daemon=True).start()
        threading.Thread(target=until_stdin_closes, daemon=True).start()
        threading.Thread(target=say_ready, daemon=True).start()
        daemon.run()


def start(mode: str, db: str, events: int) -> subprocess.Popen:
    process = subprocess.Popen([sys.executable, str(HERE), "--serve", mode, db, str(events)],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert process.stdout is not None
    assert process.stdout.readline().strip() == "ready"
    return process


def finish(process: subprocess.Popen) -> None:
    assert process.stdin is not None
    process.stdin.close()
    process.wait(timeout=60)


def new_store(folder: Path, name: str) -> str:
    from companion.table import TableStore

    db = str(folder / name)
    with TableStore(db) as store:
        store.new_session(game(0)[0])
    return db


# --- the pages ---------------------------------------------------------------------------

async def pages(db: str, events: list[dict], idle: float, daemon_pid: int
                ) -> tuple[list[float], int, float]:
    import aiohttp

    from companion.commands.seats import seat_links
    from companion.web.delta import PageState

    deadline = time.monotonic() + 60
    while True:
        try:
            links = [str(link["url"]) for link in seat_links(db)]
            break
        except Exception:  # noqa: BLE001 - the daemon makes them at its first redraw
            if time.monotonic() > deadline:
                raise
            await asyncio.sleep(0.05)
    base = links[0].split("/s/")[0]
    arrived: list[dict[int, float]] = [{} for _ in range(SEATS + TABLE_PAGES)]
    progress = asyncio.Condition()

    async def reader(ws: aiohttp.ClientWebSocketResponse, index: int) -> None:
        page = PageState()  # built from the changes, as the browser's page builds it
        async for message in ws:
            data = page.take(json.loads(message.data))
            if isinstance(data, dict) and "events" in data:
                arrived[index].setdefault(data["events"], time.perf_counter())
                async with progress:
                    progress.notify_all()

    async with aiohttp.ClientSession() as client:
        sockets = [await client.ws_connect(link + "/ws") for link in links]
        sockets += [await client.ws_connect(base + "/ws") for _ in range(TABLE_PAGES)]
        readers = [asyncio.ensure_future(reader(ws, n)) for n, ws in enumerate(sockets)]
        sent: list[float] = []
        for number, event in enumerate(events, start=1):
            body = {"kind": "event", "event": {k: v for k, v in event.items() if k != "seat"}}
            sent.append(time.perf_counter())
            async with client.post(links[event.get("seat", 0)] + "/act", json=body) as answer:
                assert answer.status == 200, await answer.text()
            async with progress:
                await asyncio.wait_for(progress.wait_for(
                    lambda n=number: all(n in page for page in arrived)), 60)
        latencies = [page[n] - sent[n - 1] for page in arrived for n in range(1, len(sent) + 1)
                     if n in page]
        lost = sum(1 for page in arrived for n in range(1, len(sent) + 1) if n not in page)
        await asyncio.sleep(1.0)  # past the last redraw
        before = cpu_seconds(daemon_pid)
        await asyncio.sleep(idle)
        idle_cpu = (cpu_seconds(daemon_pid) - before) / idle * 100
        for ws in sockets:
            await ws.close()
        for task in readers:
            task.cancel()
    return latencies, lost, idle_cpu


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--events", type=int, default=1000)
    parser.add_argument("--idle", type=float, default=10.0, help="seconds of idle measured")
    parser.add_argument("--serve", nargs=3, metavar=("MODE", "DB", "EVENTS"),
                        help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(args.serve[0], args.serve[1], int(args.serve[2]))
        return
    print(f"command: python benchmarks/web.py --events {args.events} --idle {args.idle:g}")
    _, events = game(args.events)
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        plain = start("plain", new_store(folder, "plain.db"), len(events))
        assert plain.stdout is not None
        word, took = plain.stdout.readline().split(" ", 1)  # the fed log consumed
        assert word == "fed"
        stored = json.loads(took)
        time.sleep(1.0)
        before = cpu_seconds(plain.pid)
        time.sleep(args.idle)
        plain_cpu = (cpu_seconds(plain.pid) - before) / args.idle * 100
        plain_rss = rss_mb(plain.pid)
        finish(plain)

        web_db = new_store(folder, "web.db")
        served = start("web", web_db, len(events))
        latencies, lost, web_cpu = asyncio.run(pages(web_db, events, args.idle, served.pid))
        web_rss = rss_mb(served.pid)
        finish(served)
    pages_open = SEATS + TABLE_PAGES
    print(f"pages: {SEATS} seat + {TABLE_PAGES} table, {len(events)} events sent from the "
          f"seats' links")
    print(f"event -> page updated  p50 {statistics.median(latencies) * 1000:6.1f} ms   "
          f"p99 {percentile(latencies, 0.99) * 1000:6.1f} ms   (goal p99 <= 100 ms)")
    print(f"  baseline: event -> stored, without the web part  p50 "
          f"{statistics.median(stored) * 1000:6.1f} ms   "
          f"p99 {percentile(stored, 0.99) * 1000:6.1f} ms")
    print(f"updates lost           {lost} of {len(events) * pages_open}   (goal 0)")
    print(f"resident memory        {web_rss:6.1f} MB with the web part and {pages_open} pages, "
          f"{plain_rss:6.1f} MB without: +{web_rss - plain_rss:.1f} MB   (goal <= 20 MB)")
    print(f"idle CPU               {web_cpu:6.2f} % of a core with {pages_open} pages open, "
          f"{plain_cpu:6.2f} % without   (goal <= 1 %)")


if __name__ == "__main__":
    main()
