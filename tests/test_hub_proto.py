"""The hub wire protocol: shared vectors under CPython and MicroPython, and properties."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.hardware import hubproto as p

RUN_VECTORS = Path(__file__).resolve().parent.parent / "firmware" / "tests" / "run_vectors.py"
MICROPYTHON = Path(sys.executable).parent / "micropython"


@pytest.mark.parametrize("interpreter", [pytest.param(sys.executable, id="cpython"),
                                         pytest.param(str(MICROPYTHON), id="micropython")])
def test_same_vectors_pass_under_both_interpreters(interpreter: str) -> None:
    result = subprocess.run([interpreter, str(RUN_VECTORS)], capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok 32"


def welcomed_host() -> p.HostSide:
    """A host that has shaken hands with a hub of boot 1 whose next event is number 1."""
    host = p.HostSide()
    hub = p.HubSide(boot=1, firmware="test")
    host.connect(0)
    hub.receive(host.tick(0), 0)
    assert host.receive(hub.tick(0), 0) == []
    assert host.welcomed
    return host


def event_frame(number: int) -> bytes:
    return p.encode_frame(number & 0xFF, p.EVENT,
                          p.encode_event(number, "dial", "encoder", number % 5, number % 7 + 1))


def expected_event(number: int) -> tuple:
    return ("dial", "encoder", number % 5, number % 7 + 1)


def mangled(frame: bytes, rng: random.Random) -> bytes:
    """A truncated, corrupted or duplicated copy of ``frame``, or plain noise."""
    how = rng.randrange(4)
    if how == 0:
        return frame[:rng.randrange(1, len(frame))]
    if how == 1:
        broken = bytearray(frame)
        broken[rng.randrange(2, len(frame))] ^= 1 << rng.randrange(8)
        return bytes(broken)
    if how == 2:
        return frame
    return rng.randbytes(rng.randrange(1, 400))


def test_fuzz_100k_bytes_invents_nothing_and_loses_nothing_valid() -> None:
    rng = random.Random(8)
    host = welcomed_host()
    stream = bytearray()
    sent = 0
    while len(stream) < 100_000:
        sent += 1
        stream += event_frame(sent)
        for _ in range(rng.randrange(4)):
            stream += mangled(event_frame(rng.randrange(1, sent + 2)), rng)
    noise_only = rng.randbytes(100_000)
    after = [event_frame(number) for number in range(sent + 1, sent + 21)]
    delivered = []
    for chunk in (stream, noise_only, b"".join(after)):
        start = 0
        while start < len(chunk):
            # Reads of every size, as a serial port hands them over.
            size = rng.randrange(1, 300)
            delivered += host.receive(bytes(chunk[start:start + size]), 1)
            start += size
        delivered += host.receive(bytes(p.MAX_PAYLOAD + p.OVERHEAD), 1)
    assert delivered == [expected_event(number) for number in range(1, sent + 21)]
    assert host.parser.rejected > 0


@settings(max_examples=100, deadline=None)
@given(st.binary(max_size=3000))
def test_noise_alone_delivers_nothing(noise: bytes) -> None:
    host = welcomed_host()
    assert host.receive(noise, 1) == []


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 40), st.binary(max_size=60), st.booleans()),
                max_size=30))
def test_valid_frames_survive_any_noise_between_them(items: list) -> None:
    """Frames numbered in order, each maybe followed by noise and a repeat: all arrive once."""
    host = welcomed_host()
    delivered = []
    for number, (_, noise, repeat) in enumerate(items, start=1):
        delivered += host.receive(event_frame(number) + noise, 1)
        if repeat:
            delivered += host.receive(event_frame(number), 1)
    delivered += host.receive(bytes(p.MAX_PAYLOAD + p.OVERHEAD), 1)
    assert delivered == [expected_event(number) for number in range(1, len(items) + 1)]


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 255), st.integers(0, 255), st.binary(max_size=p.MAX_PAYLOAD),
       st.integers(1, 20))
def test_any_frame_round_trips_through_any_split(seq: int, kind: int, payload: bytes,
                                                 split: int) -> None:
    frame = p.encode_frame(seq, kind, payload)
    parser = p.FrameParser()
    frames = []
    for start in range(0, len(frame), split):
        frames += parser.feed(frame[start:start + split])
    assert frames == [(seq, kind, payload)]


def test_oversized_payload_is_refused() -> None:
    with pytest.raises(p.ProtocolError, match="exceeds"):
        p.encode_frame(1, p.EVENT, bytes(p.MAX_PAYLOAD + 1))


def test_gap_waits_for_the_missing_event_and_repeats_are_dropped() -> None:
    host = welcomed_host()
    assert host.receive(event_frame(2), 1) == []
    assert host.receive(event_frame(1) + event_frame(1), 1) == [expected_event(1)]
    assert host.receive(event_frame(2), 1) == [expected_event(2)]
    ack = p.FrameParser().feed(host.tick(2))
    assert [(kind, payload) for _, kind, payload in ack] == [(p.EVENT_ACK, b"\0\0\0\2")]


def test_unanswered_requests_are_retried_then_the_link_is_dead() -> None:
    host = p.HostSide(retry_ms=10, tries=3)
    host.connect(0)
    hellos = [host.tick(now) for now in (0, 10, 20)]
    assert hellos[0] == hellos[1] == hellos[2] != b""
    with pytest.raises(p.LinkDead, match="3 tries"):
        host.tick(30)


def test_same_boot_keeps_the_delivery_position_a_new_boot_starts_again() -> None:
    host = welcomed_host()
    assert host.receive(event_frame(1), 1) == [expected_event(1)]
    hub = p.HubSide(boot=1, firmware="test")
    hub.next_number = 2
    host.connect(5)
    hub.receive(host.tick(5), 5)
    assert host.receive(hub.tick(5) + event_frame(1), 5) == []
    reboot = p.HubSide(boot=2, firmware="test")
    host.connect(6)
    reboot.receive(host.tick(6), 6)
    assert host.receive(reboot.tick(6) + event_frame(1), 6) == [expected_event(1)]


def test_hub_drops_events_beyond_its_capacity_and_reports_them() -> None:
    hub = p.HubSide(boot=1, firmware="test", capacity=3)
    for _ in range(5):
        hub.add_event("press", "menu")
    host = p.HostSide()
    host.connect(0)
    hub.receive(host.tick(0), 0)
    assert len(host.receive(hub.tick(0), 0)) == 3
    hub.receive(host.tick(1), 1)
    host.ping(1)
    hub.receive(host.tick(1), 1)
    host.receive(hub.tick(1), 1)
    assert (host.queued, host.dropped) == (0, 2)


def test_a_malformed_welcome_is_ignored_and_hello_is_sent_again() -> None:
    host = p.HostSide(retry_ms=10)
    host.connect(0)
    hello = p.FrameParser().feed(host.tick(0))[0]
    bad = p.encode_frame(hello[0], p.WELCOME, b"\x01\x00" + bytes(8) + b"\xff\xfe")
    assert host.receive(bad, 1) == []
    assert not host.welcomed
    assert p.FrameParser().feed(host.tick(10)) == [hello]


# --- a host stalled longer than the hub's patience (issue 14, item 1) -----------------------

class FirmwareOneZero(p.HubSide):
    """The hub as firmware 1.0.0 was: a host it timed out is served again only after a HELLO."""

    def _host_back(self) -> None:
        pass


def talk(host: p.HostSide, hub: p.HubSide, start: int, end: int, step: int = 10) -> list:
    """Both ends served every ``step`` ms of simulated time; the events the host delivered."""
    got = []
    for now in range(start, end, step):
        hub.receive(host.tick(now), now)
        got += host.receive(hub.tick(now), now)
    return got


def presses(count: int) -> list:
    return [("press", "seat", seat % 6, 0) for seat in range(count)]


def stalled_link(host: p.HostSide, hub: p.HubSide) -> list:
    """Events before a 4 s host stall, then events while the hub waits for the stalled host."""
    host.connect(0)
    for seat in range(3):
        hub.add_event("press", "seat", seat)
    got = talk(host, hub, 0, 500)
    assert got == presses(3)
    # The host stalls (SIGSTOP, a long SD-card write): the hub hears nothing for 4 s.
    for now in range(500, 4500, 10):
        hub.tick(now)
    assert not hub.connected, "the hub gave up on its host"
    for seat in range(3, 9):
        hub.add_event("press", "seat", seat % 6)
    return got


def test_a_hub_serves_its_stalled_host_again_on_the_next_frame_it_hears() -> None:
    # A host without the stall check (as 1.0.0 was) still gets every event, once, in order.
    host = p.HostSide(stall_ms=10**9)
    hub = p.HubSide(boot=1, firmware="test")
    got = stalled_link(host, hub) + talk(host, hub, 4500, 6500)
    assert host.handshakes == 1, "no HELLO needed"
    assert got == presses(9)
    assert hub.outbox == []


def test_a_stalled_host_says_hello_again_to_a_hub_that_gave_up_on_it() -> None:
    host = p.HostSide()
    hub = FirmwareOneZero(boot=1, firmware="test")
    got = stalled_link(host, hub) + talk(host, hub, 4500, 6500)
    assert host.handshakes == 2
    assert got == presses(9)
    assert hub.outbox == []


def test_pongs_of_queued_events_that_never_come_make_the_host_say_hello_again() -> None:
    # The hub stopped serving a host that never went quiet (the hub's reason is unknown).
    host = p.HostSide()
    hub = FirmwareOneZero(boot=1, firmware="test")
    host.connect(0)
    assert talk(host, hub, 0, 500) == []
    hub.connected = False
    hub.add_event("press", "seat", 0)
    # Nothing for 2 s since the handshake (heartbeats every 1 s, PONGs saying 1 queued).
    got = talk(host, hub, 500, 1900)
    assert got == [] and host.queued == 1, "heard of, not yet delivered"
    got += talk(host, hub, 1900, 4000)
    assert got == presses(1) and host.handshakes == 2


def test_a_hub_rebooted_unseen_waits_for_hello_then_numbers_its_events_afresh() -> None:
    host = p.HostSide()
    old = p.HubSide(boot=1, firmware="test")
    host.connect(0)
    for _ in range(4):
        old.add_event("press", "menu")
    assert len(talk(host, old, 0, 500)) == 4
    rebooted = p.HubSide(boot=2, firmware="test")
    rebooted.add_event("press", "seat", 0)
    # A PING is no HELLO: the new boot must not send its event 1 to a host expecting 5.
    assert talk(host, rebooted, 500, 1500) == []
    assert not rebooted.connected
    assert talk(host, rebooted, 1500, 4000) == presses(1)
