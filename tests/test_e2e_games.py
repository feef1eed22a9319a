"""End to end, per game: a scripted game goes through the running daemon (its own thread)
with mock GPIO pins, the serial hub on a pty, dummy luma screens and camera frames rendered
for the vision pipeline; the final scores equal those of `companion replay` on the exported
log. The traps game also loses its hub halfway and gets it back.
"""

import json
import logging
import queue
import subprocess
import sys
import threading
import time

import pytest
from gpiozero.pins.mock import MockFactory

from companion.bundles.deathtrap.rules import sim as deathtrap_sim
from companion.bundles.rumble.rules import sim as rumble_sim
from companion.bundles.traps.rules import sim as traps_sim
from companion.bundles.tricky.rules import sim as tricky_sim
from companion.daemon.camera import Camera
from companion.daemon.daemon import Daemon
from companion.daemon.displays import PanelScreen
from companion.daemon.items import Stop
from companion.daemon.player import PlayError, TablePlayer
from companion.daemon.sources import GpioControls, HubLink
from companion.daemon.stage import Stage
from companion.hardware.hubfake import FakeHub
from companion.hardware.pins import load_pinmap
from companion.table import Header, TableStore
from companion.vision.library import CardLibrary
from companion.vision.watch import TableWatcher

SMALL_DECK = {"creatures": [{"id": "orc", "name": "Orc", "value": 2, "copies": 3},
                            {"id": "troll", "name": "Troll", "value": 9, "copies": 3}]}
GAMES = {
    "traps": lambda: traps_sim.random_game(5, 3),
    "deathtrap": lambda: deathtrap_sim.random_game(2, 4, rounds=1, deck=SMALL_DECK),
    "tricky": lambda: tricky_sim.random_game(2, 2, rounds_per_player=1),
    "rumble": lambda: rumble_sim.random_game(3, 3, adventures=1),
}


class FrameQueue:
    """A camera whose frames the test hands in one by one; ``end`` says there are no more
    (as a folder of frames played once), so the camera's thread stops at once."""

    def __init__(self):
        self.frames = queue.Queue()
        self.closed = threading.Event()
        self.ended = False

    def open(self):
        self.closed.clear()

    def end(self):
        self.ended = True

    def read(self):
        while not self.closed.is_set() and not self.ended:
            try:
                return time.monotonic(), self.frames.get(timeout=0.05)
            except queue.Empty:
                continue
        return None

    def close(self):
        self.closed.set()


class FingerClock:
    """The GPIO controls' clock: it moves only as the mock fingers do, so a 12 ms tap stays a
    tap however long the machine stalls in the middle of it (never a 600 ms hold)."""

    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now

    def advance(self, seconds):
        self.now += seconds


class HardwareHands:
    """Taps on mock pins, holds and detents through the fake hub, pictures to the camera."""

    def __init__(self, daemon, camera, factory, pinmap, hub, frames, clock):
        self.daemon, self.camera = daemon, camera
        self.factory, self.pinmap, self.hub, self.frames = factory, pinmap, hub, frames
        self.clock = clock

    def pin(self, control):
        if control.startswith("seat:"):
            return self.pinmap.seat_buttons[int(control[5:])]
        return {"menu": self.pinmap.menu, "encoder-switch:0": self.pinmap.encoder_switch}[control]

    def until(self, check, what="the daemon to answer"):
        deadline = time.monotonic() + 60  # a bound on waiting, not a timing check
        while not check():
            if time.monotonic() > deadline:
                raise PlayError(f"timed out waiting for {what} ({self.state()})")
            time.sleep(0.003)

    def state(self):
        daemon = self.daemon
        return (f"menu {daemon.display.asks!r}, dial {daemon.display.dial_state()}, "
                f"failures {daemon.supervisor.failures()}, queued {daemon.queue.qsize()}, "
                f"stored {daemon.stored}, in force {len(daemon.stored_game.session.in_force)}")

    def tap(self, control, until):
        pin = self.factory.pin(self.pin(control))
        pin.drive_low()
        self.clock.advance(0.012)  # longer than the pin map's 5 ms bounce window
        pin.drive_high()
        self.clock.advance(0.008)
        self.until(until, f"a tap of {control}")

    def hold(self, control, until):
        name, index = (control, 0) if control == "menu" else ("encoder-switch", 1)
        for kind, value in (("press", 0), ("hold", 1), ("release", 0)):
            self.hub.add_event(kind, name, index, value)
        self.until(until, f"a long press of {control}")

    def turn(self, detents, until):
        self.hub.turn(1, detents)
        self.until(until, f"{detents} detents")

    def show(self, picture, until):
        # Three frames of a still table: the first after a change counts as movement (not
        # read), the next two settle the scene.
        seen = self.camera.frames_watched
        for _ in range(3):
            self.frames.frames.put(picture)
        self.until(lambda: self.camera.frames_watched >= seen + 3, "the camera's three frames")
        self.until(lambda: self.daemon.scenes_read >= self.camera.scenes_sent,
                   "the daemon to read the scene")


def replay_totals(log_path):
    done = subprocess.run([sys.executable, "-m", "companion.cli", "replay", "--json",
                           str(log_path)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr
    return json.loads(done.stdout)


@pytest.mark.parametrize("game", list(GAMES))
def test_a_scripted_game_through_the_whole_daemon(game, tmp_path, caplog):
    # What the daemon stored, refused and retried, shown with a failure.
    caplog.set_level(logging.INFO, logger="companion")
    header_json, events = GAMES[game]()
    header = Header.from_json(header_json)
    seats = len(header.seats)
    pinmap = load_pinmap()
    factory = MockFactory()
    hub = FakeHub(tmp_path / "hub").plug()
    frames = FrameQueue()
    stage = Stage(game, seats, seed=1)
    library = CardLibrary() if game == "rumble" else None
    if library is None:
        from companion.daemon.camera import library_for
        library = library_for((game,))
    watcher = TableWatcher(library, stage.layout, settle_seconds=0.0, tokens=game == "rumble")
    screens = [PanelScreen(name, pinmap, simulate=True)
               for name in ["table"] + [f"seat:{n}" for n in range(seats)]]
    clock = FingerClock()
    parts = [GpioControls(pinmap, factory, clock), HubLink(str(tmp_path / "hub"), 115200),
             Camera(lambda: frames, watcher, fps=100)]
    store = TableStore(tmp_path / "table.db")
    daemon = Daemon(store, screens=screens, parts=parts, confirm_below=0.6,
                    retry_seconds=0.3, watching=True)
    daemon.use_stored_game(store.new_session(header))
    hands = HardwareHands(daemon, parts[2], factory, pinmap, hub, frames, clock)
    player = TablePlayer(daemon, hands, stage)
    failed = []

    def play():
        # The people play in their own thread; the daemon keeps this one (and its store).
        try:
            link = parts[1]
            hands.until(lambda: daemon.ready.is_set() and link.hub is not None
                        and link.hub.connected, "the daemon and the hub to be ready")
            for number, event in enumerate(events):
                if game == "traps" and number == len(events) // 2:
                    hub.unplug()
                    hands.until(lambda: "hub" in daemon.supervisor.failures(), "hub: unplugged")
                    hub.plug()
                    # Back as the table knows it: the part running and the link talking.
                    hands.until(lambda: "hub" not in daemon.supervisor.failures()
                                and link.hub is not None and link.hub.connected, "the hub")
                player.play(event)
        except BaseException as error:
            failed.append(error)
        finally:
            frames.end()
            daemon.submit(Stop("end of the script"))

    people = threading.Thread(target=play)
    people.start()
    try:
        assert daemon.run() == 0
    finally:
        people.join(timeout=60)
        hub.close()
        store.close()
    if failed:
        raise failed[0]
    with TableStore(tmp_path / "table.db") as store:
        stored_header, entries = store.load(store.latest())
        stored_game = store.open_session(store.latest())
        result = stored_game.session.result()
    log = tmp_path / "exported.jsonl"
    log.write_text("".join(json.dumps(obj) + "\n" for obj in [stored_header.to_json(), *entries]))
    replayed = replay_totals(log)
    assert replayed["totals"] == result["totals"] and replayed["rounds"] == result["rounds"]
    assert replayed["finished"], "the scripted game is played to its end"
    in_force = [{k: v for k, v in e.items() if k != "t"} for e in stored_game.session.in_force]
    assert in_force == events
    assert sum(player.routes.values()) == len(events)
    if game != "traps":
        assert player.routes.get("camera", 0) > 0, "the camera read some of the game"


def test_a_tap_stays_a_tap_when_the_machine_stalls_in_the_middle_of_it():
    """Why the scripted games could fail under load: a 12 ms tap of the mock fingers that the
    machine stalled for 600 ms became a hold (a manual entry menu instead of the trap dial's
    next step). On the fingers' clock it is 12 ms, whatever the machine does."""
    pinmap = load_pinmap()
    factory = MockFactory()
    clock = FingerClock()
    controls = GpioControls(pinmap, factory, clock)
    got = queue.Queue()
    controls.start(got.put)
    try:
        pin = factory.pin(pinmap.encoder_switch)
        pin.drive_low()
        time.sleep(2 * pinmap.hold_s)  # the stall, on the machine's clock
        controls.inputs.poll()  # the poll that would report a hold on a real clock
        clock.advance(0.012)
        pin.drive_high()
        clock.advance(0.008)
        controls.inputs.poll()
        events = [got.get(timeout=60) for _ in range(2)]
    finally:
        controls.stop()
    assert [(event.kind, event.control) for event in events] == [
        ("press", "encoder-switch:0"), ("release", "encoder-switch:0")]
    assert got.empty()
