"""A live table for the web tests: the real daemon loop in its own thread, its web part on a
free port of this machine, a real store in a temporary folder."""

from __future__ import annotations

import importlib
import json
import os
import shutil
import threading
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from helpers import WAIT, wait_for

from companion.commands.seats import seat_links
from companion.daemon.daemon import Daemon
from companion.daemon.displays import MemoryScreen
from companion.daemon.items import Stop
from companion.i18n.choice import LanguageChoice
from companion.table import Header, TableStore
from companion.web.part import WebPart
from companion.web.tokens import Throttle

SIMULATORS = {game: f"companion.bundles.{game}.rules.sim" for game in
              ("deathtrap", "rumble", "traps", "tricky")}


def random_game(game: str, seed: int, seats: int) -> tuple[Header, list[dict[str, Any]]]:
    header, events = importlib.import_module(SIMULATORS[game]).random_game(seed, seats)
    return Header(header["game"], tuple(header["seats"]), header["seed"],
                  header.get("options", {})), events


class LiveTable:
    """``with LiveTable(path, header) as table:`` a daemon serving ``header``'s new game."""

    def __init__(self, folder: Path, header: Header | None, sim: bool = False,
                 throttle: Throttle | None = None, listen: str = "127.0.0.1",
                 language: str = "en") -> None:
        self.db = str(folder / "table.db")
        self.language = language  # the table's (the config's [table] language)
        self.header, self.sim, self.listen = header, sim, listen
        self.web = WebPart(listen, 0, self.db, sim=sim,
                           throttle=throttle or Throttle(free=10**9))
        self.daemon: Daemon | None = None
        self.failure: BaseException | None = None
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        try:
            with TableStore(self.db) as store:
                seats = len(self.header.seats) if self.header else 3
                screens = [MemoryScreen("table")] + [MemoryScreen(f"seat:{n}")
                                                     for n in range(seats)]
                daemon = self._daemon(store, screens)
                if self.header is not None:
                    daemon.use_stored_game(store.new_session(self.header, self._stored()))
                self.daemon = daemon
                daemon.run()
        except BaseException as error:  # noqa: BLE001 - reported by the test
            self.failure = error

    def _daemon(self, store: TableStore, screens: list[MemoryScreen]) -> Daemon:
        """The daemon serving the table (a subclass adds its parts)."""
        return Daemon(store, screens=screens, parts=[self.web], watchers=[self.web.watch],
                      language=LanguageChoice(None, self.language))

    def _stored(self) -> list[dict[str, Any]]:
        """The events the game starts with (none: a new game)."""
        return []

    def __enter__(self) -> LiveTable:
        self.thread.start()
        wait_for(lambda: (self.daemon is not None and self.daemon.ready.is_set()
                          and self.web.url) or self.failure, "the daemon to start")
        if self.failure:
            raise self.failure
        if self.header is not None:
            wait_for(lambda: self.try_links(), "the seat links")
        return self

    def __exit__(self, *exc: object) -> None:
        if self.daemon is not None:
            self.daemon.submit(Stop("test over"))
        self.thread.join(WAIT)

    @property
    def url(self) -> str:
        return self.web.url

    def try_links(self) -> list[dict[str, Any]] | None:
        try:
            return seat_links(self.db)
        except Exception:  # noqa: BLE001 - not made yet
            return None

    def links(self) -> list[str]:
        return [str(link["url"]) for link in seat_links(self.db)]

    def stored(self) -> int:
        daemon = self.daemon
        return len(daemon.stored_game.session.events) if daemon and daemon.stored_game else 0


def request(url: str, body: Any = None, method: str | None = None) -> tuple[int, bytes]:
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(url, data=data, method=method,
                                 headers={"Content-Type": "application/json"} if data else {})
    try:
        with urllib.request.urlopen(req, timeout=WAIT) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def get_json(url: str) -> Any:
    status, body = request(url)
    assert status == 200, (url.split("/s/")[0], status)
    return json.loads(body)


def act(link: str, event: dict[str, Any]) -> tuple[int, Any]:
    status, body = request(link + "/act", {"kind": "event", "event": event})
    return status, json.loads(body) if body else None


def chromium() -> str | None:
    """Debian's Chromium, if this machine has it."""
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    return None


def browser_or_skip():
    """Playwright's Chromium on Debian's browser binary; skipped where there is none (a fresh
    clone), a failure under CI (CI=1, where .ci/run installs it)."""
    import pytest

    path = chromium()
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        sync_playwright = None
    if path is None or sync_playwright is None:
        reason = ("no browser: apt-get install chromium (and pip install playwright) to run "
                  "the browser tests")
        if os.environ.get("CI"):
            pytest.fail(reason)
        pytest.skip(reason)
    return path, sync_playwright
