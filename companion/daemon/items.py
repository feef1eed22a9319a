"""What travels on the daemon's one queue, besides the controls' InputEvents.

Every source (pins, hub, keyboard, camera, a fed log) only puts items on the queue; the
daemon's loop alone touches the table session, so data flows one way.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any

from companion.errors import CompanionError


@dataclass(frozen=True)
class CameraProposal:
    """A table event proposed by the vision pipeline, with how sure it is (0 to 1)."""

    event: dict[str, Any]
    confidence: float = 1.0
    #: The camera's look (``looks.Look.number``) it was read from, if any.
    look: int | None = None


@dataclass
class FedEvent:
    """One event of a fed table log; ``done`` is set once it is stored (or refused)."""

    line: int
    event: dict[str, Any]
    done: threading.Event = field(default_factory=threading.Event)
    error: CompanionError | None = None
    seq: int | None = None


@dataclass
class SeatNaming:
    """A seat gives itself a name (its web page); ``done`` is set once it is stored (the name
    kept in ``name``) or refused (``error``)."""

    seat: int
    name: str
    done: threading.Event = field(default_factory=threading.Event)
    error: CompanionError | None = None


@dataclass(frozen=True)
class JoinLinks:
    """The seats' short join links of a session (the web pages'), for their QR codes on the
    seats' own screens; ``urls``: seat -> link (a seat's credential: its screen only)."""

    session: int | None
    urls: dict[int, str]


@dataclass(frozen=True)
class Redraw:
    """Draw the screens and the pages again (a seat's page changed its language, or the pages'
    channels were held back after a burst of events); like any item, it makes the loop
    redraw, and asks nothing else."""


@dataclass(frozen=True)
class FeedFinished:
    """The fed log is consumed: the daemon exits 0."""


@dataclass(frozen=True)
class PartFailed:
    """A hardware part stopped working while running (a screen, the hub, the camera);
    ``crashed``: its thread died on an unexpected error (restarted with backoff)."""

    name: str
    reason: str
    crashed: bool = False


@dataclass(frozen=True)
class PartFinished:
    """A part has done all it had to and stops for good (a camera's folder of frames played
    to its end): said once, never retried. ``reason``: what ended, for the log."""

    name: str
    reason: str


@dataclass(frozen=True)
class Stop:
    """Finish cleanly (SIGTERM, end of a demo)."""

    reason: str = ""
