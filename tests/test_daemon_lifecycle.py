"""The daemon's wiring: parts are told READY and STOPPING because they said they listen
(``Part.listens``), not because someone set an attribute on them; and the loop acts on every
kind of item on its queue through one table, the answered ones set done in one place."""

from __future__ import annotations

import dataclasses
import doctest
import importlib
import threading
from collections.abc import Callable, Mapping

import pytest
from table_driver import PATIENCE, Running

from companion.daemon import items
from companion.daemon.camera import Camera, SceneSettled
from companion.daemon.corrections import Correct
from companion.daemon.daemon import Daemon
from companion.daemon.dispatch import Dispatch, Handling
from companion.daemon.items import Redraw, SeatNaming, Stop
from companion.daemon.lifecycle import Handler, Lifecycle, Moment
from companion.daemon.parts import Part, Submit
from companion.daemon.questions import Answer
from companion.hardware.events import InputEvent
from companion.table import TableStore

#: Every kind of item the loop acted on when it was a chain of isinstance; and which of them
#: carry a ``done`` their sender waits on.
HANDLED = [InputEvent, items.CameraProposal, SceneSettled, items.FedEvent, Correct, Answer,
           SeatNaming, items.JoinLinks, items.FeedFinished, items.PartFailed, Stop]
ANSWERED = {items.FedEvent, Correct, Answer, SeatNaming}


class Listening(Part):
    """A part that notes what it is told, and in which order."""

    name = "listening"

    def __init__(self) -> None:
        self.heard: list[str] = []
        self.ready = threading.Event()

    def listens(self) -> Mapping[Moment, Handler]:
        return {Moment.READY: self._on_ready, Moment.STOPPING: self._on_stopping}

    def start(self, submit: Submit) -> None:
        self.heard.append("started")

    def close(self) -> None:
        self.heard.append("closed")

    def _on_ready(self) -> None:
        self.heard.append("ready")
        self.ready.set()

    def _on_stopping(self) -> None:
        self.heard.append("stopping")


def test_a_part_listening_to_ready_is_told_once_the_daemon_is_ready(tmp_path):
    part = Listening()
    running = Running(tmp_path / "table.db", [part])
    with running as daemon:
        assert part.ready.wait(PATIENCE), "READY was never sent"
        assert daemon.ready.is_set()
    assert part.heard == ["started", "ready", "stopping", "closed"]
    assert running.exit_code == 0


class Quiet(Part):
    """A part that listens to nothing (``Part.listens`` as it comes)."""

    name = "quiet"

    def __init__(self) -> None:
        self.started = self.closed = False

    def start(self, submit: Submit) -> None:
        self.started = True

    def close(self) -> None:
        self.closed = True


def test_a_part_that_listens_to_nothing_is_still_started_and_closed(tmp_path):
    quiet, listening = Quiet(), Listening()
    with Running(tmp_path / "table.db", [quiet, listening]):
        assert listening.ready.wait(PATIENCE)
    assert quiet.started and quiet.closed
    assert listening.heard.count("ready") == 1


def test_the_lifecycle_calls_each_moments_handlers_in_order():
    heard: list[str] = []
    moments = Lifecycle()
    moments.register(Moment.READY, lambda: heard.append("first"))
    moments.register(Moment.READY, lambda: heard.append("second"))
    moments.register(Moment.STOPPING, lambda: heard.append("stopping"))
    moments.send(Moment.READY)
    assert heard == ["first", "second"]
    moments.send(Moment.STOPPING)
    assert heard == ["first", "second", "stopping"]


def test_a_handler_that_raises_is_logged_and_the_others_are_still_called(caplog):
    heard: list[str] = []

    def broken() -> None:
        raise RuntimeError("a part's mistake")

    moments = Lifecycle()
    moments.register(Moment.STOPPING, broken)
    moments.register(Moment.STOPPING, lambda: heard.append("told"))
    moments.send(Moment.STOPPING)
    assert heard == ["told"]
    assert "a part's mistake" in caplog.text


class Frames:
    """A frame source that opens and has nothing to show."""

    def open(self) -> None:
        pass

    def close(self) -> None:
        pass


def camera_thread(start: Callable[[], None]) -> threading.Thread:
    """The thread the camera part starts in ``start``."""
    before = set(threading.enumerate())
    start()
    (thread,) = [thread for thread in set(threading.enumerate()) - before
                 if thread.name == "camera"]
    return thread


def test_the_camera_makes_its_watcher_once_the_daemon_is_ready():
    made = threading.Event()

    def make_watcher(still: object) -> object:
        made.set()
        raise RuntimeError("no library in this test")  # the camera reports it and ends

    failures: list[object] = []
    camera = Camera(Frames, None, make_watcher=make_watcher)
    thread = camera_thread(lambda: camera.start(failures.append))
    camera.listens()[Moment.READY]()
    assert made.wait(PATIENCE), "the watcher was never made"
    thread.join(PATIENCE)
    assert [type(failure).__name__ for failure in failures] == ["PartFailed"]
    camera.stop()


def test_the_camera_stopped_before_the_daemon_is_ready_never_makes_its_watcher():
    made: list[object] = []
    camera = Camera(Frames, None, make_watcher=lambda still: made.append("watcher"))
    thread = camera_thread(lambda: camera.start(made.append))
    camera.stop()
    thread.join(PATIENCE)
    assert not thread.is_alive() and made == []


class SharpFrames(Frames):
    """A frame source that can take a sharper still (as a Pi camera does)."""

    def still(self) -> str:
        return "a sharper still"


@pytest.mark.parametrize(("source", "sharper"), [(Frames, None), (SharpFrames, "a sharper still")])
def test_the_camera_gives_its_watcher_the_sources_still_if_it_has_one(source, sharper):
    given: list[Callable[[], object] | None] = []

    def make_watcher(still: Callable[[], object] | None) -> object:
        given.append(still)
        raise RuntimeError("no library in this test")

    camera = Camera(source, None, make_watcher=make_watcher)
    thread = camera_thread(lambda: camera.start(lambda item: None))
    camera.listens()[Moment.READY]()
    thread.join(PATIENCE)
    (still,) = given
    assert (still() if still is not None else None) == sharper
    camera.stop()


@pytest.mark.parametrize("kind", HANDLED, ids=lambda kind: kind.__name__)
def test_every_kind_of_item_handled_before_is_still_handled(kind, tmp_path):
    with TableStore(tmp_path / "table.db") as store:
        handling = Daemon(store).dispatch.handling(kind)
    assert handling is not None
    assert handling.answered == (kind in ANSWERED)


def test_every_item_of_the_queue_has_a_handling(tmp_path):
    kinds = [value for value in vars(items).values()
             if isinstance(value, type) and dataclasses.is_dataclass(value)
             and value.__module__ == items.__name__]
    assert Redraw in kinds
    with TableStore(tmp_path / "table.db") as store:
        dispatch = Daemon(store).dispatch
    assert [kind for kind in kinds if dispatch.handling(kind) is None] == []


def test_an_answered_item_is_done_even_when_its_handler_raises():
    def refuse(item: SeatNaming) -> None:
        raise ValueError("refused")

    dispatch = Dispatch({SeatNaming: Handling(refuse, answered=True)})
    named = SeatNaming(0, "Ann")
    with pytest.raises(ValueError, match="refused"):
        dispatch.handle(named)
    assert named.done.is_set()


def test_a_seat_named_without_a_game_is_answered_by_the_daemon(tmp_path):
    with TableStore(tmp_path / "table.db") as store:
        daemon = Daemon(store)
        named = SeatNaming(0, "Ann")
        daemon.handle(named)
    assert named.done.is_set() and named.error is not None


def test_an_item_of_a_subclass_is_handled_as_its_class_and_others_are_ignored():
    class Urgent(Stop):
        pass

    stops: list[str] = []
    dispatch = Dispatch({Stop: Handling(lambda stop: stops.append(stop.reason))})
    dispatch.handle(Urgent("now"))
    dispatch.handle(object())
    assert stops == ["now"]


@pytest.mark.parametrize("name", ["companion.daemon.lifecycle", "companion.daemon.dispatch"])
def test_docstring_examples(name):
    failed, tried = doctest.testmod(importlib.import_module(name), verbose=False)
    assert tried > 0 and failed == 0
