"""Daemon benchmark: start-up time to READY, idle CPU, resident memory with OpenCV loaded,
and event-to-screen latency, each beside a baseline measured in the same run.

Run:  python benchmarks/daemon.py [--quick]
Targets on the development machine: READY in under 2 s, under 150 MB resident, under 2% of
one core when idle.

- READY: `companion run --sim` started with $NOTIFY_SOCKET; time from spawn to READY=1.
  Baseline: a bare `python -c pass`.
- Idle CPU: the daemon's CPU time over a quiet period after READY (no input, no camera).
  Baseline: a Python loop waking at the daemon's own tick (0.25 s) doing nothing.
- RSS: the daemon with the camera enabled (OpenCV, the card library of the four games and a
  folder of frames), after READY. Baseline: `python -c "import cv2"` at rest.
- Latency: a trap-dial detent put on the daemon's queue until the table screen (a luma dummy
  device behind the same Panel as an OLED) has been redrawn, the loop running in its thread.
  Baseline: the bare queue hand-off between the two threads.
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import numpy as np

COMPANION = [sys.executable, "-m", "companion.cli"]
TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


def start_daemon(folder: Path, config: Path | None = None
                 ) -> tuple[subprocess.Popen, float, socket.socket]:
    """Start `companion run --sim`; return it and the seconds it took to send READY=1."""
    sock_path = folder / f"notify-{time.monotonic_ns()}.sock"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(sock_path))
    sock.settimeout(30)
    command = [*COMPANION, "run", "--sim", "--db", str(folder / "bench.db")]
    if config is not None:
        command += ["--config", str(config)]
    env = {**os.environ, "NOTIFY_SOCKET": str(sock_path)}
    started = time.perf_counter()
    process = subprocess.Popen(command, env=env, stdin=subprocess.PIPE,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    while not sock.recv(4096).startswith(b"READY=1"):
        pass
    return process, time.perf_counter() - started, sock


def stop(process: subprocess.Popen, sock: socket.socket) -> None:
    process.terminate()
    process.wait(timeout=30)
    sock.close()


def bench_ready(folder: Path, runs: int) -> tuple[float, float]:
    ready, bare = [], []
    for _ in range(runs):
        process, seconds, sock = start_daemon(folder)
        ready.append(seconds)
        stop(process, sock)
        started = time.perf_counter()
        subprocess.run([sys.executable, "-c", "pass"], check=True)
        bare.append(time.perf_counter() - started)
    return statistics.median(ready), statistics.median(bare)


IDLE_LOOP = """
import queue, time
q = queue.Queue()
while True:
    try:
        q.get(timeout=0.25)
    except queue.Empty:
        pass
"""


def bench_idle(folder: Path, seconds: float) -> tuple[float, float]:
    process, _, sock = start_daemon(folder)
    baseline = subprocess.Popen([sys.executable, "-c", IDLE_LOOP])
    time.sleep(1.0)  # past start-up
    before = cpu_seconds(process.pid), cpu_seconds(baseline.pid)
    time.sleep(seconds)
    after = cpu_seconds(process.pid), cpu_seconds(baseline.pid)
    stop(process, sock)
    baseline.kill()
    baseline.wait()
    return ((after[0] - before[0]) / seconds * 100, (after[1] - before[1]) / seconds * 100)


def bench_rss(folder: Path) -> tuple[float, float]:
    import cv2

    frames = folder / "frames"
    frames.mkdir(exist_ok=True)
    cv2.imwrite(str(frames / "0001.png"), np.full((480, 640, 3), 90, np.uint8))
    config = folder / "camera.toml"
    config.write_text(f'[camera]\nenabled = true\nsource = "files"\nfiles = "{frames}"\n')
    process, _, sock = start_daemon(folder, config)
    time.sleep(2.0)
    daemon = rss_mb(process.pid)
    stop(process, sock)
    bare = subprocess.Popen([sys.executable, "-c", "import cv2, time; time.sleep(30)"])
    time.sleep(2.0)
    baseline = rss_mb(bare.pid)
    bare.kill()
    bare.wait()
    return daemon, baseline


def bench_latency(folder: Path, events: int) -> tuple[float, float]:
    from companion.daemon.displays import PanelScreen
    from companion.daemon.items import Stop
    from companion.daemon.table import Daemon
    from companion.hardware.events import InputEvent
    from companion.hardware.pins import load_pinmap
    from companion.table import Header, TableStore

    pinmap = load_pinmap()
    shown = threading.Event()

    class TimedScreen(PanelScreen):
        def show(self, image):  # type: ignore[no-untyped-def]
            super().show(image)
            shown.set()

    screens = [TimedScreen("table", pinmap, simulate=True)] + [
        PanelScreen(f"seat:{n}", pinmap, simulate=True) for n in range(3)]
    store = TableStore(folder / "latency.db")
    daemon = Daemon(store, screens=screens)
    daemon.use_table(store.new_session(Header("traps", ("Ann", "Bob", "Cy"), 1, {})))
    times: list[float] = []

    def turn() -> None:
        daemon.ready.wait()
        daemon.submit(InputEvent("press", "encoder-switch:0"))  # open the trap dial
        time.sleep(0.2)
        for n in range(events):
            shown.clear()
            started = time.perf_counter()
            daemon.submit(InputEvent("dial", "encoder:0", 1 if n % 2 else -1))
            shown.wait(5)
            times.append(time.perf_counter() - started)
        daemon.submit(Stop("benchmark over"))

    worker = threading.Thread(target=turn)
    worker.start()
    daemon.run()
    worker.join()
    store.close()

    import queue
    handoff: queue.Queue[float] = queue.Queue()
    back: queue.Queue[float] = queue.Queue()

    def echo() -> None:
        for _ in range(events):
            back.put(handoff.get())

    thread = threading.Thread(target=echo)
    thread.start()
    bare = []
    for _ in range(events):
        started = time.perf_counter()
        handoff.put(started)
        back.get()
        bare.append(time.perf_counter() - started)
    thread.join()
    return statistics.median(times) * 1000, statistics.median(bare) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer runs, shorter idle")
    args = parser.parse_args()
    print("command: python benchmarks/daemon.py" + (" --quick" if args.quick else ""))
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        ready, bare = bench_ready(folder, 3 if args.quick else 7)
        print(f"start-up to READY    {ready:6.2f} s    (baseline python -c pass: {bare:.2f} s;"
              f" target < 2 s)")
        idle, idle_base = bench_idle(folder, 5.0 if args.quick else 20.0)
        print(f"idle CPU             {idle:6.2f} %    (baseline idle 4 Hz loop: {idle_base:.2f} %;"
              f" target < 2 % of a core)")
        rss, rss_base = bench_rss(folder)
        print(f"RSS, OpenCV loaded   {rss:6.1f} MB   (baseline python + cv2: {rss_base:.1f} MB;"
              f" target < 150 MB)")
        latency, handoff = bench_latency(folder, 50 if args.quick else 300)
        print(f"dial detent -> table screen {latency:6.2f} ms median "
              f"(baseline thread hand-off: {handoff:.3f} ms)")


if __name__ == "__main__":
    main()
