"""A seat's join code on its own 128x64 screen: a QR code a phone scans to open the seat's page.

A seat's short join link (``HTTP://HOST:PORT/J/`` and 26 upper-case base32 letters, docs/web.md)
is all QR alphanumeric characters, so it fits a version 3 symbol (29 modules) at error level L:
two pixels a module is 58 px, and the screen is lit around it for the quiet zone. A longer link
(an IPv6 address, a long host name) is drawn at one pixel a module, if it fits at all.

>>> image = join_screen("HTTP://10.0.0.5:8080/J/ABCDEFGHIJKLMNOPQRSTUVWXYZ", "Ann")
>>> image.size, image.mode
((128, 64), '1')
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PIL import Image, ImageDraw

from companion.i18n import _
from companion.screens.canvas import HEIGHT, OFF, ON, WIDTH, blank, fit_text, paragraph, written

if TYPE_CHECKING:
    import segno

#: The quiet zone kept lit around the symbol, in modules (the standard asks 4; phones and
#: OpenCV's ArUco-based QR detector read 1 well on a lit screen whose lit border goes on to the
#: screen's edges; OpenCV's classic detector misses about 1 code in 100 drawn so).
QUIET = 1


def join_symbol(url: str) -> segno.QRCode:
    """The smallest QR code of ``url`` at error level L (upper case: alphanumeric mode)."""
    # Imported when a join code is drawn: segno's writers bring urllib, http.client and
    # OpenSSL (~4 MB resident) into a daemon that may never show one.
    import segno

    return segno.make(url, error="l", boost_error=False)


def join_screen(url: str, name: str) -> Image.Image:
    """``url``'s QR code at the left, dark modules on a lit square; the seat's name and what
    to do at the right."""
    symbol = join_symbol(url)
    size = symbol.symbol_size(scale=1, border=0)[0]
    scale = 2 if (size + 2 * QUIET) * 2 <= HEIGHT else 1
    image = blank()
    pen = ImageDraw.Draw(image)
    side = size * scale
    left = top = (HEIGHT - side) // 2
    lit = left + side + max(left, QUIET * scale)  # the quiet zone: as wide on every side
    pen.rectangle((0, 0, lit - 1, HEIGHT - 1), fill=ON)
    for y, row in enumerate(symbol.matrix_iter(scale=scale, border=0)):
        for x, dark in enumerate(row):
            if dark:
                image.putpixel((left + x, top + y), OFF)
    words = lit + 2
    fit_text(pen, (words, 1, WIDTH, 16), name, largest=12)
    paragraph(pen, (words, 17, WIDTH, HEIGHT), _("Scan with your phone"), largest=11)
    written(image, HEIGHT, 0, url)  # a terminal that cannot draw the code says its link
    return image
