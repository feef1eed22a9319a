"""The daemon's moments (``companion/daemon/lifecycle.py``): handlers told in the order they
subscribed, one that raises logged while the others are still told, and unsubscribing; and
what happens at the table reaching the screens and the voice through them, not through calls
by name: an event stored or refused, a scene the camera cannot read, the notices of the
sessions and of a part done for good, a game finished."""

from __future__ import annotations

import logging

import pytest
from table_driver import daemon_for, give, hold, tap

from companion.daemon.camera import SceneSettled, TableGeometry
from companion.daemon.items import CameraProposal, PartFinished
from companion.daemon.lifecycle import (
    EventRefused,
    EventStored,
    GameFinished,
    GameResumed,
    GameStarted,
    LanguageChanged,
    Lifecycle,
    Moment,
    SceneUnread,
    TableNotice,
)
from companion.daemon.parts import Part, Submit
from companion.daemon.ui import TABLE, TableUI
from companion.hardware.events import InputEvent
from companion.i18n import DEFAULT, use
from companion.screens.screen_set import table_image
from companion.table import Header, TableStore
from companion.table.faults import StorageFull
from companion.vision.scene import Piece, TableScene
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


DEATHTRAP = Header("deathtrap", ("Ann", "Bob", "Cy", "Dee"), 7)


def test_a_scene_the_camera_cannot_read_reaches_the_table_screen_through_a_moment(table):
    """A card laid in the centre before the deal (no seat's turn to credit it to): the router
    publishes SceneUnread, and the screens show why on the table screen; nothing is stored."""
    daemon, screens = daemon_for(table, header=DEATHTRAP, watching=True)
    unread: list[SceneUnread] = []
    daemon.lifecycle.subscribe(SceneUnread, unread.append)
    before = screens["table"].images[-1].tobytes()
    centre = TableGeometry().table(len(DEATHTRAP.seats)).centre_mm
    give(daemon, SceneSettled(TableScene((Piece("troll", centre, None),)), 0.9))
    assert [str(moment.error) for moment in unread] == [
        "troll appeared in the centre and no seat was given for it"]
    assert daemon.display.seat_error(TABLE) == \
        "camera: troll appeared in the centre and no seat was given for it"
    assert screens["table"].images[-1].tobytes() != before
    assert daemon.stored_game.session.events == []


class Frames(Part):
    """A folder of frames, its end told as a camera part's is."""

    name = "camera"

    def start(self, submit: Submit) -> None:
        pass


def test_a_part_done_for_good_is_a_table_notice_that_passes(table):
    daemon, _ = daemon_for(table, header=TRAPS, parts=[Frames()])
    notices: list[TableNotice] = []
    daemon.lifecycle.subscribe(TableNotice, notices.append)
    give(daemon, PartFinished("camera", "no more frames"))
    give(daemon, PartFinished("camera", "no more frames"))  # said once
    assert notices == [TableNotice("camera: no more frames", passes=True)]
    assert daemon.display.table_notice == "camera: no more frames"
    give(daemon, InputEvent("dial", "encoder:0", 1))  # the table acts: it has been read
    assert daemon.display.table_notice == ""


class FullStore(TableStore):
    """A store whose disk has no room for a new session."""

    def new_session(self, header: Header):
        raise StorageFull("database or disk is full")


def test_a_new_game_the_store_refuses_is_a_table_notice_that_stays(tmp_path):
    store = FullStore(tmp_path / "table.db")
    try:
        daemon, _ = daemon_for(store)
        notices: list[TableNotice] = []
        daemon.lifecycle.subscribe(TableNotice, notices.append)
        for _ in range(3):  # the game (the first offered), the number of seats, "start"
            give(daemon, tap("encoder-switch:0"))
        assert notices == [TableNotice("storage full: no new game", passes=False)]
        assert daemon.display.asks == "new game" and daemon.stored_game is None
        give(daemon, InputEvent("dial", "encoder:0", 1))  # stays: the disk is still full
        assert daemon.display.table_notice == "storage full: no new game"
    finally:
        store.close()
        use(DEFAULT)


def test_a_finished_game_turns_the_table_screen_to_its_end_and_the_winner_is_said_once(table):
    """The scores page shown when the last trap is disarmed: once the game is over the menu
    button offers a new game, so GameFinished turns the table screen to the game's own end;
    the voice says who won once, with the last step."""
    spoken: list[str] = []
    voice = Speaker(run=lambda command: spoken.append(command[-1]))
    daemon, screens = daemon_for(table, header=TRAPS, voice=voice)
    heard: list[str] = []
    daemon.lifecycle.subscribe(EventStored, lambda moment: heard.append("stored"))
    daemon.lifecycle.subscribe(GameFinished, lambda moment: heard.append(
        f"finished {moment.stored_game.id}"))
    give(daemon, CameraProposal({"type": "expose", "seat": 0, "square": "T1", "clicks": 1}),
         tap("menu"))  # the table screen flipped to the scores
    scores = screens["table"].images[-1].tobytes()
    give(daemon, CameraProposal({"type": "disarm", "seat": 0, "square": "T1", "mode": "quick",
                                 "dice": [6, 6]}))  # the last trap disarmed: the end
    game = daemon.stored_game.game
    assert game.finished
    assert heard == ["stored", "stored", f"finished {daemon.stored_game.id}"]
    end = table_image(game, TableUI("traps", len(TRAPS.seats)))
    assert screens["table"].images[-1].tobytes() == end.tobytes() != scores
    give(daemon, tap("menu"))  # after the end: the new-game menu, not the scores
    assert daemon.display.asks == "new game"
    daemon.lifecycle.send(Moment.STOPPING)  # the voice says what is waiting, then closes
    assert [words for words in spoken if "win" in words] == ["Ann wins the game"], spoken
