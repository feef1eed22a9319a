"""The smaller web findings of issue 53, each answered in words and none logged as a traceback:
a picture number that is a digit only to Unicode, requests with no ``Host`` or two, an
``https`` origin, a name given on a full disk. The real daemon loop, store and web server."""

from __future__ import annotations

import logging
import socket
import sqlite3
import threading
import urllib.error
import urllib.request
from typing import Any

from helpers import wait_for
from web_table import LiveTable, random_game, request

from companion.daemon.items import Redraw
from companion.table import Header


def no_traceback(caplog) -> None:  # noqa: ANN001
    assert not [r for r in caplog.records if r.exc_info], [r.getMessage() for r in caplog.records
                                                           if r.exc_info]


def test_a_picture_number_in_other_digits_is_no_picture(tmp_path, caplog):
    """``'²'.isdigit()`` is true and ``int('²')`` fails (a 500 and a traceback);
    ``int('１')`` is 1 (picture 1 served for a full-width digit)."""
    caplog.set_level(logging.INFO)
    with LiveTable(tmp_path, Header("tricky", ("Ann", "Bob", "Cy"), 2)) as table:
        from companion.commands.seats import table_link

        control = table_link(table.db)
        table.web.shots.keep(1, b"\xff\xd8 picture one")
        assert request(f"{control}/camera/1.jpg") == (200, b"\xff\xd8 picture one")
        for odd in ("%C2%B2", "%EF%BC%91", "%D9%A1", "1%C2%B2"):  # ², １, Arabic-Indic 1
            status, body = request(f"{control}/camera/{odd}.jpg")
            assert status == 404 and b"picture one" not in body, (odd, status)
    no_traceback(caplog)


def raw(port: int, head: bytes) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=60) as sock:
        sock.sendall(head)
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    return answer


def test_requests_with_no_host_or_two_are_400_and_one_log_line_a_burst(tmp_path, caplog):
    caplog.set_level(logging.INFO)
    header, _ = random_game("tricky", 1, 3)
    with LiveTable(tmp_path, header) as table:
        port = int(table.url.rsplit(":", 1)[1])
        for _ in range(20):
            for head in (b"GET / HTTP/1.1\r\n\r\n",
                         b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: evil.example\r\n\r\n"):
                assert raw(port, head).startswith(b"HTTP/1.0 400 ")
    no_traceback(caplog)
    said = [r.getMessage() for r in caplog.records if "malformed requests" in r.getMessage()]
    assert len(said) == 1 and "from 127.0.0.1" in said[0], said


def test_an_https_origin_is_another_site(tmp_path):
    """The pages are plain HTTP: a page of ``https://`` the same name and port is not them."""
    header, _ = random_game("tricky", 1, 3)
    with LiveTable(tmp_path, header) as table:
        link = table.links()[0]
        site = table.url.split("//", 1)[1]

        def tap(origin: str) -> int:
            sent = urllib.request.Request(link + "/act", data=b'{"kind": "tap"}', headers={
                "Content-Type": "application/json", "Origin": origin})
            try:
                with urllib.request.urlopen(sent, timeout=60) as answer:
                    return answer.status
            except urllib.error.HTTPError as error:
                return error.code

        assert tap(f"http://{site}") == 200
        assert tap(f"https://{site}") == 403
        assert tap(f"ws://{site}") == 403


class FullDiskTable(LiveTable):
    """A live table whose store is filled to its last page, in the daemon's own thread (its
    connection's), when the test asks: SQLite's size limit raises the SQLITE_FULL a full disk
    does."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fill, self.filled = threading.Event(), threading.Event()

    def _daemon(self, store, screens):  # noqa: ANN001, ANN202
        daemon = super()._daemon(store, screens)

        def fill_up(_shown, _images) -> None:  # noqa: ANN001
            if self.fill.is_set() and not self.filled.is_set():
                pages = store.db.execute("PRAGMA page_count").fetchone()[0]
                store.db.execute(f"PRAGMA max_page_count = {pages}")
                try:
                    for n in range(100_000):  # other sessions' rows until no page is left
                        store.db.execute("INSERT INTO web_languages VALUES (?, 0, 'de')",
                                         (10**6 + n,))
                except sqlite3.OperationalError:
                    self.filled.set()

        daemon.display.watchers.append(fill_up)
        return daemon


def test_a_name_given_on_a_full_disk_is_said_in_words_without_the_store_s_path(tmp_path):
    header, _ = random_game("tricky", 1, 3)
    with FullDiskTable(tmp_path, header) as table:
        link = table.links()[1]
        wait_for(lambda: request(link + "/api")[0] == 200, "the seat page")
        table.fill.set()
        table.daemon.submit(Redraw())
        wait_for(table.filled.is_set, "the store filled")
        for n in range(5000):  # each new name a new player, until its page is full too
            status, body = request(link + "/name", {"name": f"Zed {n}"})
            if status != 200:
                break
        assert status == 507 and b"storage full: not recorded" in body, (status, body)
        assert str(tmp_path).encode() not in body and b"table.db" not in body
        assert f"Zed {n}".encode() not in request(link + "/api")[1]  # the name not taken
