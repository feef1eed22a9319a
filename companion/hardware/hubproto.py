"""The hub wire protocol (firmware/PROTOCOL.md): framing, messages and both ends' state machines.

This one file runs on the host (CPython) and on the hub (MicroPython, copied onto the Pico as
``hubproto.py``), so it imports nothing but ``struct`` and keeps to what both interpreters
share: no ``__future__``, no dataclasses, no ``typing``, no bytearray slice deletion.
Time is a caller-supplied millisecond count that only ever grows.

>>> frame = encode_frame(7, PING)
>>> frame.hex()
'a55a00070365687e'
>>> FrameParser().feed(b"noise" + frame)
[(7, 3, b'')]
"""

import struct

PROTOCOL_MAJOR = 1
PROTOCOL_MINOR = 0

SYNC = b"\xa5\x5a"
#: The last byte of every frame: a frame cut short cannot borrow the next frame's sync as
#: its own last bytes, so the frame after it is still found.
END = 0x7E
#: Longest payload a frame may carry; a longer length byte marks noise, not a frame.
MAX_PAYLOAD = 40
#: Sync (2) + length + sequence + type before the payload, CRC-16 (2) + end after it.
OVERHEAD = 8
#: The hub stops sending to a host it has not heard from for this long.
HOST_TIMEOUT_MS = 3000
#: A host that has sent nothing for this long (it was stalled), or that hears of queued
#: events but gets none for this long, says HELLO again: well before the hub gives up on it.
STALL_MS = 2000

# Message types.
HELLO = 0x01  # host -> hub, a request: protocol version of the host
WELCOME = 0x02  # hub -> host, answers HELLO: version, boot id, oldest event kept, firmware
PING = 0x03  # host -> hub, a request: the heartbeat
PONG = 0x04  # hub -> host, answers PING: events queued, events dropped
EVENT = 0x05  # hub -> host: one input event with its event sequence number
EVENT_ACK = 0x06  # host -> hub: every event up to this sequence number is delivered

#: Event kinds and controls in wire order (the names of companion.hardware.events).
KINDS = ("dial", "press", "release", "hold")
CONTROLS = ("encoder", "encoder-switch", "seat", "menu")

_EVENT = ">IBBBh"
_WELCOME = ">BBII"
_PONG = ">HI"
_FIRMWARE_MAX = MAX_PAYLOAD - 10


class ProtocolError(Exception):
    """A message that is well framed but cannot be what it claims to be."""


class VersionMismatch(Exception):
    """The hub speaks another major version of the protocol."""


class LinkDead(Exception):
    """A request went unanswered after every retransmission."""


def _crc_table():
    table = []
    for byte in range(256):
        crc = byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
        table.append(crc & 0xFFFF)
    return table


_CRC_TABLE = _crc_table()


def crc16(data, start: int = 0, end: int = -1) -> int:
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF) of ``data[start:end]``.

    >>> hex(crc16(b"123456789"))
    '0x29b1'
    """
    if end < 0:
        end = len(data)
    crc = 0xFFFF
    table = _CRC_TABLE
    for i in range(start, end):
        crc = ((crc << 8) & 0xFFFF) ^ table[((crc >> 8) ^ data[i]) & 0xFF]
    return crc


def encode_frame(seq: int, kind: int, payload: bytes = b"") -> bytes:
    """One frame: sync, length, sequence number, type, payload, CRC-16 (big-endian), end."""
    if len(payload) > MAX_PAYLOAD:
        raise ProtocolError(f"payload of {len(payload)} bytes exceeds {MAX_PAYLOAD}")
    body = bytes((len(payload), seq & 0xFF, kind)) + payload
    return SYNC + body + crc16(body).to_bytes(2, "big") + bytes((END,))


class FrameParser:
    """Cuts a byte stream into frames, skipping noise, truncated and corrupted frames.

    A frame whose end byte or CRC is wrong costs only its first sync byte: the scan resumes
    right after it, so a good frame hidden inside the bytes of a broken one is still found.
    """

    def __init__(self) -> None:
        self._buffer = bytearray()
        #: Frames thrown away (bad length or CRC), for diagnostics.
        self.rejected = 0

    def feed(self, data: bytes) -> list:
        """Every complete good frame in ``data`` (and what came before), as (seq, type, payload)."""
        buffer = self._buffer
        buffer.extend(data)
        frames = []
        size = len(buffer)
        start = 0
        while True:
            at = buffer.find(SYNC, start)
            if at < 0:
                # Keep a lone last sync byte: the next byte may complete the sync pair.
                start = size - 1 if size and buffer[size - 1] == SYNC[0] else size
                break
            if size - at < 5:
                start = at
                break
            length = buffer[at + 2]
            if length > MAX_PAYLOAD:
                self.rejected += 1
                start = at + 1
                continue
            end = at + OVERHEAD + length
            if end > size:
                start = at
                break
            if buffer[end - 1] != END or (
                    crc16(buffer, at + 2, end - 3) != (buffer[end - 3] << 8) | buffer[end - 2]):
                self.rejected += 1
                start = at + 1
                continue
            frames.append((buffer[at + 3], buffer[at + 4], bytes(buffer[at + 5:end - 3])))
            start = end
        if start:
            self._buffer = buffer[start:]
        return frames


def encode_event(number: int, kind: str, control: str, index: int, value: int) -> bytes:
    """The payload of an EVENT: event sequence number, kind, control, control number, value."""
    return struct.pack(_EVENT, number, KINDS.index(kind), CONTROLS.index(control), index, value)


def decode_event(payload: bytes) -> tuple:
    """``(number, kind, control, index, value)`` of an EVENT payload; ProtocolError if invalid."""
    if len(payload) != struct.calcsize(_EVENT):
        raise ProtocolError(f"event payload of {len(payload)} bytes")
    number, kind, control, index, value = struct.unpack(_EVENT, payload)
    if kind >= len(KINDS) or control >= len(CONTROLS):
        raise ProtocolError(f"unknown event kind {kind} or control {control}")
    name = KINDS[kind]
    if name == "dial":
        fits = value != 0
    else:
        fits = value >= 0 if name == "hold" else value == 0
    if number == 0 or not fits:
        raise ProtocolError(f"event {number}: value {value} does not fit a {name}")
    return number, name, CONTROLS[control], index, value


def encode_welcome(major: int, minor: int, boot: int, oldest: int, firmware: str) -> bytes:
    return struct.pack(_WELCOME, major, minor, boot, oldest) + firmware.encode()[:_FIRMWARE_MAX]


def decode_welcome(payload: bytes) -> tuple:
    """``(major, minor, boot, oldest, firmware)`` of a WELCOME payload."""
    if len(payload) < 10:
        raise ProtocolError(f"welcome payload of {len(payload)} bytes")
    major, minor, boot, oldest = struct.unpack(_WELCOME, payload[:10])
    try:
        firmware = payload[10:].decode()
    except UnicodeError:
        raise ProtocolError("welcome: firmware version is not UTF-8") from None
    return major, minor, boot, oldest, firmware


class HubSide:
    """The hub's end of the link: keeps every event until the host acknowledges it.

    Events go out at most ``window`` at a time; if the oldest one sent is not acknowledged
    within ``resend_ms`` all those in flight are sent again (go-back-N). A HELLO starts a
    new connection: the hub answers and resends everything not yet acknowledged. A host
    silent for ``host_timeout_ms`` is taken for gone; any frame from it afterwards (it was
    only stalled) serves it again the same way.

    >>> hub = HubSide(boot=5, firmware="1.0")
    >>> hub.add_event("press", "seat", 2)
    >>> hub.tick(0)  # no host has said hello yet
    b''
    """

    def __init__(self, boot: int, firmware: str, major: int = PROTOCOL_MAJOR,
                 minor: int = PROTOCOL_MINOR, capacity: int = 256, window: int = 16,
                 resend_ms: int = 100, host_timeout_ms: int = HOST_TIMEOUT_MS) -> None:
        self.boot = boot
        self.firmware = firmware
        self.major = major
        self.minor = minor
        self.capacity = capacity
        self.window = window
        self.resend_ms = resend_ms
        self.host_timeout_ms = host_timeout_ms
        self.parser = FrameParser()
        #: Events not yet acknowledged, oldest first, as (number, frame payload).
        self.outbox = []
        self.next_number = 1
        #: Events lost because the outbox was full (the host was away too long).
        self.dropped = 0
        self.connected = False
        #: A host has said HELLO to this boot: only then may another frame bring it back.
        self.greeted = False
        self._in_flight = 0
        self._sent_at = 0
        self._host_seen = 0
        self._frame_seq = 0
        self._replies = bytearray()

    def add_event(self, kind: str, control: str, index: int = 0, value: int = 0) -> None:
        """Queue one input event for the host."""
        if len(self.outbox) >= self.capacity:
            self.dropped += 1
            return
        number = self.next_number
        self.next_number += 1
        self.outbox.append((number, encode_event(number, kind, control, index, value)))

    def receive(self, data: bytes, now: int) -> None:
        """Take bytes from the host; answers go out with the next ``tick``."""
        for seq, kind, payload in self.parser.feed(data):
            self._host_seen = now
            # A longer HELLO is a newer host: answered all the same, it judges the versions.
            if kind == HELLO and len(payload) >= 2:
                self.greeted = True
                self._serve_host()
                oldest = self.outbox[0][0] if self.outbox else self.next_number
                welcome = encode_welcome(self.major, self.minor, self.boot, oldest, self.firmware)
                self._replies.extend(encode_frame(seq, WELCOME, welcome))
                continue
            if not self.connected and self.greeted:
                self._host_back()
            if kind == PING and not payload:
                pong = struct.pack(_PONG, min(len(self.outbox), 0xFFFF), self.dropped)
                self._replies.extend(encode_frame(seq, PONG, pong))
            elif kind == EVENT_ACK and len(payload) == 4:
                self._acknowledge(struct.unpack(">I", payload)[0], now)

    def _serve_host(self) -> None:
        """Send to the host from the oldest event not acknowledged, at the next ``tick``."""
        self.connected = True
        self._in_flight = 0

    def _host_back(self) -> None:
        # The host was stalled, not gone: it knows this boot, so it takes the resent events
        # exactly once (it drops the ones it already has by their number).
        self._serve_host()

    def _acknowledge(self, upto: int, now: int) -> None:
        done = 0
        while done < len(self.outbox) and self.outbox[done][0] <= upto:
            done += 1
        if done:
            self.outbox = self.outbox[done:]
            self._in_flight = max(0, self._in_flight - done)
            self._sent_at = now

    def tick(self, now: int) -> bytes:
        """The bytes to send now: answers, then events (new or due again)."""
        if self.connected and now - self._host_seen > self.host_timeout_ms:
            self.connected = False
        out = self._replies
        self._replies = bytearray()
        if not self.connected:
            return bytes(out)
        if self._in_flight and now - self._sent_at >= self.resend_ms:
            self._in_flight = 0
        if self._in_flight == 0:
            self._sent_at = now
        while self._in_flight < min(self.window, len(self.outbox)):
            out.extend(self._event_frame(self.outbox[self._in_flight][1]))
            self._in_flight += 1
        return bytes(out)

    def _event_frame(self, payload: bytes) -> bytes:
        self._frame_seq = (self._frame_seq + 1) & 0xFF
        return encode_frame(self._frame_seq, EVENT, payload)

    def led(self, now: int) -> bool:
        """The status LED: steady with a host, a short blink each second without one."""
        if self.connected:
            return True
        return now % 1000 < 100


class HostSide:
    """The host's end of the link: handshake, heartbeat, and each hub event exactly once.

    Requests (HELLO, PING) are sent again every ``retry_ms`` up to ``tries`` times in all;
    then ``tick`` raises LinkDead. Events are delivered only in sequence-number order: a
    repeat is acknowledged again and dropped, a gap waits for the hub to resend. The
    delivery position survives ``connect`` as long as the hub's boot id stays the same.
    After ``stall_ms`` without sending anything (the host was stalled), or when a PONG
    reports queued events and none has come for ``stall_ms``, the host says HELLO again:
    the hub may have given up on it, and a HELLO to the same boot loses and repeats nothing.
    """

    def __init__(self, retry_ms: int = 250, tries: int = 4, heartbeat_ms: int = 1000,
                 stall_ms: int = STALL_MS) -> None:
        self.retry_ms = retry_ms
        self.tries = tries
        self.heartbeat_ms = heartbeat_ms
        self.stall_ms = stall_ms
        #: Handshakes answered (the first and every HELLO said again).
        self.handshakes = 0
        self.boot = None
        self.expected = 0
        self.firmware = None
        #: (major, minor) of the hub, once it has answered.
        self.version = None
        #: Milliseconds from request to answer, the last 100; ``answers`` counts them all.
        self.round_trips = []
        self.answers = 0
        self.queued = 0
        self.dropped = 0
        self.welcomed = False
        self.parser = FrameParser()
        self._pending = {}
        self._seq = 0
        self._last_ping = 0
        self._last_sent = 0
        self._last_event = 0
        self._ack_due = False
        self._out = bytearray()

    def connect(self, now: int) -> None:
        """Start a new connection (after opening the port): forget partial frames, say hello."""
        self.parser = FrameParser()
        self._pending = {}
        self.welcomed = False
        self._ack_due = False
        self._out = bytearray()
        self._request(HELLO, struct.pack(">BB", PROTOCOL_MAJOR, PROTOCOL_MINOR), now)

    def _hello_again(self, now: int) -> None:
        # Same port, same parser: bytes already on their way still count.
        parser = self.parser
        self.connect(now)
        self.parser = parser

    def ping(self, now: int) -> None:
        """Send a heartbeat now; its round trip lands in ``round_trips`` (milliseconds)."""
        self._last_ping = now
        self._request(PING, b"", now)

    def _request(self, kind: int, payload: bytes, now: int) -> None:
        self._seq = (self._seq + 1) & 0xFF
        frame = encode_frame(self._seq, kind, payload)
        self._pending[self._seq] = [frame, now, now, 1]
        self._out.extend(frame)

    def receive(self, data: bytes, now: int) -> list:
        """Take bytes from the hub; returns the new events as (kind, control, index, value)."""
        events = []
        for seq, kind, payload in self.parser.feed(data):
            if kind == EVENT:
                self._on_event(payload, events, now)
            elif kind == WELCOME and seq in self._pending and self._on_welcome(payload):
                self._answered(seq, now)
                self._last_event = now
            elif kind == PONG and seq in self._pending and len(payload) == 6:
                self.queued, self.dropped = struct.unpack(_PONG, payload)
                self._answered(seq, now)
                if self.welcomed and self.queued and now - self._last_event >= self.stall_ms:
                    # The hub holds events but sends none: it no longer serves this host.
                    self._hello_again(now)
        return events

    def _answered(self, seq: int, now: int) -> None:
        self.answers += 1
        self.round_trips.append(now - self._pending.pop(seq)[1])
        if len(self.round_trips) > 100:
            self.round_trips = self.round_trips[-100:]

    def _on_welcome(self, payload: bytes) -> bool:
        try:
            major, minor, boot, oldest, firmware = decode_welcome(payload)
        except ProtocolError:
            return False  # the HELLO goes out again
        self.version = (major, minor)
        self.firmware = firmware
        if major != PROTOCOL_MAJOR:
            raise VersionMismatch(
                f"hub firmware {firmware} speaks protocol {major}.{minor}, this companion "
                f"speaks {PROTOCOL_MAJOR}.{PROTOCOL_MINOR}: flash the firmware of this "
                "release (firmware/README.md)")
        if boot != self.boot:
            # A new boot numbers its events from scratch; an old one continues where it was.
            self.boot = boot
            self.expected = oldest
        self.welcomed = True
        self.handshakes += 1
        self._ack_due = True
        return True

    def _on_event(self, payload: bytes, events: list, now: int) -> None:
        if not self.welcomed:
            return
        try:
            number, kind, control, index, value = decode_event(payload)
        except ProtocolError:
            return
        self._last_event = now
        self._ack_due = True
        if number == self.expected:
            self.expected += 1
            events.append((kind, control, index, value))

    def tick(self, now: int) -> bytes:
        """The bytes to send now: requests, retransmissions, acknowledgement, heartbeat."""
        if self.welcomed and now - self._last_sent >= self.stall_ms:
            # Silent this long, the host was stalled: the hub may have stopped serving it.
            self._hello_again(now)
        for seq in self._pending:
            entry = self._pending[seq]
            if now - entry[2] >= self.retry_ms:
                if entry[3] >= self.tries:
                    raise LinkDead(f"no answer from the hub after {entry[3]} tries")
                entry[2] = now
                entry[3] += 1
                self._out.extend(entry[0])
        if self.welcomed:
            if self._ack_due:
                self._ack_due = False
                self._seq = (self._seq + 1) & 0xFF
                ack = struct.pack(">I", max(self.expected - 1, 0))
                self._out.extend(encode_frame(self._seq, EVENT_ACK, ack))
            if not self._pending and now - self._last_ping >= self.heartbeat_ms:
                self.ping(now)
        out = self._out
        self._out = bytearray()
        if out:
            self._last_sent = now
        return bytes(out)
