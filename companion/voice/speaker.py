"""Saying announcements aloud through espeak-ng (an OS package), off the daemon's loop.

``say`` only leaves the words in a one-place mailbox and returns: a worker thread takes them
and runs ``espeak-ng`` (one process per announcement, in the language given). Words left
while the worker still speaks replace each other, so after a burst of events the table hears
the latest announcement, not a backlog.

>>> spoken = []
>>> speaker = Speaker(run=lambda command: spoken.append(command[-1]))
>>> speaker.say("Ann's turn", "en"); speaker.close()
>>> spoken
["Ann's turn"]
"""

from __future__ import annotations

import logging
import re
import shutil
import subprocess
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

log = logging.getLogger("companion.voice")

#: espeak-ng's voice for each language of the companion.
VOICES = {"en": "en", "fr": "fr", "de": "de", "it": "it", "es": "es"}
COMMAND = "espeak-ng"
#: Words per minute: a little slower than espeak-ng's 175, for a noisy table.
SPEED = 150


def available(command: str = COMMAND) -> bool:
    return shutil.which(command) is not None


def espeak(text: str, lang: str, *, speed: int = SPEED, wav: Path | None = None,
           command: str = COMMAND, amplitude: int | None = None) -> list[str]:
    """The command line that says ``text`` (or writes it to ``wav``; ``amplitude`` 0: in
    silence, yet through the sound device)."""
    line = [command, "-v", VOICES.get(lang, "en"), "-s", str(speed)]
    if amplitude is not None:
        line += ["-a", str(amplitude)]
    if wav is not None:
        line += ["-w", str(wav)]
    return [*line, "--", text]


def synthesise(text: str, lang: str, wav: Path, speed: int = SPEED) -> Path:
    """``text`` spoken into the WAV file ``wav`` (what the tests listen to)."""
    subprocess.run(espeak(text, lang, speed=speed, wav=wav), check=True, timeout=60,
                   capture_output=True)
    return wav


class Unheard(Exception):
    """espeak-ng ran but was not heard; the message says why, in espeak-ng's or ALSA's words."""


#: ALSA's prefix to its messages: "ALSA lib confmisc.c:855:(parse_card) ".
ALSA_PREFIX = re.compile(r"^ALSA lib [^:]*:\d+:\([^)]*\)\s*")
#: What in espeak-ng's stderr says that nothing was heard.
TROUBLE = re.compile(r"error|cannot|unknown|fail|refused|denied|no such|not found", re.I)


def unheard(returncode: int, stderr: str) -> str | None:
    """Why espeak-ng was not heard, or None when it played. Its exit code is not enough: with
    no sound device it prints ALSA's error and still exits 0.

    >>> unheard(0, "ALSA lib confmisc.c:855:(parse_card) cannot find card '0'\\n")
    "cannot find card '0'"
    >>> unheard(0, "") is None
    True
    """
    lines = [ALSA_PREFIX.sub("", line.strip()) for line in stderr.splitlines() if line.strip()]
    trouble = [line for line in lines if TROUBLE.search(line)]
    if returncode != 0:
        said = (trouble or lines)[:1]
        return f"espeak-ng exited with {returncode}" + "".join(f": {line}" for line in said)
    return trouble[0] if trouble else None


def play(command: Sequence[str], timeout: float = 60.0) -> None:
    """Run espeak-ng to the end; ``Unheard`` if it was not heard."""
    try:
        done = subprocess.run(command, check=False, timeout=timeout, capture_output=True,
                              text=True, errors="replace")
    except (OSError, subprocess.TimeoutExpired) as error:
        raise Unheard(str(error)) from None
    problem = unheard(done.returncode, done.stderr)
    if problem is not None:
        raise Unheard(problem)


@dataclass
class Said:
    """One announcement: when it was left (``queued``) and when speech of it began."""

    text: str
    queued: float
    started: float = 0.0


class Speaker:
    """A worker thread that speaks; ``say`` never waits for it."""

    def __init__(self, speed: int = SPEED, command: str = COMMAND,
                 run: Callable[[Sequence[str]], None] = play,
                 on_start: Callable[[Said], None] | None = None) -> None:
        self.speed, self.command, self.run, self.on_start = speed, command, run, on_start
        self._waiting: tuple[Said, str] | None = None
        self._changed = threading.Condition()
        self._closing = False
        self.dropped = 0  # announcements replaced by a later one before they were spoken
        self.unheard = 0  # announcements espeak-ng could not make heard
        self._told = False  # the log has said the voice cannot be heard (and not since heard)
        self._thread = threading.Thread(target=self._speak, name="voice", daemon=True)
        self._thread.start()

    def say(self, text: str, lang: str) -> None:
        """Leave ``text`` to be spoken in ``lang``; it replaces any not yet begun."""
        with self._changed:
            if self._waiting is not None:
                self.dropped += 1
            self._waiting = (Said(text, time.monotonic()), lang)
            self._changed.notify()

    def _speak(self) -> None:
        while True:
            with self._changed:
                while self._waiting is None and not self._closing:
                    self._changed.wait()
                if self._waiting is None:
                    return
                said, lang = self._waiting
                self._waiting = None
            said.started = time.monotonic()
            if self.on_start is not None:
                self.on_start(said)
            try:
                self.run(espeak(said.text, lang, speed=self.speed, command=self.command))
            except Exception as error:  # noqa: BLE001 - a voice that fails must not stop play
                self._not_heard(error)
            else:
                self._told = False  # heard: should it fail again, the log says so again

    def _not_heard(self, error: Exception) -> None:
        """Log once that the voice cannot be heard, not once per announcement."""
        self.unheard += 1
        if not self._told:
            self._told = True
            log.warning("voice: the announcements cannot be heard (%s); the table plays on "
                        "without them; 'companion doctor' says what to fix, 'companion voice' "
                        "says a test line", error)

    def close(self, timeout: float = 60.0) -> None:
        """Speak what is waiting, then stop the worker."""
        with self._changed:
            self._closing = True
            self._changed.notify()
        self._thread.join(timeout)
