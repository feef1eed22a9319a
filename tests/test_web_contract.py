"""The table on the network as its fixed interface says (docs/web.md): ``/api/table`` and a seat
link's ``/api`` give what ``replay --json`` gives of the exported log; ``companion seats``;
wrong, other and stale tokens get nothing; a seat acts only as itself."""

import json
import subprocess
import sys

import pytest
from helpers import wait_for
from page_state import next_page_state
from web_table import LiveTable, act, get_json, random_game, request

from companion.table import Header, TableStore
from companion.table.session import TableSession
from companion.web.tokens import Throttle


def companion(*args):
    return subprocess.run([sys.executable, "-m", "companion.cli", *args], capture_output=True,
                          text=True, timeout=120)


def replayed(header, events, seat=None):
    session = TableSession(header)
    for event in events:
        session.apply(event)
    return session.result(seat)


def test_api_table_and_seat_apis_follow_a_game_sent_from_the_seats_links(tmp_path):
    header, events = random_game("deathtrap", 3, 4)
    with LiveTable(tmp_path, header) as table:
        links = table.links()
        seats = json.loads(companion("seats", "--db", table.db, "--json").stdout)
        assert [(s["seat"], s["name"]) for s in seats] == list(enumerate(header.seats))
        assert [s["url"] for s in seats] == links
        for number, event in enumerate(events[:40], start=1):
            sender = links[event.get("seat", 0)]
            status, answer = act(sender, {k: v for k, v in event.items() if k != "seat"})
            assert status == 200, answer
            wait_for(lambda n=number: table.stored() >= n, f"event {number} stored")
            wait_for(lambda n=number: get_json(table.url + "/api/table") ==
                     replayed(header, events[:n]), f"/api/table after event {number}")
        for seat, link in enumerate(links):
            assert get_json(link + "/api") == replayed(header, events[:40], seat)
        with TableStore(table.db, read_only=True) as store:
            _, stored = store.load(store.latest())
        assert [{k: v for k, v in e.items() if k != "t"} for e in stored] == events[:40]


def test_a_seat_acts_only_as_itself_and_never_undoes(tmp_path):
    header = Header("deathtrap", ("Ann", "Bob", "Cy", "Dee"), 5)
    with LiveTable(tmp_path, header) as table:
        links = table.links()
        wait_for(lambda: request(links[1] + "/api")[0] == 200, "seat pages")
        status, answer = act(links[1], {"type": "pass", "seat": 0})
        assert status == 403 and "its own seat" in answer["error"]
        assert act(links[1], {"type": "undo"})[0] == 403
        assert request(links[1] + "/act", {"kind": "nonsense"})[0] == 400
        assert table.stored() == 0


def test_wrong_and_stale_tokens_get_nothing_and_a_reissue_revokes(tmp_path):
    header = Header("tricky", ("Ann", "Bob", "Cy"), 9)
    with LiveTable(tmp_path, header) as table:
        links = table.links()
        base = table.url + "/s/"
        tokens = [link.rsplit("/", 1)[1] for link in links]
        import secrets
        tried = [secrets.token_urlsafe(24) for _ in range(990)]
        tried += [t[:-1] + ("A" if t[-1] != "A" else "B") for t in tokens]  # one letter off
        tried += [t.upper() for t in tokens] + [t[:16] for t in tokens] + ["", "%00", "../api"]
        for token in tried[:1000]:
            for suffix in ("", "/api", "/ws"):
                status, body = request(base + token + suffix)
                assert status in (403, 404), (suffix, status)
                assert b"Ann" not in body and b"state" not in body
        wait_for(lambda: request(links[1] + "/api")[0] == 200, "seat 1's page")
        result = companion("seats", "--db", table.db, "--reissue", "2", "--json")
        assert result.returncode == 0, result.stderr
        (fresh,) = json.loads(result.stdout)
        assert fresh["seat"] == 1 and fresh["url"] != links[1]
        wait_for(lambda: request(links[1] + "/api")[0] == 403, "the old link to stop")
        assert request(fresh["url"] + "/api")[0] == 200
        assert request(links[0] + "/api")[0] == 200  # the other seats keep theirs
        assert companion("seats", "--db", table.db, "--reissue", "7").returncode == 2


def test_repeated_wrong_tokens_are_answered_ever_more_slowly():
    now = [0.0]
    throttle = Throttle(free=3, base=0.1, cap=2.0, clock=lambda: now[0])
    delays = [throttle.delay("10.0.0.9") for _ in range(9)]
    assert delays[:3] == [0, 0, 0] and delays[3:] == [0.1, 0.2, 0.4, 0.8, 1.6, 2.0]
    assert throttle.delay("10.0.0.8") == 0  # another address is not slowed
    now[0] += 3600
    assert throttle.delay("10.0.0.9") == 0  # forgiven after a quiet while


def test_links_last_across_a_restart_and_a_new_game_gets_new_ones(tmp_path):
    with LiveTable(tmp_path, Header("traps", ("Ann", "Bob"), 1)) as table:
        first = [link.rsplit("/", 1)[1] for link in table.links()]
    with LiveTable(tmp_path, None) as table:  # the daemon restarted: the same game resumed
        wait_for(table.try_links, "the links")
        assert [link.rsplit("/", 1)[1] for link in table.links()] == first
        wait_for(lambda: request(table.links()[0] + "/api")[0] == 200, "the seat page again")
    with TableStore(tmp_path / "table.db") as store:
        store.new_session(Header("traps", ("Ann", "Bob"), 2))
    with LiveTable(tmp_path, None) as table:
        wait_for(lambda: table.try_links() and table.links()[0].rsplit("/", 1)[1] != first[0],
                 "the new game's links")
        second = table.links()
        wait_for(lambda: request(second[0] + "/api")[0] == 200, "the new seat page")
        assert all(request(f"{table.url}/s/{token}/api")[0] == 403 for token in first)


def test_seats_says_what_is_missing(tmp_path):
    result = companion("seats", "--db", str(tmp_path / "none.db"))
    assert result.returncode == 2 and "no unfinished game" in result.stderr
    with TableStore(tmp_path / "t.db") as store:
        store.new_session(Header("traps", ("Ann", "Bob"), 1))
    result = companion("seats", "--db", str(tmp_path / "t.db"))
    assert result.returncode == 2 and "[web] enabled" in result.stderr
    assert "Traceback" not in result.stderr


def test_pages_and_their_headers(tmp_path):
    with LiveTable(tmp_path, Header("rumble", ("Ann", "Bob", "Cy"), 3)) as table:
        status, body = request(table.url + "/")
        assert status == 200 and b"/static/table.js" in body
        for name in ("common.js", "table.js", "seat.js", "sim.js", "style.css"):
            assert request(table.url + "/static/" + name)[0] == 200
        assert request(table.url + "/static/table.html")[0] == 404
        assert request(table.url + "/sim")[0] == 404  # the simulator page is --sim's only
        assert request(table.url + "/sim/input", {"kind": "press", "control": "menu"})[0] == 404
        import urllib.request
        with urllib.request.urlopen(table.links()[0], timeout=60) as response:
            assert response.headers["Cache-Control"] == "no-store"
            assert response.headers["Referrer-Policy"] == "no-referrer"


@pytest.mark.parametrize("text", ["8080", "host:", "a:b", "1.2.3.4:70000"])
def test_a_bad_web_address_is_refused_in_words(tmp_path, text):
    result = companion("run", "--sim", "--db", str(tmp_path / "t.db"), "--web", text)
    assert result.returncode == 2 and "--web" in result.stderr and "Traceback" not in result.stderr


def test_doctor_prints_the_url_to_open(tmp_path):
    config = tmp_path / "companion.toml"
    config.write_text("[web]\nenabled = true\nport = 8099\n")
    result = subprocess.run([sys.executable, "-m", "companion.cli", "doctor", "--config",
                             str(config)], capture_output=True, text=True, timeout=120)
    assert "web pages: open http://" in result.stdout and ":8099/" in result.stdout


def table_socket_messages(url, count):
    import asyncio

    import aiohttp

    async def read():
        async with aiohttp.ClientSession() as client, client.ws_connect(url) as ws:
            return [await next_page_state(ws) for _ in range(count)]
    return asyncio.run(read())


def test_the_tables_controls_link_works_the_dial_and_menu_only(tmp_path):
    with LiveTable(tmp_path, Header("traps", ("Ann", "Bob"), 1)) as table:
        text = companion("seats", "--db", table.db).stdout
        control = text.splitlines()[0].split()[-1]
        assert text.startswith("table controls") and "/t/" in control
        # The second line: the table page with the join codes, for a screen on the Pi.
        page = text.splitlines()[1]
        assert page.startswith("table page with the join codes") and page.endswith(
            control + "/table")
        assert request(control + "/table")[0] == 200
        assert request(control)[0] == 200
        assert request(table.url + "/t/" + "x" * 32)[0] == 403
        assert request(control + "/input", {"kind": "press", "control": "seat:0"})[0] == 403
        screen = lambda: table.web.sent["table"]["screen"]  # noqa: E731
        before = screen()
        for kind in ("press", "release"):  # a tap of the menu button: the scores page
            assert request(control + "/input", {"kind": kind, "control": "menu"})[0] == 200
        wait_for(lambda: screen() != before, "the table screen to show the scores")
        first = table_socket_messages(control.replace("http", "ws") + "/ws", 1)[0]
        assert first["kind"] == "links" and len(first["links"]) == 2
        renewed = companion("seats", "--db", table.db, "--reissue", "table").stdout.split()[-1]
        assert renewed != control
        wait_for(lambda: request(control)[0] == 403, "the old table link to stop")
        assert request(renewed)[0] == 200


def test_the_join_codes_reach_the_tables_token_only_not_a_table_page_on_any_machine(tmp_path):
    from companion.web.address import lan_address

    address = lan_address()
    with LiveTable(tmp_path, Header("traps", ("Ann", "Bob"), 1), listen="0.0.0.0") as table:
        port = table.url.rsplit(":", 1)[1]
        tokens = [link.rsplit("/", 1)[1] for link in table.links()]
        for host in {"127.0.0.1", address}:  # this machine's own browser too (a TV on HDMI)
            (public,) = table_socket_messages(f"ws://{host}:{port}/ws", 1)
            assert public["kind"] == "table"
            assert not any(token in json.dumps(public) for token in tokens)
        control = companion("seats", "--db", table.db).stdout.splitlines()[0].split()[-1]
        local = table_socket_messages(control.replace("http", "ws") + "/ws", 2)
        assert [m["kind"] for m in local] == ["links", "table"]
        status, page = request(control + "/table")  # the table page with the join codes
        assert status == 200 and b"/static/table.js" in page
