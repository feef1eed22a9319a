"""Fault run: a bad night at the table, and what it lost (it must be nothing).

Run:  python benchmarks/faults.py [--kills N] [--noise BYTES] [--replugs K] [--stalls S]
      [--events E] [--forged F] [--seed N]
      (defaults: 50 kills, 1,000,000 bytes, 100 replugs, 3 stalls, 2,000 hub events, 200
      forged frames; about a minute on 2 cores)

1. Kills. `companion run --sim --feed LOG` is SIGKILLed N times mid-game, each run once it
   has said it stored 1 to 4 events (plus 0-10 ms, so kills land mid-write too), and started
   again with the same arguments. After each kill every event it acknowledged ("stored #n")
   must be in the store and the store must be a prefix of the log; at the end the store is
   the whole log, once. Lost: acknowledged but not stored.
2. Noise and replugs. The companion's Hub (production timings) against FakeHub (the
   firmware's protocol core) on a pty: E events, each unique, pressed in bursts while BYTES
   of line noise go both ways (random bytes, truncated and bit-flipped frames) and the cable
   is pulled K times with events in flight and pressed while it is out, and F frames that
   pass the CRC but say anything at all (acknowledgements of events never sent or not yet
   received above all) reach the hub. What the host delivers must be what was pressed,
   each exactly once, in order.
3. Stalls. The firmware's own main loop (firmware/main.py under MicroPython's unix port, on
   a pty) and the host in its own process, SIGSTOPped S times until the hub says it gave up
   on it, then resumed: every press exactly once (skipped without `micropython`).

Prints the figures, what was lost, and the command line; exits 1 if anything was lost.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import queue
import random
import shlex
import signal
import subprocess
import sys
import tempfile
import threading
import time
import tty
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion.bundles.rumble.rules.sim import random_game  # noqa: E402
from companion.hardware import hubproto  # noqa: E402
from companion.hardware.events import InputEvent  # noqa: E402
from companion.hardware.hub import Hub  # noqa: E402
from companion.hardware.hubfake import FakeHub  # noqa: E402
from companion.table import TableStore  # noqa: E402

#: A bound on waiting for progress, never a timing check.
PATIENCE = 60.0
MICROPYTHON = Path(sys.executable).parent / "micropython"


def wait_for(check, what: str) -> None:
    end = time.monotonic() + PATIENCE
    while not check():
        if time.monotonic() > end:
            raise SystemExit(f"faults.py: no progress in {PATIENCE} s waiting for {what}")
        time.sleep(0.002)


# --- 1. kills -------------------------------------------------------------------------------

def stored_numbers(text: str) -> list[int]:
    return [int(line.split("#")[1].split(":")[0]) for line in text.splitlines()
            if line.startswith("companion: stored #")]


def stored_entries(db: Path) -> list[dict]:
    if not db.exists():
        return []
    with TableStore(db) as store:
        sessions = store.sessions()
        return store.load(sessions[0].id)[1] if sessions else []


def kill_once_stored(command: list[str], env: dict, out: Path, wanted: int,
                     later: float) -> None:
    """Run ``command`` and SIGKILL it ``later`` seconds after it said it stored ``wanted``."""
    with open(out, "w") as handle:
        process = subprocess.Popen(command, stdout=handle, stderr=subprocess.STDOUT, env=env)
        wait_for(lambda: len(stored_numbers(out.read_text())) >= wanted
                 or process.poll() is not None, "a stored event")
        time.sleep(later)  # a spread of moments, not the condition
        process.kill()
        process.wait()


def kill_run(kills: int, rng: random.Random, folder: Path) -> dict:
    header, events = random_game(rng.randrange(1000), 3)
    log = folder / "game.jsonl"
    log.write_text("".join(json.dumps(obj) + "\n" for obj in [header, *events]))
    db = folder / "table.db"
    command = [sys.executable, "-m", "companion.cli", "run", "--sim", "--feed", str(log),
               "--db", str(db)]
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "PYTHONPATH": str(ROOT)}
    figures = Counter(kills=0, acknowledged=0, lost=0, not_prefix=0, mid_write=0, games=0)
    stored: list[dict] = []
    while figures["kills"] < kills:
        out = folder / "run.out"
        kill_once_stored(command, env, out, rng.randint(1, 4), rng.uniform(0, 0.01))
        acked = max(stored_numbers(out.read_text()), default=0)
        before, stored = len(stored), stored_entries(db)
        figures["kills"] += 1
        figures["acknowledged"] += len(stored_numbers(out.read_text()))
        figures["lost"] += max(0, acked - len(stored))
        figures["not_prefix"] += stored != events[:len(stored)]
        # Stored beyond what it said: killed between the commit and the line saying so.
        figures["mid_write"] += len(stored) > acked and len(stored) > before
        if len(stored) == len(events):
            figures["games"] += 1
            stored = []
            for suffix in ("", "-wal", "-shm"):
                Path(str(db) + suffix).unlink(missing_ok=True)
    done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=PATIENCE)
    figures["final_whole"] = done.returncode == 0 and stored_entries(db) == events
    return dict(figures)


# --- 2. noise and replugs -------------------------------------------------------------------

def mangled_frames(rng: random.Random, size: int) -> bytes:
    """``size`` bytes of line noise: random bytes, truncated and bit-flipped frames."""
    out = bytearray()
    while len(out) < size:
        frame = hubproto.encode_frame(rng.randrange(256), rng.choice(
            (hubproto.EVENT, hubproto.PONG, hubproto.WELCOME, hubproto.PING, hubproto.EVENT_ACK)),
            rng.randbytes(rng.choice((0, 4, 6, 9, 14))))
        how = rng.randrange(3)
        if how == 0:
            out += frame[:rng.randrange(1, len(frame))]
        elif how == 1:
            broken = bytearray(frame)
            broken[rng.randrange(2, len(frame))] ^= 1 << rng.randrange(8)
            out += broken
        else:
            out += rng.randbytes(rng.randrange(1, 200))
    return bytes(out[:size])


def forged_frame(rng: random.Random, pressed: int) -> bytes:
    """A frame that passes the CRC and says anything: half of them acknowledgements, of a
    number far past anything sent or of one near the events pressed so far."""
    if rng.random() < 0.5:
        number = rng.randrange(2**32) if rng.random() < 0.5 else rng.randrange(pressed + 20)
        kind, payload = hubproto.EVENT_ACK, number.to_bytes(4, "big")
    else:
        kind = rng.choice((hubproto.HELLO, hubproto.PING, hubproto.EVENT, hubproto.WELCOME,
                           rng.randrange(256)))
        payload = rng.randbytes(rng.randrange(hubproto.MAX_PAYLOAD + 1))
    return hubproto.encode_frame(rng.randrange(256), kind, payload)


def hub_run(noise: int, replugs: int, events: int, forged: int, rng: random.Random,
            folder: Path) -> dict:
    link = folder / "companion-hub"
    got: queue.SimpleQueue[InputEvent] = queue.SimpleQueue()
    pressed: list[int] = []
    delivered: list[int] = []
    chunk = 2000
    bursts = max(replugs, 1) * 4
    per_burst = max(1, events // bursts)
    noise_per_burst = noise // bursts
    forged_per_burst = [forged // bursts + (burst < forged % bursts) for burst in range(bursts)]
    reconnections = 0

    def drain() -> list[int]:
        while True:
            try:
                delivered.append(got.get_nowait().value)
            except queue.Empty:
                return delivered

    def press(fake: FakeHub) -> None:
        number = len(pressed)
        fake.add_event("hold", "seat", number % 6, number)  # the value makes it unique
        pressed.append(number)

    started = time.monotonic()
    with FakeHub(link, capacity=100_000) as fake, Hub(got.put, str(link)) as hub:
        wait_for(hub.wait_connected, "the first handshake")
        for burst in range(bursts):
            sent = 0
            while sent < noise_per_burst:
                size = min(chunk, noise_per_burst - sent)
                to_host = mangled_frames(rng, size // 2)
                fake.noise(to_host=to_host, to_hub=mangled_frames(rng, size - len(to_host)))
                sent += size
                if len(pressed) < events and rng.random() < 0.5:
                    press(fake)
            for _ in range(forged_per_burst[burst]):
                fake.noise(to_hub=forged_frame(rng, len(pressed)))
                if len(pressed) < events and rng.random() < 0.5:
                    press(fake)
            while len(pressed) < min(events, (burst + 1) * per_burst):
                press(fake)
            if burst % 4 == 3 and reconnections < replugs:
                connections = hub.connections
                fake.unplug()  # events in flight are lost with the cable, not by the hub
                for _ in range(rng.randrange(1, 4)):
                    if len(pressed) < events:
                        press(fake)
                fake.plug()
                wait_for(lambda c=connections: hub.connections > c, "a reconnection")
                reconnections += 1
        while len(pressed) < events:
            press(fake)
        wait_for(lambda: len(drain()) >= len(pressed), "every hub event")
        wait_for(lambda: not fake.core.outbox, "the last acknowledgement")
        drain()
        ignored, restored = fake.core.ignored_acks, fake.core.restored
    counts = Counter(delivered)
    return {"noise": noise, "replugs": reconnections, "events": len(pressed),
            "forged": forged, "ignored": ignored, "restored": restored,
            "delivered": len(delivered),
            "lost": len(set(pressed) - set(delivered)),
            "repeated": sum(count - 1 for count in counts.values() if count > 1),
            "invented": len(set(delivered) - set(pressed)),
            "in_order": delivered == pressed,
            "seconds": time.monotonic() - started}


# --- 3. host stalls -------------------------------------------------------------------------

HOST = """
import signal, sys, threading
from companion.hardware.hub import Hub
done = threading.Event()
signal.signal(signal.SIGTERM, lambda *_: done.set())
with Hub(lambda event: print(event.kind, event.control, flush=True), sys.argv[1]):
    done.wait()
"""


def lines_of(stream, into: list[str]) -> threading.Thread:
    def read() -> None:
        for line in stream:
            into.append(line.rstrip("\n"))
    thread = threading.Thread(target=read, daemon=True)
    thread.start()
    return thread


def one_stall(link: Path, before: int, during: int, after: int) -> tuple[list, list]:
    """The presses the hub made around one stall of its host, and what the host delivered."""
    master, slave = os.openpty()
    tty.setraw(slave)
    link.symlink_to(os.ttyname(slave))
    hub = subprocess.Popen(
        [str(MICROPYTHON), str(ROOT / "firmware/tests/serve_stdio.py"), str(before),
         str(during), str(after)], stdin=master, stdout=master, stderr=subprocess.PIPE,
        text=True)
    os.close(master)
    host = subprocess.Popen([sys.executable, "-c", HOST, str(link)], text=True,
                            stdout=subprocess.PIPE, env={**os.environ, "PYTHONPATH": str(ROOT)})
    said: list[str] = []
    got: list[str] = []
    lines_of(hub.stderr, said)
    lines_of(host.stdout, got)
    try:
        wait_for(lambda: len(got) == 2 * before, "the presses before the stall")
        host.send_signal(signal.SIGSTOP)
        wait_for(lambda: "queued" in said, "the hub to give up on its host")
        host.send_signal(signal.SIGCONT)
        wait_for(lambda: "done" in said, "the hub to serve its host again")
        wait_for(lambda: len(got) >= 2 * (before + during + after), "every event")
    finally:
        host.kill()
        hub.kill()
        host.wait()
        hub.wait()
        os.close(slave)
    seats = [line.split()[1] for line in said if line.startswith("press ")]
    return [f"{kind} seat:{seat}" for seat in seats for kind in ("press", "release")], got


def stall_run(stalls: int, folder: Path) -> dict:
    figures = Counter(stalls=0, events=0, delivered=0, lost=0, repeated=0)
    figures["in_order"] = True
    for stall in range(stalls):
        pressed, got = one_stall(folder / f"stall-{stall}", 4, 6, 4)
        figures["stalls"] += 1
        figures["events"] += len(pressed)
        figures["delivered"] += len(got)
        figures["lost"] += len(pressed) - min(len(got), len(pressed))
        figures["repeated"] += max(0, len(got) - len(pressed))
        figures["in_order"] = figures["in_order"] and got == pressed
    return dict(figures)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kills", type=int, default=50)
    parser.add_argument("--noise", type=int, default=1_000_000, help="bytes of line noise")
    parser.add_argument("--replugs", type=int, default=100)
    parser.add_argument("--stalls", type=int, default=3)
    parser.add_argument("--events", type=int, default=2000, help="hub events pressed")
    parser.add_argument("--forged", type=int, default=200,
                        help="frames with a good CRC and any content sent to the hub")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    # The hub's "lost" warnings at every replug are the fault run itself, not news.
    logging.getLogger("companion").addHandler(logging.NullHandler())
    rng = random.Random(args.seed)
    command = "python benchmarks/faults.py " + shlex.join(
        f"--{name}={getattr(args, name)}" for name in
        ("kills", "noise", "replugs", "stalls", "events", "forged", "seed"))
    print(f"fault run: {command}")
    lost = 0
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        if args.kills:
            k = kill_run(args.kills, rng, folder)
            lost += k["lost"] + k["not_prefix"] + (not k["final_whole"])
            print(f"kills:  {k['kills']} SIGKILLs of `companion run --sim --feed` mid-game "
                  f"({k['mid_write']} between a commit and its 'stored' line), "
                  f"{k['acknowledged']} events acknowledged before a kill, {k['games']} "
                  f"games fed to the end; lost {k['lost']}, store not a prefix of the log "
                  f"{k['not_prefix']} times; final store = the log, once: "
                  f"{'yes' if k['final_whole'] else 'NO'}")
        if args.noise or args.replugs or args.forged:
            h = hub_run(args.noise, args.replugs, args.events, args.forged, rng, folder)
            lost += h["lost"] + h["repeated"] + h["invented"] + (not h["in_order"])
            print(f"hub:    {h['noise']:,} bytes of line noise (half each way), "
                  f"{h['replugs']} replugs, {h['forged']} forged frames to the hub "
                  f"({h['ignored']} acks of events never sent ignored, {h['restored']} "
                  f"events sent again), {h['events']:,} events pressed: delivered "
                  f"{h['delivered']:,}, lost {h['lost']}, repeated {h['repeated']}, invented "
                  f"{h['invented']}, in order: {'yes' if h['in_order'] else 'NO'} "
                  f"({h['seconds']:.1f} s)")
        if args.stalls and MICROPYTHON.exists():
            s = stall_run(args.stalls, folder)
            lost += s["lost"] + s["repeated"] + (not s["in_order"])
            print(f"stalls: {s['stalls']} host stalls (SIGSTOP) until the hub (firmware main "
                  f"loop under MicroPython) gave up on it, {s['events']} events: delivered "
                  f"{s['delivered']}, lost {s['lost']}, repeated {s['repeated']}, in order: "
                  f"{'yes' if s['in_order'] else 'NO'}")
        elif args.stalls:
            print(f"stalls: skipped, no {MICROPYTHON} (pip install -e '.[test]')")
    print(f"{'nothing lost' if not lost else f'LOST OR WRONG: {lost}'} "
          f"({time.monotonic() - started:.0f} s)")
    return 1 if lost else 0


if __name__ == "__main__":
    sys.exit(main())
