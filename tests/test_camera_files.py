"""A camera on a folder of frames (``[camera] source = "files"``) plays the folder once and
says so when it ends, on the table screen, on the controls page and in the log, once; it
loops only when ``[camera] loop = true`` asks. Before, a folder of still frames looked like
a frozen camera, was reopened from its first frame, and the card just read was refused again
every 15-20 s while "What the camera saw" showed the empty table again.

The real daemon loop, the real camera part reading PNG files through the vision pipeline,
the store and the web server (its controls page's socket)."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Any

import aiohttp
import cv2
import numpy as np
import pytest
from camera_web import SEATS, tricky_before_first_play
from helpers import wait_for
from page_state import next_page_state
from web_table import LiveTable

from companion.commands.seats import table_link
from companion.daemon.camera import Camera, library_for, open_camera, pile_cards
from companion.daemon.config import parse_config
from companion.daemon.daemon import Daemon
from companion.daemon.stage import Stage
from companion.errors import ConfigError
from companion.i18n.choice import LanguageChoice
from companion.table import TableStore
from companion.vision.sources import CameraWatch, ImageFolder
from companion.vision.watch import TableWatcher

#: Frames of the table clear, then of the card laid: each held long enough to settle, the
#: card for longer than a live camera may show one picture (``CameraWatch.frozen_frames``).
CLEAR, LAID = 6, 36


def frames_of_a_play(folder: Path, seat: int, card: str) -> int:
    """PNG frames of a Tricky table (clear, then ``card`` laid at ``seat``) in ``folder``;
    how many there are."""
    stage = Stage("tricky", SEATS, 1)
    pictures = [stage.clear()] * CLEAR + [stage.play(seat, [card])] * LAID
    folder.mkdir()
    for n, picture in enumerate(pictures):
        assert cv2.imwrite(str(folder / f"{n:03d}.png"), picture)
    return len(pictures)


class FolderCameraTable(LiveTable):
    """A Tricky table whose camera is a folder of frames, with its web pages."""

    def __init__(self, folder: Path, frames: Path, loop: bool = False, **game: Any) -> None:
        super().__init__(folder, game["header"])
        self.before = game["before"]
        self.camera = Camera(open_camera("files", 0, str(frames), loop), None, fps=50,
                             make_watcher=lambda still: TableWatcher(
                                 library_for(("tricky",)), Stage("tricky", SEATS).layout,
                                 settle_seconds=0.3, piles=pile_cards()))

    def _daemon(self, store: TableStore, screens: list[Any]) -> Daemon:
        return Daemon(store, screens=screens, parts=[self.web, self.camera],
                      watchers=[self.web.watch], watching=True, confirm_below=0.5,
                      language=LanguageChoice(None, "en"))

    def _stored(self) -> list[dict[str, Any]]:
        return self.before

    def stored_events(self) -> list[dict[str, Any]]:
        assert self.daemon is not None and self.daemon.stored_game is not None
        return list(self.daemon.stored_game.session.events)


def test_a_folder_is_played_once_even_when_reopened(tmp_path):
    still = np.random.default_rng(1).integers(40, 200, (24, 32, 3), dtype=np.uint8)
    for n in range(40):
        cv2.imwrite(str(tmp_path / f"{n:02d}.png"), still)
    folder = ImageFolder(tmp_path, interval=0.5)
    # Forty frames alike are one still table, not a frozen camera: none is held back.
    watch = CameraWatch(folder, frozen_frames=3)
    got = [watch.next() for _ in range(41)]
    assert [trouble for _, trouble in got[:40]] == [None] * 40
    assert [glimpse.at for glimpse, _ in got[:3]] == [0.0, 0.5, 1.0]
    assert got[40][0] is None and folder.ended
    folder.close()
    folder.open()  # a reopen (the camera part's, after trouble) does not start it again
    assert folder.read() is None and folder.ended


def test_a_looped_folder_starts_again_with_its_times_counting_on(tmp_path):
    for n in range(3):
        cv2.imwrite(str(tmp_path / f"{n}.png"), np.full((8, 8, 3), 40 * n + 40, np.uint8))
    folder = ImageFolder(tmp_path, interval=0.5, loop=True)
    folder.open()
    reads = [folder.read() for _ in range(7)]
    assert [round(float(frame.mean())) for _, frame in reads] == [40, 80, 120] * 2 + [40]
    assert [at for at, _ in reads] == [0.5 * n for n in range(7)]
    assert not folder.ended


def test_the_loop_key_is_read_and_checked_like_the_others(tmp_path):
    assert parse_config("[camera]\nloop = true\n").camera.loop is True
    assert parse_config("").camera.loop is False
    with pytest.raises(ConfigError, match=r"\[camera\] loop: must be true or false"):
        parse_config('[camera]\nloop = "yes"\n')
    from companion.cli import main

    config = tmp_path / "companion.toml"
    config.write_text('[camera]\nenabled = true\nsource = "files"\nloop = 1\n')
    db = tmp_path / "table.db"
    assert main(["run", "--sim", "--config", str(config), "--db", str(db)]) == 2
    assert not db.exists()  # refused before anything was touched


def camera_channel_until(url: str, done) -> dict[str, Any]:
    """The controls page's camera channel, as the page holds it, once ``done(channel)``."""
    async def listen() -> dict[str, Any]:
        async with aiohttp.ClientSession() as client:
            ws = await client.ws_connect(url.replace("http://", "ws://", 1) + "/ws?camera=1")
            try:
                for _ in range(500):
                    message = await next_page_state(ws)
                    if message.get("kind") == "camera" and done(message):
                        return message
            finally:
                await ws.close()
        raise AssertionError("the camera channel never got there")
    return asyncio.run(listen())


def test_the_daemon_plays_the_folder_once_and_says_when_it_ends(tmp_path, caplog):
    header, before, rest = tricky_before_first_play()
    play = rest[0]
    count = frames_of_a_play(tmp_path / "frames", play["seat"], play["card"])
    caplog.set_level(logging.INFO, logger="companion")
    with FolderCameraTable(tmp_path, tmp_path / "frames", header=header,
                           before=before) as table:
        daemon = table.daemon
        assert daemon is not None
        wait_for(lambda: "camera" in daemon.display.finished, "the folder to end")
        control = table_link(table.db)
        view = camera_channel_until(control, lambda channel: channel.get("ended"))
        # The card was read once and stored once: the folder was not played again.
        assert table.stored_events() == [*before, {**play, "t": table.stored_events()[-1]["t"]}]
        assert table.camera.frames_watched == count
        assert "every frame of its folder" in view["ended"]
        assert "loop = true" in view["ended"]
        # What the camera saw is the card, not the empty table of the folder's first frame.
        assert [reading["id"] for reading in view["readings"]] == [play["card"]]
        assert daemon.display.table_notice == "camera: no more frames"
        ended = [r.getMessage() for r in caplog.records if "every frame of" in r.getMessage()]
        assert len(ended) == 1 and str(tmp_path / "frames") in ended[0]
        assert "camera" not in daemon.supervisor.failures()


def test_a_looped_folder_is_played_again_and_never_said_to_end(tmp_path):
    header, before, rest = tricky_before_first_play()
    play = rest[0]
    count = frames_of_a_play(tmp_path / "frames", play["seat"], play["card"])
    with FolderCameraTable(tmp_path, tmp_path / "frames", loop=True, header=header,
                           before=before) as table:
        daemon = table.daemon
        assert daemon is not None
        wait_for(lambda: table.camera.frames_watched > 2 * count, "the folder played twice")
        assert daemon.display.finished == {}
        assert "camera" not in daemon.supervisor.failures()
        assert len([e for e in table.stored_events() if e["type"] == "play"]) == 1
