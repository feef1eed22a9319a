"""A part that cannot work until someone fixes something (Picamera2 that does not import) is
reported once with its reason and fix, and not retried every few seconds."""

from __future__ import annotations

import logging

import pytest

from companion.daemon.camera import Camera
from companion.daemon.parts import Supervisor
from companion.picamera import picamera2_problem
from companion.vision.sources import CameraError, Picamera2Source


class Opened:
    def __init__(self) -> None:
        self.opened = 0

    def __call__(self) -> Picamera2Source:
        self.opened += 1
        return Picamera2Source()


def test_a_pi_camera_without_picamera2_is_reported_once_and_not_retried(caplog):
    if picamera2_problem() is None:
        pytest.skip("Picamera2 imports here (a Pi)")
    opener = Opened()
    camera = Camera(opener, None)
    supervisor = Supervisor([camera], retry_seconds=5, submit=lambda item: None)
    with caplog.at_level(logging.WARNING, logger="companion.daemon"):
        supervisor.start_all(now=0.0)
        for now in (5.0, 10.0, 60.0, 600.0):
            assert not supervisor.tick(now)
    assert opener.opened == 1
    assert supervisor.failures() == {"camera": "Picamera2 is not installed: it comes with "
                                               "Raspberry Pi OS"}
    (record,) = caplog.records
    assert "python3-picamera2" in record.getMessage()
    assert "not retried" in record.getMessage()


def test_picamera2_s_real_reason_is_a_camera_error_with_the_fix():
    problem = picamera2_problem()
    if problem is None:
        pytest.skip("Picamera2 imports here (a Pi): nothing to report")
    with pytest.raises(CameraError) as raised:
        Picamera2Source().open()
    assert str(raised.value) == problem
