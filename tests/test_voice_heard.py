"""Whether the voice can be heard (issue 44): `companion doctor` with `[voice] enabled = true`
checks for a sound device and for espeak-ng playing on it (its exit code and its stderr: with
no sound device espeak-ng prints ALSA's error and still exits 0); `companion voice` says a
test line; the daemon logs once, not once per announcement, when the voice cannot play.

The commands run as a user runs them, each in a process of its own: on this machine as it
is (a machine with no sound device is a real case: a Pi with nothing plugged in), and with
a stand-in espeak-ng first on the PATH where a test needs espeak-ng to say something chosen.
Nothing here waits for a time to pass: every wait is for something observed."""

from __future__ import annotations

import json
import logging
import os
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from companion.bundles.tricky.rules import sim as tricky_sim
from companion.voice.audible import check_voice, playback_devices
from companion.voice.speaker import Speaker, Unheard, unheard

WAIT = 60.0
ALSA = ("ALSA lib confmisc.c:855:(parse_card) cannot find card '0'\n"
        "ALSA lib pcm.c:2666:(snd_pcm_open_noupdate) Unknown PCM default\n"
        "error: No such file or directory\n")
NO_DEVICE = not playback_devices()
needs_no_device = pytest.mark.skipif(not NO_DEVICE, reason="this machine has a sound device")
needs_espeak = pytest.mark.skipif(shutil.which("espeak-ng") is None,
                                  reason="espeak-ng is not installed (apt install espeak-ng)")


def companion(*args: str, path: str | None = None) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    if path is not None:
        env["PATH"] = path
    return subprocess.run([sys.executable, "-m", "companion.cli", *args], capture_output=True,
                          text=True, timeout=300, env=env)


def stand_in(folder: Path, stderr: str = "", code: int = 0) -> tuple[str, Path]:
    """A PATH whose espeak-ng writes its arguments to a file, ``stderr`` to its stderr, and
    exits ``code``; the file of arguments (one line per run)."""
    calls = folder / "calls.txt"
    (folder / "said.err").write_text(stderr)
    script = folder / "espeak-ng"
    script.write_text(f"#!/bin/sh\necho \"$@\" >> '{calls}'\ncat '{folder}/said.err' >&2\n"
                      f"exit {code}\n")
    script.chmod(0o755)
    return f"{folder}{os.pathsep}/usr/bin{os.pathsep}/bin", calls


@pytest.fixture
def config(tmp_path):
    """A daemon config with no hardware wired and the voice on."""
    path = tmp_path / "voice.toml"
    path.write_text("".join(f"[{part}]\nenabled = false\n"
                            for part in ("inputs", "screens", "camera", "hub")) +
                    "[voice]\nenabled = true\n")
    return str(path)


@needs_no_device
@needs_espeak
def test_doctor_says_clearly_that_there_is_no_sound_device(config):
    result = companion("doctor", "--config", config)
    assert result.returncode == 1
    (finding,) = [line for line in result.stdout.splitlines() if "voice" in line]
    assert finding.startswith("FIX  voice: no sound device (/dev/snd has no playback device)")
    assert "cannot find card" in finding  # espeak-ng's own words (it exited 0)
    assert "plug in a speaker" in result.stdout


def test_doctor_checks_the_voice_only_when_it_is_enabled(tmp_path):
    path = tmp_path / "quiet.toml"
    path.write_text("[inputs]\nenabled = false\n[screens]\nenabled = false\n"
                    "[camera]\nenabled = false\n[hub]\nenabled = false\n")
    result = companion("doctor", "--config", str(path))
    assert "voice" not in result.stdout and result.returncode == 0


def test_doctor_without_espeak_ng_says_what_to_install(config, tmp_path):
    result = companion("doctor", "--config", config, path=str(tmp_path))
    assert "FIX  voice: espeak-ng is not installed" in result.stdout
    assert "sudo apt install espeak-ng" in result.stdout and result.returncode == 1


def test_espeak_ng_that_exits_0_with_an_alsa_error_is_not_heard(config, tmp_path):
    path, calls = stand_in(tmp_path, stderr=ALSA)
    result = companion("doctor", "--config", config, path=path)
    assert result.returncode == 1
    assert "cannot find card '0'" in result.stdout and "FIX  voice:" in result.stdout
    assert "-a 0" in calls.read_text()  # the check is said in silence


def test_espeak_ng_that_plays_is_heard(config, tmp_path):
    path, _ = stand_in(tmp_path)
    result = companion("doctor", "--config", config, path=path)
    assert "ok   voice: espeak-ng plays" in result.stdout and result.returncode == 0


def test_a_sound_device_and_espeak_ng_failing_on_it(tmp_path):
    (tmp_path / "pcmC0D0p").touch()

    def muted(command):
        raise Unheard(unheard(0, ALSA))

    stand_in(tmp_path)
    (check,) = check_voice(sound=tmp_path, command=str(tmp_path / "espeak-ng"), run=muted)
    assert not check.ok and check.what == "voice: espeak-ng cannot be heard: cannot find card '0'"
    assert "companion voice" in check.fix


def test_companion_voice_says_the_line_and_waits_for_it(tmp_path, config):
    path, calls = stand_in(tmp_path)
    result = companion("voice", "The dungeon awaits", path=path)
    assert result.returncode == 0, result.stderr
    assert result.stdout == "said (en): The dungeon awaits\n"
    assert calls.read_text().split("\n")[0].endswith("-- The dungeon awaits")
    french = companion("voice", "--lang", "fr", path=path)
    assert french.returncode == 0 and french.stdout == "said (fr): À Ann de jouer\n"
    assert "-v fr" in calls.read_text().splitlines()[-1]


@needs_no_device
@needs_espeak
def test_companion_voice_without_a_sound_device_says_why_and_exits_1():
    result = companion("voice", "hello")
    assert result.returncode == 1 and result.stdout == ""
    assert result.stderr.startswith("companion: the voice cannot be heard: no sound device")
    assert "plug in a speaker" in result.stderr and "Traceback" not in result.stderr


@pytest.mark.parametrize(("argv", "says"), [
    (["voice", "--lang", "xx"], "--lang: no voice for 'xx'"),
    (["voice", "  "], "TEXT: nothing to say"),
    (["voice", "--config", "/no/such/companion.toml"], "/no/such/companion.toml"),
])
def test_bad_input_to_voice_is_one_line_exit_2(argv, says):
    result = companion(*argv)
    assert result.returncode == 2 and says in result.stderr
    assert "Traceback" not in result.stderr


def test_the_speaker_logs_once_not_once_per_announcement(caplog):
    tried = []
    spoke = threading.Condition()
    outcome = [Unheard("cannot find card '0'")]

    def run(command):
        with spoke:
            failure = outcome[0]  # read before the test may change it for the next one
            tried.append(command[-1])
            spoke.notify_all()
        if failure is not None:
            raise failure

    def say_and_wait(speaker, text):
        speaker.say(text, "en")
        with spoke:
            assert spoke.wait_for(lambda: text in tried, WAIT)

    caplog.set_level(logging.WARNING, logger="companion.voice")
    speaker = Speaker(run=run)
    for text in ("Ann's turn", "Bob's turn", "Cy's turn"):
        say_and_wait(speaker, text)
    outcome[0] = None
    say_and_wait(speaker, "Ann wins the game")  # heard again: a later failure is told again
    outcome[0] = Unheard("cannot find card '0'")
    say_and_wait(speaker, "Bob's turn again")
    speaker.close()
    told = [r.getMessage() for r in caplog.records if "cannot be heard" in r.getMessage()]
    assert len(told) == 2 and speaker.unheard == 4
    assert "cannot find card '0'" in told[0] and "companion doctor" in told[0]


def test_the_daemon_logs_once_when_the_voice_cannot_play(config, tmp_path):
    path, calls = stand_in(tmp_path, stderr=ALSA)
    header, events = tricky_sim.random_game(3, 3, rounds_per_player=1)
    log = tmp_path / "game.jsonl"
    log.write_text("".join(json.dumps(line) + "\n" for line in [header, *events]))
    result = companion("run", "--config", config, "--sim", "--feed", str(log), "--db",
                       str(tmp_path / "table.db"), path=path)
    assert result.returncode == 0, result.stderr
    told = [line for line in result.stdout.splitlines() if "cannot be heard" in line]
    assert len(told) == 1, told
    assert "cannot find card '0'" in told[0]
    assert calls.read_text().count("\n") >= 1  # it did try to speak
