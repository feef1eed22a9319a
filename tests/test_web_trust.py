"""Another origin gets nothing from the table (docs/web.md, "The trust model").

In Chromium: a page served from another origin on this machine (127.0.0.2), and a page of a
DNS-rebinding name (``evil.example``: its page comes from the attacker's server, then the name
resolves to the table's own address, so the page's requests are same-origin for the browser),
try the table's sockets, its seat and table links (guessed, and even the real ones) and its
actions; neither gets a link, a secret or an action through. Each try is seen refused by the
table's server itself (not stopped by the browser), and the same probe run from the table's
own pages gets what they need, so the probe does reach what it says.

Without a browser: the ``Host`` and ``Origin`` checks, JSON-only actions, the security headers
on every answer, and the join codes sent only where the table's token was shown."""

from __future__ import annotations

import http.server
import json
import socket
import threading
import urllib.error
import urllib.request

import pytest
from helpers import wait_for
from web_table import LiveTable, browser_or_skip, random_game, request

from companion.daemon.items import CameraProposal, Redraw, SeatNaming
from companion.hardware.events import InputEvent
from companion.web.server import SECURITY_HEADERS

WAIT_MS = 60_000
REBOUND = "evil.example"

#: What an attacker's page runs: each socket until its first message or its close, each
#: read and each action (a simple cross-site POST, and a JSON one that needs a preflight).
PROBE = """async ({base, sockets, reads, posts}) => {
  const socket = (path) => new Promise((resolve) => {
    const seen = {open: false, messages: [], closed: null};
    let ws;
    try { ws = new WebSocket(base.replace(/^http/, "ws") + path); }
    catch (error) { seen.closed = String(error); resolve(seen); return; }
    ws.onopen = () => { seen.open = true; };
    ws.onmessage = (message) => { seen.messages.push(message.data); ws.close(); };
    ws.onclose = (closed) => { seen.closed = closed.code; resolve(seen); };
  });
  const read = async (path) => {
    try {
      const response = await fetch(base + path, {cache: "no-store"});
      return {status: response.status, text: await response.text()};
    } catch (error) { return {error: String(error)}; }
  };
  const post = async ([path, type, body, mode]) => {
    try {
      const response = await fetch(base + path, {method: "POST", mode, body,
                                                 headers: {"Content-Type": type}});
      return {type: response.type, status: response.status, text: await response.text()};
    } catch (error) { return {error: String(error)}; }
  };
  // What came back, in the order tried (never the paths: they hold the links tried).
  const out = {sockets: [], reads: [], posts: []};
  for (const path of sockets) out.sockets.push(await socket(path));
  for (const path of reads) out.reads.push(await read(path));
  for (const item of posts) out.posts.push(await post(item));
  return out;
}"""

ATTACKER_PAGE = f"""<!doctype html><html><head><meta charset="utf-8"><title>prizes</title>
<script>window.probe = {PROBE};</script></head><body><h1>You won!</h1></body></html>"""


@pytest.fixture(scope="module")
def rebinding_browser():
    """Chromium that resolves ``evil.example`` to the table's own address, as a rebound DNS
    name does once its page is loaded."""
    path, sync_playwright = browser_or_skip()
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=path, headless=True,
            args=["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update",
                  "--disable-sync", f"--host-resolver-rules=MAP {REBOUND} 127.0.0.1"])
        yield launched
        launched.close()


class Attacker:
    """Another origin on this machine: a plain web server on 127.0.0.2, serving its page."""

    def __enter__(self) -> Attacker:
        class Page(http.server.BaseHTTPRequestHandler):
            def do_GET(self):  # noqa: N802 - http.server's name
                body = ATTACKER_PAGE.encode()
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.2", 0), Page)
        self.url = f"http://127.0.0.2:{self.server.server_address[1]}/prizes.html"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()


def spy_on(table) -> list:
    """Everything the pages hand to the daemon from now on."""
    server = table.web.server
    handed, original = [], server.submit

    def submit(item):
        handed.append(item)
        original(item)

    server.submit = submit
    return handed


def table_token(table) -> str:
    return table.web.server.tokens.table


def attempts(table):
    """The paths an attacker tries: the real links (as if it had them) and guessed ones."""
    tokens = [link.rsplit("/", 1)[1] for link in table.links()]
    control = f"/t/{table_token(table)}"
    guessed = "A" * 32
    sockets = ["/ws", f"{control}/ws", f"/t/{guessed}/ws",
               *[f"/s/{token}/ws" for token in tokens], f"/s/{guessed}/ws"]
    reads = ["/api/table", f"{control}/table", f"/s/{tokens[0]}/api"]
    press = json.dumps({"kind": "press", "control": "menu"})
    hold = json.dumps({"kind": "hold", "control": "menu", "value": 1})
    act = json.dumps({"kind": "event", "event": {"type": "undo"}})
    posts = []
    for mode in ("no-cors", "cors"):
        for kind in ("text/plain", "application/json"):
            posts += [[f"{control}/input", kind, press, mode],
                      [f"{control}/input", kind, hold, mode],
                      [f"/s/{tokens[0]}/act", kind, act, mode],
                      [f"/s/{tokens[0]}/name", kind, json.dumps({"name": "Mallory"}), mode],
                      [f"/s/{tokens[0]}/language", kind, json.dumps({"lang": "fr"}), mode]]
    return tokens, {"sockets": sockets, "reads": reads, "posts": posts}


def inputs(handed) -> list:
    """What reached the daemon as an action: inputs, sightings, names."""
    return [item for item in handed if isinstance(item, InputEvent | CameraProposal | SeatNaming)]


def acted(handed) -> list:
    return [item for item in handed
            if isinstance(item, InputEvent | CameraProposal | SeatNaming | Redraw)]


@pytest.mark.parametrize("where", ["another-origin", "dns-rebinding"])
def test_another_origin_gets_no_link_no_secret_and_no_action(rebinding_browser, tmp_path,
                                                             where):
    header, events = random_game("rumble", 1, 3)
    with LiveTable(tmp_path, header) as table, Attacker() as attacker:
        port = table.url.rsplit(":", 1)[1]
        wait_for(lambda: request(table.links()[0] + "/api")[0] == 200, "the seat pages")
        for event in events[:2]:  # the game under way: the seats hold secrets
            seat = event.get("seat", 0)
            body = {"kind": "event", "event": {k: v for k, v in event.items() if k != "seat"}}
            assert request(table.links()[seat] + "/act", body)[0] == 200
        wait_for(lambda: table.stored() == 2, "two events stored")
        tokens, tries = attempts(table)
        secrets = [*tokens, table_token(table)]
        handed = spy_on(table)
        refused = table.web.server.refused
        context = rebinding_browser.new_context()
        page = context.new_page()
        if where == "another-origin":
            page.goto(attacker.url)
            base = f"http://127.0.0.1:{port}"
        else:  # the page came from the attacker's server; its name now resolves to the table
            base = f"http://{REBOUND}:{port}"
            page.route(f"{base}/prizes.html",
                       lambda route: route.continue_(url=attacker.url))
            page.goto(f"{base}/prizes.html")
            assert page.evaluate("typeof window.probe") == "function"
        got = page.evaluate("(args) => window.probe(args)", {"base": base, **tries})
        context.close()
        text = json.dumps(got)
        assert not any(secret in text for secret in secrets), where
        for n, seen in enumerate(got["sockets"]):
            assert not seen["open"] and not seen["messages"], (where, n, seen)
        for n, answer in enumerate(got["reads"]):
            assert answer.get("status", 403) >= 400, (where, n, answer)
        # Each try reached the table and was refused there, for the reason it should be (not
        # stopped by the browser: the probe sees the answers a page of the table's would).
        tried = len(tries["sockets"]) + len(tries["reads"])
        if where == "dns-rebinding":  # same-origin for the browser: the server's own refusal
            assert all(answer.get("status") == 421 for answer in got["reads"]), got
            assert refused["host"] >= tried + len(tries["posts"]) // 2, refused
        else:
            assert refused["origin"] >= tried + len(tries["posts"]) // 2, refused
        assert acted(handed) == [], where
        assert table.stored() == 2
        assert request(table.url + "/api/table")[0] == 200
        assert json.loads(request(table.url + "/api/table")[1])["seats"] == list(header.seats)
        # The table's own pages, same probe: they get what they need, links where shown.
        own = rebinding_browser.new_context(viewport={"width": 1280, "height": 900})
        board = own.new_page()
        board.goto(f"{table.url}/t/{table_token(table)}/table")
        board.wait_for_selector("#links .link", timeout=WAIT_MS)
        assert board.locator("#links .link").count() == 3
        mine = board.evaluate(PROBE, {"base": table.url, "sockets": tries["sockets"][:4],
                                      "reads": tries["reads"], "posts": []})
        public, control, guessed, seat = mine["sockets"]
        assert public["open"] and json.loads(public["messages"][0])["kind"] == "table"
        assert control["open"] and json.loads(control["messages"][0])["kind"] == "links"
        assert guessed["closed"] == 1006 and not guessed["open"]  # a guessed link: 403
        assert seat["open"] and "peek" in json.loads(seat["messages"][0])["full"]
        assert all(answer["status"] == 200 for answer in mine["reads"])
        plain = board.evaluate(PROBE, {"base": table.url, "sockets": [], "reads": [], "posts": [
            [f"/t/{table_token(table)}/input", "text/plain", tries["posts"][0][2], "cors"]]})
        assert plain["posts"][0]["status"] == 415  # even from the table's own page
        public_page = own.new_page()
        public_page.goto(table.url + "/")  # on the Pi itself, without the token: no codes
        public_page.wait_for_selector('body[data-events="2"]', state="attached",
                                      timeout=WAIT_MS)
        assert public_page.locator("#links .link").count() == 0
        assert public_page.is_hidden("#join")
        own.close()


def test_a_rebinding_host_name_is_refused_and_the_servers_own_names_are_served(tmp_path):
    header, _ = random_game("traps", 1, 2)
    with LiveTable(tmp_path, header) as table:
        port = table.url.rsplit(":", 1)[1]
        link = table.links()[0]
        for host in (f"{REBOUND}:{port}", REBOUND, f"127.0.0.1.{REBOUND}:{port}", "a b",
                     f"localhost.{REBOUND}"):
            for path in ("/", "/api/table", "/ws", link.split(port, 1)[1] + "/api"):
                status, body, _ = raw(table.url + path, {"Host": host})
                assert status in (400, 421), (host, path, status)
                assert b"Ann" not in body and b"seat" not in body.lower()
        for host in (f"127.0.0.1:{port}", f"localhost:{port}", f"[::1]:{port}",
                     f"{socket.gethostname()}:{port}", f"{socket.gethostname()}.local:{port}"):
            assert raw(link + "/api", {"Host": host})[0] == 200, host


def test_origins_and_body_types_are_checked_before_anything_is_done(tmp_path):
    header, _ = random_game("traps", 1, 2)
    with LiveTable(tmp_path, header) as table:
        handed = spy_on(table)
        link = table.links()[0]
        control = f"{table.url}/t/{table_token(table)}"
        own = table.url
        press = json.dumps({"kind": "press", "control": "menu"}).encode()
        for origin in ("http://127.0.0.2:" + own.rsplit(":", 1)[1], "null",
                       "https://evil.example", own + ".evil.example", own.replace("http", "ftp")):
            for url in (control + "/input", link + "/act"):
                assert raw(url, {"Origin": origin, "Content-Type": "application/json"},
                           press)[0] == 403, origin
            assert raw(link + "/api", {"Origin": origin})[0] == 403
        for kind in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data",
                     None):
            headers = {"Origin": own} | ({"Content-Type": kind} if kind else {})
            assert raw(control + "/input", headers, press)[0] == 415, kind
        # (A redraw the daemon asks for itself, once it serves the session's pages, may come
        # at any time: what counts is that no input, sighting or name got in.)
        assert inputs(handed) == []
        json_type = {"Content-Type": "application/json; charset=utf-8"}
        assert raw(control + "/input", {"Origin": own} | json_type, press)[0] == 200
        assert raw(control + "/input", json_type, press)[0] == 200  # no browser: no Origin
        assert len(inputs(handed)) == 2


def test_every_answer_carries_the_security_headers(tmp_path):
    header, _ = random_game("tricky", 2, 3)
    with LiveTable(tmp_path, header) as table:
        link = table.links()[0]
        control = f"{table.url}/t/{table_token(table)}"
        answers = [raw(table.url + path) for path in
                   ("/", "/api/table", "/static/table.js", "/i18n/fr.json", "/nowhere", "/ws",
                    "/sim", "/s/" + "A" * 32, "/J/" + "A" * 26)]
        answers += [raw(link), raw(link + "/api"), raw(control), raw(control + "/table"),
                    raw(link + "/act", {"Content-Type": "text/plain"}, b"{}"),
                    raw(link + "/act", {"Content-Type": "application/json"}, b"[" * 100),
                    raw(table.url + "/api/table", {"Host": REBOUND}),
                    raw(table.url + "/api/table", {"Origin": "http://127.0.0.2"})]
        assert {status for status, _, _ in answers} >= {200, 400, 403, 404, 415, 421}
        for status, _, headers in answers:
            for name, value in SECURITY_HEADERS.items():
                assert headers.get(name) == value, (status, name)
        csp = SECURITY_HEADERS["Content-Security-Policy"]
        assert "frame-ancestors 'none'" in csp and SECURITY_HEADERS["X-Frame-Options"] == "DENY"
        assert SECURITY_HEADERS["Referrer-Policy"] == "no-referrer"
        assert SECURITY_HEADERS["X-Content-Type-Options"] == "nosniff"


def raw(url: str, headers: dict[str, str] | None = None, body: bytes | None = None):
    """An answer's status, body and headers for a request with exactly these headers."""
    req = urllib.request.Request(url, data=body, headers=headers or {},
                                 method="POST" if body is not None else "GET")
    try:
        with urllib.request.urlopen(req, timeout=60) as response:
            return response.status, response.read(), response.headers
    except urllib.error.HTTPError as error:
        return error.code, error.read(), error.headers
