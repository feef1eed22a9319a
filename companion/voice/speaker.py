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
           command: str = COMMAND) -> list[str]:
    """The command line that says ``text`` (or writes it to ``wav``)."""
    line = [command, "-v", VOICES.get(lang, "en"), "-s", str(speed)]
    if wav is not None:
        line += ["-w", str(wav)]
    return [*line, "--", text]


def synthesise(text: str, lang: str, wav: Path, speed: int = SPEED) -> Path:
    """``text`` spoken into the WAV file ``wav`` (what the tests listen to)."""
    subprocess.run(espeak(text, lang, speed=speed, wav=wav), check=True, timeout=60,
                   capture_output=True)
    return wav


def _play(command: Sequence[str]) -> None:
    subprocess.run(command, check=False, timeout=60, capture_output=True)


@dataclass
class Said:
    """One announcement: when it was left (``queued``) and when speech of it began."""

    text: str
    queued: float
    started: float = 0.0


class Speaker:
    """A worker thread that speaks; ``say`` never waits for it."""

    def __init__(self, speed: int = SPEED, command: str = COMMAND,
                 run: Callable[[Sequence[str]], None] = _play,
                 on_start: Callable[[Said], None] | None = None) -> None:
        self.speed, self.command, self.run, self.on_start = speed, command, run, on_start
        self._waiting: tuple[Said, str] | None = None
        self._changed = threading.Condition()
        self._closing = False
        self.dropped = 0  # announcements replaced by a later one before they were spoken
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
                log.warning("voice: %s", error)

    def close(self, timeout: float = 60.0) -> None:
        """Speak what is waiting, then stop the worker."""
        with self._changed:
            self._closing = True
            self._changed.notify()
        self._thread.join(timeout)
