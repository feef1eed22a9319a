"""Hardware parts and the supervisor that keeps them going.

A part (a screen, the GPIO inputs, the serial hub, the camera) is started, may fail at start
or later, and is then retried every ``retry_seconds`` while the game goes on with what works.
A part whose own thread dies on an unexpected error (``supervised``) is logged with its
traceback once, shown as failed like any other, and restarted after a wait that doubles with
each crash in a row (up to ``BACKOFF_LIMIT`` times ``retry_seconds``), starting over once it
has run ``STEADY_SECONDS``. The supervisor only reports; what the table sees of a failure is
the daemon's business.

>>> class Flaky(Part):
...     name = "hub"
...     def start(self, submit): raise OSError("unplugged")
>>> supervisor = Supervisor([Flaky()], retry_seconds=5, submit=print)
>>> supervisor.start_all(now=0.0)
>>> supervisor.failures()
{'hub': 'unplugged'}
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from companion.daemon.items import PartFailed
from companion.daemon.lifecycle import Handler, Moment
from companion.errors import PartUnusable

log = logging.getLogger("companion.daemon")

Submit = Callable[[Any], None]
#: A part that keeps crashing waits at most this many times ``retry_seconds`` for a restart.
BACKOFF_LIMIT = 16
#: A part that has run this long since its start crashes afresh: its wait starts over.
STEADY_SECONDS = 60.0
#: The crashes logged with their traceback in this run: (part, error), each once.
_told: set[tuple[str, str]] = set()


class Part:
    """One piece of hardware. ``start`` opens it (raise if it cannot); ``stop`` lets it go.

    A running part that breaks puts ``PartFailed(name, reason)`` on the queue via ``submit``.
    ``listens`` says which of the daemon's moments (``lifecycle.Moment``) it reacts to.
    """

    name: str = "part"

    def listens(self) -> Mapping[Moment, Handler]:
        """The daemon's moments this part reacts to, each with its handler (read once, when
        the daemon is built: e.g. ``{Moment.READY: self._ready.set}``)."""
        return {}

    def start(self, submit: Submit) -> None:
        raise NotImplementedError

    def stop(self) -> None:
        """Release the hardware (after a failure: before a retry); never raises."""

    def close(self) -> None:
        """Release everything at the end of the run; never raises."""
        self.stop()


def supervised(name: str, submit: Submit, target: Callable[[], None]) -> Callable[[], None]:
    """``target`` made a part's thread: an error it raises (any, however unexpected) is the
    part's failure: logged with its traceback (once per error and run) and put on the
    queue as a crash, which the supervisor shows and restarts with backoff. A thread never
    dies unseen."""

    def run() -> None:
        try:
            target()
        except Exception as error:  # noqa: BLE001 - any error: the part crashed
            said = describe(error)
            if (name, said) not in _told:
                _told.add((name, said))
                log.exception("%s: its thread stopped on an error", name)
            submit(PartFailed(name, said, crashed=True))

    return run


def describe(error: BaseException, limit: int = 200) -> str:
    """An error in a few words for the table screen and the log."""
    text = " ".join(str(error).split()) or type(error).__name__  # one line (OpenCV's: two)
    return text if len(text) <= limit else text[:limit - 3] + "..."


class Supervisor:
    """Starts parts, records failures, retries failed parts on ``tick``."""

    def __init__(self, parts: Iterable[Part], retry_seconds: float, submit: Submit) -> None:
        self.parts = {part.name: part for part in parts}
        self.retry_seconds = retry_seconds
        self.submit = submit
        self._failed: dict[str, str] = {}
        self._retry_at: dict[str, float] = {}
        self._started_at: dict[str, float] = {}  # when each part last started
        self._crashes: dict[str, int] = {}  # crashes in a row, each waiting twice as long
        self._finished: dict[str, str] = {}

    def start_all(self, now: float) -> None:
        for name in self.parts:
            self._start(name, now)

    def _start(self, name: str, now: float) -> None:
        try:
            self.parts[name].start(self.submit)
        except PartUnusable as error:  # retrying will not help: said once, with the fix
            self.unusable(name, describe(error, limit=400))
            return
        except Exception as error:  # noqa: BLE001 - any hardware error means "not working yet"
            self.failed(name, describe(error), now)
            return
        if name in self._failed:
            log.info("%s works again", name)
        self._failed.pop(name, None)
        self._retry_at.pop(name, None)
        self._started_at[name] = now

    def failed(self, name: str, reason: str, now: float, crashed: bool = False) -> None:
        """Record a failure (at start or while running) and schedule a retry: after
        ``retry_seconds``, or for a crash, twice as long as after the crash before it."""
        if name not in self.parts:
            return
        wait = self.retry_seconds
        if crashed:
            steady = now - self._started_at.get(name, now) >= STEADY_SECONDS
            crashes = self._crashes[name] = 1 if steady else self._crashes.get(name, 0) + 1
            wait *= min(2 ** (crashes - 1), BACKOFF_LIMIT)
        if self._failed.get(name) != reason:
            log.warning("%s failed: %s (retrying in %gs)", name, reason, wait)
        self.parts[name].stop()
        self._failed[name] = reason
        self._retry_at[name] = now + wait

    def unusable(self, name: str, reason: str) -> None:
        """A part that cannot work until someone fixes it: logged once, not retried."""
        log.error("%s cannot work: %s (not retried: fix it, then restart the daemon)",
                  name, reason)
        self.parts[name].stop()
        self._failed[name] = reason.split(";")[0].split(" (")[0]  # short, for the screens
        self._retry_at.pop(name, None)

    def finished(self, name: str, reason: str) -> bool:
        """A part that has done all it had to (a folder of frames played): logged once,
        stopped, not retried, no failure. False if it had finished already."""
        if name not in self.parts or name in self._finished:
            return False
        log.info("%s: %s", name, reason)
        self.parts[name].stop()
        self._finished[name] = reason
        self._failed.pop(name, None)
        self._retry_at.pop(name, None)
        return True

    def finished_parts(self) -> dict[str, str]:
        """The parts that have finished (``finished``), each with what ended."""
        return dict(self._finished)

    def tick(self, now: float) -> bool:
        """Retry the parts whose time has come; True if any part changed state."""
        due = [name for name, when in self._retry_at.items() if when <= now]
        before = dict(self._failed)
        for name in due:
            self._start(name, now)
        return before != self._failed

    def failures(self) -> dict[str, str]:
        return dict(self._failed)

    def stop_all(self) -> None:
        for part in self.parts.values():
            part.close()
