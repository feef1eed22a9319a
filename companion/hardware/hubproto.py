"""The hub wire protocol (firmware/PROTOCOL.md): framing, messages and the hub's end.

This file runs on the host (CPython) and on the hub (MicroPython, copied onto the Pico as
``hubproto.py``), so it imports nothing but ``struct`` and keeps to what both interpreters
share: no ``__future__``, no dataclasses, no ``typing``, no bytearray slice deletion.
Time is a caller-supplied millisecond count that only ever grows. The host's end,
``HostSide``, is in ``hubhost.py`` (the hub does without it); it is importable from here too.

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


def decode_pong(payload: bytes) -> tuple:
    """``(queued, dropped)`` of a PONG payload (6 bytes)."""
    return struct.unpack(_PONG, payload)


class HubSide:
    """The hub's end of the link: keeps every event until the host acknowledges it.

    Events go out at most ``window`` at a time; if the oldest one sent is not acknowledged
    within ``resend_ms`` all those in flight are sent again (go-back-N). A HELLO starts a
    new connection: the hub answers and resends everything not yet acknowledged. A host
    silent for ``host_timeout_ms`` is taken for gone; any frame from it afterwards (it was
    only stalled) serves it again the same way.

    An acknowledgement is checked before it drops anything: one beyond the highest event
    this boot has sent is noise that passed the CRC (or a host of another boot) and is
    ignored and counted in ``ignored_acks``. Acknowledged events stay in ``history`` while
    the outbox leaves room for them (``capacity`` holds both): an acknowledgement behind
    what the hub already dropped (a forged one made it drop too much) puts the events after
    it back in the outbox, and they are sent again; the host drops repeats by number.

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
        #: Events acknowledged, oldest first, kept while there is room (``capacity``).
        self.history = []
        #: The highest event number this boot has put on the wire (0: none yet).
        self.sent_upto = 0
        #: Acknowledgements ignored because they named an event never sent.
        self.ignored_acks = 0
        #: Events put back from ``history`` by an acknowledgement behind the outbox.
        self.restored = 0
        self.next_number = 1
        #: Events lost because the outbox was full (the host was away too long).
        self.dropped = 0
        self.connected = False
        #: A host has said HELLO to this boot: only then may another frame bring it back.
        self.greeted = False
        self._in_flight = 0
        self._sent_at = 0
        self._host_heard_at = 0
        self._frame_seq = 0
        self._replies = bytearray()

    def add_event(self, kind: str, control: str, index: int = 0, value: int = 0) -> None:
        """Queue one input event for the host."""
        if len(self.outbox) >= self.capacity:
            self.dropped += 1
            return
        if len(self.outbox) + len(self.history) >= self.capacity:
            self.history.pop(0)
        number = self.next_number
        self.next_number += 1
        self.outbox.append((number, encode_event(number, kind, control, index, value)))

    def receive(self, data: bytes, now: int) -> None:
        """Take bytes from the host; answers go out with the next ``tick``."""
        for seq, kind, payload in self.parser.feed(data):
            self._host_heard_at = now
            # A longer HELLO is a newer host: answered all the same, it judges the versions.
            if kind == HELLO and len(payload) >= 2:
                self.greeted = True
                self._serve_host()
                oldest = self.oldest_held()
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

    def oldest_held(self) -> int:
        """The oldest event the hub can still send, acknowledged ones included: an
        acknowledgement may have been forged, and the host's own next one puts back what
        it never had (``_restore``). The WELCOME tells the host this number."""
        held = self.history or self.outbox
        return held[0][0] if held else self.next_number

    def _serve_host(self) -> None:
        """Send to the host from the oldest event not acknowledged, at the next ``tick``."""
        self.connected = True
        self._in_flight = 0

    def _host_back(self) -> None:
        # The host was stalled, not gone: it knows this boot, so it takes the resent events
        # exactly once (it drops the ones it already has by their number).
        self._serve_host()

    def _acknowledge(self, upto: int, now: int) -> None:
        if upto > self.sent_upto:
            # Never sent, so never received: noise that passed the CRC, or a host that
            # counts another boot's events. Dropping on its word would lose events for good.
            self.ignored_acks += 1
            return
        outbox = self.outbox
        first = outbox[0][0] if outbox else self.next_number
        if upto < first - 1:
            self._restore(upto)
            return
        done = 0
        while done < len(outbox) and outbox[done][0] <= upto:
            done += 1
        if done:
            self.history.extend(outbox[:done])
            self.outbox = outbox[done:]
            excess = len(self.history) + len(self.outbox) - self.capacity
            if excess > 0:
                self.history = self.history[excess:]
            self._in_flight = max(0, self._in_flight - done)
            self._sent_at = now

    def _restore(self, upto: int) -> None:
        # The host has less than the hub thought: the events after ``upto`` that the hub
        # still holds go back to the outbox, to be sent again from the oldest.
        history = self.history
        keep = 0
        while keep < len(history) and history[keep][0] <= upto:
            keep += 1
        if keep < len(history):
            self.restored += len(history) - keep
            self.outbox = history[keep:] + self.outbox
            self.history = history[:keep]
            self._in_flight = 0

    def tick(self, now: int) -> bytes:
        """The bytes to send now: answers, then events (new or due again)."""
        if self.connected and now - self._host_heard_at > self.host_timeout_ms:
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
            number, payload = self.outbox[self._in_flight]
            out.extend(self._event_frame(payload))
            if number > self.sent_upto:
                self.sent_upto = number
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


def __getattr__(name):
    """``HostSide`` from ``hubhost.py``, beside this file as it was imported (the hub's
    tests, MicroPython included) or in the companion package."""
    if name != "HostSide":
        raise AttributeError(name)
    if __name__ == "hubproto":
        from hubhost import HostSide
    else:
        from companion.hardware.hubhost import HostSide
    return HostSide
