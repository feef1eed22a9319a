"""The protocol's test vectors (vectors.json) and a lossy-link session, for both interpreters.

Run ``micropython firmware/tests/run_vectors.py`` or ``python firmware/tests/run_vectors.py``;
it prints ``ok N`` (N checks) or stops at the first failing check.
"""

import json

import _paths
import hubproto as p

VECTORS = _paths.FIRMWARE + "/tests/vectors.json"


def check_crc(vectors):
    for case in vectors["crc16"]:
        got = p.crc16(bytes.fromhex(case["data"]))
        assert got == case["crc"], (case, got)
    return len(vectors["crc16"])


def check_frames(vectors):
    for case in vectors["frames"]:
        frame = p.encode_frame(case["seq"], case["type"], bytes.fromhex(case["payload"]))
        assert frame.hex() == case["frame"], (case, frame.hex())
        parsed = p.FrameParser().feed(frame)
        assert parsed == [(case["seq"], case["type"], bytes.fromhex(case["payload"]))], parsed
    return len(vectors["frames"])


def check_events(vectors):
    for case in vectors["events"]:
        payload = bytes.fromhex(case["payload"])
        if "error" in case:
            try:
                p.decode_event(payload)
            except p.ProtocolError:
                continue
            raise AssertionError("accepted: " + case["error"])
        assert list(p.decode_event(payload)) == case["event"], case
        number, kind, control, index, value = case["event"]
        assert p.encode_event(number, kind, control, index, value) == payload, case
    return len(vectors["events"])


def check_streams(vectors):
    for case in vectors["streams"]:
        stream = bytes.fromhex(case["stream"])
        split = case.get("split", 0)
        parser = p.FrameParser()
        if split < 0:
            chunks = [stream[i:i + 1] for i in range(len(stream))]
        elif split:
            chunks = [stream[:split], stream[split:]]
        else:
            chunks = [stream]
        frames = []
        for chunk in chunks:
            frames.extend(parser.feed(chunk))
        want = [(seq, kind, bytes.fromhex(payload)) for seq, kind, payload in case["frames"]]
        assert frames == want, (case["why"], frames)
    return len(vectors["streams"])


def check_lossy_session():
    """A third of the chunks either way are lost: each event still arrives once, in order."""
    hub = p.HubSide(boot=7, firmware="test", resend_ms=30)
    host = p.HostSide(retry_ms=20, tries=50)
    sent = []
    got = []
    # A fixed pseudo-random loss pattern, the same under both interpreters.
    noise = 12345
    host.connect(0)
    for now in range(0, 4000, 5):
        if now < 2000 and now % 20 == 0:
            sent.append(("press", "seat", now % 6, 0))
            hub.add_event("press", "seat", now % 6)
        for data, deliver in ((host.tick(now), hub.receive), (hub.tick(now), None)):
            noise = (noise * 1103515245 + 12345) & 0x7FFFFFFF
            if not data or noise % 3 == 0:
                continue
            if deliver:
                deliver(data, now)
            else:
                got.extend(host.receive(data, now))
    assert got == sent, (len(got), len(sent))
    assert not hub.outbox, len(hub.outbox)
    return 1


def check_forged_acks():
    """An ack of an event never sent drops nothing; one within what was sent but forged
    (the host has less) is made good by the host's own next ack: all arrive once."""
    hub = p.HubSide(boot=3, firmware="test")
    host = p.HostSide()
    got = []
    host.connect(0)
    for now in range(0, 200, 10):
        hub.receive(host.tick(now), now)
        got.extend(host.receive(hub.tick(now), now))
    for seat in range(8):
        hub.add_event("press", "seat", seat % 6)
    lost = hub.tick(200)  # sent, never heard: the cable ate them
    assert len(p.FrameParser().feed(lost)) == 8, lost
    # The frame of issue 40: noise read as EVENT_ACK upto=1854507220.
    hub.receive(p.encode_frame(9, p.EVENT_ACK, b"\x6e\x89\x88\xd4"), 200)
    assert hub.ignored_acks == 1 and len(hub.outbox) == 8, hub.ignored_acks
    hub.receive(p.encode_frame(9, p.EVENT_ACK, b"\x00\x00\x00\x08"), 200)
    assert not hub.outbox
    for now in range(210, 2500, 10):
        hub.receive(host.tick(now), now)
        got.extend(host.receive(hub.tick(now), now))
    assert got == [("press", "seat", seat % 6, 0) for seat in range(8)], got
    assert hub.restored == 8 and not hub.outbox, hub.restored
    return 1


def check_version_refused():
    hub = p.HubSide(boot=1, firmware="9.0.0", major=p.PROTOCOL_MAJOR + 1)
    host = p.HostSide()
    host.connect(0)
    hub.receive(host.tick(0), 0)
    try:
        host.receive(hub.tick(1), 1)
    except p.VersionMismatch as error:
        assert "9.0.0" in str(error) and "firmware/README.md" in str(error), str(error)
        return 1
    raise AssertionError("an incompatible hub was accepted")


def main():
    with open(VECTORS) as file:
        vectors = json.load(file)
    count = (check_crc(vectors) + check_frames(vectors) + check_events(vectors)
             + check_streams(vectors) + check_lossy_session() + check_forged_acks()
             + check_version_refused())
    print("ok", count)
    return count


if __name__ == "__main__":
    main()
