"""A part whose thread dies is never unseen (issue 53): the camera's thread, killed by a frame
the vision pipeline cannot take (a camera's empty frame), is logged with its traceback once,
shown on the table screen (and so on the controls page, which shows that screen), and
restarted, each time after twice the wait before (up to a bound), the wait starting over
once the part has run steadily. The real daemon loop, camera part and vision pipeline; the
frames are the hardware edge."""

from __future__ import annotations

import logging
import time

import numpy as np
import pytest
from helpers import wait_for
from table_driver import PATIENCE, Running, daemon_for

from companion.daemon.camera import Camera, TableGeometry, library_for
from companion.daemon.parts import BACKOFF_LIMIT, STEADY_SECONDS, Part, Supervisor
from companion.screens.canvas import TEXT
from companion.table import TableStore
from companion.vision.watch import TableWatcher


class TinyCamera:
    """A camera giving frames of 2 x 2 grey pixels (a driver in a bad mode): the vision
    pipeline cannot read them (before the fix the camera's thread died of it, unseen)."""

    def open(self) -> None:
        pass

    def read(self) -> tuple[float, np.ndarray]:
        return time.monotonic(), np.full((2, 2), 90, np.uint8)

    def close(self) -> None:
        pass


class CountedCamera(Camera):
    """The real camera part, its starts counted."""

    starts = 0

    def start(self, submit) -> None:  # noqa: ANN001
        self.starts += 1
        super().start(submit)


@pytest.fixture(scope="module")
def library():
    return library_for(("tricky",))


def test_a_camera_thread_killed_by_a_frame_is_logged_once_shown_and_restarted(
        tmp_path, caplog, library):
    caplog.set_level(logging.INFO, logger="companion")
    watcher = TableWatcher(library, TableGeometry().table())
    camera = CountedCamera(TinyCamera, watcher, fps=50.0)
    # Restarts come quickly in a test: 0.01 s, then 0.02, 0.04...
    with Running(tmp_path / "table.db", [camera], retry_seconds=0.01) as daemon:
        wait_for(lambda: camera.starts >= 4, "the camera restarted three times")
        wait_for(lambda: "camera" in daemon.supervisor.failures(), "the camera shown failed")
        reason = daemon.supervisor.failures()["camera"]
    assert "error" in reason and "\n" not in reason, reason
    crashes = [r for r in caplog.records if r.exc_info and "camera" in r.getMessage()]
    assert len(crashes) == 1, [r.getMessage() for r in caplog.records]  # the traceback once
    assert "Exception in thread" not in caplog.text


def test_the_table_screen_says_the_camera_failed(tmp_path, library):
    watcher = TableWatcher(library, TableGeometry().table())
    camera = Camera(TinyCamera, watcher, fps=50.0)
    with TableStore(tmp_path / "table.db") as store:
        daemon, screens = daemon_for(store, seats=3, parts=[camera], retry_seconds=3600.0)
        while "camera" not in daemon.supervisor.failures():
            daemon.handle(daemon.queue.get(timeout=PATIENCE))  # the camera's failure
        daemon.display.refresh()
        said = [text for _, _, text in screens["table"].images[-1].info.get(TEXT, ())]
        daemon.supervisor.stop_all()
    assert any(line.startswith("! camera: ") for line in said), said


class Steady(Part):
    name = "camera"

    def start(self, submit) -> None:  # noqa: ANN001
        pass


def test_a_part_that_keeps_crashing_waits_twice_as_long_each_time_up_to_a_bound():
    supervisor = Supervisor([Steady()], retry_seconds=5.0, submit=lambda item: None)
    supervisor.start_all(now=0.0)
    now, waits = 0.0, []
    for _ in range(8):
        supervisor.failed("camera", "boom", now + 1.0, crashed=True)
        retry = supervisor._retry_at["camera"]
        waits.append(retry - (now + 1.0))
        now = retry
        supervisor.tick(now)  # restarted
    assert waits == [5.0, 10.0, 20.0, 40.0, 80.0, 80.0, 80.0, 80.0]
    assert max(waits) == 5.0 * BACKOFF_LIMIT
    # Once it has run steadily, a crash waits the first wait again.
    supervisor.failed("camera", "boom", now + STEADY_SECONDS, crashed=True)
    assert supervisor._retry_at["camera"] == now + STEADY_SECONDS + 5.0
    # A part that is not there yet (a hub unplugged) is retried at the same pace as before.
    supervisor.failed("camera", "not connected", 1000.0)
    assert supervisor._retry_at["camera"] == 1005.0
