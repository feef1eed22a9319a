"""The voice: espeak-ng really speaks (a WAV of speech length), the latest announcement wins,
the daemon never waits for it, and nothing private is ever in what it says."""

from __future__ import annotations

import threading
import wave
from array import array

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.bundles.deathtrap.rules import sim as deathtrap_sim
from companion.bundles.rumble.rules import sim as rumble_sim
from companion.bundles.traps.rules import sim as traps_sim
from companion.bundles.tricky.rules import sim as tricky_sim
from companion.daemon.config import parse_config
from companion.daemon.daemon import Daemon
from companion.daemon.items import FedEvent
from companion.errors import ConfigError
from companion.games import registry
from companion.games.registry import engine
from companion.i18n import DEFAULT, LANGUAGES, translated, use, using
from companion.table import Header, TableStore
from companion.voice.announce import announcements
from companion.voice.speaker import Speaker, available, synthesise

WAIT = 60.0
SIMS = {"deathtrap": (deathtrap_sim, 4), "tricky": (tricky_sim, 3), "rumble": (rumble_sim, 3),
        "traps": (traps_sim, 3)}


@pytest.fixture(autouse=True)
def english_after():
    yield
    use(DEFAULT)


@pytest.mark.skipif(not available(), reason="espeak-ng is not installed (apt install espeak-ng)")
@pytest.mark.parametrize("lang", LANGUAGES)
def test_espeak_ng_says_an_announcement_as_speech_length_audio(tmp_path, lang):
    with using(lang):
        words = announcements(registry.get("deathtrap").announce,
                              {"phase": "play", "turn": 0, "round": 1, "to_beat": None},
                              {"phase": "play", "turn": 1, "round": 1, "to_beat": None},
                              ["Ann", "Bob", "Cy", "Dee"])
    wav = synthesise(". ".join(words), lang, tmp_path / f"{lang}.wav")
    with wave.open(str(wav)) as audio:
        seconds = audio.getnframes() / audio.getframerate()
        samples = array("h", audio.readframes(audio.getnframes()))
    assert 0.4 <= seconds <= 6.0, seconds  # a few words, not silence and not a loop
    loud = sum(1 for sample in samples if abs(sample) > 1000)
    assert loud > len(samples) // 10  # sound, not a silent file


def test_the_latest_announcement_wins_while_one_is_being_spoken():
    spoken, speaking, release = [], threading.Event(), threading.Event()

    def run(command):
        spoken.append(command[-1])
        speaking.set()
        assert release.wait(WAIT)

    speaker = Speaker(run=run)
    speaker.say("one", "en")
    assert speaking.wait(WAIT)  # "one" is being spoken: the next ones wait
    speaker.say("two", "en")
    speaker.say("three", "fr")
    release.set()
    speaker.close()
    assert spoken == ["one", "three"] and speaker.dropped == 1


def test_the_daemon_goes_on_while_the_voice_speaks(tmp_path):
    spoken, release = [], threading.Event()

    def run(command):
        spoken.append((command[2], command[-1]))
        assert release.wait(WAIT)

    voice = Speaker(run=run)
    header, events = rumble_sim.random_game(5, 3)
    with TableStore(tmp_path / "table.db") as store:
        daemon = Daemon(store, voice=voice)
        daemon.use_stored_game(store.new_session(Header(**header)))
        for line, event in enumerate(events, start=2):
            fed = FedEvent(line, event)  # every event is stored while the first words are said
            daemon.handle(fed)
            assert fed.seq is not None and fed.error is None
        assert daemon.stored_game.game.finished
        release.set()
        voice.close()
    assert spoken[0][1] and spoken[-1][1].endswith(("wins the game", "share the win"))
    assert all(lang == "en" for lang, _ in spoken)


def test_the_voice_is_off_unless_enabled_and_its_speed_is_checked():
    assert parse_config("").voice.enabled is False
    assert parse_config("[voice]\nenabled = true\n").voice.enabled is True
    with pytest.raises(ConfigError, match=r"\[voice\] speed"):
        parse_config("[voice]\nspeed = 5\n")


#: What a seat's view says to it in words built from public facts ("Ann's turn").
INSTRUCTIONS = ("prompt", "note")


def leaves(value, found):
    if isinstance(value, dict):
        for key, item in value.items():
            if key not in INSTRUCTIONS:
                leaves(item, found)
    elif isinstance(value, list | tuple):
        for item in value:
            leaves(item, found)
    elif isinstance(value, str):
        found.add(value)
    return found


def spoken_names(text: str) -> set[str]:
    return {text, text.replace("-", " ").title(), translated(text.replace("-", " ").title()),
            translated(text)}


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=st.sampled_from(sorted(SIMS)), seed=st.integers(0, 10_000),
       lang=st.sampled_from(LANGUAGES))
def test_nothing_private_is_ever_spoken(game, seed, lang):
    """Over whole random games: what a seat's own view (or the referee's) holds and the
    public view does not (hands, secret characters, trap readings, exchanges) never appears
    in the announcement of any event."""
    simulator, seats = SIMS[game]
    header, events = simulator.random_game(seed, seats)
    with using(lang):
        table = engine(game)(header["seats"], seed=header["seed"],
                             options=header.get("options") or {})
        for event in events:
            before = table.view(None)
            table.apply(event)
            public = table.view(None)
            announce = registry.get(game).announce
            said = ". ".join(announcements(announce, before, public, header["seats"]))
            private = set()
            for seat in range(len(header["seats"])):
                leaves(table.view(seat), private)
            private -= leaves(public, set()) | set(header["seats"])
            for fact in private:
                for name in spoken_names(fact):
                    if len(name) >= 3:
                        assert name not in said, (event, fact, said)


def test_the_voice_speaks_the_tables_language_and_a_refusal_says_nothing(tmp_path):
    spoken = []
    voice = Speaker(run=lambda command: spoken.append((command[2], command[-1])))
    header = Header("traps", ("Ann", "Bob"), 3, {
        "squares": ["T1"], "dials": {"T1": ["start", {"trap": "noxious-acid-pool",
                                                      "disarm": 7, "xp": 5}]}})
    with TableStore(tmp_path / "table.db") as store:
        daemon = Daemon(store, voice=voice)
        daemon.use_stored_game(store.new_session(header))
        use("es")
        refused = FedEvent(2, {"type": "disarm", "seat": 0, "square": "T1", "mode": "quick",
                          "dice": [6, 6]})
        daemon.handle(refused)
        assert refused.error is not None  # refused: not exposed yet
        daemon.handle(FedEvent(3, {"type": "trigger", "seat": 1, "square": "T1", "clicks": 1}))
        voice.close()
    assert spoken == [("es", "¡Charca de ácido venenoso sobre Bob!")]
