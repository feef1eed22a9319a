"""Hardware parts and the supervisor that keeps them going.

A part (a screen, the GPIO inputs, the serial hub, the camera) is started, may fail at start
or later, and is then retried every ``retry_seconds`` while the game goes on with what works.
The supervisor only reports; what the table sees of a failure is the daemon's business.

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

from companion.daemon.lifecycle import Handler, Moment
from companion.errors import PartUnusable

log = logging.getLogger("companion.daemon")

Submit = Callable[[Any], None]


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


def describe(error: BaseException, limit: int = 200) -> str:
    """An error in a few words for the table screen and the log."""
    text = str(error) or type(error).__name__
    return text if len(text) <= limit else text[:limit - 3] + "..."


class Supervisor:
    """Starts parts, records failures, retries failed parts on ``tick``."""

    def __init__(self, parts: Iterable[Part], retry_seconds: float, submit: Submit) -> None:
        self.parts = {part.name: part for part in parts}
        self.retry_seconds = retry_seconds
        self.submit = submit
        self._failed: dict[str, str] = {}
        self._retry_at: dict[str, float] = {}
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

    def failed(self, name: str, reason: str, now: float) -> None:
        """Record a failure (at start or while running) and schedule a retry."""
        if name not in self.parts:
            return
        if self._failed.get(name) != reason:
            log.warning("%s failed: %s (retrying every %gs)", name, reason, self.retry_seconds)
        self.parts[name].stop()
        self._failed[name] = reason
        self._retry_at[name] = now + self.retry_seconds

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
