"""The daemon's moments (``companion/daemon/lifecycle.py``): handlers told in the order they
subscribed, one that raises logged while the others are still told, and unsubscribing; and
an event stored or refused at the table reaching the screens and the voice through them,
not through calls by name."""

from __future__ import annotations

import logging

import pytest
from table_driver import daemon_for, give, hold

from companion.daemon.items import CameraProposal
from companion.daemon.lifecycle import (
    EventRefused,
    EventStored,
    GameFinished,
    GameResumed,
    GameStarted,
    LanguageChanged,
    Lifecycle,
    Moment,
)
from companion.i18n import DEFAULT, use
from companion.table import Header, TableStore
from companion.voice.speaker import Speaker

TRAPS = Header("traps", ("Ann", "Bob"), 3, {
    "squares": ["T1"], "dials": {"T1": ["start", {"trap": "noxious-acid-pool", "disarm": 7,
                                                  "xp": 5}]}})


@pytest.fixture
def table(tmp_path):
    store = TableStore(tmp_path / "table.db")
    yield store
    store.close()
    use(DEFAULT)


def test_a_moments_handlers_are_told_in_the_order_they_subscribed():
    heard: list[str] = []
    moments = Lifecycle()
    moments.subscribe(LanguageChanged, lambda moment: heard.append(f"first {moment.lang}"))
    moments.subscribe(LanguageChanged, lambda moment: heard.append(f"second {moment.lang}"))
    moments.subscribe(GameFinished, lambda moment: heard.append("finished"))
    moments.register(Moment.READY, lambda: heard.append("ready"))
    moments.publish(LanguageChanged("fr"))
    assert heard == ["first fr", "second fr"]
    moments.send(Moment.READY)
    assert heard == ["first fr", "second fr", "ready"]
    assert moments.listeners(LanguageChanged) == 2 and moments.listeners(GameStarted) == 0
    moments.publish(GameStarted(None))  # nobody listens: nothing happens


def test_a_handler_that_raises_is_logged_and_the_later_ones_are_still_told(caplog):
    heard: list[str] = []

    def broken(moment: LanguageChanged) -> None:
        raise RuntimeError("a part's mistake")

    moments = Lifecycle()
    moments.subscribe(LanguageChanged, lambda moment: heard.append("before"))
    moments.subscribe(LanguageChanged, broken)
    moments.subscribe(LanguageChanged, lambda moment: heard.append("after"))
    with caplog.at_level(logging.ERROR, logger="companion.daemon"):
        moments.publish(LanguageChanged("de"))
    assert heard == ["before", "after"]
    assert "a handler of LanguageChanged failed" in caplog.text
    assert "a part's mistake" in caplog.text


def test_an_unsubscribed_handler_is_told_no_more_and_may_leave_while_told():
    heard: list[str] = []
    moments = Lifecycle()
    leave_first = moments.subscribe(GameResumed, lambda moment: heard.append("first"))

    def once(moment: GameResumed) -> None:
        heard.append("once")
        leave_once()

    leave_once = moments.subscribe(GameResumed, once)
    moments.subscribe(GameResumed, lambda moment: heard.append("last"))
    moments.publish(GameResumed(None))
    assert heard == ["first", "once", "last"]  # leaving while told skips nobody
    leave_first()
    leave_first()  # twice: nothing more
    moments.publish(GameResumed(None))
    assert heard == ["first", "once", "last", "last"]
    leave_ready = moments.register(Moment.STOPPING, lambda: heard.append("stopping"))
    leave_ready()
    moments.send(Moment.STOPPING)
    assert heard[-1] == "last"


def test_an_event_stored_reaches_the_screens_and_the_voice_through_the_moments(table, caplog):
    """Ann's disarm refused on her own screen, then Bob's trigger stored: the moments carry
    both to the screens (Ann's refusal gone) and the step to the voice, also when another
    listener fails; an undo's notice too; STOPPING lets the voice say what it was given and
    close."""
    spoken: list[str] = []
    voice = Speaker(run=lambda command: spoken.append(command[-1]))
    daemon, screens = daemon_for(table, header=TRAPS, voice=voice)
    stored: list[tuple[int, str]] = []

    def broken(moment: EventStored) -> None:
        raise RuntimeError("a listener's mistake")

    daemon.lifecycle.subscribe(EventStored, broken)
    daemon.lifecycle.subscribe(EventStored, lambda moment: stored.append(
        (moment.seq, moment.event["type"])))
    refused: list[int | None] = []
    daemon.lifecycle.subscribe(EventRefused, lambda moment: refused.append(moment.seat))
    give(daemon, CameraProposal({"type": "disarm", "seat": 0, "square": "T1", "mode": "quick",
                                 "dice": [6, 6]}))  # not exposed yet: refused
    assert refused == [0] and stored == []
    assert daemon.display.seat_error(0) is not None
    assert daemon.display.table_notice == "refused: see Ann"
    ann_refused = screens["seat:0"].images[-1].tobytes()
    with caplog.at_level(logging.ERROR, logger="companion.daemon"):
        give(daemon, CameraProposal({"type": "trigger", "seat": 1, "square": "T1",
                                     "clicks": 1}))
    assert stored == [(1, "trigger")]
    assert "a listener's mistake" in caplog.text  # logged; the screens and voice still told
    assert daemon.display.seat_error(0) is None and daemon.display.table_notice == ""
    assert screens["seat:0"].images[-1].tobytes() != ann_refused
    give(daemon, hold("menu"))  # the long press: the trigger undone
    assert stored == [(1, "trigger"), (2, "undo")]
    assert daemon.display.table_notice == "undone: trigger by Bob"
    daemon.lifecycle.send(Moment.STOPPING)  # the voice says what is waiting, then closes
    assert spoken[0] == "Noxious Acid Pool on Bob!"
