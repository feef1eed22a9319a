"""Can the voice be heard? What ``companion doctor`` checks when ``[voice] enabled = true``,
and the test line of ``companion voice``.

Three things must hold: espeak-ng is installed, a sound device is there to play on
(``/dev/snd/pcmC*D*p``, readable and writable by us), and espeak-ng plays on it: its exit
code *and* its stderr, since with no sound device espeak-ng prints ALSA's error and still
exits 0. The check plays a word at amplitude 0: it goes through the sound device like any
announcement, and the table hears nothing.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from companion.voice.speaker import COMMAND, SPEED, Unheard, available, espeak, play

SOUND = Path("/dev/snd")
INSTALL = "sudo apt install espeak-ng"
PLUG_IN = ("plug in a speaker: a USB speaker or sound card, an HDMI screen with speakers, or "
           "headphones on the Pi 4's jack (dtparam=audio=on in /boot/firmware/config.txt, then "
           "reboot); 'aplay -l' lists what the system sees")


@dataclass(frozen=True)
class Check:
    """One finding of the voice check: ``ok``, what was found, and what to do if not ok."""

    ok: bool
    what: str
    fix: str = ""


def playback_devices(sound: Path = SOUND) -> list[Path]:
    """The sound devices that play (ALSA's ``pcmC<card>D<device>p``)."""
    return sorted(sound.glob("pcmC*D*p")) if sound.is_dir() else []


def _device_check(devices: Sequence[Path], sound: Path) -> Check | None:
    """A finding about the sound devices, or None when one is there and ours to use."""
    if not devices:
        return Check(False, f"voice: no sound device ({sound} has no playback device)", PLUG_IN)
    if not any(os.access(device, os.R_OK | os.W_OK) for device in devices):
        return Check(False, f"voice: {devices[0]} is not accessible",
                     "add yourself to the audio group: 'sudo adduser $USER audio', then log in "
                     "again")
    return None


def check_voice(speed: int = SPEED, sound: Path = SOUND, command: str = COMMAND,
                run: Callable[[Sequence[str]], None] = play) -> list[Check]:
    """Whether the announcements can be heard: espeak-ng, a sound device, a silent word."""
    if not available(command):
        return [Check(False, "voice: espeak-ng is not installed", INSTALL)]
    devices = playback_devices(sound)
    device_problem = _device_check(devices, sound)
    try:
        run(espeak("check", "en", speed=speed, command=command, amplitude=0))
    except Unheard as error:
        if device_problem is not None:  # one cause: say it once, with espeak-ng's words
            return [Check(False, f"{device_problem.what}: espeak-ng says \"{error}\"",
                          device_problem.fix)]
        return [Check(False, f"voice: espeak-ng cannot be heard: {error}",
                      "check the sound output ('aplay -l', 'alsamixer': the right card, not "
                      "muted), then 'companion voice' to hear a test line")]
    where = ", ".join(map(str, devices)) or "the sound server"
    return [Check(True, f"voice: espeak-ng plays on {where} ('companion voice' says a test "
                        "line)")]


def say_now(text: str, lang: str, speed: int = SPEED, command: str = COMMAND,
            run: Callable[[Sequence[str]], None] = play) -> None:
    """Say ``text`` aloud and wait until it is said; ``Unheard`` (why) if it was not heard."""
    if not available(command):
        raise Unheard(f"espeak-ng is not installed: {INSTALL}")
    run(espeak(text, lang, speed=speed, command=command))
