"""What the pages take from a browser: the host names they answer to, the origins they trust,
and request bodies (JSON only, flat enough, no key twice).

A web page from anywhere (another site, a page on this machine's other port, a DNS-rebinding
name that points at the Pi) runs in a browser that can reach the daemon. So:

- ``Host`` must be one of the daemon's own names (``HostNames``): an IP address (a typed
  address cannot be rebound), ``localhost``, this machine's host name (and ``NAME.local``),
  the address the pages are served at. A rebinding page's requests carry its own name, and
  are refused.
- ``Origin``, when a browser sends one, must be the site served (its scheme, ``http``, its
  name and port): a page of another origin cannot open a socket nor send an action; a
  browser always sends it on a WebSocket handshake and a POST.
- A POST's body is ``application/json`` (else 415): a browser sends that type across origins
  only after a preflight, which the server never grants.

>>> names = HostNames("0.0.0.0", "http://192.168.1.20:8080", hostname="dungeon")
>>> [names.allows(host) for host in ("192.168.1.20:8080", "[::1]:8080", "dungeon.local:8080",
...                                  "localhost", "evil.example:8080", "192.168.1.20.nip.io")]
[True, True, True, True, False, False]
>>> same_origin("http://dungeon.local:8080", "dungeon.local:8080"), same_origin(
...     "http://127.0.0.2:8080", "127.0.0.1:8080"), same_origin("null", "127.0.0.1:8080")
(True, False, False)
>>> same_origin("https://dungeon.local:8080", "dungeon.local:8080")  # not the site served
False
>>> flat_json(b'{"a": [[1]]}'), depth(b'[' * 40 + b']' * 40)
({'a': [[1]]}, 40)
"""

from __future__ import annotations

import json
import re
import socket
from ipaddress import ip_address
from typing import Any

from yarl import URL

#: How deep a request's JSON may nest (an event is an object of lists: 3 or 4 levels).
MAX_DEPTH = 16
_STRINGS = re.compile(rb'"(?:[^"\\]|\\.)*"', re.DOTALL)
_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")
_DEFAULT_PORTS = {"http": 80, "https": 443, "ws": 80, "wss": 443}


class BadBody(ValueError):
    """A request body that is not one flat enough JSON document without repeated keys."""


class HostNames:
    """The names this daemon answers to (``Host``), against DNS rebinding."""

    def __init__(self, listen: str = "", url: str = "", hostname: str | None = None) -> None:
        own = hostname if hostname is not None else socket.gethostname()
        names = {"localhost", listen, own, own.split(".")[0] + ".local" if own else ""}
        if url:
            names.add(URL(url).host or "")
        self.names = {normal(name) for name in names if name}

    def allows(self, host: str | None) -> bool:
        """Whether a request's ``Host`` (None: none given, not a browser) is one of ours."""
        if host is None:
            return True
        name = host_name(host)
        if name is None:
            return False
        try:
            ip_address(name)
            return True
        except ValueError:
            return name in self.names


def normal(name: str) -> str:
    return name.strip("[]").rstrip(".").lower()


def split_host(host: str) -> tuple[str, int | None] | None:
    """A ``Host`` header's name and port (None: not a host)."""
    try:
        url = URL(f"http://{host}")
    except ValueError:
        return None
    if not url.host or url.raw_path not in ("", "/") or url.user or url.query_string:
        return None
    try:
        port = url.explicit_port
    except ValueError:
        return None
    return normal(url.host), port


def host_name(host: str) -> str | None:
    parts = split_host(host)
    return parts[0] if parts else None


def same_origin(origin: str, host: str | None, scheme: str = "http") -> bool:
    """Whether a browser's ``Origin`` is the site of this request's ``Host``, served over
    ``scheme`` (the pages are plain HTTP: an ``https`` origin is another site)."""
    try:
        url = URL(origin)
        given = url.port
    except ValueError:
        return False
    if url.scheme != scheme or scheme not in _DEFAULT_PORTS or not url.host or host is None:
        return False
    parts = split_host(host)
    if parts is None:
        return False
    name, port = parts
    default = _DEFAULT_PORTS[url.scheme]
    return normal(url.host) == name and (given or default) == (port or default)


def depth(body: bytes) -> int:
    """How deep the arrays and objects of a JSON text nest (strings skipped)."""
    deepest = level = 0
    for char in _STRINGS.sub(b"", body).translate(None, _NOT_BRACKETS):
        if char in b"[{":
            level += 1
            deepest = max(deepest, level)
        else:
            level -= 1
    return deepest


def no_twice(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    for key, value in pairs:
        if key in seen:
            raise BadBody(f"the key {json.dumps(key)[:40]} is given twice")
        seen[key] = value
    return seen


def no_constant(name: str) -> Any:
    raise BadBody(f"the body must be JSON ({name} is not)")


def flat_json(body: bytes) -> Any:
    """The JSON document of a request body, or ``BadBody`` saying why not."""
    if depth(body) > MAX_DEPTH:
        raise BadBody(f"the body nests deeper than {MAX_DEPTH} levels")
    try:
        return json.loads(body.decode("utf-8"), object_pairs_hook=no_twice,
                          parse_constant=no_constant)
    except BadBody:
        raise
    except (ValueError, RecursionError) as error:  # UnicodeDecodeError is a ValueError
        raise BadBody("the body must be JSON") from error
