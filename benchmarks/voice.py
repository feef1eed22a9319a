"""The voice: from an announcement left by the daemon's loop to espeak-ng starting to say it.

``Speaker.say`` returns at once; the worker thread takes the words and starts espeak-ng.
Measured: announcement queued -> synthesis started (the moment the espeak-ng process is
launched), p50 and p99 over N announcements, each left once the previous one was spoken
(a table that is not in a hurry). Real espeak-ng is run, writing each announcement to a
WAV file in a temporary folder (no sound card needed), so the figure includes the worker's
wake-up but not the audio.

Baseline, measured in the same run: the same hand-over between two threads with nothing
to say (a ``threading.Condition`` notify and wake-up), the least any worker can cost.
With ``--burst`` the announcements are left back to back instead: the latest wins, the
others are dropped (reported).

Run:  python benchmarks/voice.py [--count 200] [--burst]
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from companion.voice.speaker import Said, Speaker, available


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def speaker_delays(count: int, burst: bool, folder: Path) -> tuple[list[float], int]:
    started: list[Said] = []
    done = threading.Semaphore(0)

    def run(command: list[str]) -> None:
        # The same command as at the table, written to a file instead of the sound card.
        subprocess.run([*command[:-2], "-w", str(folder / "said.wav"), *command[-2:]],
                       check=True, capture_output=True, timeout=60)
        done.release()

    speaker = Speaker(run=run, on_start=started.append)
    for number in range(count):
        speaker.say(f"Announcement {number}: Alice's turn", "en")
        if not burst:
            done.acquire(timeout=60)
    speaker.close()
    return [said.started - said.queued for said in started], speaker.dropped


def baseline_delays(count: int) -> list[float]:
    """A bare hand-over to a waiting thread: notify, wake up, read the clock."""
    changed = threading.Condition()
    box: list[float] = []
    delays: list[float] = []
    done = threading.Semaphore(0)

    def worker() -> None:
        for _ in range(count):
            with changed:
                while not box:
                    changed.wait()
                queued = box.pop()
            delays.append(time.monotonic() - queued)
            done.release()

    thread = threading.Thread(target=worker)
    thread.start()
    for _ in range(count):
        with changed:
            box.append(time.monotonic())
            changed.notify()
        done.acquire(timeout=60)
    thread.join()
    return delays


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=200)
    parser.add_argument("--burst", action="store_true",
                        help="leave the announcements back to back (the latest wins)")
    args = parser.parse_args(argv)
    if not available():
        print("espeak-ng is not installed (apt install espeak-ng)", file=sys.stderr)
        return 2
    print(f"command: python benchmarks/voice.py --count {args.count}"
          + (" --burst" if args.burst else ""))
    print(f"espeak-ng: {shutil.which('espeak-ng')}")
    with tempfile.TemporaryDirectory() as folder:
        delays, dropped = speaker_delays(args.count, args.burst, Path(folder))
    base = baseline_delays(args.count)
    ms = 1000.0
    print(f"queued -> synthesis started, {len(delays)} spoken of {args.count} "
          f"({dropped} replaced by a later one):")
    print(f"  speaker   p50 {percentile(delays, 0.5) * ms:8.3f} ms   "
          f"p99 {percentile(delays, 0.99) * ms:8.3f} ms")
    print(f"  baseline  p50 {percentile(base, 0.5) * ms:8.3f} ms   "
          f"p99 {percentile(base, 0.99) * ms:8.3f} ms   (bare thread hand-over)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
