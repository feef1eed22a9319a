"""The host side of the hub against a fake hub on a pty: handshake, events, unplugging."""

from __future__ import annotations

import queue
import random
import threading
import time
from pathlib import Path

import pytest
from helpers import wait_for

from companion.hardware import hub as hub_module
from companion.hardware import hubproto
from companion.hardware.events import InputEvent
from companion.hardware.hub import Hub, HubError, find_port, input_events
from companion.hardware.hubfake import FakeHub

FAST = {"backoff_s": (0.005, 0.05), "heartbeat_s": 0.2, "retry_s": 0.1, "tries": 3}


class Collector:
    """The daemon's side: a thread-safe list of what the hub emitted."""

    def __init__(self) -> None:
        self.events: queue.Queue[InputEvent] = queue.Queue()
        self.seen: list[InputEvent] = []

    def drain(self) -> list[InputEvent]:
        while True:
            try:
                self.seen.append(self.events.get_nowait())
            except queue.Empty:
                return self.seen

    def until(self, count: int) -> list[InputEvent]:
        wait_for(lambda: len(self.drain()) >= count, f"{count} events from the hub")
        return self.drain()


@pytest.fixture
def link(tmp_path: Path) -> str:
    return str(tmp_path / "companion-hub")


def test_hub_events_become_input_events_from_the_hub(link: str) -> None:
    got = Collector()
    with FakeHub(link, firmware="1.2.3") as fake, Hub(got.events.put, link, **FAST) as hub:
        assert hub.wait_connected(60)
        assert hub.firmware == "1.2.3"
        fake.press("seat", 2)
        fake.turn(1, 3)
        fake.turn(1, -1)
        fake.add_event("hold", "menu", 0, 1)
        events = got.until(7)
    assert events == [
        InputEvent("press", "seat:2", 0, "hub"), InputEvent("release", "seat:2", 0, "hub"),
        *[InputEvent("dial", "encoder:1", 1, "hub")] * 3,
        InputEvent("dial", "encoder:1", -1, "hub"), InputEvent("hold", "menu", 1, "hub")]


def test_incompatible_firmware_is_refused_with_a_clear_message(link: str) -> None:
    got = Collector()
    with FakeHub(link, firmware="9.0.0", major=hubproto.PROTOCOL_MAJOR + 1) as fake:
        fake.press("seat", 0)
        hub = Hub(got.events.put, link, **FAST).start()
        wait_for(lambda: hub.fault is not None, "the hub's fault")
        hub.close()
    assert isinstance(hub.fault, HubError)
    assert "9.0.0" in str(hub.fault) and "firmware/README.md" in str(hub.fault)
    assert not hub.connected
    assert got.drain() == []


def test_fifty_unplugs_with_events_in_flight_deliver_each_event_once_in_order(link: str) -> None:
    rng = random.Random(50)
    got = Collector()
    sent: list[InputEvent] = []
    with FakeHub(link) as fake, Hub(got.events.put, link, **FAST) as hub:
        for cycle in range(50):
            assert hub.wait_connected(60), f"no reconnection in cycle {cycle}"
            connections = hub.connections
            for _ in range(rng.randrange(1, 12)):
                seat = rng.randrange(6)
                fake.press("seat", seat)
                sent += [InputEvent("press", f"seat:{seat}", 0, "hub"),
                         InputEvent("release", f"seat:{seat}", 0, "hub")]
                if rng.random() < 0.3:
                    time.sleep(rng.random() / 1000)
            fake.unplug()
            # Events pressed while the cable is out wait in the hub.
            fake.press("menu")
            sent += [InputEvent("press", "menu", 0, "hub"), InputEvent("release", "menu", 0, "hub")]
            got.drain()
            fake.plug()
            wait_for(lambda c=connections: hub.connections > c, "the hub connected again")
        delivered = got.until(len(sent))
        time.sleep(0.05)
        delivered = got.drain()
    assert delivered == sent


def test_a_hung_hub_is_dropped_and_its_events_arrive_after_it_recovers(link: str) -> None:
    got = Collector()
    with FakeHub(link) as fake, Hub(got.events.put, link, **FAST) as hub:
        assert hub.wait_connected(60)
        fake.mute = True
        wait_for(lambda: not hub.connected, "the hung hub dropped")
        fake.press("seat", 1)
        fake.mute = False
        assert hub.wait_connected(60)
        assert got.until(2) == [InputEvent("press", "seat:1", 0, "hub"),
                                InputEvent("release", "seat:1", 0, "hub")]


def test_a_rebooted_hub_numbers_events_afresh_and_is_still_heard(link: str) -> None:
    got = Collector()
    with FakeHub(link) as fake, Hub(got.events.put, link, **FAST) as hub:
        assert hub.wait_connected(60)
        fake.press("seat", 0)
        assert len(got.until(2)) == 2
        fake.unplug()
        fake.reboot()
        fake.press("seat", 3)
        fake.plug()
        events = got.until(4)
    assert [event.control for event in events] == ["seat:0"] * 2 + ["seat:3"] * 2


def test_without_a_hub_start_and_close_return_and_a_late_hub_is_found(link: str) -> None:
    got = Collector()
    hub = Hub(got.events.put, link, **FAST)
    assert hub.start() is hub
    assert not hub.connected
    with FakeHub(link) as fake:
        assert hub.wait_connected(60)
        fake.press("menu")
        assert len(got.until(2)) == 2
    wait_for(lambda: not hub.connected, "the hub gone")
    hub.close()
    assert not hub.running
    with FakeHub(link):
        assert hub.start().wait_connected(60), "a closed hub starts again"
        hub.close()


def test_stale_bytes_waiting_in_the_port_are_not_taken_for_events(link: str) -> None:
    got = Collector()
    with FakeHub(link) as fake:
        stale = hubproto.encode_frame(1, hubproto.EVENT,
                                      hubproto.encode_event(1, "press", "seat", 5, 0))
        fake.leave_in_port(stale * 3)
        with Hub(got.events.put, link, **FAST) as hub:
            assert hub.wait_connected(60)
            fake.press("seat", 1)
            events = got.until(2)
    assert [event.control for event in events] == ["seat:1", "seat:1"]


def test_a_failing_receiver_does_not_cut_the_hub_off(link: str) -> None:
    got = Collector()
    calls = []

    def emit(event: InputEvent) -> None:
        calls.append(event)
        if len(calls) == 1:
            raise RuntimeError("daemon bug")
        got.events.put(event)

    with FakeHub(link) as fake, Hub(emit, link, **FAST) as hub:
        assert hub.wait_connected(60)
        fake.press("seat", 4)
        assert got.until(1) == [InputEvent("release", "seat:4", 0, "hub")]


def test_round_trip_is_measured_through_the_link(link: str) -> None:
    with FakeHub(link), Hub(lambda event: None, link, **FAST) as hub:
        assert hub.wait_connected(60)
        # More than the 100 round trips the session keeps: each call still gets its answer.
        assert all(hub.round_trip(timeout=5) > 0 for _ in range(120))


def test_round_trip_without_a_hub_is_a_clear_error(link: str) -> None:
    with Hub(lambda event: None, link, **FAST) as hub, \
            pytest.raises(HubError, match="did not answer"):
        hub.round_trip(timeout=0.05)


def test_port_is_found_by_udev_link_then_by_id(tmp_path: Path, monkeypatch) -> None:
    udev = tmp_path / "companion-hub"
    by_id = tmp_path / "by-id"
    by_id.mkdir()
    monkeypatch.setattr(hub_module, "UDEV_LINK", str(udev))
    monkeypatch.setattr(hub_module, "BY_ID_PATTERN", str(by_id / "usb-MicroPython*-if00"))
    assert find_port() is None
    board = by_id / "usb-MicroPython_Board_in_FS_mode_e6614c311b7e6f35-if00"
    board.touch()
    assert find_port() == str(board)
    udev.touch()
    assert find_port() == str(udev)
    assert find_port(str(board)) == str(board)
    assert find_port(str(tmp_path / "absent")) is None


def test_dial_events_split_into_single_detents() -> None:
    assert input_events("dial", "encoder", 2, 2) == [InputEvent("dial", "encoder:2", 1, "hub")] * 2
    assert input_events("press", "encoder-switch", 1, 0) == [
        InputEvent("press", "encoder-switch:1", 0, "hub")]


def test_daemon_thread_is_never_the_one_reading_the_port(link: str) -> None:
    threads = []
    with FakeHub(link) as fake, \
            Hub(lambda event: threads.append(threading.current_thread()), link, **FAST) as hub:
        assert hub.wait_connected(60)
        fake.press("menu")
        wait_for(lambda: len(threads) == 2, "the press and its release")
    assert threading.main_thread() not in threads
