"""A seat's join code on its own OLED: the manual entry menu's "(join codes)" draws each seat's
short join link as a QR code on that seat's screen; OpenCV reads it off the drawn pixels, and
the link opens the seat's page (urllib and Chromium). The code is revoked with the seat's link,
new for every game, and wrong codes get 403 and are slowed down like wrong tokens."""

import re
import subprocess
import sys

import cv2
import numpy as np
import pytest
from helpers import wait_for
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import ImageDraw
from web_table import LiveTable, request

from companion.daemon.dialogues import JOIN
from companion.hardware.events import InputEvent
from companion.i18n import LANGUAGES, translator, using
from companion.screens.canvas import blank, fits, layout
from companion.screens.join import join_screen, join_symbol
from companion.table import Header
from companion.web.tokens import JOIN_LETTERS, Throttle, TokenBook

WAIT_MS = 60_000
JOIN_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
CODE = re.compile(r"HTTP://127\.0\.0\.1:\d+/J/[A-Z2-7]{26}")


def read_qr(image):
    """The text of the QR code drawn on a 128x64 screen image, scaled up as a camera sees it.

    Read as a phone's reader does, robust to the narrow quiet zone a 64-px screen leaves:
    OpenCV's ArUco-based QR detector reads every code drawn (2,000 random links tried); the
    classic detector misses about 1 in 100 of them (one port in CI made this test fail)."""
    pixels = np.array(image.convert("L").resize((image.width * 4, image.height * 4), 0))
    for detector in (cv2.QRCodeDetectorAruco(), cv2.QRCodeDetector()):
        text, _, _ = detector.detectAndDecode(pixels)
        if text:
            return text
    return ""


def open_join_codes(daemon):
    """As at the table: hold the dial's switch (enter by hand), turn to "(join codes)", press."""
    daemon.submit(InputEvent("hold", "encoder-switch:0"))
    wait_for(lambda: daemon.display.asks == "entry", "the manual entry menu")
    menu = daemon.display.menu
    target = [value for _, value in menu.choices].index(JOIN)
    daemon.submit(InputEvent("dial", "encoder:0", target - menu.cursor))
    shown = daemon.display
    wait_for(lambda: shown.menu and shown.menu.choices[shown.menu.cursor][1] is JOIN,
             "the cursor on (join codes)")
    daemon.submit(InputEvent("press", "encoder-switch:0"))
    daemon.submit(InputEvent("release", "encoder-switch:0"))


class Counting(Throttle):
    def __init__(self):
        super().__init__(free=10**9)
        self.failures_seen = 0

    def delay(self, address):
        self.failures_seen += 1
        return super().delay(address)


def test_each_seat_scans_its_own_code_off_its_own_screen(tmp_path, browser):
    header = Header("deathtrap", ("Ann", "Bob", "Cy", "Dee"), 3)
    with LiveTable(tmp_path, header) as table:
        daemon = table.daemon
        wait_for(lambda: daemon.display.join_links.session == daemon.stored_game.id
                 and daemon.display.join_links.urls, "the join links")
        open_join_codes(daemon)
        seat_screens = [daemon.screens[f"seat:{seat}"] for seat in range(4)]
        codes = wait_for(lambda: [read_qr(s.images[-1]) for s in seat_screens]
                         if all(CODE.fullmatch(read_qr(s.images[-1])) for s in seat_screens)
                         else None, "a join code on every seat's screen")
        assert len(set(codes)) == 4
        assert read_qr(daemon.screens["table"].images[-1]) == ""  # never on the public screen
        links = table.links()
        for code in codes:
            assert join_symbol(code).version <= 3  # 29 modules: two pixels each on 64
            status, body = request(code)  # urllib follows the redirect to the seat's page
            assert status == 200 and b"seat.js" in body
        phone = browser.new_page()
        phone.goto(codes[2])
        phone.wait_for_selector("#title:has-text('Cy')", timeout=WAIT_MS)
        assert phone.url == links[2]
        # The next press or turn at the table puts the game's screens back.
        daemon.submit(InputEvent("press", "menu"))
        wait_for(lambda: read_qr(seat_screens[0].images[-1]) == "", "the game screen back")


def test_a_join_code_is_revoked_with_its_link_and_wrong_ones_are_slowed(tmp_path):
    header = Header("tricky", ("Ann", "Bob", "Cy"), 2)
    throttle = Counting()
    with LiveTable(tmp_path, header, throttle=throttle) as table:
        daemon = table.daemon
        wait_for(lambda: daemon.display.join_links.session == daemon.stored_game.id
                 and daemon.display.join_links.urls, "the join links")
        old = dict(daemon.display.join_links.urls)
        assert request(old[1])[0] == 200
        result = subprocess.run([sys.executable, "-m", "companion.cli", "seats", "--db",
                                 table.db, "--reissue", "2", "--json"],
                                capture_output=True, text=True, timeout=120)
        assert result.returncode == 0, result.stderr
        wait_for(lambda: daemon.display.join_links.urls.get(1) not in (None, old[1]),
                 "seat 1's new join code")
        fresh = daemon.display.join_links.urls
        assert request(old[1])[0] == 403
        assert request(fresh[1])[0] == 200 and fresh[0] == old[0]
        base = old[1].rsplit("/", 1)[0]
        before = throttle.failures_seen
        for wrong in ("A" * JOIN_LETTERS, old[1].rsplit("/", 1)[1], "", "../s"):
            assert request(f"{base}/{wrong}")[0] in (403, 404)
        assert throttle.failures_seen - before >= 2
        start, code = fresh[1].rsplit("/", 1)
        assert request(f"{start}/{code.lower()}")[0] == 200  # a code is read in any case


def test_join_codes_are_new_for_every_game_and_long_enough():
    book = TokenBook(":memory:")
    book.serve(1, 3)
    first = dict(book.joins)
    book.serve(2, 3)
    assert set(first.values()).isdisjoint(book.joins.values())
    assert all(re.fullmatch(r"[A-Z2-7]{26}", code) for code in book.joins.values())  # 130 bits
    assert book.seat_of_join(book.joins[2]) == 2 and book.seat_of_join(first[2]) is None


def test_the_longest_ipv4_link_fits_at_two_pixels_a_module_and_reads_back():
    url = "HTTP://192.168.100.200:65535/J/" + "Z" * JOIN_LETTERS
    assert join_symbol(url).version == 3
    assert read_qr(join_screen(url, "Alexandrina")) == url


@settings(max_examples=300, deadline=None)
@given(port=st.integers(1, 65535), code=st.text(JOIN_ALPHABET, min_size=JOIN_LETTERS,
                                                max_size=JOIN_LETTERS))
def test_every_join_link_drawn_reads_back(port, code):
    """Whatever the port and the code, the drawn symbol reads back (the narrow quiet zone
    included): a seat never gets a code that cannot be scanned."""
    url = f"HTTP://192.168.1.20:{port}/J/{code}"
    assert read_qr(join_screen(url, "Dee")) == url


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_join_screens_words_fit_beside_the_code_in_every_language(lang):
    """Right of the 64-pixel lit square: the words on one page, no line wider than the box."""
    text = translator(lang).gettext("Scan with your phone")
    box = (66, 17, 128, 64)
    size, pages = layout(ImageDraw.Draw(blank()), box, text, 11, 10)
    assert len(pages) == 1 and all(fits(line, box[2] - box[0], size) for line in pages[0])
    with using(lang):
        url = "HTTP://10.0.0.5:8080/J/" + "A" * JOIN_LETTERS
        assert read_qr(join_screen(url, "Alice")) == url
