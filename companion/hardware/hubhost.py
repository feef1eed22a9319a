"""The host's end of the hub wire protocol (firmware/PROTOCOL.md): handshake, heartbeat,
retransmission, and each hub event delivered exactly once.

Split from ``hubproto.py`` (which still offers ``HostSide``), so that the hub carries only its
own end. Like it, this file runs under CPython and MicroPython (the firmware's tests talk
to the hub through it), so it keeps to what both interpreters share.
"""

import struct

if __name__ == "hubhost":  # beside hubproto.py, as the firmware's tests load it
    import hubproto as wire
else:
    from companion.hardware import hubproto as wire


class HostSide:
    """The host's end of the link: handshake, heartbeat, and each hub event exactly once.

    Requests (HELLO, PING) are sent again every ``retry_ms`` up to ``tries`` times in all;
    then ``tick`` raises LinkDead. Events are delivered only in sequence-number order: a
    repeat is acknowledged again and dropped, a gap waits for the hub to resend. The
    delivery position survives ``connect`` as long as the hub's boot id stays the same and
    the hub still holds the event expected next; if two handshakes in a row say it no
    longer does (it dropped events on a forged acknowledgement and could not put them
    back), the host takes up at the hub's oldest event and counts the ones skipped in
    ``skipped``, rather than wait for ever.
    The acknowledgement goes out again with every heartbeat, so a hub that dropped too much
    hears the host's true position and sends the rest again.
    After ``stall_ms`` without sending anything (the host was stalled), or when a PONG
    reports queued events and none has been delivered for ``stall_ms``, the host says HELLO
    again: the hub may have given up on it, and a HELLO to the same boot loses and repeats
    nothing.
    """

    def __init__(self, retry_ms: int = 250, tries: int = 4, heartbeat_ms: int = 1000,
                 stall_ms: int = wire.STALL_MS) -> None:
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
        #: Events the hub no longer held when the host expected them (lost, not waited for).
        self.skipped = 0
        self.welcomed = False
        self.parser = wire.FrameParser()
        self._pending = {}
        self._seq = 0
        self._last_ping = 0
        self._last_sent = 0
        self._last_progress = 0
        #: The position the hub's last WELCOME was beyond (see ``_on_welcome``), else None.
        self._behind = None
        self._ack_due = False
        self._out = bytearray()

    def connect(self, now: int) -> None:
        """Start a new connection (after opening the port): forget partial frames, say hello."""
        self.parser = wire.FrameParser()
        self._pending = {}
        self.welcomed = False
        self._ack_due = False
        self._out = bytearray()
        version = struct.pack(">BB", wire.PROTOCOL_MAJOR, wire.PROTOCOL_MINOR)
        self._request(wire.HELLO, version, now)

    def _hello_again(self, now: int) -> None:
        # Same port, same parser: bytes already on their way still count.
        parser = self.parser
        self.connect(now)
        self.parser = parser

    def ping(self, now: int) -> None:
        """Send a heartbeat now; its round trip lands in ``round_trips`` (milliseconds)."""
        self._last_ping = now
        self._request(wire.PING, b"", now)

    def _request(self, kind: int, payload: bytes, now: int) -> None:
        self._seq = (self._seq + 1) & 0xFF
        frame = wire.encode_frame(self._seq, kind, payload)
        # frame, first sent, last sent, tries, and the kind of request it is.
        self._pending[self._seq] = [frame, now, now, 1, kind]
        self._out.extend(frame)

    def receive(self, data: bytes, now: int) -> list:
        """Take bytes from the hub; returns the new events as (kind, control, index, value)."""
        events = []
        for seq, kind, payload in self.parser.feed(data):
            if kind == wire.EVENT:
                self._on_event(payload, events, now)
            elif (kind == wire.WELCOME and self._asked(seq, wire.HELLO)
                  and self._on_welcome(payload)):
                self._answered(seq, now)
                self._last_progress = now
            elif kind == wire.PONG and self._asked(seq, wire.PING) and len(payload) == 6:
                self.queued, self.dropped = wire.decode_pong(payload)
                self._answered(seq, now)
                if self.welcomed and self.queued and now - self._last_progress >= self.stall_ms:
                    # The hub holds events but none comes through: it no longer serves this
                    # host, or the two disagree on where delivery stands.
                    self._hello_again(now)
        return events

    def _asked(self, seq: int, kind: int) -> bool:
        # An answer counts only for a request of its own kind: a PONG numbered as the HELLO
        # in flight (a stray or forged frame) must not end the handshake unanswered.
        request = self._pending.get(seq)
        return request is not None and request[4] == kind

    def _answered(self, seq: int, now: int) -> None:
        self.answers += 1
        self.round_trips.append(now - self._pending.pop(seq)[1])
        if len(self.round_trips) > 100:
            self.round_trips = self.round_trips[-100:]

    def _on_welcome(self, payload: bytes) -> bool:
        try:
            major, minor, boot, oldest, firmware = wire.decode_welcome(payload)
        except wire.ProtocolError:
            return False  # the HELLO goes out again
        self.version = (major, minor)
        self.firmware = firmware
        if major != wire.PROTOCOL_MAJOR:
            raise wire.VersionMismatch(
                f"hub firmware {firmware} speaks protocol {major}.{minor}, this companion "
                f"speaks {wire.PROTOCOL_MAJOR}.{wire.PROTOCOL_MINOR}: flash the firmware of "
                "this release (firmware/README.md)")
        if boot != self.boot:
            # A new boot numbers its events from scratch; an old one continues where it was.
            self.boot = boot
            self.expected = oldest
        elif oldest > self.expected:
            if self._behind == self.expected:
                # A second handshake, and still no event delivered: the hub no longer holds
                # the events before its oldest, and waiting for them would jam the link for
                # good. They are lost; count them, and go on from what it has.
                self.skipped += oldest - self.expected
                self.expected = oldest
            else:
                # The hub may keep them as history: the acknowledgement that follows this
                # WELCOME tells it where the host stands, and it sends them again.
                self._behind = self.expected
        self.welcomed = True
        self.handshakes += 1
        self._ack_due = True
        return True

    def _on_event(self, payload: bytes, events: list, now: int) -> None:
        if not self.welcomed:
            return
        try:
            number, kind, control, index, value = wire.decode_event(payload)
        except wire.ProtocolError:
            return
        self._ack_due = True
        if number == self.expected:
            self.expected += 1
            self._behind = None
            self._last_progress = now
            events.append((kind, control, index, value))

    def tick(self, now: int) -> bytes:
        """The bytes to send now: requests, retransmissions, acknowledgement, heartbeat."""
        if self.welcomed and now - self._last_sent >= self.stall_ms:
            # Silent this long, the host was stalled: the hub may have stopped serving it.
            self._hello_again(now)
        for seq in self._pending:
            request = self._pending[seq]
            if now - request[2] >= self.retry_ms:
                if request[3] >= self.tries:
                    raise wire.LinkDead(f"no answer from the hub after {request[3]} tries")
                request[2] = now
                request[3] += 1
                self._out.extend(request[0])
        if self.welcomed:
            if not self._pending and now - self._last_ping >= self.heartbeat_ms:
                self.ping(now)
                # The position again with every heartbeat: a hub that dropped events the
                # host never had (on a forged acknowledgement) hears it and sends them again.
                self._ack_due = True
            if self._ack_due:
                self._ack_due = False
                self._seq = (self._seq + 1) & 0xFF
                ack = struct.pack(">I", max(self.expected - 1, 0))
                self._out.extend(wire.encode_frame(self._seq, wire.EVENT_ACK, ack))
        out = self._out
        self._out = bytearray()
        if out:
            self._last_sent = now
        return bytes(out)
