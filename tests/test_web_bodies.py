"""What a request body may be, and a store that cannot keep a choice: a clear 4xx or 5xx in
words, never a traceback (companion/web/guard.py, companion/web/seat_pages.py)."""

from __future__ import annotations

import json
import logging
import sqlite3

import pytest
from helpers import wait_for
from web_table import LiveTable, random_game, request

from companion.daemon.items import CameraProposal, Redraw, SeatNaming
from companion.hardware.events import InputEvent
from companion.web.guard import MAX_DEPTH, BadBody, depth, flat_json


def spy_on(table) -> list:
    server = table.web.server
    handed, original = [], server.submit

    def submit(item):
        handed.append(item)
        original(item)

    server.submit = submit
    return handed


def acted(handed) -> list:
    return [item for item in handed
            if isinstance(item, InputEvent | CameraProposal | SeatNaming | Redraw)]


def post(url: str, text: str) -> tuple[int, dict]:
    import urllib.error
    import urllib.request

    req = urllib.request.Request(url, data=text.encode(), method="POST",
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=60) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def no_traceback(caplog) -> None:
    assert not [record for record in caplog.records if record.exc_info], caplog.text
    assert "Traceback" not in caplog.text and "RecursionError" not in caplog.text


def test_a_body_nested_5000_deep_with_a_valid_link_is_a_clear_400(tmp_path, caplog):
    caplog.set_level(logging.INFO)
    header, _ = random_game("deathtrap", 1, 4)
    with LiveTable(tmp_path, header) as table:
        link = table.links()[0]
        control = f"{table.url}/t/{table.web.server.tokens.table}"
        wait_for(lambda: request(link + "/api")[0] == 200, "the seat page")
        handed = spy_on(table)
        deep = "[" * 5000 + "]" * 5000
        inside = '{"kind": "event", "event": {"type": "pass", "x": ' + deep + "}}"
        for url in (link + "/act", link + "/name", link + "/language", control + "/input"):
            for body in (deep, inside):
                status, answer = post(url, body)
                assert status == 400 and "deeper than" in answer["error"], (url, status)
        assert acted(handed) == [] and table.stored() == 0
        assert post(link + "/act", '{"kind": "tap"}')[0] == 200  # the page still works
    no_traceback(caplog)


def test_duplicate_keys_are_refused_with_400(tmp_path, caplog):
    caplog.set_level(logging.INFO)
    header, _ = random_game("deathtrap", 1, 4)
    with LiveTable(tmp_path, header) as table:
        link = table.links()[0]
        control = f"{table.url}/t/{table.web.server.tokens.table}"
        wait_for(lambda: request(link + "/api")[0] == 200, "the seat page")
        handed = spy_on(table)
        for url, body in [
                (link + "/act", '{"kind": "tap", "kind": "event"}'),
                (link + "/act", '{"kind": "event", "event": {"type": "pass", "type": "undo"}}'),
                (link + "/name", '{"name": "Ann", "name": "Mallory"}'),
                (link + "/language", '{"lang": "fr", "lang": "de"}'),
                (control + "/input", '{"kind": "press", "control": "seat:0", '
                                     '"control": "menu"}')]:
            status, answer = post(url, body)
            assert status == 400 and "given twice" in answer["error"], (url, status, answer)
        assert acted(handed) == [] and table.stored() == 0
    no_traceback(caplog)


def test_choosing_a_language_on_a_full_disk_is_a_clear_answer_and_changes_nothing(
        tmp_path, caplog):
    """SQLite's own size limit (``PRAGMA max_page_count``) raises the very SQLITE_FULL a full
    disk does; the side table is filled to its last page first."""
    caplog.set_level(logging.INFO)
    header, _ = random_game("traps", 1, 2)
    with LiveTable(tmp_path, header) as table:
        link = table.links()[1]
        wait_for(lambda: request(link + "/api")[0] == 200, "the seat page")
        book = table.web.server.tokens
        pages = book.db.execute("PRAGMA page_count").fetchone()[0]
        book.db.execute(f"PRAGMA max_page_count = {pages}")
        with pytest.raises(sqlite3.OperationalError, match="full"):
            for n in range(100_000):  # other sessions' rows, until no page is left
                book.db.execute("INSERT INTO web_languages VALUES (?, 0, 'de')", (10**6 + n,))
        status, answer = post(link + "/language", '{"lang": "fr"}')
        assert status == 507 and "storage full" in answer["error"], (status, answer)
        assert table.web.server.languages == {}  # nothing changed, nothing half-kept
        book.db.execute("PRAGMA max_page_count = 1000000000")  # room again
        assert post(link + "/language", '{"lang": "fr"}') == (200, {"lang": "fr"})
    no_traceback(caplog)
    assert "language not kept" in caplog.text  # one line in words


def test_the_body_reader_in_short():
    assert flat_json(b'{"kind": "event", "event": {"type": "play", "cards": ["orc"]}}')
    assert depth(b'{"a": "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["}') == 1  # brackets in strings
    assert depth(b'"\\"[[[["') == 0
    for body, why in [(b"[" * (MAX_DEPTH + 1) + b"]" * (MAX_DEPTH + 1), "deeper"),
                      (b'{"a": 1, "a": 2}', "twice"), (b'{"a": {"b": 1, "b": 1}}', "twice"),
                      (b"\xff", "JSON"), (b"{", "JSON"), (b"", "JSON"), (b"[NaN]", "NaN is not"),
                      (b'{"value": -Infinity}', "JSON")]:
        with pytest.raises(BadBody, match=why):
            flat_json(body)
