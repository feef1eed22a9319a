"""The address a phone or a TV opens: this machine's LAN address and the pages' port."""

from __future__ import annotations

import socket


def lan_address() -> str:
    """This machine's address on the LAN (the one its default route uses), else loopback.

    Connecting a UDP socket sends nothing: it only picks the route."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))
            return str(probe.getsockname()[0])
        except OSError:
            return "127.0.0.1"


def page_url(listen: str, port: int) -> str:
    """The address to open: the listen address, or this machine's LAN address for any."""
    host = lan_address() if listen in ("", "0.0.0.0", "::") else listen
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"
